"""Trike position text and diagrams (pure text, no rules).

The position token is seven fields joined by ``:``::

    size:mode:pie:rows:pawn:seat:ply
    9:zero:pie:./../x../.o.o/...../....../......./......../.........:d2:1:3

- ``size``: board side, decimal; ``mode``: ``zero``, ``even`` or ``odd``;
  ``pie``: ``pie`` or ``nopie`` (the option; a swap is legal exactly at ply 1);
- ``rows``: one string per row from the apex, joined by ``/``, row ``r`` holding
  ``r + 1`` characters: ``.`` empty, ``x`` a checker of seat 1, ``o`` one of seat 2;
- ``pawn``: the pawn's cell name, ``-`` before the first move;
- ``seat``: the seat to move, 1-based, ``-`` when the game is over;
- ``ply``: moves played so far (the swap counts), decimal.

Whether a swap happened follows from ``ply`` minus the number of checkers.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.errors import InvalidPositionError
from referee.games.trike.board import MAX_SIZE, MIN_SIZE, Board, board_for

_CELL_CHARS = ".xo"
_CHAR_VALUE = {ch: i for i, ch in enumerate(_CELL_CHARS)}
_TO_CHARS = bytes.maketrans(bytes(range(3)), _CELL_CHARS.encode("ascii"))
_SEAT_TEXT = {-1: "-", 0: "1", 1: "2"}
_TEXT_SEAT = {text: seat for seat, text in _SEAT_TEXT.items()}


class RawPosition(NamedTuple):
    """The fields of a position token, parsed but not checked against the rules."""

    size: int
    mode: str
    pie: bool
    cells: bytes
    pawn: int
    turn: int
    ply: int


def encode(board: Board, mode: str, pie: bool, cells: bytes, pawn: int, turn: int, ply: int) -> str:
    """The position token (see the module doc)."""
    chars = cells.translate(_TO_CHARS).decode("ascii")
    rows = "/".join(chars[r * (r + 1) // 2 : (r + 1) * (r + 2) // 2] for r in range(board.size))
    where = "-" if pawn < 0 else board.names[pawn]
    return (
        f"{board.size}:{mode}:{'pie' if pie else 'nopie'}:{rows}:{where}:{_SEAT_TEXT[turn]}:{ply}"
    )


def _number(word: str, what: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or (word != "0" and word[0] == "0") or len(word) > 6:
        raise InvalidPositionError(f"bad {what} {word!r} in trike position {text!r}")
    return int(word)


def decode(text: str) -> RawPosition:
    """Split and parse a position token.

    :raises InvalidPositionError: wrong field count, size, row shape, cell
        character, pawn name, seat or ply.
    """
    fields = text.split(":")
    if len(fields) != 7:
        raise InvalidPositionError(
            f"bad trike position {text!r}: expected size:mode:pie:rows:pawn:seat:ply"
        )
    size_word, mode, pie_word, rows_word, pawn_word, seat_word, ply_word = fields
    size = _number(size_word, "size", text)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise InvalidPositionError(f"trike position {text!r}: size {size} is outside 7..19")
    board = board_for(size)
    if mode not in ("zero", "even", "odd"):
        raise InvalidPositionError(f"trike position {text!r}: unknown mode {mode!r}")
    if pie_word not in ("pie", "nopie"):
        raise InvalidPositionError(f"trike position {text!r}: expected 'pie' or 'nopie'")
    rows = rows_word.split("/")
    if len(rows) != size or any(len(row) != r + 1 for r, row in enumerate(rows)):
        raise InvalidPositionError(
            f"trike position {text!r}: expected {size} rows of 1..{size} cells joined by '/'"
        )
    try:
        cells = bytes(_CHAR_VALUE[ch] for ch in "".join(rows))
    except KeyError as err:
        raise InvalidPositionError(
            f"trike position {text!r}: bad cell {err.args[0]!r} (expected . x o)"
        ) from None
    if pawn_word == "-":
        pawn = -1
    elif pawn_word in board.index:
        pawn = board.index[pawn_word]
    else:
        raise InvalidPositionError(f"trike position {text!r}: bad pawn cell {pawn_word!r}")
    if seat_word not in _TEXT_SEAT:
        raise InvalidPositionError(f"trike position {text!r}: seat must be 1, 2 or -")
    ply = _number(ply_word, "ply", text)
    return RawPosition(size, mode, pie_word == "pie", cells, pawn, _TEXT_SEAT[seat_word], ply)


def render(board: Board, cells: bytes, pawn: int) -> str:
    """The triangle, apex on top: row letters on the left, cell numbers under the base.

    Cell ``eK`` is the K-th cell from the left of row ``e``. ``X`` is a checker of
    seat 1, ``O`` one of seat 2, ``.`` an empty cell; the pawn's cell is in brackets.
    """
    size = board.size
    lines = []
    for i, (r, c) in enumerate(board.coords):
        if c == 0:
            lines.append(f"{chr(ord('a') + r)}  " + "  " * (size - 1 - r))
        mark = ".XO"[cells[i]]
        lines[-1] += (f"[{mark}]" if i == pawn else f" {mark} ") + " "
    lines = [line.rstrip() for line in lines]
    lines.append(("   " + " ".join(f"{k:^3}" for k in range(1, size + 1))).rstrip())
    return "\n".join(lines)
