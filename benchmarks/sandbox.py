"""The cost of the bubblewrap sandbox for one engine: start (spawn and handshake) and stop.

    python benchmarks/sandbox.py [--engine trike-c] [--runs 31]

Starts the engine ``--runs`` times as a plain process and as many times in the sandbox,
interleaved (plain, sandboxed, plain, ...) so that both see the same machine, and prints
the median, the lower and the upper quartile of each, in milliseconds. Whole-command
figures (``referee play`` with and without ``--sandbox bwrap``) are in ``README.md``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import trio

from protocol.sandbox import SandboxSettings
from protocol.sandbox.host import probe
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tournaments.event.engines import resolve_engine


async def once(spec_args: tuple[str, ...], boxed: bool) -> tuple[float, float]:
    """Seconds to start (until the handshake is done) and to stop one engine."""
    spec = EngineSpec(name="bench", argv=spec_args, sandbox=SandboxSettings() if boxed else None)
    started = time.perf_counter()
    async with EngineSession.open(spec):
        ready = time.perf_counter()
    return ready - started, time.perf_counter() - ready


def quartiles(values: list[float]) -> str:
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return f"median {q2 * 1000:6.1f} ms  (quartiles {q1 * 1000:.1f}-{q3 * 1000:.1f})"


async def main(engine: str, runs: int) -> None:
    argv = resolve_engine(engine).argv
    probe()
    times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(runs):
        for boxed in (False, True):
            times[boxed].append(await once(argv, boxed))
    for boxed, label in ((False, "plain"), (True, "sandbox")):
        starts = [start for start, _ in times[boxed]]
        stops = [stop for _, stop in times[boxed]]
        print(f"{engine:8} {label:8} start {quartiles(starts)}   stop {quartiles(stops)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="trike-c", help="built-in name or command")
    parser.add_argument("--runs", type=int, default=31, help="starts of each kind")
    args = parser.parse_args()
    trio.run(main, args.engine, args.runs)
