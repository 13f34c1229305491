"""A game's moves as the referee sends them: ``MoveHistory`` and ``PositionText`` (pure).

**MoveHistory**: a game's move tokens, grown one move at a time without copying.

The match loop asks for a move on every ply with the whole history (a ``position``
carries the game from its start). A tuple built per ply costs a copy of the history,
and a formatter that reuses the last line must prove the new history extends the last
one: a comparison of the whole prefix. Over a long game both grow with its length.

A ``MoveHistory`` is the first ``len`` tokens of a list that only ever grows. Each
``appended`` history shares that list with the one it came from (the list is copied
only when an older history is extended a second way, which the match loop never
does), so a ply costs O(1), and ``extends`` proves in O(1) that one history continues
another from the same list. It is an immutable ``Sequence[str]``: it compares equal to
the tuple of its tokens, and slicing gives a tuple.

**PositionText**: the ``position`` lines sent to one engine, each built from the last
one. Formatting a line from scratch on every move costs time proportional to the game:
joining and checking 10,000 move tokens takes about half a millisecond of the referee's
time per ply. A session keeps one ``PositionText``: a position that extends the last
one (the same start, the last moves as a prefix) costs only its new moves once the last
line holds ``REUSE_FROM`` moves (a shorter one is cheaper to format whole); any other
is formatted whole. The line is the same either way. The prefix is proved in O(1) for
two histories of one list, by comparing the moves for other sequences.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import overload

from protocol.codec import format_command, join_moves
from protocol.messages import Position


class MoveHistory(Sequence[str]):
    """The first ``len(self)`` tokens of a shared, append-only list (module docstring)."""

    __slots__ = ("_items", "_len")

    def __init__(self, moves: Iterable[str] = ()) -> None:
        self._items: list[str] = list(moves)
        self._len = len(self._items)

    @classmethod
    def _view(cls, items: list[str], length: int) -> MoveHistory:
        history = cls.__new__(cls)
        history._items, history._len = items, length
        return history

    def appended(self, move: str) -> MoveHistory:
        """This history and ``move``: O(1) when this is the longest history of its list."""
        items = self._items
        if len(items) != self._len:
            items = items[: self._len]  # a second branch from an older history: copy
        items.append(move)
        history = MoveHistory.__new__(MoveHistory)  # ``_view``, inlined: once per ply
        history._items, history._len = items, self._len + 1
        return history

    def extends(self, other: MoveHistory) -> bool:
        """Whether ``other`` is a prefix of this history; O(1) for histories of one list."""
        if other._items is self._items:
            return other._len <= self._len
        return other._len <= self._len and self[: other._len] == tuple(other)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step < 0:  # a stop of -1 would mean the list's end: slice a copy instead
                return tuple(self)[index]
            return tuple(self._items[start:stop:step])
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("move history index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[str]:
        return islice(self._items, self._len)

    def __contains__(self, value: object) -> bool:
        try:
            self._items.index(value, 0, self._len)  # type: ignore[arg-type]
        except ValueError:
            return False
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MoveHistory):
            if other._items is self._items:
                return other._len == self._len
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"MoveHistory({list(self)!r})"


def as_history(moves: Sequence[str]) -> MoveHistory:
    """``moves`` as a ``MoveHistory`` (itself if it is one)."""
    return moves if isinstance(moves, MoveHistory) else MoveHistory(moves)


REUSE_FROM = 256
"""Moves the last line must hold before the next one is built from it: below that,
formatting the whole line (a join and a check in C) costs less than proving the prefix
and slicing off the new moves in Python."""


class PositionText:
    """Formats ``position`` commands, reusing the text of the last one (module docstring)."""

    __slots__ = ("_line", "_moves", "_reuse_from", "_start")

    def __init__(self, reuse_from: int = REUSE_FROM) -> None:
        self._reuse_from = max(reuse_from, 1)
        """Moves the last line must hold to be reused (``REUSE_FROM``; tests lower it)."""
        self._start: str | None = None
        self._moves: Sequence[str] = ()
        self._line = ""

    def format(self, position: Position) -> str:
        """The wire line of ``position``, as ``format_command`` gives it.

        :raises ProtocolViolation: a move or the start is not a token (nothing is kept).
        """
        moves, known = position.moves, self._moves
        done = len(known)
        if done >= self._reuse_from and position.state == self._start and _extends(moves, known):
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
