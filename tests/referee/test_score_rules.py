"""Score adjudication as a state machine: resign and draw for 2 and 3 seats, settings."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.search_info import ForcedWin, Score, Shares
from referee.score_rules import (
    DrawRule,
    ResignRule,
    ScoreAdjudicator,
    ScoreRules,
    shares_of,
)

RESIGN = ScoreRules(resign=ResignRule(movecount=2, share=100))
DRAW = ScoreRules(draw=DrawRule(movenumber=6, movecount=2, spread=20))


def feed(adjudicator: ScoreAdjudicator, turns: Sequence[tuple[int, Score | None]]) -> list[int]:
    """The plies after which a decision came."""
    return [ply for ply, (seat, score) in enumerate(turns, 1) if adjudicator.observe(seat, score)]


def s(*values: int) -> Shares:
    return Shares(values)


def test_resign_two_seats_needs_both_engines_for_movecount_turns() -> None:
    adjudicator = ScoreAdjudicator(RESIGN, 2)
    hopeless = s(950, 50)
    turns: list[tuple[int, Score | None]] = [(0, s(500, 500)), (1, s(500, 500))]
    turns += [(0, hopeless), (1, hopeless), (0, hopeless)]
    assert feed(adjudicator, turns) == []  # seat 2 (index 1) has one agreeing turn so far
    decision = adjudicator.observe(1, hopeless)
    assert decision is not None and decision.rule == "resign"
    assert decision.loser == 1 and decision.ply == 6
    assert "seat 2 is lost" in decision.reason and "950,50" in decision.reason
    assert "movecount=2,share=100" in decision.reason


def test_one_engine_disagreeing_or_silent_blocks_resign() -> None:
    for spoiler in (s(600, 400), None):
        adjudicator = ScoreAdjudicator(RESIGN, 2)
        turns: list[tuple[int, Score | None]] = [(0, s(950, 50)), (1, spoiler)] * 6
        assert feed(adjudicator, turns) == []


def test_the_run_restarts_after_a_missing_score() -> None:
    adjudicator = ScoreAdjudicator(RESIGN, 2)
    low = s(990, 10)
    turns: list[tuple[int, Score | None]] = [(0, low), (1, low), (0, None), (1, low), (0, low)]
    assert feed(adjudicator, turns) == []
    assert adjudicator.observe(1, low) is None  # seat 1's run is one turn long
    decision = adjudicator.observe(0, low)
    assert decision is not None and decision.ply == 7


def test_resign_three_seats_the_same_seat_for_everyone() -> None:
    adjudicator = ScoreAdjudicator(RESIGN, 3)
    # Each engine thinks a different seat is lost: no decision.
    mixed: list[tuple[int, Score | None]] = [(0, s(500, 450, 50)), (1, s(50, 500, 450))]
    mixed.append((2, s(450, 50, 500)))
    assert feed(adjudicator, mixed * 3) == []
    agree = [(seat, s(600, 380, 20)) for seat in (0, 1, 2)]
    adjudicator = ScoreAdjudicator(RESIGN, 3)
    assert feed(adjudicator, agree[:]) == []
    assert feed(adjudicator, agree[:2]) == []
    decision = adjudicator.observe(2, s(600, 380, 20))
    assert decision is not None and decision.loser == 2 and decision.ply == 6


def test_forced_win_gives_everything_to_the_mover() -> None:
    assert shares_of(ForcedWin(3), 1, 3) == (0, 1000, 0)
    assert shares_of(s(500, 500), 0, 3) is None  # a share list for another seat count
    adjudicator = ScoreAdjudicator(RESIGN, 2)
    turns: list[tuple[int, Score | None]] = [(0, ForcedWin(9)), (1, s(990, 10))] * 2
    assert feed(adjudicator, turns) == [4]


def test_draw_after_movenumber_plies() -> None:
    adjudicator = ScoreAdjudicator(DRAW, 2)
    even = s(510, 490)
    turns: list[tuple[int, Score | None]] = [(ply % 2, even) for ply in range(5)]
    assert feed(adjudicator, turns) == []  # four agreeing turns, but only 5 plies
    decision = adjudicator.observe(1, even)
    assert decision is not None and decision.rule == "draw" and decision.loser is None
    assert decision.ply == 6 and "even game" in decision.reason


def test_draw_three_seats_within_the_spread_of_a_third() -> None:
    adjudicator = ScoreAdjudicator(DRAW, 3)
    near = [(seat, s(340, 330, 330)) for seat in (0, 1, 2)]
    off = [(seat, s(360, 320, 320)) for seat in (0, 1, 2)]  # 360 is 27 over a third
    assert feed(adjudicator, off * 3) == []
    adjudicator = ScoreAdjudicator(DRAW, 3)
    assert feed(adjudicator, near * 2) == [6]


def test_resign_comes_before_draw() -> None:
    rules = ScoreRules(ResignRule(1, 500), DrawRule(0, 1, 500))
    adjudicator = ScoreAdjudicator(rules, 2)
    assert adjudicator.observe(0, s(500, 500)) is None  # seat 2 has not spoken yet
    decision = adjudicator.observe(1, s(500, 500))
    assert decision is not None and decision.rule == "resign" and decision.loser == 0


def test_a_seat_that_stops_moving_leaves_the_table() -> None:
    # Seat 3 is out after ply 3: its old scores no longer block, and it cannot be the loser.
    adjudicator = ScoreAdjudicator(RESIGN, 3)
    turns: list[tuple[int, Score | None]] = [(0, s(50, 900, 50)), (1, s(50, 900, 50))]
    turns.append((2, None))
    turns += [(0, s(50, 950, 0)), (1, s(50, 950, 0))] * 2
    decisions = feed(adjudicator, turns)
    # Plies 4..7: seat 3 last moved at ply 3, within the last 2 x 3 plies until ply 8.
    assert decisions == []
    more: list[tuple[int, Score | None]] = [(0, s(50, 950, 0)), (1, s(50, 950, 0))]
    assert feed(adjudicator, more) == [2]  # ply 9: seat 3 has left; seat 1 is lost
    assert adjudicator.ply == 9


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("resign movecount=3,share=50", ScoreRules(ResignRule(3, 50))),
        ("draw movenumber=40,movecount=4,spread=20", ScoreRules(draw=DrawRule(40, 4, 20))),
        (
            "resign movecount=3,share=50; draw movenumber=40,movecount=4,spread=20",
            ScoreRules(ResignRule(3, 50), DrawRule(40, 4, 20)),
        ),
    ],
)
def test_tag_round_trip(text: str, rules: ScoreRules) -> None:
    assert rules.tag_text() == text
    assert ScoreRules.from_tag(text) == rules


def test_cli_settings_in_any_order() -> None:
    assert ResignRule.parse("share=50,movecount=3") == ResignRule(3, 50)
    assert DrawRule.parse(" spread=5 , movecount=1,movenumber=0") == DrawRule(0, 1, 5)


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (ResignRule.parse, "movecount=3", "resign needs share"),
        (ResignRule.parse, "movecount=3,share=50,share=4", "bad resign setting"),
        (ResignRule.parse, "movecount=0,share=50", "movecount"),
        (ResignRule.parse, "movecount=3,share=1000", "share"),
        (ResignRule.parse, "movecount=x,share=5", "whole number"),
        (DrawRule.parse, "movenumber=4,movecount=2", "draw needs spread"),
        (DrawRule.parse, "movenumber=4,movecount=2,spread=-1", "whole number"),
        (DrawRule.parse, "moves=4", "bad draw setting"),
        (ScoreRules.from_tag, "resign movecount=1,share=1; resign movecount=1,share=1", "tag"),
        (ScoreRules.from_tag, "stop now", "tag"),
    ],
)
def test_bad_settings_are_one_line_errors(parse: object, text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        parse(text)  # type: ignore[operator]
    assert "\n" not in str(info.value)


@given(
    st.lists(st.tuples(st.integers(0, 2), st.one_of(st.none(), st.integers(0, 1000))), max_size=40)
)
def test_a_decision_is_always_justified_by_the_last_turns(
    turns: list[tuple[int, int | None]],
) -> None:
    rules = ScoreRules(ResignRule(2, 150), DrawRule(3, 2, 60))
    adjudicator = ScoreAdjudicator(rules, 3)
    seen: dict[int, list[tuple[int, ...] | None]] = {0: [], 1: [], 2: []}
    for seat, first in turns:
        score = (
            None
            if first is None
            else s(first, (1000 - first) // 2, 1000 - first - (1000 - first) // 2)
        )
        seen[seat].append(shares_of(score, seat, 3))
        decision = adjudicator.observe(seat, score)
        if decision is None:
            continue
        table = [seat for seat, _ in decision.last_scores]
        count = 2
        for member in table:
            run = seen[member][-count:]
            assert len(run) == count and all(shares is not None for shares in run)
            for shares in run:
                assert shares is not None
                if decision.rule == "resign":
                    assert decision.loser is not None and shares[decision.loser] <= 150
                else:
                    assert all(abs(v - 1000 / 3) <= 60 for v in shares)
        break
