"""Time controls and clock accounting."""

from __future__ import annotations

import pytest

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
