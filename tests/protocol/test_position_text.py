"""``PositionText``: the same lines as ``format_command``, built from the last one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol import codec
from protocol.codec import format_command
from protocol.errors import ProtocolViolation
from protocol.history import REUSE_FROM, MoveHistory, PositionText
from protocol.messages import Position

TOKENS = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=6)


@given(
    st.lists(
        st.tuples(st.sampled_from([None, "s0", "s1"]), st.lists(TOKENS, max_size=12)),
        max_size=12,
    ),
    st.sampled_from([1, 3, REUSE_FROM]),
)
def test_every_line_is_the_formatted_position(
    positions: list[tuple[str | None, list[str]]], reuse_from: int
) -> None:
    text = PositionText(reuse_from)
    for start, moves in positions:
        # Grow each history step by step, then jump to the next (another game, a take-back).
        for ply in range(len(moves) + 1):
            position = Position(tuple(moves[:ply]), start)
            assert text.format(position) == format_command(position)


def test_an_extension_joins_only_the_new_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    joined: list[tuple[str, ...]] = []

    def spy(moves: tuple[str, ...]) -> str:
        joined.append(moves)
        return codec.join_moves(moves)

    text = PositionText()
    moves = tuple(f"m{i}" for i in range(1000))
    first = text.format(Position(moves[:998]))
    monkeypatch.setattr("protocol.history.join_moves", spy)
    assert text.format(Position(moves[:999])) == first + " m998"
    assert text.format(Position(moves)) == first + " m998 m999"
    assert joined == [("m998",), ("m999",)]
    monkeypatch.undo()
    with pytest.raises(ProtocolViolation):
        text.format(Position((*moves, "bad move")))
    # The failed line changed nothing: the next extension still builds on the last good one.
    assert text.format(Position((*moves, "x"))) == first + " m998 m999 x"
    assert text.format(Position(("m0", "other"))) == "position start moves m0 other"


def test_match_loop_histories_are_extended_without_comparing_the_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = PositionText(reuse_from=1)
    history = MoveHistory()
    lines = []
    for move in ("a1", "b2", "c3", "d4"):
        history = history.appended(move)
        lines.append(text.format(Position(history)))
        if len(history) == 2:
            # From here on, a comparison of the moves would fail the test.
            monkeypatch.setattr(MoveHistory, "__eq__", lambda self, other: pytest.fail())
    assert lines[-1] == "position start moves a1 b2 c3 d4"
    assert lines == [format_command(Position(tuple(history[:k]))) for k in range(1, 5)]


def test_a_short_history_is_formatted_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below ``REUSE_FROM`` moves a line is formatted whole (cheaper than the prefix
    proof); from there on only the new moves are joined."""
    text = PositionText()
    moves = tuple(f"m{i}" for i in range(REUSE_FROM + 2))
    joined: list[int] = []

    def spy(moves: tuple[str, ...]) -> str:
        joined.append(len(moves))
        return codec.join_moves(moves)

    monkeypatch.setattr("protocol.history.join_moves", spy)
    for ply in range(REUSE_FROM - 1, REUSE_FROM + 3):
        assert text.format(Position(moves[:ply])) == format_command(Position(moves[:ply]))
    # Lines of REUSE_FROM - 1 and REUSE_FROM moves are whole (format_command), the next
    # two are built from the last line: one new move joined each time.
    assert joined == [1, 1]
