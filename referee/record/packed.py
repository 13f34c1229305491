"""Many short strings in little memory: the moves and comments of a parsed record.

A record game may be up to ``referee.record.stream.MAX_GAME_BYTES`` long; as Python
objects, a game of millions of two-byte moves would cost over 100 bytes a move (an
object and a string each, and the lists that collect them). ``Strings`` keeps them as
one string and an array of end offsets: about one byte a character plus four a string.
``StringsBuilder`` collects them without holding one object per string (it joins every
``CHUNK`` strings as it goes); ``Joiner`` does the same for the parts of one string that
grows piece by piece (the comments after one move), without quadratic copying.

Pure data, no import from the rest of the package.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

CHUNK = 4096
"""Strings joined at a time while building."""


class Strings(Sequence[str]):
    """An immutable sequence of strings stored as one text and their end offsets."""

    __slots__ = ("_ends", "_text")

    def __init__(self, text: str = "", ends: array[int] | None = None) -> None:
        """``ends[i]`` is where string ``i`` ends in ``text`` (string 0 starts at 0).

        :raises ValueError: ``ends`` is not an ``'I'`` array of non-decreasing offsets
            within ``text`` (checked cheaply: its type code and its last offset).
        """
        ends = array("I") if ends is None else ends
        if (
            ends.typecode != "I"
            or (len(ends) and ends[-1] != len(text))
            or (not len(ends) and text)
        ):
            raise ValueError("ends must be an 'I' array whose last offset is the text's length")
        self._text = text
        self._ends = ends

    def __len__(self) -> int:
        return len(self._ends)

    def _at(self, index: int) -> str:
        start = self._ends[index - 1] if index else 0
        return self._text[start : self._ends[index]]

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        """One string, or a slice as a tuple.

        :raises IndexError: ``index`` out of range.
        """
        if isinstance(index, slice):
            return tuple(self._at(k) for k in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("string index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[str]:
        text, start = self._text, 0
        for end in self._ends:
            yield text[start:end]
            start = end

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Strings):
            return self._text == other._text and self._ends == other._ends
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Strings({list(self)!r})"

    def __reduce__(self) -> tuple[type[Strings], tuple[str, array[int]]]:
        return Strings, (self._text, self._ends)


class StringsBuilder:
    """Collects strings into a ``Strings`` (``CHUNK`` of them held as objects at most)."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._part: list[str] = []
        self._ends = array("I")
        self._size = 0

    def _reset(self) -> None:
        self._chunks, self._part, self._ends, self._size = [], [], array("I"), 0

    def __len__(self) -> int:
        return len(self._ends)

    def add(self, text: str) -> None:
        """Append ``text``.

        :raises OverflowError: the texts exceed 4 GiB characters (an ``'I'`` offset).
        """
        self._part.append(text)
        self._size += len(text)
        self._ends.append(self._size)
        if len(self._part) >= CHUNK:
            self._chunks.append("".join(self._part))
            self._part.clear()

    def build(self) -> Strings:
        """The strings added, in order (the builder is then empty)."""
        text = "".join([*self._chunks, *self._part])
        built = Strings(text, self._ends)
        self._reset()
        return built


class Joiner:
    """One string made of parts joined by a separator, added one at a time."""

    def __init__(self, separator: str = " ") -> None:
        self.separator = separator
        self._chunks: list[str] = []
        self._part: list[str] = []

    def __bool__(self) -> bool:
        return bool(self._part or self._chunks)

    def add(self, text: str) -> None:
        """Append ``text`` as the next part."""
        self._part.append(text)
        if len(self._part) >= CHUNK:
            self._chunks.append(self.separator.join(self._part))
            self._part.clear()

    def text(self) -> str:
        """The parts joined; the joiner is then empty."""
        if self._part:
            self._chunks.append(self.separator.join(self._part))
        joined = self.separator.join(self._chunks)
        self._chunks, self._part = [], []
        return joined
