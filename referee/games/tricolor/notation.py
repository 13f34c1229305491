"""Tricolor position text and diagrams (pure text, no rules).

The position token is six fields joined by ``:``::

    n:rim:rows:scores:seat:last
    2:rim:.../o.../..y./..:-1,0:1:2

- ``n``: board side, decimal; ``rim``: ``rim`` or ``norim`` (the ``rim-crowns`` option);
- ``rows``: the R triangles row by row, ``i`` from ``n-1`` down to ``-n``, each row ``j``
  ascending over its valid cells, rows joined by ``/``. A character is ``.`` when no
  piece has that R triangle, else the lower-case letter ``o``, ``g`` or ``y`` of the piece
  ``O(i,j)``, ``G(i,j)`` or ``Y(i,j)`` there (every piece holds exactly one R triangle);
- ``scores``: each seat's points in seat order, joined by ``,`` (their count is the
  number of seats); ``seat``: the seat to move, 1-based, ``-`` when the game is over;
- ``last``: the seat that made the last placement, 1-based, ``-`` on the empty board.

The number of placements (and so the colour required next) is the number of pieces.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from referee.errors import InvalidPositionError
from referee.games.tricolor.geometry import LETTERS, Board, board_for

_PIECE_CHARS = {"o": 0, "g": 1, "y": 2}
_LOWER = "ogy"
_SCORE = re.compile(r"-?(?:0|[1-9][0-9]{0,8})")
_NUMBER = re.compile(r"[1-9][0-9]{0,5}")
_NOT_ROWS = str.maketrans("", "", "./ogy")
"""Deletes the characters a rows field may hold."""
_COLOUR_BITS = tuple(
    str.maketrans({ch: "1" if ch == mine else "0" for ch in "." + _LOWER}) for mine in _LOWER
)
"""Per colour, the cell characters to ``1`` for a piece of that colour, else ``0``."""


class RawPosition(NamedTuple):
    """The fields of a position token, parsed and checked for shape, not against the rules."""

    n: int
    rim_crowns: bool
    placed: int
    """Mask of the placed move ids."""
    covered: int
    """Coverage mask of their triangles (no two pieces overlap)."""
    scores: tuple[int, ...]
    turn: int
    """0-based seat to move, -1 when the token says the game is over."""
    last: int
    """0-based seat of the last placement, -1 for none."""


@cache
def _row_padding(n: int) -> tuple[tuple[str, str], ...]:
    """Per row of R triangles, ``i`` from ``-n`` up, the ``.`` that pad it to the layout's
    ``W`` cells: for the cells before its first (``j`` from ``-n``) and after its last."""
    board = board_for(n)
    pads = []
    for cells in reversed(board.r_rows):
        left = cells[0] % board.width
        pads.append(("." * left, "." * (board.width - left - len(cells))))
    return tuple(pads)


def seat_text(seat: int) -> str:
    return "-" if seat < 0 else str(seat + 1)


def encode(
    board: Board, rim_crowns: bool, placed: int, scores: tuple[int, ...], turn: int, last: int
) -> str:
    """The position token (see the module doc)."""
    plane, slot = board.plane, board.slot
    chars = list(board.rows_template)
    rest = placed
    while rest:
        low = rest & -rest
        colour, cell = divmod(low.bit_length() - 1, plane)
        chars[slot[cell]] = _LOWER[colour]
        rest ^= low
    return ":".join(
        (
            str(board.n),
            "rim" if rim_crowns else "norim",
            "".join(chars),
            ",".join(str(s) for s in scores),
            seat_text(turn),
            seat_text(last),
        )
    )


def _seat(word: str, text: str, what: str) -> int:
    if word == "-":
        return -1
    if not _NUMBER.fullmatch(word):
        raise InvalidPositionError(f"tricolor position {text!r}: bad {what} {word!r}")
    return int(word) - 1


def decode(text: str) -> RawPosition:
    """Split and parse a position token.

    :raises InvalidPositionError: wrong field count, side, option word, row shape,
        piece character, a piece off the board or overlapping another, bad scores or seats.
    """
    fields = text.split(":")
    if len(fields) != 6:
        raise InvalidPositionError(
            f"bad tricolor position {text!r}: expected n:rim:rows:scores:seat:last"
        )
    n_word, rim_word, rows_word, scores_word, seat_word, last_word = fields
    if not _NUMBER.fullmatch(n_word):
        raise InvalidPositionError(f"tricolor position {text!r}: bad board side {n_word!r}")
    if rim_word not in ("rim", "norim"):
        raise InvalidPositionError(f"tricolor position {text!r}: expected 'rim' or 'norim'")
    board = board_for(int(n_word))
    template = board.rows_template
    if len(rows_word) != len(template) or [len(r) for r in rows_word.split("/")] != [
        len(r) for r in board.r_rows
    ]:
        shape = "/".join(str(len(cells)) for cells in board.r_rows)
        raise InvalidPositionError(
            f"tricolor position {text!r}: expected rows of {shape} cells joined by '/'"
        )
    placed, covered = _pieces(board, rows_word, text)
    words = scores_word.split(",")
    if not all(_SCORE.fullmatch(w) and w != "-0" for w in words):
        raise InvalidPositionError(
            f"tricolor position {text!r}: scores must be integers joined by ','"
        )
    scores = tuple(int(w) for w in words)
    turn = _seat(seat_word, text, "seat")
    last = _seat(last_word, text, "last placer")
    return RawPosition(board.n, rim_word == "rim", placed, covered, scores, turn, last)


def _pieces(board: Board, rows_word: str, text: str) -> tuple[int, int]:
    """The placed mask and the coverage mask of the rows field (of the right shape).

    :raises InvalidPositionError: a bad piece character, a piece off the board or
        overlapping another: the first such fault in reading order.
    """
    found = _pieces_by_plane(board, rows_word)
    return found if found is not None else _pieces_one_by_one(board, rows_word, text)


def _pieces_by_plane(board: Board, rows_word: str) -> tuple[int, int] | None:
    """``_pieces`` for a rows field without fault, in a few whole-plane operations: the
    rows padded into the cell layout, one cell mask per colour read as a binary number.
    None when the field has any fault, which ``_pieces_one_by_one`` then names."""
    if rows_word.translate(_NOT_ROWS):
        return None  # a character other than . o g y /
    rows = rows_word.split("/")
    # The field's rows run from i = n-1 down, the cells from i = -n up; reversed, the
    # highest cell comes first, as ``int(…, 2)`` reads its digits.
    cells_text = "".join(
        f"{left}{row}{right}"
        for row, (left, right) in zip(reversed(rows), _row_padding(board.n), strict=True)
    )[::-1]
    mine = [int(cells_text.translate(table), 2) for table in _COLOUR_BITS]
    if any(cells & ~valid for cells, valid in zip(mine, board.valid, strict=True)):
        return None  # a piece off the board
    # Each piece holds the R triangle of its own cell, so only L triangles can be shared.
    width, plane = board.width, board.plane
    l_cells = (mine[0] >> 1, mine[1], mine[2] >> width)  # the cells of ``l_offset``
    if l_cells[0] & l_cells[1] or l_cells[0] & l_cells[2] or l_cells[1] & l_cells[2]:
        return None  # two pieces on one L triangle
    placed = mine[0] | mine[1] << plane | mine[2] << (2 * plane)
    covered = mine[0] | mine[1] | mine[2] | (l_cells[0] | l_cells[1] | l_cells[2]) << plane
    return placed, covered


def _pieces_one_by_one(board: Board, rows_word: str, text: str) -> tuple[int, int]:
    """``_pieces``, piece after piece in reading order, raising at the first fault."""
    placed = covered = 0
    cells = board.slot_cells
    plane = board.plane
    for at, ch in enumerate(rows_word):
        if ch in "./":
            continue
        colour = _PIECE_CHARS.get(ch, -1)
        if colour < 0:
            raise InvalidPositionError(
                f"tricolor position {text!r}: bad piece {ch!r} (expected . o g y)"
            )
        cell = cells[at]
        move = colour * plane + cell
        cover = board.tmask[move]
        if not cover:
            i, j = board.coords[cell]
            raise InvalidPositionError(
                f"tricolor position {text!r}: {LETTERS[colour]}({i},{j}) is off the board"
            )
        if covered & cover:
            raise InvalidPositionError(
                f"tricolor position {text!r}: {board.names[move]} overlaps another piece"
            )
        placed |= 1 << move
        covered |= cover
    return placed, covered


def _triangle_at(n: int, row: int, j: int) -> tuple[str, int] | None:
    """Which triangle of column ``j`` is drawn on text row ``row`` (``2y``), with its ``i``."""
    if (row - j - 1) % 2 == 0:
        i = (row - j - 1) // 2
        if -n <= i <= n - 1 and -n <= i + j <= n - 1:
            return "R", i
        return None
    i = (row - j - 2) // 2
    if -n <= i <= n - 1 and -n - 1 <= i + j <= n - 2:
        return "L", i
    return None


def render(board: Board, placed: int) -> str:
    """The hexagon, vertical sides left and right, one character per triangle.

    Column ``j`` (labelled below) is the strip of triangles between the vertices
    ``V(·,j)`` and ``V(·,j+1)``; row ``r`` (labelled left) is twice the height of a
    triangle's centre, so ``R(i,j)`` is on row ``2i+j+1`` and ``L(i,j)`` on ``2i+j+2``.
    An empty triangle is ``>`` (R) or ``<`` (L); a covered one shows its piece's letter,
    upper case on the piece's R triangle and lower case on its L triangle: ``o O`` side
    by side is an orange piece, ``g`` above ``G`` green, ``y`` below ``Y`` yellow.
    """
    n, plane = board.n, board.plane
    marks: dict[tuple[str, int], str] = {}
    for colour in range(3):
        for cell in range(plane):
            if placed >> (colour * plane + cell) & 1:
                move = colour * plane + cell
                cover = board.tmask[move]
                r_cell = (cover & -cover).bit_length() - 1
                l_cell = (cover >> plane).bit_length() - 1
                marks[("R", r_cell)] = LETTERS[colour]
                marks[("L", l_cell)] = LETTERS[colour].lower()
    lines = []
    for row in range(2 * n - 1, -2 * n, -1):
        line = f"{row:>3} "
        for j in range(-n, n):
            found = _triangle_at(n, row, j)
            if found is None:
                ch = " "
            else:
                kind, i = found
                ch = marks.get((kind, board.cell(i, j)), ">" if kind == "R" else "<")
            line += f"{ch:>3}"
        lines.append(line.rstrip())
    lines.append("  j " + "".join(f"{j:>3}" for j in range(-n, n)))
    return "\n".join(lines)
