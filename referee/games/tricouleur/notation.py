"""Tricouleur cell names, position text and diagrams (pure text, no rules).

**Cells** use the source's notation (docs/rules/tricouleur.md): a letter ``a``–``o`` (``c``,
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

from referee.games.hex import HexBoard, hex_board
from referee.games.hex.rows_token import RowsToken

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


TOKEN = RowsToken("tricouleur", ROWS, STONE_CHARS, "15 rows of 8..15..8 cells")
"""The position token (see the module doc): ``R W B`` seat 1's stones, ``r w b`` seat 2's."""
encode = TOKEN.encode
decode = TOKEN.decode


def render(stones: tuple[int, ...]) -> str:
    """The board as in docs/rules/tricouleur.md: each row between its first and last cell name.

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
