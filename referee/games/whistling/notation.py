"""Whistling Captures cell names, move text, position text and diagrams (no rules).

**Cells** use the source's doubled-width notation (docs/rules/whistling-captures.md): a column
letter ``a``–``z`` then ``A``–``O`` (``L`` = 0..40; case matters) followed by the row
``1``–``21`` (top to bottom, no leading zero). A cell exists iff ``L + row`` is odd
and ``|row - 11| <= L <= 40 - |row - 11|``; the centre is ``u11``. Axial
``r = row - 11``, ``q = (L - row - 9) / 2``. A column is a vertical line through
every other row, not a direction of movement.

**Moves** (docs/rules/whistling-captures.md): ``FROM-TO`` a slide (a plain move, or a one-leg
whistle: its victims follow from the position); ``P0-P1-…-Pm`` a whistling chain
through every pivot, ``Pm`` its last cell; ``FROMxTO`` a crush. A cell is always one
letter followed by digits, so ``x`` is read as a column letter right after ``-`` or
``x`` and as the crush mark right after a row number (``x20xw19``).

**Position token**: four fields joined by ``:``::

    rows:seat:quiet:ply

``rows`` are the 21 screen rows from the top joined by ``/``, left to right (11, 12,
…, 21, …, 11 cells): ``.`` empty, ``x`` a stone of seat 1 (X), ``o`` of seat 2 (O);
``seat`` is ``1``, ``2`` or ``-`` (game over); ``quiet`` counts the plies since the
last capture; ``ply`` the moves played.
"""

from __future__ import annotations

import re

from referee.errors import InvalidMoveError
from referee.games.hex import hex_board
from referee.games.hex.rows_token import RowsToken

SIDE = 11
BOARD = hex_board(SIDE)
"""The 331-cell board."""
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO"
"""Column letters, ``L`` = index."""
CRUSH = -1
"""Third element of a crush move."""
Move = tuple[int, ...]


def _column(q: int, r: int) -> int:
    return 2 * q + r + 20


NAMES: dict[int, str] = {
    s: f"{LETTERS[_column(q, r)]}{r + 11}" for s, (q, r) in BOARD.coords.items()
}
"""Slot to cell name."""
CELLS: dict[str, int] = {name: s for s, name in NAMES.items()}
"""Cell name to slot; exactly the canonical names."""
ROWS: list[list[int]] = [
    [s for s in BOARD.cells if BOARD.coords[s][1] == r] for r in range(-10, 11)
]
"""The slots of each screen row, top to bottom, left to right."""

_DIGITS = frozenset("0123456789")


def parse_move(text: str) -> Move:
    """The move tuple of canonical move text (see the module doc); legality is not checked.

    :raises InvalidMoveError: not a chain of two or more cells joined by ``-``, nor two
        cells joined by ``x``, or a cell name that is not canonical.
    """
    # Fast path for well-formed text; anything else gets the exact error below.
    cells_of = CELLS
    if "-" in text:
        path = tuple([cells_of.get(name, -1) for name in text.split("-")])
        if -1 not in path:
            return path
    else:
        crush = _CRUSH_TEXT.fullmatch(text)
        if crush is not None:
            a, b = cells_of.get(crush[1], -1), cells_of.get(crush[2], -1)
            if a >= 0 and b >= 0:
                return (a, b, CRUSH)
    return _parse_slowly(text)


_CRUSH_TEXT = re.compile(r"([A-Za-z][0-9]+)x([A-Za-z][0-9]+)")


def _parse_slowly(text: str) -> Move:
    cells: list[int] = []
    crush = False
    i, n = 0, len(text)
    while True:
        j = i + 1
        while j < n and text[j] in _DIGITS:
            j += 1
        cell = CELLS.get(text[i:j])
        if cell is None:
            raise InvalidMoveError(
                f"invalid whistling-captures move {text!r}: bad cell {text[i:j]!r} "
                "(a column letter a..z or A..O, then the row 1..21, e.g. 'u11')"
            )
        cells.append(cell)
        if j == n:
            break
        if text[j] == "x" and not crush and len(cells) == 1:
            crush = True
        elif text[j] != "-" or crush:
            raise InvalidMoveError(
                f"invalid whistling-captures move {text!r}: expected 'FROM-TO', "
                "'P0-P1-...-Pm' or 'FROMxTO'"
            )
        i = j + 1
    if len(cells) < 2:
        raise InvalidMoveError(
            f"invalid whistling-captures move {text!r}: expected 'FROM-TO', "
            "'P0-P1-...-Pm' or 'FROMxTO'"
        )
    if crush:
        return (cells[0], cells[1], CRUSH)
    return tuple(cells)


def format_move(move: Move) -> str:
    """Canonical move text.

    :raises InvalidMoveError: ``move`` is not a path of two or more cells or a crush.
    """
    try:
        if len(move) == 3 and move[2] == CRUSH:
            return f"{NAMES[move[0]]}x{NAMES[move[1]]}"
        if len(move) >= 2:
            return "-".join(NAMES[cell] for cell in move)
    except (KeyError, TypeError):
        pass
    raise InvalidMoveError(f"not a whistling-captures move: {move!r}")


TOKEN = RowsToken("whistling-captures", ROWS, "xo", "21 rows of 11..21..11 cells")
"""The position token (see the module doc): ``x`` seat 1's stones, ``o`` seat 2's."""
encode = TOKEN.encode
decode = TOKEN.decode


def render(stones: tuple[int, int]) -> str:
    """The board as in the source: column letters on top, row numbers on the left, each
    cell under its letter; ``x`` seat 1's stones, ``o`` seat 2's."""
    x, o = stones
    lines = ["   " + LETTERS]
    for number, row in enumerate(ROWS, 1):
        chars = [" "] * len(LETTERS)
        for s in row:
            q, r = BOARD.coords[s]
            chars[_column(q, r)] = "x" if x >> s & 1 else ("o" if o >> s & 1 else ".")
        lines.append(f"{number:>2} {''.join(chars).rstrip()}")
    return "\n".join(lines)
