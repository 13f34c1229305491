"""Tricouleur cell names, position text and diagrams (pure text, no rules).

**Cells** use the source's notation (rules file §2.2): a letter ``a``–``o`` (``c``,
``a`` = 1) then a number ``1``–``15`` (``n``, no leading zero), on the board iff
``|c - n| <= 7``. Axial ``q = n - 8``, ``r = c - n``; ``h8`` is the centre, the top
row is ``a8``..``h15``, the middle row ``a1``..``o15``, the bottom row ``h1``..``o8``.

**Position token**: four fields joined by ``:``::

    rows:seat:quiet:ply

- ``rows``: the 15 screen rows from the top, joined by ``/`` (8, 9, …, 15, …, 8
  cells, left to right): ``.`` empty; ``R W B`` red, white, blue stones of seat 1
  (First, the source's marked stones); ``r w b`` those of seat 2 (Second);
- ``seat``: the seat to move, ``1`` or ``2``, or ``-`` when the game is over;
- ``quiet``: plies since the last capture; ``ply``: moves played; decimal.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.errors import InvalidPositionError
from referee.games.hex import HexBoard, bits, hex_board

SIDE = 8
BOARD = hex_board(SIDE)
"""The 169-cell board."""

STONE_CHARS = "RWBrwb"
"""The character of each stone kind ``3 * seat + colour`` (colour 0 red, 1 white, 2 blue)."""
COLOUR_NAMES = ("red", "white", "blue")


def _name(q: int, r: int) -> str:
    return f"{chr(ord('a') + q + r + 7)}{q + 8}"


NAMES: dict[int, str] = {s: _name(q, r) for s, (q, r) in BOARD.coords.items()}
"""Slot to cell name."""
CELLS: dict[str, int] = {name: s for s, name in NAMES.items()}
"""Cell name to slot; exactly the canonical names."""


def rows(board: HexBoard) -> list[list[int]]:
    """The slots of each screen row, top to bottom, left to right."""
    out: dict[int, list[int]] = {}
    for s in board.cells:
        out.setdefault(board.coords[s][1], []).append(s)
    return [out[r] for r in sorted(out)]


ROWS = rows(BOARD)


class RawPosition(NamedTuple):
    """The fields of a position token, parsed but not checked against the rules."""

    stones: tuple[int, ...]
    turn: int
    quiet: int
    ply: int


_SLOTS = max(BOARD.cells) + 1
_ROW_SPANS = [(row[0], row[-1] + 1) for row in ROWS]
"""Each screen row is a run of consecutive slots."""
_KIND_BITS = [
    bytes.maketrans(b".RWBrwb", b"".join(b"1" if i == kind else b"0" for i in range(-1, 6)))
    for kind in range(6)
]


def encode(stones: tuple[int, ...], turn: int, quiet: int, ply: int) -> str:
    """The position token (see the module doc)."""
    chars = bytearray(b"." * _SLOTS)
    for kind, mask in enumerate(stones):
        mark = STONE_CHARS.encode("ascii")[kind]
        for s in bits(mask):
            chars[s] = mark
    text = b"/".join(chars[a:b] for a, b in _ROW_SPANS).decode("ascii")
    return f"{text}:{'-' if turn < 0 else turn + 1}:{quiet}:{ply}"


def number(word: str, what: str, text: str) -> int:
    """A canonical non-negative decimal of at most 6 digits.

    :raises InvalidPositionError: anything else.
    """
    if not (word.isascii() and word.isdigit()) or (word != "0" and word[0] == "0") or len(word) > 6:
        raise InvalidPositionError(f"bad {what} {word!r} in position {text!r}")
    return int(word)


def decode(text: str) -> RawPosition:
    """Split and parse a position token.

    :raises InvalidPositionError: wrong field count, row shape, cell character,
        seat or counters.
    """
    fields = text.split(":")
    if len(fields) != 4:
        raise InvalidPositionError(
            f"bad tricouleur position {text!r}: expected rows:seat:quiet:ply"
        )
    rows_word, seat_word, quiet_word, ply_word = fields
    words = rows_word.split("/")
    if len(words) != len(ROWS) or any(
        len(w) != len(row) for w, row in zip(words, ROWS, strict=False)
    ):
        raise InvalidPositionError(
            f"tricouleur position {text!r}: expected 15 rows of 8..15..8 cells joined by '/'"
        )
    if not rows_word.isascii() or rows_word.encode("ascii").translate(None, b"./RWBrwb"):
        bad = next(ch for ch in rows_word if ch not in "./RWBrwb")
        raise InvalidPositionError(
            f"tricouleur position {text!r}: bad cell {bad!r} (expected . R W B r w b)"
        )
    chars = bytearray(b"." * _SLOTS)
    for word, (a, b) in zip(words, _ROW_SPANS, strict=True):
        chars[a:b] = word.encode("ascii")
    chars.reverse()  # slot 0 is the lowest bit
    stones = [int(chars.translate(table), 2) for table in _KIND_BITS]
    if seat_word not in ("1", "2", "-"):
        raise InvalidPositionError(f"tricouleur position {text!r}: seat must be 1, 2 or -")
    turn = -1 if seat_word == "-" else int(seat_word) - 1
    quiet = number(quiet_word, "no-capture count", text)
    ply = number(ply_word, "ply", text)
    return RawPosition(tuple(stones), turn, quiet, ply)


def render(stones: tuple[int, ...]) -> str:
    """The board as in the rules file: each row between its first and last cell name.

    ``R W B`` are seat 1's (First's) red, white and blue stones, ``r w b`` seat 2's.
    """
    lines = []
    for row in ROWS:
        marks = []
        for s in row:
            mark = "."
            for kind, mask in enumerate(stones):
                if mask >> s & 1:
                    mark = STONE_CHARS[kind]
            marks.append(mark)
        pad = " " * (15 - len(row))
        lines.append(f"{NAMES[row[0]]:>4} {pad}{' '.join(marks)}  {NAMES[row[-1]]}")
    return "\n".join(lines)
