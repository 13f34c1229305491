"""Tricolor geometry: the hexagon of side ``n`` cut into triangles, and its lozenge positions.

Coordinates are those of docs/rules/tricolor.md:

- vertex ``V(i,j)`` sits at ``((√3/2)·j, i + j/2)``; the board holds the vertices with
  ``max(|i|, |j|, |i+j|) <= n`` (rim: equality);
- triangle ``R(i,j)`` (points right) has the vertices ``V(i,j) V(i+1,j) V(i,j+1)``,
  triangle ``L(i,j)`` (points left) ``V(i+1,j) V(i,j+1) V(i+1,j+1)``;
- the lozenge positions are named by colour and their R triangle:
  orange ``O(i,j) = R(i,j) ∪ L(i,j-1)`` (horizontal long diagonal),
  green ``G(i,j) = R(i,j) ∪ L(i,j)`` (rising), yellow ``Y(i,j) = R(i,j) ∪ L(i-1,j)`` (falling).

Bit layout (``board_for`` builds O(n²) tables once per ``n``; the per-move-id views
``tmask``, ``names`` and ``index`` compute their entries on access): with
``W = 2n`` the *cell* of ``(i, j)`` is ``(i+n)·W + (j+n)``, in ``0 .. W²-1``. Triangle
``R(i,j)`` is bit ``cell`` and ``L(i,j)`` bit ``PLANE + cell`` of a coverage mask
(``PLANE = W²``). The position of colour ``c`` at ``(i, j)`` has the id
``c·PLANE + cell``: a move is that int, and the set of placed pieces is a mask of ids.
Because a position's L triangle sits at a fixed cell offset from its R triangle
(``-1`` orange, ``0`` green, ``-W`` yellow), the free positions of one colour are a
few big-int operations (``free_cells``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import overload

ORANGE, GREEN, YELLOW = 0, 1, 2
"""Colour numbers; the k-th placement of a game has colour ``k % 3``."""
LETTERS = "OGY"
"""The move letter of each colour."""
COLOUR_NAMES = ("orange", "green", "yellow")


def vertex_on_board(n: int, i: int, j: int) -> bool:
    """Whether ``V(i,j)`` is a vertex of the board of side ``n``."""
    return max(abs(i), abs(j), abs(i + j)) <= n


def vertex_interior(n: int, i: int, j: int) -> bool:
    """Whether ``V(i,j)`` is an interior vertex (on the board, not on the rim)."""
    return max(abs(i), abs(j), abs(i + j)) < n


def r_valid(n: int, i: int, j: int) -> bool:
    """Whether triangle ``R(i,j)`` is on the board (the inequalities above)."""
    return -n <= i <= n - 1 and -n <= j <= n - 1 and -n <= i + j <= n - 1


def l_valid(n: int, i: int, j: int) -> bool:
    """Whether triangle ``L(i,j)`` is on the board (the inequalities above)."""
    return -n <= i <= n - 1 and -n <= j <= n - 1 and -n - 1 <= i + j <= n - 2


def position_triangles(colour: int, i: int, j: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The ``(i, j)`` of the R and of the L triangle of a position."""
    if colour == ORANGE:
        return (i, j), (i, j - 1)
    if colour == GREEN:
        return (i, j), (i, j)
    return (i, j), (i - 1, j)


def position_valid(n: int, colour: int, i: int, j: int) -> bool:
    """Whether the position of ``colour`` at ``(i, j)`` lies on the board (both triangles)."""
    (ri, rj), (li, lj) = position_triangles(colour, i, j)
    return r_valid(n, ri, rj) and l_valid(n, li, lj)


def position_name(colour: int, i: int, j: int) -> str:
    """Canonical move text, e.g. ``O(-1,0)``."""
    return f"{LETTERS[colour]}({i},{j})"


_NAME = re.compile(r"([OGY])\((0|-?[1-9][0-9]{0,5}),(0|-?[1-9][0-9]{0,5})\)")
"""Canonical move text: the colour letter, ``(i,j)`` in decimal without ``+``, leading zeros
or spaces."""


class CoverMasks(Sequence[int]):
    """Per move id, the coverage bits of its two triangles; 0 if invalid.

    Computed on access (two shifts) instead of stored: at ``n = 64`` a stored table would
    hold 49,152 ints of up to 32,768 bits each.
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __len__(self) -> int:
        return 3 * self._board.plane

    @overload
    def __getitem__(self, move: int) -> int: ...
    @overload
    def __getitem__(self, move: slice) -> Sequence[int]: ...
    def __getitem__(self, move: int | slice) -> int | Sequence[int]:
        if isinstance(move, slice):
            return [self[k] for k in range(len(self))[move]]
        board = self._board
        if move < 0:
            move += 3 * board.plane
        if not 0 <= move < 3 * board.plane:
            raise IndexError(move)
        if not board.valid_ids[move]:
            return 0
        colour, cell = divmod(move, board.plane)
        return (1 << cell) | (1 << (board.plane + cell + board.l_offset[colour]))


class MoveNames(Sequence[str]):
    """Per move id, its canonical text; ``""`` if invalid (computed on first access)."""

    __slots__ = ("_board", "_known")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._known: dict[int, str] = {}

    def __len__(self) -> int:
        return 3 * self._board.plane

    @overload
    def __getitem__(self, move: int) -> str: ...
    @overload
    def __getitem__(self, move: slice) -> Sequence[str]: ...
    def __getitem__(self, move: int | slice) -> str | Sequence[str]:
        if isinstance(move, slice):
            return [self[k] for k in range(len(self))[move]]
        if move < 0:
            move += len(self)
        name = self._known.get(move)
        if name is None:
            board = self._board
            if not 0 <= move < 3 * board.plane:
                raise IndexError(move)
            name = position_name(*board.position_of(move)) if board.valid_ids[move] else ""
            self._known[move] = name
        return name


class MoveIndex(Mapping[str, int]):
    """Canonical text to move id, for exactly the valid positions (parsed on access).

    Iterates in move id order.
    """

    __slots__ = ("_board", "_known")

    def __init__(self, board: Board) -> None:
        self._board = board
        self._known: dict[str, int] = {}
        """The valid texts parsed so far (invalid ones are not kept)."""

    def __getitem__(self, text: str) -> int:
        if type(text) is not str:
            raise KeyError(text)
        move = self._known.get(text)
        if move is not None:
            return move
        board = self._board
        found = _NAME.fullmatch(text)
        if found is None:
            raise KeyError(text)
        i, j = int(found[2]), int(found[3])
        n = board.n
        if not (-n <= i < n and -n <= j < n):
            raise KeyError(text)
        move = board.move_id(LETTERS.index(found[1]), i, j)
        if not board.valid_ids[move]:
            raise KeyError(text)
        self._known[text] = move
        return move

    def __iter__(self) -> Iterator[str]:
        board = self._board
        for move, ok in enumerate(board.valid_ids):
            if ok:
                yield position_name(*board.position_of(move))

    def __len__(self) -> int:
        return 3 * self._board.per_colour


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The precomputed geometry of one board side ``n``. Compare boards by ``n``.

    Everything stored is O(n²) small ints or a handful of masks; the per-move-id views
    (``tmask``, ``names``, ``index``) compute their entries on access.
    """

    n: int
    """Side of the hexagon in triangle edges."""
    width: int
    """``W = 2n``: cells per row of the bit layout."""
    plane: int
    """``W²``: the L-triangle offset in coverage masks and the colour stride of move ids."""
    all_r: int
    """Coverage bits of every R triangle."""
    all_l_cells: int
    """Cell bits of every L triangle (the L plane shifted down by ``plane``)."""
    valid: tuple[int, int, int]
    """Per colour, the cell bits of its valid positions."""
    valid_ids: bytes
    """Per move id (``3·plane`` entries), 1 if it is a position on the board, else 0."""
    l_offset: tuple[int, int, int]
    """Per colour, the cell of a position's L triangle minus the cell of its R triangle."""
    coords: tuple[tuple[int, int], ...]
    """``(i, j)`` of every cell."""
    triangles: int
    """Number of triangles, ``6n²``."""
    per_colour: int
    """Number of positions of each colour, ``3n² - n``."""
    r_rows: tuple[tuple[int, ...], ...]
    """The cells of the R triangles by row ``i`` from ``n-1`` down to ``-n``, ``j`` ascending."""
    rows_template: str
    """The rows of ``r_rows`` as ``.`` per cell, joined by ``/`` (the empty board's text)."""
    slot: tuple[int, ...]
    """Per cell, the index of its character in ``rows_template``."""
    slot_cells: tuple[int, ...]
    """Per character of ``rows_template``, its cell (-1 for a ``/``)."""
    byte_moves: tuple[tuple[dict[int, tuple[int, ...]], ...], ...]
    """Per colour and byte ``k`` of a cell mask, byte value to its move ids (a cache)."""
    tmask: CoverMasks = field(init=False)
    """Per move id (``3·plane`` entries), the coverage bits of its two triangles; 0 if invalid."""
    names: MoveNames = field(init=False)
    """Per move id, its canonical text; ``""`` if invalid."""
    index: MoveIndex = field(init=False)
    """Canonical text to move id, for exactly the valid positions."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tmask", CoverMasks(self))
        object.__setattr__(self, "names", MoveNames(self))
        object.__setattr__(self, "index", MoveIndex(self))

    def cell(self, i: int, j: int) -> int:
        """The cell of ``(i, j)``; the caller keeps ``-n <= i, j < n``."""
        return (i + self.n) * self.width + (j + self.n)

    def r_bit(self, i: int, j: int) -> int:
        """The coverage bit of ``R(i,j)``."""
        return 1 << self.cell(i, j)

    def l_bit(self, i: int, j: int) -> int:
        """The coverage bit of ``L(i,j)``."""
        return 1 << (self.plane + self.cell(i, j))

    def move_id(self, colour: int, i: int, j: int) -> int:
        """The move id of a position (valid or not; check ``tmask``)."""
        return colour * self.plane + self.cell(i, j)

    def position_of(self, move: int) -> tuple[int, int, int]:
        """``(colour, i, j)`` of a move id."""
        colour, cell = divmod(move, self.plane)
        i, j = self.coords[cell]
        return colour, i, j

    def free_cells(self, covered: int, colour: int) -> int:
        """Cell bits of the positions of ``colour`` whose two triangles are both empty."""
        free_r = self.all_r & ~covered
        free_l = self.all_l_cells & ~(covered >> self.plane)
        if colour == ORANGE:
            free_l <<= 1
        elif colour == YELLOW:
            free_l <<= self.width
        return free_r & free_l & self.valid[colour]

    def moves_of(self, cells: int, colour: int) -> tuple[int, ...]:
        """The move ids of ``colour`` at the set ``cells`` bits, in ascending (canonical) order.

        Reads ``cells`` a byte at a time through per-byte tables filled on first use.
        """
        found: list[int] = []
        tables = self.byte_moves[colour]
        for k, byte in enumerate(cells.to_bytes(len(tables), "little")):
            if byte:
                table = tables[k]
                ids = table.get(byte)
                if ids is None:
                    base = colour * self.plane + 8 * k
                    ids = table[byte] = tuple(base + b for b in range(8) if byte >> b & 1)
                found += ids
        return tuple(found)


@cache
def board_for(n: int) -> Board:
    """The geometry of the hexagon of side ``n`` (cached; O(n²) work and memory).

    :raises ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"tricolor board side {n} is less than 1")
    width = 2 * n
    plane = width * width
    coords = tuple((c // width - n, c % width - n) for c in range(plane))
    valid_ids = bytearray(3 * plane)
    all_r = all_l = 0
    valid = [0, 0, 0]
    for i in range(-n, n):
        row = (i + n) * width
        for j in range(-n, n):
            cell = row + j + n
            if r_valid(n, i, j):
                all_r |= 1 << cell
            if l_valid(n, i, j):
                all_l |= 1 << cell
            for colour in (ORANGE, GREEN, YELLOW):
                if position_valid(n, colour, i, j):
                    valid_ids[colour * plane + cell] = 1
    for colour in (ORANGE, GREEN, YELLOW):
        valid[colour] = _bits_of(valid_ids[colour * plane : (colour + 1) * plane])
    r_rows = tuple(
        tuple((i + n) * width + (j + n) for j in range(-n, n) if r_valid(n, i, j))
        for i in range(n - 1, -n - 1, -1)
    )
    slot = [0] * plane
    cells_at: list[int] = []
    for row_cells in r_rows:
        if cells_at:
            cells_at.append(-1)  # the '/'
        for cell in row_cells:
            slot[cell] = len(cells_at)
            cells_at.append(cell)
    return Board(
        n=n,
        width=width,
        plane=plane,
        all_r=all_r,
        all_l_cells=all_l,
        valid=(valid[0], valid[1], valid[2]),
        valid_ids=bytes(valid_ids),
        l_offset=(-1, 0, -width),
        coords=coords,
        triangles=all_r.bit_count() + all_l.bit_count(),
        per_colour=valid[0].bit_count(),
        r_rows=r_rows,
        rows_template="/".join("." * len(row_cells) for row_cells in r_rows),
        slot=tuple(slot),
        slot_cells=tuple(cells_at),
        byte_moves=tuple(tuple({} for _ in range((plane + 7) // 8)) for _ in range(3)),
    )


def _bits_of(flags: bytes | bytearray) -> int:
    """The int with bit ``k`` set exactly where ``flags[k]`` is nonzero."""
    text = bytes(flags[::-1]).translate(_DIGITS)
    return int(text, 2) if text else 0


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
