"""``go … movestogo <m>``: the optional item of moves-per-session controls (SPEC.md §3)."""

from __future__ import annotations

import pytest

from protocol.codec import format_command, parse_command
from protocol.errors import ProtocolViolation
from protocol.messages import Go


def test_movestogo_follows_the_clock_lists_and_reads_back() -> None:
    go = Go((60000, 59000), (500, 500), movestogo=37)
    line = format_command(go)
    assert line == "go time 60000,59000 inc 500,500 movestogo 37"
    assert parse_command(line) == go
    limited = Go((1000,), (0,), nodes=50, movestogo=1)
    assert format_command(limited) == "go nodes 50 time 1000 inc 0 movestogo 1"
    assert parse_command(format_command(limited)) == limited


def test_without_sessions_the_line_is_unchanged() -> None:
    assert format_command(Go((1000, 1000), (10, 10))) == "go time 1000,1000 inc 10,10"


@pytest.mark.parametrize(
    "go",
    [Go(movestogo=3), Go(movetime=100, movestogo=3), Go((1,), (0,), movestogo=0)],
)
def test_movestogo_needs_the_clock_lists_and_a_positive_count(go: Go) -> None:
    with pytest.raises(ProtocolViolation):
        format_command(go)


@pytest.mark.parametrize(
    "line",
    ["go time 1,1 inc 0,0 movestogo 0", "go time 1,1 inc 0,0 movestogo", "go movestogo 3"],
)
def test_bad_movestogo_lines_are_violations(line: str) -> None:
    with pytest.raises(ProtocolViolation):
        parse_command(line)
