"""The stray reaper: an engine's descendants that left its process group are killed and
reaped at its stop, and nothing else is touched."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from bots.faulty_bot import CHAIN_SECONDS
from protocol import reaper
from protocol.errors import EngineTerminatedError
from protocol.messages import Go, NewGame, Position
from protocol.process import REAP_GRACE
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tests.procs import live_with

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
PR_GET_CHILD_SUBREAPER = 37


def test_this_process_becomes_a_subreaper() -> None:
    assert reaper.become_subreaper()
    flag = ctypes.c_int(0)
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0
    assert flag.value == 1


async def _play_the_escaper(marker: str) -> None:
    spec = EngineSpec(
        name="escaper",
        argv=(sys.executable, "-m", "bots", "faulty", "--mode", "setsid-fork", *marker.split()),
    )
    with trio.fail_after(30):
        async with EngineSession.open(spec) as session:
            await session.new_game(NewGame("trike", 2, 1, 1), timeout=10)
            with pytest.raises(EngineTerminatedError):
                await session.request_move(Position(), Go(), deadline=trio.current_time() + 10)
            # The copy (and soon its own child) left the group and outlived the engine.
            for _ in range(1000):
                if len(live_with(marker)) >= 2:
                    break
                await trio.sleep(0.01)
            assert len(live_with(marker)) >= 2


def test_an_escaped_fork_is_reaped_and_other_children_are_left_alone() -> None:
    marker = "--seed 8128"
    bystander = subprocess.Popen(["sleep", "60"])  # our child too, but not the engine's
    try:
        trio.run(_play_the_escaper, marker)
        assert live_with(marker) == []  # killed, and reaped: not even our zombies
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


async def _play_and_crash(argv: tuple[str, ...], alive: Callable[[], bool]) -> None:
    spec = EngineSpec(name="escaper", argv=(sys.executable, "-m", "bots", "faulty", *argv))
    with trio.fail_after(30):
        async with EngineSession.open(spec) as session:
            await session.new_game(NewGame("trike", 2, 1, 1), timeout=10)
            with pytest.raises(EngineTerminatedError):
                await session.request_move(Position(), Go(), deadline=trio.current_time() + 10)
            for _ in range(200):  # the escaper is on its own now
                if alive():
                    break
                await trio.sleep(0.01)
            assert alive()


def test_an_escaper_that_drops_its_tag_is_killed() -> None:
    marker = "--seed 6661"
    try:
        for _ in range(3):
            argv = ("--mode", "setsid-scrub", *marker.split())
            trio.run(_play_and_crash, argv, lambda: bool(live_with(marker)))
            assert live_with(marker) == []  # killed and reaped: not even our zombies
    finally:
        for pid in live_with(marker):  # do not leave a failed test's escapers behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _links(trail: Path) -> int:
    return len(trail.read_bytes().split()) if trail.exists() else 0


def _stop_chain(trail: Path) -> None:
    """Kill a chain that survived a failed test: freeze its newest link, then kill it."""
    for _ in range(1000):
        before = _links(trail)
        newest = int(trail.read_bytes().split()[-1]) if before else 0
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                if newest:
                    os.kill(newest, sig)
        time.sleep(0.01)
        if _links(trail) == before:
            return


@pytest.mark.processes  # thousands of forks
def test_a_setsid_fork_chain_with_a_new_pid_every_ms_is_killed(tmp_path: Path) -> None:
    # The engine's stop sweeps for at most REAP_GRACE seconds, far less than the chain's
    # own life (CHAIN_SECONDS): a chain the sweep lost is still growing after the stop and
    # fails the test here. (Before that bound, a lost chain kept the stop sweeping until
    # the chain ended by itself, and the test passed after 3 x 30 s.)
    assert REAP_GRACE * 5 < CHAIN_SECONDS
    trail = tmp_path / "trail"
    try:
        for _ in range(3):
            argv = ("--mode", "setsid-chain", "--trail", str(trail))
            start = _links(trail)
            trio.run(_play_and_crash, argv, lambda start=start: _links(trail) > start + 20)
            after = _links(trail)
            time.sleep(0.3)  # a live chain adds a link every millisecond or two
            assert _links(trail) == after
    finally:
        _stop_chain(trail)


async def _two_engines(marker: str) -> tuple[bool, bool]:
    """Engine B's escapee (with B's tag) while engine A stops: alive after A's stop, and
    after B's."""
    escaper = (sys.executable, "-m", "bots", "faulty", "--mode", "setsid-fork", *marker.split())
    other = EngineSpec(name="A", argv=(sys.executable, "-m", "bots", "random"))
    with trio.fail_after(30):
        async with EngineSession.open(EngineSpec(name="B", argv=escaper)) as b:
            await b.new_game(NewGame("trike", 2, 1, 1), timeout=10)
            async with EngineSession.open(other) as a:
                await a.new_game(NewGame("trike", 2, 2, 1), timeout=10)
                with pytest.raises(EngineTerminatedError):
                    await b.request_move(Position(), Go(), deadline=trio.current_time() + 10)
                for _ in range(200):
                    if live_with(marker):
                        break
                    await trio.sleep(0.01)
            after_a = bool(live_with(marker))
    return after_a, bool(live_with(marker))


def test_each_engine_s_stop_takes_its_own_strays_and_no_older_process() -> None:
    marker = "--seed 6665"
    # Ours, in a session of its own, untagged, but older than the engines: not a stray.
    bystander = subprocess.Popen(["sleep", "60"], start_new_session=True)
    # Start times count in clock ticks (10 ms): one in the engines' tick is "no earlier
    # than the engine" and taken for a stray (rule 3), so the bystander is made older.
    time.sleep(0.1)
    try:
        after_a, after_b = trio.run(_two_engines, marker)
        assert after_a  # B's escapee carries B's tag: A's stop leaves it alone
        assert not after_b  # B's stop kills it
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
        for pid in live_with(marker):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_orphans_of_a_dead_process_are_told_by_the_pid_prefix_of_their_tags() -> None:
    # Tags are "<pid of the process that started the engine>.<n>.<random>": the strays
    # of dead process 4242 are tagged "4242.…", never "42420.…" (another process's).
    mine = subprocess.Popen(["sleep", "30"], env={**os.environ, reaper.TAG_VARIABLE: "4242.7.a"})
    other = subprocess.Popen(["sleep", "30"], env={**os.environ, reaper.TAG_VARIABLE: "42420.1.c"})
    try:
        strays = reaper.orphans_of(4242, None)
        assert strays._ours(mine.pid)
        assert not strays._ours(other.pid)
        assert not reaper.Strays("4242.", 4242, None)._ours(mine.pid)  # exact tags only
        for _ in range(1000):  # killed, then reaped by the sweep itself
            if not strays.sweep():
                break
            time.sleep(0.01)
        assert not os.path.exists(f"/proc/{mine.pid}")
        assert other.poll() is None
    finally:
        for process in (mine, other):
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait()
