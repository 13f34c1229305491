"""``record_text``, the tournament's one-pass record writer: the text of
``format_record(build_record(...))`` to the character, and what ``build_record`` refuses
refused with the same error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import Outcome, Termination
from referee.record import MoveEntry, build_record, format_record, record_text, timing_comment
from referee.record.model import MOVE_NUMBER, MOVE_TOKEN
from referee.registry import make_game

GAME = make_game("trike")
WON = Outcome(Termination.RULES, (0, 1), (4.0, 3.0), None, "pawn trapped")
LOST = Outcome(Termination.ILLEGAL_MOVE, (1, 0), (), 0, "seat 1 (a) plays illegal move 'z9'")
TAGS = [("Event", "club \x01 night"), ("Round", "3"), ("Seed", "17")]

_tokens = st.from_regex(MOVE_TOKEN, fullmatch=True).filter(lambda t: not MOVE_NUMBER.fullmatch(t))
_odd = st.sampled_from(["", "e 3", "12.", "3...", "a{b", 'a"b', "é3", "a\x00", "a\nb"])
_comment = st.builds(timing_comment, st.floats(0, 100), st.none() | st.floats(-1, 100))
_odd_comment = st.sampled_from(["a } b", "x\n\n[Event", "ok\nfine", "{ok", ""])


def both(moves: list[str], comments: list[str], outcome: Outcome | None) -> tuple[str, str]:
    """(what ``record_text`` gives or raises, what ``format_record(build_record)`` does)."""

    def fast() -> str:
        return record_text(GAME, ["a", "b"], moves, comments, outcome, TAGS, start=None)

    def slow() -> str:
        entries = [MoveEntry(m, c) for m, c in zip(moves, comments, strict=True)]
        return format_record(build_record(GAME, ["a", "b"], entries, outcome, TAGS))

    results = []
    for make in (fast, slow):
        try:
            results.append(make())
        except ValueError as error:
            results.append(f"{type(error).__name__}: {error}")
    return results[0], results[1]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(_tokens | _odd, _comment | _odd_comment), max_size=30),
    st.sampled_from([WON, LOST, None]),
)
def test_the_same_text_or_the_same_error(
    pairs: list[tuple[str, str]], outcome: Outcome | None
) -> None:
    moves = [m for m, _ in pairs]
    comments = [c for _, c in pairs]
    fast, slow = both(moves, comments, outcome)
    assert fast == slow


def test_a_long_game_wraps_as_format_record_does() -> None:
    moves = [f"m{i}" for i in range(300)]
    comments = [timing_comment(i / 7, 100 - i / 7) for i in range(300)]
    fast, slow = both(moves, comments, WON)
    assert fast == slow and fast.count("\n") > 100


@pytest.mark.parametrize(
    ("move", "comment", "message"),
    [
        ("12.", "0.000s", "would read as a move number"),
        ("e 3", "0.000s", "is not a token"),
        ("", "0.000s", "is not a token"),
        ("e3", "a } b", "contains '}'"),
        ("e3", "x\n\n[Event", r"'\[' line after a blank line"),
    ],
)
def test_refused_as_an_entry_is_refused(move: str, comment: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        record_text(GAME, ["a", "b"], ["f2", move], ["0.000s", comment], WON, TAGS)


def test_one_comment_per_move() -> None:
    with pytest.raises(ValueError, match="1 comments for 2 moves"):
        record_text(GAME, ["a", "b"], ["f2", "f6"], ["0.000s"], WON, TAGS)
