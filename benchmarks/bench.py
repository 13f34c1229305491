"""Run the referee benchmarks: ``python benchmarks/bench.py [GAMES]``."""

from __future__ import annotations

import sys

from tournaments.bench.throughput import run_benchmarks


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for line in run_benchmarks(games=games, engine="trike-c", rules_plies=200_000):
        print(line)


if __name__ == "__main__":
    main()
