"""Every termination reached by misbehaving engines run as real processes.

Each case plays Trike between the random bot and a faulty bot through the real
``EnginePlayer`` (subprocesses, pipes, process groups), and checks the outcome
the failure policy prescribes and that no process survives.
"""

from __future__ import annotations

import sys

import pytest

from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import play_game
from referee.players import EnginePlayer
from referee.registry import make_game
from tests.procs import group_members, processes

pytestmark = pytest.mark.processes


def bot(name: str, *args: str) -> EngineSpec:
    return EngineSpec(name=name, argv=(sys.executable, "-m", "bots", *args))


CASES = [
    (("--illegal", "--at", "3"), Termination.ILLEGAL_MOVE, "illegal move"),
    (("--garbage", "--at", "2"), Termination.PROTOCOL_ERROR, "hello there"),
    (("--crash", "--at", "2"), Termination.CRASH, ""),
    (("--stall", "--at", "2"), Termination.TIMEOUT, ""),
    (("--flood", "--at", "2"), Termination.PROTOCOL_ERROR, "long"),
    (("--resign", "--at", "2"), Termination.RESIGNATION, "resigns"),
    (("--slow", "1500"), Termination.TIMEOUT, "ms over"),
]


@pytest.mark.parametrize(("flags", "termination", "words"), CASES, ids=[c[0][0] for c in CASES])
async def test_misbehaving_engine_forfeits(
    flags: tuple[str, ...], termination: Termination, words: str
) -> None:
    game = make_game("trike")
    tc = TimeControl.parse("1+0", margin=0.1)
    async with (
        EnginePlayer.open(bot("good", "random"), start_timeout=5) as good,
        EnginePlayer.open(bot("bad", "faulty", *flags), start_timeout=5) as bad,
    ):
        result = await play_game(game, [good, bad], tc, seed=3)
    outcome = result.outcome
    assert outcome.termination is termination, outcome.reason
    assert outcome.culprit == 1
    assert outcome.ranks == (1, 2)
    assert words in outcome.reason
    assert "seat 2 (bad)" in outcome.reason


@pytest.mark.parametrize(
    "flags", [("--no-handshake",), ("--exit-on-newgame",), ("--error-on-newgame",)]
)
async def test_failure_before_first_request_is_void(flags: tuple[str, ...]) -> None:
    game = make_game("trike")
    async with (
        EnginePlayer.open(bot("good", "random"), start_timeout=1) as good,
        EnginePlayer.open(bot("bad", "faulty", *flags), start_timeout=1) as bad,
    ):
        result = await play_game(game, [bad, good], TimeControl.parse("5+0"))
    assert result.void
    assert result.outcome.culprit == 0
    assert result.moves == ()


async def test_crashed_engine_is_restarted_for_the_next_game() -> None:
    game = make_game("trike")
    tc = TimeControl.parse("5+0")
    async with (
        EnginePlayer.open(bot("good", "random")) as good,
        EnginePlayer.open(bot("bad", "faulty", "--crash", "--at", "2")) as bad,
    ):
        first = await play_game(game, [good, bad], tc)
        second = await play_game(game, [bad, good], tc)
        assert good.starts == 1
        assert bad.starts == 2
    assert first.outcome.termination is Termination.CRASH
    assert second.outcome.termination is Termination.CRASH
    assert second.outcome.culprit == 0


async def test_no_process_survives_a_child_spawning_engine() -> None:
    game = make_game("trike")
    pids: list[int] = []
    async with (
        EnginePlayer.open(bot("good", "random")) as good,
        EnginePlayer.open(bot("bad", "faulty", "--spawn-child", "--at", "2")) as bad,
    ):
        result = await play_game(game, [good, bad], TimeControl.parse("0.5+0"))
        pids.extend(good.pids + bad.pids)
    assert result.outcome.termination is Termination.TIMEOUT
    assert len(pids) == 2
    # Engines run in their own process groups: nothing of either group is left, not even a zombie.
    assert [(pid, group_members([pid])) for pid in pids] == [(pid, []) for pid in pids]
    # The engines themselves were reaped: not even a zombie is left.
    assert [p.pid for p in processes() if p.pid in pids] == []
