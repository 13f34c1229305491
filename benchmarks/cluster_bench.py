"""Games per second through a Dask cluster beside the local runner (run by hand).

    python benchmarks/cluster_bench.py [--games N] [--batch B] [--workers 1,2]

A 2-entrant Trike tournament of the instant C engine (``trike-c``) against itself,
through ``run_tournament``: locally in one event loop (concurrency 1) and in two
worker processes (concurrency 2), then on a loopback cluster
(``tournaments.cluster.local``: a scheduler and K one-thread workers as processes) for
each K of ``--workers``. Games/s and plies/s are over the run's wall time from the
slots (or the cluster connection and preflight) being ready to the last game; the
start-up is printed apart, and the CPU time of the runner's process per game (with
one loop, the games' referee work; otherwise journal, records, tables and, on a
cluster, the Dask client): 1e6 over it is the most games/s this process can take in.
Figures, not assertions: the machine may be shared.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from tournaments.cluster.local import loopback_cluster
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.runner.run import RunResult, run_tournament

ENGINE = "trike-c"


def make_plan(games: int, concurrency: int, workers: int | None, cluster: dict[str, Any]) -> Plan:
    """The benchmark tournament (``cluster`` is the ``[cluster]`` section)."""
    config = parse_config(
        {
            "event": "cluster bench",
            "game": "trike",
            "games": games,
            "tc": "60+1",
            "concurrency": concurrency,
            "workers": workers,
            "transcripts": "none",
            "entrants": [{"command": ENGINE}, {"command": ENGINE}],
            "cluster": cluster,
        },
        "bench",
    )
    return Plan.from_config(config, "bench")


def run(plan: Plan, directory: Path) -> tuple[RunResult, float]:
    """The run's result and its whole wall time (start-up included)."""
    started = time.perf_counter()
    result = trio.run(lambda: run_tournament(plan, directory))
    return result, time.perf_counter() - started


def line(label: str, result: RunResult, total: float) -> str:
    games = len(result.played)
    plies = sum(r.plies for r in result.played)
    wall = result.wall or float("nan")
    runner = 1e6 * result.cpu_runner / games if games else 0.0
    return (
        f"{label:<42} {games:>5} games {plies:>7} plies {games / wall:7.1f} games/s "
        f"{plies / wall:7,.0f} plies/s; start-up {result.startup:5.2f}s; whole run "
        f"{games / total:6.1f} games/s; runner CPU {runner:5.0f} us/game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per run (default 1000)")
    parser.add_argument("--batch", type=int, default=32, help="games per Dask task (default 32)")
    parser.add_argument("--workers", default="1,2", help="cluster sizes to run (default 1,2)")
    args = parser.parse_args()
    sizes = [int(k) for k in args.workers.split(",") if k.strip()]
    print(f"trike {ENGINE} x2, tc 60+1, {args.games} games per run, batch {args.batch}")
    with tempfile.TemporaryDirectory(prefix="referee-cluster-bench-") as tmp:
        root = Path(tmp)
        for concurrency, workers in ((1, 0), (2, 2)):
            plan = make_plan(args.games, concurrency, workers, {})
            where = "one loop" if not workers else f"{workers} worker processes"
            result, total = run(plan, root / f"local-{concurrency}")
            print(line(f"local, concurrency {concurrency} ({where})", result, total))
        for size in sizes:
            with loopback_cluster(root / f"dask-{size}", workers=size) as cluster:
                settings = {"address": cluster.address, "batch": args.batch}
                plan = make_plan(args.games, 1, None, settings)
                result, total = run(plan, root / f"cluster-{size}")
            print(
                line(f"cluster, {size} worker{'s' if size > 1 else ''} x 1 thread", result, total)
            )


if __name__ == "__main__":
    main()
