"""The per-move record comment: timing plus d=/n=/s=, written and read back; old comments."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.search_info import NO_SEARCH, ForcedWin, SearchInfo, Shares
from referee.record import MoveEntry, format_record, parse_records, timing_comment
from referee.record.comment import (
    MoveComment,
    format_move_comment,
    parse_move_comment,
    read_words,
)
from referee.record.model import GameRecord


def test_the_issue_example() -> None:
    search = SearchInfo(depth=7, nodes=20450, score=Shares((700, 300)), pv=("e3",))
    text = format_move_comment(0.4121, 9.5879, search)
    assert text == "0.412s 9.588s d=7 n=20450 s=700,300"
    assert parse_move_comment(text) == MoveComment(
        0.412, 9.588, depth=7, nodes=20450, score=Shares((700, 300))
    )
    assert format_move_comment(0.4, None, SearchInfo(score=ForcedWin(5))) == "0.400s s=win5"
    assert parse_move_comment("0.400s s=win5").score == ForcedWin(5)


@pytest.mark.parametrize(
    ("comment", "expected"),
    [
        (None, MoveComment()),
        ("", MoveComment()),
        ("1.234s 58.766s", MoveComment(1.234, 58.766)),  # what the referee wrote before
        ("0.067s", MoveComment(0.067)),
        ("a fine move", MoveComment()),
        ("d=3", MoveComment(depth=3)),
        ("1.0s d=x n=5 s=600,300 s=500,500", MoveComment(1.0, nodes=5, score=Shares((500, 500)))),
        ("1.0s s=win0 d=2 d=4", MoveComment(1.0, depth=2)),
        ("1.0s 2.0s 3.0s", MoveComment(1.0, 2.0)),
        ("good 1.0s", MoveComment()),  # times come first
    ],
)
def test_reading_comments(comment: str | None, expected: MoveComment) -> None:
    assert parse_move_comment(comment) == expected


seconds = st.floats(0, 10**6, allow_nan=False).map(lambda x: f"{x:.3f}s")
words = st.sampled_from(["1.5s", "d=3", "n=9", "s=600,400", "s=win2", "x", "0.5s", "01.5s", "1.s"])


@given(
    st.one_of(
        st.builds(" ".join, st.lists(seconds, min_size=1, max_size=3)),
        st.builds(" ".join, st.lists(st.one_of(seconds, words), max_size=6)),
        st.text(alphabet=" 0123456789.sdn=,", max_size=20),
    )
)
def test_the_timing_shortcut_reads_what_the_words_read(comment: str) -> None:
    """The referee's own ``used left`` comment is read at once; any comment reads the
    same as word by word."""
    assert parse_move_comment(comment) == (read_words(comment) if comment else MoveComment())


def test_timing_comment_is_the_same_writer() -> None:
    assert timing_comment(1.2344, 58.7656) == "1.234s 58.766s"
    assert timing_comment(1.2344) == "1.234s"
    assert format_move_comment(0.5, 1.0, NO_SEARCH) == "0.500s 1.000s"


def test_the_reader_keeps_them_per_move() -> None:
    tags = (
        ("Game", "trike"),
        ("Options", "size=9,mode=zero,pie=yes"),
        ("RulesVersion", "1"),
        ("Players", "2"),
        ("Seat1", "a"),
        ("Seat2", "b"),
        ("Result", "*"),
        ("Termination", "void"),
    )
    moves = (
        MoveEntry("e3", "0.100s 9.900s d=4 n=900 s=550,450"),
        MoveEntry("swap", "0.200s 9.800s"),
        MoveEntry("d2", None),
    )
    (record,) = parse_records(format_record(GameRecord(tags, moves)))
    notes = [move.note for move in record.moves]
    assert notes[0] == MoveComment(0.1, 9.9, 4, 900, Shares((550, 450)))
    assert notes[1] == MoveComment(0.2, 9.8) and notes[1].search is NO_SEARCH
    assert notes[2] == MoveComment()
    assert notes[0].search == SearchInfo(depth=4, nodes=900, score=Shares((550, 450)))


counts = st.one_of(st.none(), st.integers(0, 10**15))


@st.composite
def scores(draw: st.DrawFn) -> Shares | ForcedWin | None:
    kind = draw(st.sampled_from(["none", "shares", "win"]))
    if kind == "none":
        return None
    if kind == "win":
        return ForcedWin(draw(st.integers(1, 10**9)))
    first = draw(st.integers(0, 1000))
    second = draw(st.integers(0, 1000 - first))
    return Shares((first, second, 1000 - first - second))


@given(
    st.integers(0, 10**6).map(lambda ms: ms / 1000),
    st.one_of(st.none(), st.integers(0, 10**6).map(lambda ms: ms / 1000)),
    counts,
    counts,
    scores(),
)
def test_written_comments_read_back(
    used: float,
    remaining: float | None,
    depth: int | None,
    nodes: int | None,
    score: Shares | ForcedWin | None,
) -> None:
    search = SearchInfo(depth=depth, nodes=nodes, score=score)
    note = parse_move_comment(format_move_comment(used, remaining, search))
    assert note == MoveComment(used, remaining, depth, nodes, score)
