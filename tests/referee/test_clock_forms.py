"""The time-control forms: moves per session, hourglass, per-seat controls; the one parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.clock import Clock, TimeControl, parse_seats, seats_tag, time_control
from referee.clock_audit import ClockAudit

# Seconds that a record or the command line may hold: finite, positive, any precision.
seconds = st.floats(min_value=0.001, max_value=1e7, allow_nan=False, allow_infinity=False)
increments = st.floats(min_value=0, max_value=1e4, allow_nan=False, allow_infinity=False)

controls = st.one_of(
    st.builds(lambda b, i: TimeControl(base=b, increment=i), seconds, increments),
    st.builds(
        lambda m, b, i: TimeControl(base=b, increment=i, moves=m),
        st.integers(min_value=1, max_value=500),
        seconds,
        increments,
    ),
    st.builds(lambda b: TimeControl(base=b, hourglass=True), seconds),
    st.builds(lambda s: TimeControl(movetime=s), seconds),
    st.just(TimeControl()),
)


@given(controls)
def test_canonical_text_round_trips(tc: TimeControl) -> None:
    assert TimeControl.parse(tc.tag()) == tc
    assert TimeControl.parse(tc.tag()).tag() == tc.tag()


@pytest.mark.parametrize(
    ("text", "tag", "kind"),
    [
        ("40/60+0.5", "40/60+0.5", "clock"),
        ("40/60", "40/60+0", "clock"),
        ("hourglass:60", "hourglass:60", "hourglass"),
        ("movetime=0.5", "movetime=0.5", "fixed"),
        (" 10+0.1 ", "10+0.1", "clock"),
    ],
)
def test_parse_forms(text: str, tag: str, kind: str) -> None:
    tc = TimeControl.parse(text)
    assert (tc.tag(), tc.kind) == (tag, kind)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("0/60+1", "moves per session"),
        ("40/+1", "MOVES/BASE+INC"),
        ("40/0+1", "time must be positive"),
        ("x/60", "MOVES/BASE+INC"),
        ("40/60/2", "MOVES/BASE+INC"),
        ("hourglass", "hourglass:BASE"),
        ("hourglass:60+1", "hourglass:BASE"),
        ("hourglass:0", "time must be positive"),
        ("movetime=", "movetime=SECONDS"),
        ("10+0.1x", "BASE+INC"),
    ],
)
def test_bad_forms_give_one_line_naming_the_form(text: str, names: str) -> None:
    with pytest.raises(ValueError) as caught:
        TimeControl.parse(text)
    message = str(caught.value)
    assert names in message and "\n" not in message and repr(text) in message


def test_time_control_of_options_is_the_one_parser() -> None:
    assert time_control(None, None, default="10+0.1").tag() == "10+0.1"
    assert time_control("40/60+1", None, default="10+0.1", margin=0.2).margin == 0.2
    assert time_control(None, 250, default="10+0.1").tag() == "movetime=0.25"
    with pytest.raises(ValueError, match="not both"):
        time_control("10+0.1", 250, default="10+0.1")


def test_sessions_roll_over_at_40_and_80() -> None:
    clock = Clock(TimeControl.parse("40/60+0.5"), 2)
    for move in range(1, 81):
        assert clock.moves_to_go(0) == 40 - (move - 1) % 40
        charge = clock.charge(0, 1.0)
        # 60 s at the start, 60 s more after moves 40 and 80; 1 s used, 0.5 s back each move
        sessions = 1 + move // 40
        assert charge.remaining == pytest.approx(60 * sessions - 0.5 * move)
        assert charge.overrun == 0
    assert clock.remaining(0) == pytest.approx(180 - 40)
    assert clock.moves_to_go(0) == 40
    assert clock.remaining(1) == 60 and clock.moves_to_go(1) == 40  # seat 2 never moved


def test_session_time_left_is_carried_over() -> None:
    clock = Clock(TimeControl.parse("2/10"), 2)
    clock.charge(0, 4.0)
    assert clock.charge(0, 5.0).remaining == pytest.approx(1.0 + 10)


def test_late_in_a_session_is_late_even_if_the_session_ends_with_it() -> None:
    clock = Clock(TimeControl(base=10, moves=2, margin=0.05), 2)
    clock.charge(0, 9.0)
    charge = clock.charge(0, 1.5)  # 1 s left: 0.45 s past it and the margin
    assert charge.overrun == pytest.approx(0.45)
    assert charge.remaining == pytest.approx(-0.5 + 10)


def test_increment_without_sessions() -> None:
    clock = Clock(TimeControl.parse("10+0.25"), 3)
    for _ in range(3):
        clock.charge(2, 1.0)
    assert clock.remaining(2) == pytest.approx(10 - 3 * 0.75)
    assert clock.moves_to_go(2) is None
    assert clock.incs_ms() == (250, 250, 250)


def test_hourglass_two_seats_gives_the_time_to_the_opponent() -> None:
    clock = Clock(TimeControl.parse("hourglass:60"), 2)
    assert clock.charge(0, 5.0).remaining == pytest.approx(55)
    assert clock.remaining(1) == pytest.approx(65)
    assert clock.charge(1, 10.0).remaining == pytest.approx(55)
    assert clock.remaining(0) == pytest.approx(65)
    assert clock.times_ms() == (65000, 55000)
    assert clock.remaining(0) + clock.remaining(1) == pytest.approx(120)


def test_hourglass_three_seats_shares_the_time_among_the_others() -> None:
    clock = Clock(TimeControl.parse("hourglass:30"), 3)
    clock.charge(0, 6.0)
    assert [clock.remaining(s) for s in range(3)] == pytest.approx([24, 33, 33])
    clock.charge(1, 3.0)
    assert [clock.remaining(s) for s in range(3)] == pytest.approx([25.5, 30, 34.5])
    assert sum(clock.remaining(s) for s in range(3)) == pytest.approx(90)


def test_hourglass_overrun() -> None:
    clock = Clock(TimeControl(base=1, hourglass=True, margin=0.05), 2)
    assert clock.charge(0, 1.2).overrun == pytest.approx(0.15)


def test_one_control_per_seat() -> None:
    odds = (TimeControl.parse("10+0.1"), TimeControl.parse("40/5+0"))
    clock = Clock(odds, 2)
    assert clock.times_ms() == (10000, 5000)
    assert clock.incs_ms() == (100, 0)
    assert clock.moves_to_go(0) is None and clock.moves_to_go(1) == 40
    with pytest.raises(ValueError, match="2 time controls for 3 seats"):
        Clock(odds, 3)
    with pytest.raises(ValueError, match="hourglass"):
        Clock((TimeControl.parse("hourglass:5"), TimeControl.parse("5+0")), 2)


def test_per_seat_tag_round_trips() -> None:
    same = (TimeControl.parse("10+0.1"),) * 3
    assert seats_tag(same) == "10+0.1"
    assert parse_seats("10+0.1", 3) == same
    odds = (TimeControl.parse("10+0.1"), TimeControl.parse("40/5+0"))
    assert seats_tag(odds) == "10+0.1,40/5+0"
    assert parse_seats(seats_tag(odds), 2) == odds
    with pytest.raises(ValueError, match="2 per-seat controls for 3 seats"):
        parse_seats("10+0.1,5+0", 3)


def test_audit_finds_a_seat_past_the_end_of_its_session() -> None:
    audit = ClockAudit.of_tags("2/10+0", None, 2)
    assert audit is not None
    assert audit.observe(1, 0, 6.0, 4.0) is None
    assert audit.observe(2, 1, 1.0, 9.0) is None
    late = audit.observe(3, 0, 4.2, 9.8)  # 4 s left before the session's end: 0.15 s past
    assert late is not None and late.late
    assert "seat 1 used 4.200s for ply 3 with 4.000s left" in late.reason


def test_audit_finds_a_time_left_the_control_does_not_give() -> None:
    audit = ClockAudit.of_tags("hourglass:10", "100", 2)
    assert audit is not None
    assert audit.observe(1, 0, 2.0, 8.0) is None
    wrong = audit.observe(2, 1, 1.0, 11.0)  # 10 + 2 - 1 = 11: right
    assert wrong is None
    wrong = audit.observe(3, 0, 1.0, 7.0)  # 8 + 1 - 1 = 8, not 7
    assert wrong is not None and not wrong.late
    assert "reads 7.000s, but hourglass:10 leaves it 8.000s" in wrong.reason


def test_audit_margin_tag_and_blind_records() -> None:
    audit = ClockAudit.of_tags("10+0", "500", 2)
    assert audit is not None
    assert audit.observe(1, 0, 10.4, -0.4) is None  # within the 500 ms margin
    assert ClockAudit.of_tags(None, None, 2) is None
    assert ClockAudit.of_tags("?", None, 2) is None
    with pytest.raises(ValueError, match="TimeMargin"):
        ClockAudit.of_tags("10+0", "5s", 2)
    blind = ClockAudit.of_tags("1+0", None, 2)
    assert blind is not None
    assert blind.observe(1, 0, None, None) is None
    assert blind.observe(2, 1, 50.0, None) is None  # unknowable after a move without time


def test_record_tags_carry_what_the_audit_reads_back() -> None:
    from referee.clock_audit import clock_tags

    assert clock_tags(TimeControl.parse("40/60+0.5")) == [("TimeControl", "40/60+0.5")]
    wide = TimeControl.parse("40/60+0.5", margin=0.25)
    assert clock_tags([wide, wide]) == [("TimeControl", "40/60+0.5"), ("TimeMargin", "250")]
    tags = dict(clock_tags([wide, TimeControl.parse("10+0", margin=0.25)]))
    audit = ClockAudit.of_tags(tags["TimeControl"], tags["TimeMargin"], 2)
    assert audit is not None
    assert audit.observe(1, 1, 10.2, -0.2) is None  # within the 250 ms margin of seat 2
