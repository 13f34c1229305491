"""Time controls and clock accounting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.clock import Clock, TimeControl


def test_parse_base_and_increment() -> None:
    tc = TimeControl.parse("10+0.1")
    assert (tc.base, tc.increment, tc.kind) == (10.0, 0.1, "clock")
    assert tc.tag() == "10+0.1"


def test_parse_base_only_and_untimed() -> None:
    assert TimeControl.parse("60").increment == 0.0
    assert TimeControl.parse("inf").kind == "untimed"
    assert TimeControl.parse("inf").tag() == "-"


@pytest.mark.parametrize("text", ["", "abc", "10+", "+1", "-5", "0", "10+0.1+2", "1e3"])
def test_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises(ValueError, match="time control"):
        TimeControl.parse(text)


def test_fixed_move_time() -> None:
    tc = TimeControl.fixed(250)
    assert tc.kind == "fixed" and tc.movetime == 0.25
    assert tc.tag() == "movetime=0.25"
    with pytest.raises(ValueError):
        TimeControl.fixed(0)


def test_charge_subtracts_then_adds_increment() -> None:
    clock = Clock(TimeControl.parse("10+0.5"), 2)
    charge = clock.charge(0, 2.0)
    assert charge.remaining == pytest.approx(8.5)
    assert charge.overrun == 0.0
    assert clock.remaining(1) == 10.0
    assert clock.times_ms() == (8500, 10000)
    assert clock.incs_ms() == (500, 500)


def test_late_move_reports_overrun_beyond_margin() -> None:
    clock = Clock(TimeControl.parse("1+5", margin=0.05), 2)
    charge = clock.charge(1, 1.30)
    # Late even though the increment would have covered it: the deadline is before the move.
    assert charge.overrun == pytest.approx(0.25)


def test_move_within_margin_is_not_late() -> None:
    clock = Clock(TimeControl.parse("1+0", margin=0.05), 2)
    assert clock.charge(0, 1.04).overrun == 0.0


def test_fixed_time_is_per_move_and_not_carried_over() -> None:
    clock = Clock(TimeControl.fixed(100, margin=0.01), 3)
    assert clock.charge(0, 0.05).overrun == 0.0
    assert clock.deadline_after(0) == pytest.approx(0.11)
    assert clock.charge(2, 0.2).overrun == pytest.approx(0.09)


def test_deadline_never_negative_after_a_bad_move() -> None:
    clock = Clock(TimeControl.parse("1+0", margin=0.05), 2)
    clock.charge(0, 1.04)
    assert clock.allowed(0) == 0.0
    assert clock.deadline_after(0) == pytest.approx(0.05)


@given(
    st.sampled_from(["10+0.1", "1+0", "0.5+2", "300+0.01"]),
    st.integers(2, 4),
    st.lists(
        st.tuples(st.integers(0, 3), st.floats(0, 12, allow_nan=False, allow_infinity=False)),
        max_size=40,
    ),
)
def test_charges_match_the_plain_accounting(
    text: str, seats: int, moves: list[tuple[int, float]]
) -> None:
    """Whatever the moves, the clock gives exactly (bit for bit) what the plain rules
    give: the deadline is the time left (at least 0) plus the margin, the overrun is
    how far past it a move went, the time left loses the move and gains the increment,
    and ``go`` carries each seat's time left in whole ms (0 when none is left)."""
    tc = TimeControl.parse(text, margin=0.05)
    assert tc.base is not None
    clock = Clock(tc, seats)
    left = [tc.base] * seats
    for seat, elapsed in moves:
        seat %= seats
        deadline = max(left[seat], 0.0) + tc.margin
        assert clock.deadline_after(seat) == deadline
        charge = clock.charge(seat, elapsed)
        left[seat] = left[seat] - elapsed + tc.increment
        assert charge.overrun == max(elapsed - deadline, 0.0)
        assert charge.remaining == left[seat] == clock.remaining(seat)
        assert clock.times_ms() == tuple(max(0, int(r * 1000)) for r in left)
