"""The cost of the bubblewrap sandbox for one engine: start (spawn and handshake) and stop.

    python benchmarks/sandbox.py [--engine trike-c] [--runs 31]

Starts the engine ``--runs`` times in each way, interleaved (plain, sandboxed with the
Python warden, with the compiled warden, started ahead, plain, ...) so that all see the
same machine, and prints for each the median, lower and upper quartile of the start and
the stop in milliseconds, and the CPU a start and stop cost (the referee's own and its
children's, bubblewrap and the warden included), in milliseconds per engine:

* ``plain``: a plain process;
* ``python``: in the sandbox, with the Python warden (``REFEREE_WARDEN=python``);
* ``compiled``: in the sandbox, with the compiled warden (when it can be built);
* ``ahead``: in a sandbox started ahead (``EngineSession.open``'s ``hold``; the compiled
  warden where it can be built), from the go to the end of the handshake: what a game
  waits for when its sandbox was set up during the game before (the setup's CPU is
  counted, its time is not; the CPU of an idle wait as long as the setup's, measured
  beside it, is taken off).

Whole-command figures (``referee play`` with and without ``--sandbox bwrap``) are in
``README.md``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Callable

import trio

from protocol.sandbox import SandboxSettings, compiled
from protocol.sandbox.host import probe
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tournaments.event.engines import resolve_engine

SETUP_SECONDS = 0.3
"""How long a sandbox started ahead is given to set itself up before its go."""
WAYS = ("plain", "python", "compiled", "ahead")


def cpu_seconds() -> float:
    """CPU used so far by this process and its reaped children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


async def once(spec: EngineSpec) -> tuple[float, float]:
    """Seconds to start (until the handshake is done) and to stop one engine."""
    started = time.perf_counter()
    async with EngineSession.open(spec):
        ready = time.perf_counter()
    return ready - started, time.perf_counter() - ready


async def once_ahead(spec: EngineSpec) -> tuple[float, float]:
    """``once`` for a sandbox started ahead: the start is timed from its go."""
    go, ready = trio.Event(), trio.Event()
    times: dict[str, float] = {}

    async def run() -> None:
        async with EngineSession.open(spec, hold=go):
            times["ready"] = time.perf_counter()
            ready.set()
        times["stopped"] = time.perf_counter()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run)
        await trio.sleep(SETUP_SECONDS)
        started = time.perf_counter()
        go.set()
        await ready.wait()
    return times["ready"] - started, times["stopped"] - times["ready"]


def quartiles(values: list[float]) -> str:
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return f"{q2 * 1000:6.1f} ms ({q1 * 1000:.1f}-{q3 * 1000:.1f})"


def warden_choice(way: str) -> Callable[[], None]:
    """Set the warden that ``way`` asks for (the environment is read at each start)."""

    def choose() -> None:
        if way == "python":
            os.environ[compiled.CHOICE_VARIABLE] = "python"
        else:
            os.environ.pop(compiled.CHOICE_VARIABLE, None)

    return choose


async def main(engine: str, runs: int) -> None:
    argv = resolve_engine(engine).argv
    probe()
    ways = [w for w in WAYS if w != "compiled" or compiled.path() is not None]
    times: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
    cpu: dict[str, float] = dict.fromkeys(ways, 0.0)
    for _ in range(runs):
        before = cpu_seconds()
        await trio.sleep(SETUP_SECONDS)  # what the run's own ticks cost while it waits
        cpu["ahead"] -= cpu_seconds() - before
        for way in ways:
            warden_choice(way)()
            spec = EngineSpec(
                name="bench", argv=argv, sandbox=None if way == "plain" else SandboxSettings()
            )
            before = cpu_seconds()
            times[way].append(await (once_ahead(spec) if way == "ahead" else once(spec)))
            cpu[way] += cpu_seconds() - before
    warden_choice("compiled")()
    for way in ways:
        starts = [start for start, _ in times[way]]
        stops = [stop for _, stop in times[way]]
        print(
            f"{engine:8} {way:8} start {quartiles(starts)}  stop {quartiles(stops)}"
            f"  CPU {cpu[way] / runs * 1000:5.1f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="trike-c", help="built-in name or command")
    parser.add_argument("--runs", type=int, default=31, help="starts of each kind")
    args = parser.parse_args()
    trio.run(main, args.engine, args.runs)
