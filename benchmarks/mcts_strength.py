"""mcts against greedy in every game and seat count: ``python benchmarks/mcts_strength.py``.

For each game and seat count it runs a ``referee tournament`` (a child process, the
console entry) of ``mcts`` against ``players - 1`` greedy bots (different seeds), seats
rotated so that mcts sits in every seat equally often, and prints mcts's score: its
placement points per game (1 first, 0 last; ½ for second of three), the standings'
``Score``, where an engine as strong as the greedy bots scores 50 %. Also the losses on
time of each side, and mcts's score in the games that no greedy bot lost on time (the
greedy bot does not manage its clock: in Whistling Captures its two-ply search can take
seconds). Options: ``--tc`` (default 5+0.05), ``--games`` per case (rounded up to a multiple
of the seat count), ``--concurrency`` (default 2), ``--only GAME[/N]``, ``--out DIR``
(the events, kept for ``referee report`` and ``adjudicate``), ``--nodes N``, and
``--mcts-args ARGS`` for the engine (``--mcts-args=--material-only``: without its
positional term, the Triablo baseline of benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = (
    ("trike", 2),
    ("tricouleur", 2),
    ("whistling-captures", 2),
    ("trichess", 3),
    ("tricolor", 2),
    ("tricolor", 3),
    ("tricolor", 4),
    ("triablo", 2),
    ("triablo", 3),
)


def config(
    game: str,
    players: int,
    games: int,
    tc: str,
    concurrency: int,
    seed: int,
    nodes: int | None,
    mcts_args: str = "",
) -> str:
    """The event: mcts and ``players - 1`` greedy bots, one table, seats rotated."""
    greedy = "".join(
        f'\n[[entrants]]\nname = "greedy-{s}"\ncommand = "greedy --seed {s}"\n'
        for s in range(1, players)
    )
    return f"""event = "mcts against greedy: {game} {players}p"
game = "{game}"
players = {players}
format = "round-robin"
seat_order = "cyclic"
games = {games}
tc = "{tc}"
concurrency = {concurrency}
seed = {seed}

[[entrants]]
name = "mcts"
command = "{" ".join(("mcts", *mcts_args.split()))}"
{f"nodes = {nodes}" if nodes else ""}
{greedy}"""


def run_case(
    game: str,
    players: int,
    games: int,
    tc: str,
    concurrency: int,
    out: Path,
    nodes: int | None,
    mcts_args: str = "",
) -> dict[str, float]:
    """Run one event; mcts's score, losses on time and the event's wall time."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "event.toml"
    path.write_text(config(game, players, games, tc, concurrency, 11, nodes, mcts_args))
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "tournaments", "tournament", str(path), "--out", str(out / "event")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{game} {players}p: {done.stderr.strip() or done.stdout[-500:]}")
    results = json.loads((out / "event" / "results.json").read_text())
    row = next(r for r in results["standings"] if r["name"] == "mcts")
    greedy_timeouts = sum(
        r["forfeits"].get("timeout", 0) for r in results["standings"] if r["name"] != "mcts"
    )
    # mcts's placement points in the games no greedy bot lost on time.
    board = []
    for line in (out / "event" / "journal.jsonl").read_text().splitlines():
        entry = json.loads(line)
        outcome = entry.get("outcome")
        if entry.get("type") != "game" or not outcome or not outcome["ranks"]:
            continue
        culprit = outcome["culprit"]
        if outcome["termination"] == "timeout" and entry["seats"][culprit] != "mcts":
            continue
        ranks = outcome["ranks"]
        seat = entry["seats"].index("mcts")
        board.append(placement_points(ranks)[seat])
    return {
        "games": float(row["games"]),
        "score": float(row["score"]),
        "wins": float(row["wins"]),
        "draws": float(row["draws"]),
        "losses": float(row["losses"]),
        "timeouts": float(row["forfeits"].get("timeout", 0)),
        "greedy_timeouts": float(greedy_timeouts),
        "board_games": float(len(board)),
        "board_score": sum(board) / len(board) if board else 0.0,
        "seconds": time.monotonic() - started,
    }


def placement_points(ranks: list[int]) -> list[float]:
    """Place ``p`` of ``n`` is worth ``(n - p) / (n - 1)``, ties sharing (the standings')."""
    n = len(ranks)
    points = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        points.append(sum((n - p) / (n - 1) for p in range(rank, rank + tied)) / tied)
    return points


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tc", default="5+0.05")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--only", action="append", default=[], metavar="GAME[/N]")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--nodes", type=int, default=None, help="a node limit for mcts (load-independent)"
    )
    parser.add_argument(
        "--mcts-args",
        default="",
        metavar="ARGS",
        help="options for the mcts engine, e.g. '--material-only' (bots/mcts/brain.py)",
    )
    args = parser.parse_args(argv)
    if any(c in args.mcts_args for c in '"\\'):
        parser.error("--mcts-args: no quotes or backslashes")
    out = args.out or Path(tempfile.mkdtemp(prefix="mcts-strength-"))
    limit = f", mcts at {args.nodes} nodes per move" if args.nodes else ""
    limit += f", mcts {args.mcts_args}" if args.mcts_args else ""
    print(f"events in {out}; tc {args.tc}, concurrency {args.concurrency}{limit}")
    print(
        "| game | seats | games | mcts score | W-D-L (sole first / between / sole last) "
        "| mcts lost on time | greedy lost on time | score in the other games | wall |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game, players in CASES:
        if args.only and not any(o in (game, f"{game}/{players}") for o in args.only):
            continue
        games = players * math.ceil(args.games / players)
        where = out / f"{game}-{players}p"
        r = run_case(
            game, players, games, args.tc, args.concurrency, where, args.nodes, args.mcts_args
        )
        print(
            f"| {game} | {players} | {r['games']:.0f} | {100 * r['score']:.1f} % "
            f"| {r['wins']:.0f}-{r['draws']:.0f}-{r['losses']:.0f} | {r['timeouts']:.0f} "
            f"| {r['greedy_timeouts']:.0f} | {100 * r['board_score']:.1f} % "
            f"({r['board_games']:.0f}) | {r['seconds']:.0f} s |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
