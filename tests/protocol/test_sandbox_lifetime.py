"""A sandboxed engine lives exactly as long as its game: not less (whatever thread of the
referee started it), not more (it dies with the referee, even a referee killed with
SIGKILL). Skipped, with the reason, where bwrap cannot run."""

from __future__ import annotations

import sys
import textwrap

import pytest
import trio

from protocol.messages import Go, NewGame, Position
from protocol.sandbox import SandboxSettings
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tests.hostile import ROOT
from tests.procs import left_by_killed_referee, live_with, ready_holder

GAME = NewGame(game="trike", players=2, seat=1, seed=5, options=(("size", "7"),))
IDLE_THREAD_SECONDS = 1.0
"""How long trio's idle worker threads live in the think test (``IDLE_TIMEOUT``, 10 s by
default, shortened there so the test need not wait for it)."""
THINK_SECONDS = 5
"""Longer than trio's idle worker threads live (``IDLE_THREAD_SECONDS``): the thread that
started the sandbox is gone long before the engine answers."""



async def test_an_engine_that_thinks_past_its_starting_thread_s_end_answers(
    bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The spawning thread of trio's cache ends after IDLE_TIMEOUT idle seconds: once, a
    # parent-death signal tied to it killed every sandboxed engine 10 s after its start.
    monkeypatch.setattr(trio._core._thread_cache, "IDLE_TIMEOUT", IDLE_THREAD_SECONDS)
    argv = (sys.executable, "-m", "bots", "faulty", "--slow", str(THINK_SECONDS * 1000))
    spec = EngineSpec(name="thinker", argv=argv, sandbox=SandboxSettings())
    with trio.fail_after(THINK_SECONDS + 30):
        async with EngineSession.open(spec) as session:
            await session.new_game(GAME, timeout=10)
            start = trio.current_time()
            answer = await session.request_move(
                Position(), Go(), deadline=trio.current_time() + THINK_SECONDS + 20
            )
            assert answer.move
            assert trio.current_time() - start >= THINK_SECONDS
    assert not any("killed by signal" in line for line in session.transcript.lines())


HOLDER = textwrap.dedent(
    """
    import sys, trio
    from protocol.messages import NewGame
    from protocol.sandbox import SandboxSettings
    from protocol.session import EngineSession
    from protocol.spec import EngineSpec

    async def main():
        # It ignores the end of its input and SIGTERM: only a kill ends it.
        argv = (sys.executable, "-m", "bots", "faulty", "--mode", "ignore-quit",
                "--seed", sys.argv[1])
        spec = EngineSpec(name="held", argv=argv, sandbox=SandboxSettings())
        async with EngineSession.open(spec) as session:
            await session.new_game(NewGame("trike", 2, 1, 1), timeout=10)
            print("ready", flush=True)
            await trio.sleep_forever()

    trio.run(main)
    """
)


def test_the_engine_dies_with_a_killed_referee(bwrap: None, warden: str) -> None:
    marker = "--seed 7177"
    with ready_holder(HOLDER, marker.split()[1], str(ROOT)) as holder:
        assert live_with(marker)
        assert left_by_killed_referee(holder, marker) == []
