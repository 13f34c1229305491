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
  beside it, is taken off);
* ``kept``: as a game of a kept sandbox (``protocol.keeper``), set up once before the
  first run and ended after the last: what a player's games cost (its set-up and
  end, and the CPU of everything that ran in it, are shared out over the runs).

Whole-command figures (``referee play`` with and without ``--sandbox bwrap``) are in
``README.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import time
from collections.abc import Callable

import trio

from protocol.keeper import Keeper
from protocol.keeper import available as keeper_available
from protocol.sandbox import SandboxSettings, compiled
from protocol.sandbox.host import probe
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from tournaments.event.engines import resolve_engine

SETUP_SECONDS = 0.3
"""How long a sandbox started ahead is given to set itself up before its go."""
WAYS = ("plain", "python", "compiled", "ahead", "kept")


def cpu_seconds() -> float:
    """CPU used so far by this process and its reaped children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


async def once(spec: EngineSpec, keeper: Keeper | None = None) -> tuple[float, float]:
    """Seconds to start (until the handshake is done) and to stop one engine (as a game
    of ``keeper``, if given)."""
    started = time.perf_counter()
    async with EngineSession.open(spec, keeper=keeper):
        ready = time.perf_counter()
    return ready - started, time.perf_counter() - ready


def own_cpu_seconds() -> float:
    """CPU used so far by this process alone."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


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
    boxed = EngineSpec(name="bench", argv=argv, sandbox=SandboxSettings())
    ways = [w for w in WAYS if w not in ("compiled", "kept") or compiled.path() is not None]
    if "kept" in ways and not keeper_available(boxed):
        ways.remove("kept")
    times: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
    cpu: dict[str, float] = dict.fromkeys(ways, 0.0)
    async with contextlib.AsyncExitStack() as stack:
        keeper = None
        if "kept" in ways:
            before = cpu_seconds()
            keeper = await stack.enter_async_context(Keeper.open(boxed, Transcript(origin=0)))
            cpu["kept"] += cpu_seconds() - before
        for _ in range(runs):
            before = cpu_seconds()
            await trio.sleep(SETUP_SECONDS)  # what the run's own ticks cost while it waits
            cpu["ahead"] -= cpu_seconds() - before
            for way in ways:
                warden_choice(way)()
                spec = EngineSpec(name="bench", argv=argv) if way == "plain" else boxed
                if way == "kept":
                    assert keeper is not None
                    before = own_cpu_seconds()  # its games are not our children
                    times[way].append(await once(spec, keeper))
                    cpu[way] += own_cpu_seconds() - before
                    continue
                before = cpu_seconds()
                times[way].append(await (once_ahead(spec) if way == "ahead" else once(spec)))
                cpu[way] += cpu_seconds() - before
        before = cpu_seconds()
    if "kept" in ways:  # the kept sandbox's whole tree, reaped as it ended
        cpu["kept"] += cpu_seconds() - before
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
