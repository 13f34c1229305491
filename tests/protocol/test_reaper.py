"""The stray reaper: an engine's descendants that left its process group are killed and
reaped at its stop, and nothing else is touched."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest
import trio

from protocol import reaper
from protocol.errors import EngineTerminatedError
from protocol.messages import Go, NewGame, Position
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
