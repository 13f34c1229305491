"""Tricolor position decoding: ``python benchmarks/tricolor_decode.py [--sizes 1,2,4,8]
[--positions 200] [--seconds 0.5] [--rounds 3]``.

For each board side and both values of ``rim-crowns``, plays seeded random games (2, 3
and 4 seats in turn) and keeps ``--positions`` position tokens drawn from all their
plies, then times ``Tricolor.decode`` over those tokens in this process
(``time.perf_counter``): each round decodes the tokens in turn until ``--seconds`` have
passed (at least one decode), and the line gives the median of the rounds' µs per
decode. Every decoded state is checked against the state its token came from, so a
figure is never that of a wrong answer.

The position token, its parse and its checks (the colour cycle, whose turn, the scores
against the stars, hexagons and empty triangles on the board) are those of
``referee/games/tricolor/rules.py`` and ``notation.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from referee.games.tricolor import Tricolor, TricolorState


def sample(game: Tricolor, count: int, seed: int) -> list[tuple[str, TricolorState]]:
    """``count`` tokens (with their states) drawn from seeded random games of ``game``."""
    rng = random.Random(seed)
    n = game.n
    per_game = max(10, count // 2)  # few games on the biggest boards, whose games are long
    chance = min(1.0, per_game / (2 * n * n + 1))  # a game has up to 3n² placements
    found: list[tuple[str, TricolorState]] = []
    seats = 2
    while len(found) < count:
        state = game.initial_state(seats)
        seats = 2 + (seats - 1) % 3
        while len(found) < count:
            if rng.random() < chance or state.to_move is None:
                found.append((game.encode(state), state))
            if state.to_move is None:
                break
            state = state.play(rng.choice(state.legal_moves()))
    return found


def time_decodes(game: Tricolor, tokens: list[tuple[str, TricolorState]], seconds: float) -> float:
    """Seconds per decode, decoding ``tokens`` in turn for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    while done == 0 or elapsed < seconds:
        text, state = tokens[done % len(tokens)]
        if game.decode(text) != state:
            raise AssertionError(f"decode gave another state for {text!r}")
        done += 1
        elapsed = time.perf_counter() - start
    return elapsed / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,3,4,6,8,16,32,64")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'n':>3} {'rim-crowns':>10} {'positions':>9} {'µs per decode':>14}")
    for n in (int(word) for word in args.sizes.split(",")):
        for rim in ("yes", "no"):
            game = Tricolor({"n": str(n), "rim-crowns": rim})
            tokens = sample(game, args.positions, seed=n)
            rounds = [time_decodes(game, tokens, args.seconds) for _ in range(args.rounds)]
            print(f"{n:>3} {rim:>10} {len(tokens):>9} {statistics.median(rounds) * 1e6:>14.1f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
