"""The ``position`` lines sent to one engine, each built from the last one (pure).

A ``position`` line carries the whole game (``protocol/SPEC.md`` §3), so formatting it
from scratch on every move costs time proportional to the game: joining and checking
10,000 move tokens takes about half a millisecond of the referee's time per ply. A
session keeps one ``PositionText``: a position that extends the last one (the same
start, the last moves as a prefix) costs only its new moves; any other is formatted
whole. The line is the same either way. The prefix is proved in O(1) for the match
loop's ``MoveHistory`` (``protocol.history``), by comparing the moves for other
sequences.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.codec import format_command, join_moves
from protocol.history import MoveHistory
from protocol.messages import Position


class PositionText:
    """Formats ``position`` commands, reusing the text of the last one (module docstring)."""

    __slots__ = ("_line", "_moves", "_start")

    def __init__(self) -> None:
        self._start: str | None = None
        self._moves: Sequence[str] = ()
        self._line = ""

    def format(self, position: Position) -> str:
        """The wire line of ``position``, as ``format_command`` gives it.

        :raises ProtocolViolation: a move or the start is not a token (nothing is kept).
        """
        moves, known = position.moves, self._moves
        done = len(known)
        if done and position.state == self._start and _extends(moves, known):
            if len(moves) == done:
                return self._line
            line = f"{self._line} {join_moves(moves[done:])}"
        else:
            line = format_command(position)
        self._start, self._moves, self._line = position.state, moves, line
        return line


def _extends(moves: Sequence[str], known: Sequence[str]) -> bool:
    """Whether ``known`` is a prefix of ``moves``."""
    if isinstance(moves, MoveHistory) and isinstance(known, MoveHistory):
        return moves.extends(known)
    return len(moves) >= len(known) and tuple(moves[: len(known)]) == tuple(known)
