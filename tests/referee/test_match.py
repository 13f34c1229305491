"""The referee loop: every termination reachable with in-process players."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

import pytest
import trio

import protocol.errors
from protocol.errors import (
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.messages import GameOver
from referee.clock import TimeControl
from referee.core import DEFAULT_MAX_PLIES, Termination
from referee.match import FAILURE_POLICY, SHOWN_MOVE, play_game
from referee.players import GameSetup, MoveRequest, PlayerReply
from referee.registry import make_game
from tests.fakegame import CountGame

Script = Sequence[str | float | EngineError | None]


class ScriptedPlayer:
    """Plays ``+1`` unless the script says otherwise for that call.

    A string is sent as the move, None resigns, an EngineError is raised, a float
    is a think time in seconds (then ``+1``).
    """

    def __init__(self, name: str, script: Script = (), *, fail_start: EngineError | None = None):
        self.name = name
        self.script = list(script)
        self.fail_start = fail_start
        self.requests: list[MoveRequest] = []
        self.setups: list[GameSetup] = []
        self.notices: list[GameOver] = []

    async def start_game(self, setup: GameSetup) -> None:
        self.setups.append(setup)
        if self.fail_start is not None:
            raise self.fail_start

    async def choose_move(self, request: MoveRequest) -> PlayerReply:
        self.requests.append(request)
        sent = trio.current_time()
        step: Any = self.script.pop(0) if self.script else "+1"
        if isinstance(step, EngineError):
            raise step
        if isinstance(step, float):
            await trio.sleep(step)
            step = "+1"
        return PlayerReply(step, ("depth 1",), sent, trio.current_time())

    async def game_over(self, over: GameOver) -> None:
        self.notices.append(over)


TC = TimeControl.parse("10+1")


async def test_normal_game_ends_by_the_rules() -> None:
    a, b = ScriptedPlayer("a", ["+2"] * 3), ScriptedPlayer("b")
    result = await play_game(CountGame({"target": "8"}), [a, b], TC)
    assert result.outcome.termination is Termination.RULES
    assert [m.text for m in result.moves] == ["+2", "+1", "+2", "+1", "+2"]
    assert result.outcome.ranks == (1, 2)
    assert result.outcome.scores == (6.0, 2.0)
    assert a.notices[0].result == "1-0" and b.notices[0].reason == "rules"
    assert [s.seat for s in a.setups + b.setups] == [0, 1]
    # Every request carries the full history and both clocks.
    assert b.requests[1].moves == ("+2", "+1", "+2")
    assert b.requests[0].go.times is not None and len(b.requests[0].go.times) == 2
    assert result.moves[0].infos == ("depth 1",)


@pytest.mark.parametrize(
    ("step", "termination"),
    [
        ("+3", Termination.ILLEGAL_MOVE),
        ("e3 x", Termination.ILLEGAL_MOVE),
        (None, Termination.RESIGNATION),
        (EngineTerminatedError("exit 3"), Termination.CRASH),
        (EngineTimeoutError("stall"), Termination.TIMEOUT),
        (ProtocolViolation("garbage"), Termination.PROTOCOL_ERROR),
        (EngineStartError("odd"), Termination.CRASH),
    ],
)
async def test_failures_after_the_first_request_are_forfeits(
    step: str | EngineError | None, termination: Termination
) -> None:
    a, b = ScriptedPlayer("a"), ScriptedPlayer("b", ["+1", step])
    result = await play_game(CountGame(), [a, b], TC)
    assert result.outcome.termination is termination
    assert result.outcome.culprit == 1
    assert result.outcome.ranks == (1, 2)
    assert len(result.moves) == 3
    assert "seat 2 (b)" in result.outcome.reason
    assert a.notices[0].result == "1-0"


async def test_illegal_move_reason_names_move_and_ply() -> None:
    a, b = ScriptedPlayer("a", ["+5"]), ScriptedPlayer("b")
    result = await play_game(CountGame(), [a, b], TC)
    assert "'+5'" in result.outcome.reason and "ply 1" in result.outcome.reason
    assert result.outcome.ranks == (2, 1)


async def test_a_huge_illegal_move_is_quoted_cut_in_the_reason() -> None:
    """A 60,000-character token (a line may hold 64 KiB) was quoted whole, twice, in the
    reason: the console line, check-engine's and the record's ``Reason`` tag. It is cut,
    with its length; the parse error's quote of it too."""
    token = "e" * 60_000
    a, b = ScriptedPlayer("a", [token]), ScriptedPlayer("b")
    result = await play_game(make_game("trike"), [a, b], TC)
    reason = result.outcome.reason
    assert result.outcome.termination is Termination.ILLEGAL_MOVE
    assert len(reason) < 400, reason
    shown = repr("e" * SHOWN_MOVE + "…")
    assert reason.startswith(f"seat 1 (a) plays illegal move {shown} (60,000 characters) at ply 1")
    assert f"invalid trike move {shown}" in reason


async def test_failure_before_the_first_request_voids_the_game() -> None:
    a = ScriptedPlayer("a")
    b = ScriptedPlayer("b", fail_start=EngineStartError("no handshake"))
    result = await play_game(CountGame(), [a, b], TC)
    assert result.void
    assert result.outcome.ranks == ()
    assert result.outcome.culprit == 1
    assert "no handshake" in result.outcome.reason
    assert a.requests == [] and a.notices[0].result == "*"


async def test_late_reply_is_a_time_forfeit_with_overrun(autojump_clock: trio.abc.Clock) -> None:
    tc = TimeControl.parse("1+0", margin=0.05)
    a, b = ScriptedPlayer("a", [0.5, 0.6]), ScriptedPlayer("b")
    result = await play_game(CountGame(), [a, b], tc)
    assert result.outcome.termination is Termination.TIMEOUT
    assert result.outcome.culprit == 0
    assert "(50 ms over)" in result.outcome.reason  # 0.6 s against 0.5 s left + 0.05 s
    assert result.moves[0].remaining == pytest.approx(0.5)


async def test_fixed_move_time_is_sent_and_enforced(autojump_clock: trio.abc.Clock) -> None:
    tc = TimeControl.fixed(100, margin=0.01)
    a, b = ScriptedPlayer("a"), ScriptedPlayer("b", [0.05, 0.2])
    result = await play_game(CountGame(), [a, b], tc)
    assert a.requests[0].go.movetime == 100
    assert result.outcome.termination is Termination.TIMEOUT
    assert result.outcome.culprit == 1
    assert result.moves[1].remaining is None


async def test_move_limit_ranks_by_the_unfinished_position() -> None:
    a, b = ScriptedPlayer("a", ["+2"] * 5), ScriptedPlayer("b")
    result = await play_game(CountGame({"target": "100"}), [a, b], TC, max_plies=6)
    assert result.outcome.termination is Termination.MOVE_LIMIT
    assert len(result.moves) == 6
    assert result.outcome.ranks == (1, 2)


async def test_three_player_forfeit_culprit_last_others_by_score() -> None:
    players = [
        ScriptedPlayer("a", ["+1", "+1"]),
        ScriptedPlayer("b", ["+2", "+9"]),
        ScriptedPlayer("c", ["+2"]),
    ]
    result = await play_game(CountGame({"target": "50"}), players, TC, start="50/1/0,0,0")
    # Seat b moves first from this start: b+2, c+2, a+1, b+9 (illegal).
    assert result.outcome.termination is Termination.ILLEGAL_MOVE
    assert result.outcome.culprit == 1
    # b scored most but forfeits: last. c (2) ahead of a (1).
    assert result.outcome.ranks == (2, 3, 1)
    assert players[0].notices[0].result == "0-0-1"


async def test_three_player_forfeit_with_tied_others_shares_first() -> None:
    players = [ScriptedPlayer("a"), ScriptedPlayer("b"), ScriptedPlayer("c", [None])]
    result = await play_game(CountGame(), players, TC)
    assert result.outcome.ranks == (1, 1, 3)
    assert players[2].notices[0].result == "1/2-1/2-0"


async def test_start_position_is_passed_to_players() -> None:
    game = CountGame()
    start = game.encode(game.initial_state(2)._apply(2))
    a, b = ScriptedPlayer("a"), ScriptedPlayer("b")
    result = await play_game(game, [a, b], TC, start=start)
    assert b.requests[0].start == start
    assert result.start == start
    assert result.moves[0].seat == 1


def test_every_engine_error_has_a_termination() -> None:
    classes = [
        obj
        for obj in vars(protocol.errors).values()
        if inspect.isclass(obj) and issubclass(obj, EngineError) and obj is not EngineError
    ]
    assert classes
    for cls in classes:
        assert any(base in FAILURE_POLICY for base in cls.__mro__), cls


def test_the_default_move_limit_lets_the_longest_bounded_game_end_by_its_rules() -> None:
    # Every Tricolor ply places one lozenge on two of the 6n² triangles: at most 3n² plies.
    (size,) = [o for o in make_game("tricolor").option_specs if o.name == "n"]
    assert size.maximum is not None
    assert 3 * size.maximum**2 <= DEFAULT_MAX_PLIES
