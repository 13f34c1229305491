"""The cost of the live view to the event, with a real `trike-c` tournament.

    python benchmarks/live_bench.py --games 600 --viewers 100 --pairs 3

Variants, run in turn within each pair (interleaved, so a drift of the shared machine
hits all alike): ``off`` (no view), ``on`` (games in play published in ``live/``; no
server), ``serve`` (the same with a ``referee serve`` process on the directory) and
``serve+N`` (and N viewers on its event stream). For each: the runner's CPU per ply
(``RunResult.cpu_runner``: the figure the issue bounds at +5 %), plies per second of the
games (``RunResult.wall``), and the server process's CPU seconds over the run.
"""

from __future__ import annotations

import argparse
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.event.config import parse_config  # noqa: E402
from tournaments.event.plan import Plan  # noqa: E402
from tournaments.runner.run import RunResult, run_tournament  # noqa: E402

URL = re.compile(rb"live view of .* at http://127\.0\.0\.1:(\d+)/")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime, clock ticks


def run(
    out: Path, games: int, live: bool, server: bool, viewers: int
) -> tuple[float, float, float]:
    """(runner µs of CPU per ply, plies/s, server CPU seconds) of one tournament."""
    config = {
        "game": "trike",
        "entrants": [{"name": "a", "command": "trike-c"}, {"name": "b", "command": "trike-c"}],
        "games": games,
        "tc": "10+0.1",
    }
    plan = Plan.from_config(parse_config(config, "bench"), "bench")
    out.mkdir(parents=True)
    proc = None
    threads: list[threading.Thread] = []
    if server:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tournaments", "serve", str(out), "--port", "0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
        )
        assert proc.stdout is not None
        found = URL.search(proc.stdout.readline())
        assert found is not None
        port = int(found.group(1))

        def viewer() -> None:
            with socket.create_connection(("127.0.0.1", port), timeout=300) as s:
                s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                while s.recv(65536):
                    pass

        threads = [threading.Thread(target=viewer) for _ in range(viewers)]
        for thread in threads:
            thread.start()
    try:
        result: RunResult = trio.run(lambda: run_tournament(plan, out, workers=0, live=live))
        server_cpu = _cpu_seconds(proc.pid) if proc is not None else 0.0
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        for thread in threads:
            thread.join()
    plies = sum(report.plies for report in result.played)
    return result.cpu_runner / plies * 1e6, plies / result.wall, server_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    variants = {
        "off": (False, False, 0),
        "on": (True, False, 0),
        "serve": (True, True, 0),
        f"serve+{args.viewers}": (True, True, args.viewers),
    }
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as scratch:
        for i in range(args.pairs):
            for name, (live, server, viewers) in variants.items():
                out = Path(scratch) / f"{name}-{i}"
                figures[name].append(run(out, args.games, live, server, viewers))
                cpu, rate, served = figures[name][-1]
                print(
                    f"pair {i + 1} {name}: runner {cpu:.1f} µs CPU/ply, {rate:,.0f} plies/s, "
                    f"server {served:.2f} s CPU",
                    flush=True,
                )
    base = figures["off"]
    for name, values in figures.items():
        cpu_ratio = [v[0] / b[0] for v, b in zip(values, base, strict=True)]
        rate_ratio = [v[1] / b[1] for v, b in zip(values, base, strict=True)]
        print(
            f"{name:>10}: runner CPU/ply x{statistics.median(cpu_ratio):.3f} "
            f"({min(cpu_ratio):.3f}-{max(cpu_ratio):.3f}), plies/s "
            f"x{statistics.median(rate_ratio):.3f} ({min(rate_ratio):.3f}-{max(rate_ratio):.3f}), "
            f"median {statistics.median(v[1] for v in values):,.0f} plies/s"
        )


if __name__ == "__main__":
    main()
