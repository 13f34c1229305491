"""Never blame an engine for the runner's fault (``referee.match``, ``protocol.lag``).

Eight games of instant engines (real processes) at 1+0.01 run in one trio loop while
the runner itself is overloaded. The engines answer in milliseconds, so every time
loss would be the runner's doing: none may be blamed on an engine. A game the
referee's stalls pushed over the clock is void (to be played again), with the
referee's lateness in its reason and in the transcript.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import trio

from protocol.lag import lag_monitor
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import GameResult, play_game
from referee.players import EnginePlayer
from referee.registry import make_game
from referee.results import RUNNER_LATE
from tests.conftest import bot_argv

pytestmark = pytest.mark.processes  # real matches beside CPU hogs and stalls

CONCURRENCY = 8
TC = "1+0.01"
MARGIN = 0.05
HOGS = 8
"""CPU hogs pinned to the runner's core (it gets a ninth of it)."""


def engine(name: str, seed: int, wrap: tuple[str, ...] = ()) -> EngineSpec:
    return EngineSpec(name=name, argv=(*wrap, *bot_argv("random", "--seed", str(seed))))


async def play_games(
    wrap: tuple[str, ...] = (), size: int = 9
) -> tuple[list[GameResult], list[Transcript]]:
    """``CONCURRENCY`` games of random bots at ``TC`` on Trike of ``size``, all at once."""
    game = make_game("trike", {"size": str(size)})
    tc = TimeControl.parse(TC, margin=MARGIN)
    results: list[GameResult] = []
    transcripts: list[Transcript] = []

    async def one(n: int) -> None:
        async with (
            EnginePlayer.open(engine("a", n, wrap), on_transcript=transcripts.append) as a,
            EnginePlayer.open(engine("b", n + 100, wrap), on_transcript=transcripts.append) as b,
        ):
            results.append(await play_game(game, [a, b], tc, seed=n))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for n in range(CONCURRENCY):
                nursery.start_soon(one, n)
    return results, transcripts


def check_nobody_blamed(results: list[GameResult], transcripts: list[Transcript]) -> int:
    """Assert no time loss is blamed on an engine; return the runner-caused voids."""
    timeouts = [r.outcome.reason for r in results if r.outcome.termination is Termination.TIMEOUT]
    assert timeouts == []
    voids = [r for r in results if r.void]
    assert all(r.runner_fault and r.outcome.culprit is None for r in voids)
    assert all(r.outcome.reason.startswith(RUNNER_LATE) for r in voids)
    if voids:
        notes = "\n".join(line for t in transcripts for line in t.lines())
        assert "referee late: its event loop stalled" in notes
    return len(voids)


async def test_a_runner_stalling_its_own_loop_blames_no_engine() -> None:
    """A CPU hog inside the runner's loop: 450 ms of busy work every 20 ms."""
    lag_monitor()
    stop = trio.Event()

    async def hog() -> None:
        while not stop.is_set():
            end = time.perf_counter() + 0.45
            while time.perf_counter() < end:
                pass  # the runner busy: every engine's reply waits unread
            await trio.sleep(0.02)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hog)
        # Games long enough to outlast several stalls (12 to 16 of about 300 moves late,
        # against 0 to 4 of 180 with the smaller board and 50 ms between stalls, where
        # one run in six on an idle machine had none: its games fit between two stalls).
        results, transcripts = await play_games(size=13)
        stop.set()
    voids = check_nobody_blamed(results, transcripts)
    print(f"runner-caused voids: {voids} of {len(results)} games")
    late = [move.late for r in results for move in r.moves]
    assert max(late) > MARGIN  # the stalls were measured, move by move
    # Whether a stall pushes a clock over depends on the machine (on a loaded one 2 to 5
    # of the 8 games were void; on an idle one none): every game either ended by the
    # rules or is a runner void, never a forfeit on time (check_nobody_blamed).
    assert all(r.outcome.termination is Termination.RULES or r.void for r in results), [
        r.outcome.reason for r in results
    ]


async def test_a_timeout_while_the_runner_stalled_is_void() -> None:
    """An engine that never answers from its third move, timed while the runner's loop
    is hogged: the clock it was given had been eaten by the runner on its earlier
    moves, so the game is void, not a forfeit."""
    stop = trio.Event()

    async def hog() -> None:
        while not stop.is_set():
            end = time.perf_counter() + 0.3
            while time.perf_counter() < end:
                pass
            await trio.sleep(0.001)  # every move waits behind a stall

    game = make_game("trike")
    tc = TimeControl.parse("1+0", margin=MARGIN)
    stalling = EngineSpec(name="bad", argv=bot_argv("faulty", "--mode", "stall", "--at", "6"))
    async with (
        EnginePlayer.open(engine("good", 1), start_timeout=10) as good,
        EnginePlayer.open(stalling, start_timeout=10) as bad,
    ):
        result = await play_game(game, [good, bad], tc, seed=3)  # unhogged: a timeout
        assert result.outcome.termination is Termination.TIMEOUT, result.outcome.reason
        lag_monitor()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(hog)
            result = await play_game(game, [good, bad], tc, seed=3)
            stop.set()
    # Void by the referee's stalls on its earlier moves ("timed out, but ..."), or
    # already by a clock those stalls overran ("went N ms over its time, but ..."). Where
    # the stalls fell is up to the machine: if they missed the staller's own moves, its
    # clock was not eaten and the timeout is rightly its own (its moves' recorded
    # lateness stays within the margin).
    if result.runner_fault:
        assert "but the referee itself stalled" in result.outcome.reason
    else:
        assert result.outcome.termination is Termination.TIMEOUT, result.outcome.reason
        culprit = result.outcome.culprit
        assert culprit == 1, result.outcome.reason
        assert sum(m.late for m in result.moves if m.seat == culprit) <= MARGIN


def _pinned_hogs(cpu: int, count: int) -> Iterator[subprocess.Popen[bytes]]:
    for _ in range(count):
        yield subprocess.Popen(
            ["taskset", "-c", str(cpu), sys.executable, "-c", "while True: pass"]
        )


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs two CPUs to pin the runner and its engines apart",
)
async def test_cpu_hogs_pinned_beside_the_runner_blame_no_engine() -> None:
    """The issue's case: CPU hogs pinned to the runner's core, engines on the other one."""
    cpus = sorted(os.sched_getaffinity(0))
    runner_cpu, engine_cpu = cpus[0], cpus[1]
    saved = os.sched_getaffinity(0)
    hogs = list(_pinned_hogs(runner_cpu, HOGS))
    try:
        os.sched_setaffinity(0, {runner_cpu})
        lag_monitor()
        results, transcripts = await play_games(("taskset", "-c", str(engine_cpu)), size=19)
    finally:
        os.sched_setaffinity(0, saved)
        for hog in hogs:
            hog.kill()
            hog.wait()
    voids = check_nobody_blamed(results, transcripts)
    print(f"runner-caused voids: {voids} of {len(results)} games")
