"""Write a big ``.tgn`` record file for the ``adjudicate`` benchmark, run by hand:

    python benchmarks/make_records.py /tmp/games-86m.tgn --size 86M
    python benchmarks/make_records.py /tmp/games-1g.tgn --size 1G
    python benchmarks/make_records.py /tmp/mixed.tgn --size 2M --broken-every 100

A pool of ``--pool`` distinct games of ``--game`` is played with uniformly random
legal moves (seeded), each recorded as the referee records a tournament game (its
tags, a ``{used remaining}`` timing comment after every move). The file is those
games repeated in turn, each copy with its own ``Round`` tag, until it reaches
``--size`` bytes; so adjudicating it costs what adjudicating that many real games
costs, without playing them all. ``--broken-every N`` damages every Nth game (a
movetext with an unterminated comment), for runs with ``invalid-record`` verdicts.

Never commit the output: write it under /tmp.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.record import build_record, format_record, timing_comment
from referee.record.model import GameRecord, MoveEntry
from referee.registry import make_game

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text: str) -> int:
    """``86M`` → 90177536; units K, M, G are binary (a plain number is bytes)."""
    unit = text[-1:].upper() if text[-1:].isalpha() else ""
    if unit not in _UNITS:
        raise argparse.ArgumentTypeError(f"bad size {text!r}: a number with K, M or G")
    number = text[: len(text) - len(unit)]
    try:
        return int(float(number) * _UNITS[unit])
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad size {text!r}") from None


def random_game(game_id: str, rng: random.Random) -> GameRecord:
    """One game of ``game_id`` (default options, its smallest player count) played at random."""
    game = make_game(game_id)
    players = game.player_counts[0]
    state = game.initial_state(players)
    clocks = [60.0] * players
    moves: list[MoveEntry] = []
    while state.to_move is not None and len(moves) < 2000:
        seat = state.to_move
        move = rng.choice(state.legal_moves())
        used = rng.uniform(0.0, 0.5)
        clocks[seat] += 0.1 - used
        moves.append(MoveEntry(game.format_move(state, move), timing_comment(used, clocks[seat])))
        state = state.play(move)
    names = [f"player-{n} 1.0" for n in range(1, players + 1)]
    return build_record(game, names, moves, state.outcome(), {"Event": "bench"})


def main(argv: list[str] | None = None) -> int:
    """Write the file; print its size and game count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size", type=parse_size, default=parse_size("86M"))
    parser.add_argument("--game", default="trike")
    parser.add_argument("--pool", type=int, default=200, help="distinct games played")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--broken-every", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    pool = [format_record(random_game(args.game, rng)) for _ in range(args.pool)]
    written = games = 0
    with args.out.open("w", encoding="utf-8", newline="\n") as out:
        while written < args.size:
            text = pool[games % len(pool)]
            games += 1
            text = text.replace('[Event "bench"]', f'[Event "bench"]\n[Round "{games}"]', 1)
            if args.broken_every and games % args.broken_every == 0:
                text = text.replace("} ", "  ", 1).replace("{", "{broken ", 1)
            out.write(text)
            written += len(text)
    seconds = time.perf_counter() - started
    print(f"{args.out}: {written:,} bytes, {games:,} games ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
