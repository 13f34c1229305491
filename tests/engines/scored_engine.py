"""A scripted engine for adjudication tests: random legal moves, scores from a script.

Usage (from the repository root)::

    python tests/engines/scored_engine.py --score 0:500,500 --score 6:950,50 [--seed S]

``--score K:SHARES`` (repeatable): from the turn at which K moves have been played
on, every search reports ``info depth 1 nodes N score SHARES pv MOVE``; ``SHARES``
may be ``none`` (no score item) or ``winP`` (``score win P``). Before the first K
given, no score is reported. ``--limits-illegal``: a ``go`` with a node or depth limit
is answered with the move ``zz99`` (a liar about its features). Moves come from the
referee's own rules, drawn with a generator seeded by ``--seed``, the game seed and the
ply. It declares
``feature nodes depth`` (one ply honours any limit).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from referee.registry import make_game


def parse_script(items: list[str]) -> list[tuple[int, str]]:
    script = []
    for item in items:
        plies, _, shares = item.partition(":")
        script.append((int(plies), shares))
    return sorted(script)


def score_item(script: list[tuple[int, str]], played: int) -> str:
    current = ""
    for plies, shares in script:
        if played >= plies:
            current = shares
    if not current or current == "none":
        return ""
    if current.startswith("win"):
        return f" score win {current[3:]}"
    return f" score {current}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--score", action="append", default=[])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--limits-illegal",
        action="store_true",
        help="answer a go with a node or depth limit with an illegal move (a liar)",
    )
    args = parser.parse_args()
    script = parse_script(args.score)
    game, players, game_seed, state = None, 0, 0, None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        out: list[str] = []
        if cmd == "rgp":
            out = ["id name scored", "feature nodes depth", "rgpok"]
        elif cmd == "newgame":
            fields = dict(zip(words[1::2], words[2::2], strict=False))
            options = dict(
                item.split("=", 1) for item in fields.get("options", "").split(",") if item
            )
            game = make_game(fields["game"], options)
            players, game_seed = int(fields["players"]), int(fields["seed"])
            out = ["ok"]
        elif cmd == "position" and game is not None:
            state = game.initial_state(players)
            for text in words[3:] if len(words) > 2 and words[2] == "moves" else []:
                state = state.play(game.parse_move(state, text))
        elif cmd == "go" and game is not None and state is not None:
            legal = sorted(game.format_move(state, m) for m in state.legal_moves())
            rng = random.Random(f"{args.seed}/{game_seed}/{state.ply}")
            move = rng.choice(legal)
            if args.limits_illegal and ("nodes" in words or "depth" in words):
                move = "zz99"
            score = score_item(script, state.ply)
            out = [f"info depth 1 nodes {len(legal)}{score} pv {move}", f"move {move}"]
        elif cmd == "ping":
            out = [f"pong {words[1]}"]
        elif cmd == "quit":
            return 0
        for text in out:
            print(text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
