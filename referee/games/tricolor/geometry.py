"""Tricolor geometry: the hexagon of side ``n`` cut into triangles, and its lozenge positions.

Coordinates are those of shared/rules/trichess-tricolor-trike.md §2.1:

- vertex ``V(i,j)`` sits at ``((√3/2)·j, i + j/2)``; the board holds the vertices with
  ``max(|i|, |j|, |i+j|) <= n`` (rim: equality);
- triangle ``R(i,j)`` (points right) has the vertices ``V(i,j) V(i+1,j) V(i,j+1)``,
  triangle ``L(i,j)`` (points left) ``V(i+1,j) V(i,j+1) V(i+1,j+1)``;
- the lozenge positions are named by colour and their R triangle:
  orange ``O(i,j) = R(i,j) ∪ L(i,j-1)`` (horizontal long diagonal),
  green ``G(i,j) = R(i,j) ∪ L(i,j)`` (rising), yellow ``Y(i,j) = R(i,j) ∪ L(i-1,j)`` (falling).

Bit layout (everything below is computed once per ``n`` by ``board_for``): with
``W = 2n`` the *cell* of ``(i, j)`` is ``(i+n)·W + (j+n)``, in ``0 .. W²-1``. Triangle
``R(i,j)`` is bit ``cell`` and ``L(i,j)`` bit ``PLANE + cell`` of a coverage mask
(``PLANE = W²``). The position of colour ``c`` at ``(i, j)`` has the id
``c·PLANE + cell``: a move is that int, and the set of placed pieces is a mask of ids.
Because a position's L triangle sits at a fixed cell offset from its R triangle
(``-1`` orange, ``0`` green, ``-W`` yellow), the free positions of one colour are a
few big-int operations (``free_cells``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

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
    """Whether triangle ``R(i,j)`` is on the board (§2.1 inequalities)."""
    return -n <= i <= n - 1 and -n <= j <= n - 1 and -n <= i + j <= n - 1


def l_valid(n: int, i: int, j: int) -> bool:
    """Whether triangle ``L(i,j)`` is on the board (§2.1 inequalities)."""
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


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The precomputed geometry of one board side ``n``. Compare boards by ``n``."""

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
    tmask: tuple[int, ...]
    """Per move id (``3·plane`` entries), the coverage bits of its two triangles; 0 if invalid."""
    names: tuple[str, ...]
    """Per move id, its canonical text; ``""`` if invalid."""
    index: dict[str, int]
    """Canonical text to move id, for exactly the valid positions."""
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
    """The geometry of the hexagon of side ``n`` (cached).

    :raises ValueError: ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"tricolor board side {n} is less than 1")
    width = 2 * n
    plane = width * width
    coords = tuple((c // width - n, c % width - n) for c in range(plane))
    all_r = sum(1 << c for c, (i, j) in enumerate(coords) if r_valid(n, i, j))
    all_l = sum(1 << c for c, (i, j) in enumerate(coords) if l_valid(n, i, j))
    valid = [0, 0, 0]
    tmask = [0] * (3 * plane)
    names = [""] * (3 * plane)
    for colour in (ORANGE, GREEN, YELLOW):
        for cell, (i, j) in enumerate(coords):
            if not position_valid(n, colour, i, j):
                continue
            valid[colour] |= 1 << cell
            (ri, rj), (li, lj) = position_triangles(colour, i, j)
            move = colour * plane + cell
            r_cell = (ri + n) * width + (rj + n)
            l_cell = (li + n) * width + (lj + n)
            tmask[move] = (1 << r_cell) | (1 << (plane + l_cell))
            names[move] = position_name(colour, i, j)
    r_rows = tuple(
        tuple((i + n) * width + (j + n) for j in range(-n, n) if r_valid(n, i, j))
        for i in range(n - 1, -n - 1, -1)
    )
    slot = [0] * plane
    cells_at: list[int] = []
    for row in r_rows:
        if cells_at:
            cells_at.append(-1)  # the '/'
        for cell in row:
            slot[cell] = len(cells_at)
            cells_at.append(cell)
    return Board(
        n=n,
        width=width,
        plane=plane,
        all_r=all_r,
        all_l_cells=all_l,
        valid=(valid[0], valid[1], valid[2]),
        tmask=tuple(tmask),
        names=tuple(names),
        index={name: move for move, name in enumerate(names) if name},
        coords=coords,
        triangles=all_r.bit_count() + all_l.bit_count(),
        per_colour=valid[0].bit_count(),
        r_rows=r_rows,
        rows_template="/".join("." * len(row) for row in r_rows),
        slot=tuple(slot),
        slot_cells=tuple(cells_at),
        byte_moves=tuple(tuple({} for _ in range((plane + 7) // 8)) for _ in range(3)),
    )
