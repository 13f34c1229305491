"""The match loop under each time-control form: what ``go`` carries, who loses on time."""

from __future__ import annotations

import pytest
import trio

from referee.clock import TimeControl
from referee.core import Termination
from referee.match import play_game
from tests.fakegame import CountGame
from tests.referee.test_match import ScriptedPlayer


async def test_sessions_send_movestogo_and_add_time(autojump_clock: trio.abc.Clock) -> None:
    tc = TimeControl.parse("2/1+0", margin=0.05)
    a, b = ScriptedPlayer("a", [0.4, 0.5, 0.9]), ScriptedPlayer("b")
    result = await play_game(CountGame({"target": "12"}), [a, b], tc)
    assert [r.go.movestogo for r in a.requests[:3]] == [2, 1, 2]
    assert [r.go.times for r in a.requests[:3]] == [(1000, 1000), (600, 1000), (1100, 2000)]
    assert result.moves[4].remaining == pytest.approx(0.2)  # a's third move: 1.1 - 0.9
    assert result.outcome.termination is Termination.RULES


async def test_a_seat_out_of_time_before_its_session_ends_loses(
    autojump_clock: trio.abc.Clock,
) -> None:
    tc = TimeControl.parse("3/1+0", margin=0.05)
    a, b = ScriptedPlayer("a", [0.4, 0.4, 0.4]), ScriptedPlayer("b")
    result = await play_game(CountGame({"target": "12"}), [a, b], tc)
    assert result.outcome.termination is Termination.TIMEOUT and result.outcome.culprit == 0
    assert "(150 ms over)" in result.outcome.reason  # 0.4 s against 0.2 s left + 0.05 s


async def test_hourglass_gives_the_time_used_to_the_opponent(
    autojump_clock: trio.abc.Clock,
) -> None:
    tc = TimeControl.parse("hourglass:2")
    a, b = ScriptedPlayer("a", [0.5]), ScriptedPlayer("b", [0.25])
    result = await play_game(CountGame({"target": "12"}), [a, b], tc)
    assert b.requests[0].go.times == (1500, 2500)
    assert a.requests[1].go.times == (1750, 2250)
    assert b.requests[0].go.movestogo is None
    assert result.moves[0].remaining == pytest.approx(1.5)


async def test_each_seat_under_its_own_control(autojump_clock: trio.abc.Clock) -> None:
    odds = (TimeControl.parse("10+1"), TimeControl.parse("40/2+0", margin=0.05))
    a, b = ScriptedPlayer("a"), ScriptedPlayer("b", [3.0])
    result = await play_game(CountGame(), [a, b], odds)
    assert a.requests[0].go.times == (10000, 2000)
    assert a.requests[0].go.incs == (1000, 0)
    assert a.requests[0].go.movestogo is None and b.requests[0].go.movestogo == 40
    assert result.outcome.termination is Termination.TIMEOUT and result.outcome.culprit == 1
