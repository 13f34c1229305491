"""``GameNumbers``: a compact set of game numbers (which games a reader has counted).

A bit per number below ``DENSE`` (a million games take 128 kB, not the ~40 MB of a set
of ints), a plain set for any other. ``to_json`` packs the bits with zlib (the numbers
of an event are dense: a million of them pack to a few hundred bytes).
"""

from __future__ import annotations

import base64
import zlib
from typing import Any


class GameNumbers:
    """A set of game numbers; see the module docstring."""

    DENSE = 1 << 27

    __slots__ = ("_bits", "_count", "_other")

    def __init__(self) -> None:
        self._bits = bytearray()
        self._other: set[int] = set()
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int):
            return False
        if not 0 <= number < self.DENSE:
            return number in self._other
        byte, bit = divmod(number, 8)
        return byte < len(self._bits) and bool(self._bits[byte] >> bit & 1)

    def add(self, number: int) -> bool:
        """Add ``number``; False if it was there already."""
        if not 0 <= number < self.DENSE:
            if number in self._other:
                return False
            self._other.add(number)
            self._count += 1
            return True
        byte, bit = divmod(number, 8)
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits))))
        if self._bits[byte] >> bit & 1:
            return False
        self._bits[byte] |= 1 << bit
        self._count += 1
        return True

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (``from_json`` gives the same set back)."""
        packed = base64.b64encode(zlib.compress(bytes(self._bits.rstrip(b"\0")))).decode()
        return {"count": self._count, "bits": packed, "other": sorted(self._other)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameNumbers:
        """The inverse of ``to_json``.

        :raises ValueError, KeyError, TypeError: not such a dict (or its count is wrong).
        """
        numbers = cls()
        try:
            numbers._bits = bytearray(zlib.decompress(base64.b64decode(data["bits"])))
        except zlib.error as exc:
            raise ValueError(f"bad bits: {exc}") from None
        numbers._other = {int(n) for n in data["other"]}
        if any(0 <= n < cls.DENSE for n in numbers._other):
            raise ValueError("a dense number among the others")
        numbers._count = int.from_bytes(numbers._bits).bit_count() + len(numbers._other)
        if numbers._count != int(data["count"]):
            raise ValueError("the count does not match the numbers")
        return numbers
