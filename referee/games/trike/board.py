"""Trike geometry: a triangle of hexagonal cells, its names, neighbours and lines.

Cells are ``(r, c)`` with ``0 <= c <= r < size``; row 0 is the apex. A cell's index
is ``r * (r + 1) // 2 + c`` (apex 0, then row by row, left to right). Its name is
the row letter ``'a' + r`` followed by ``c + 1`` in decimal without leading zeros:
``a1`` is the apex, ``i1``..``i9`` the base row of the default size 9.

The six directions, which are also the three lines of movement, are
``(0, -1)``, ``(0, +1)``, ``(-1, -1)``, ``(-1, 0)``, ``(+1, 0)``, ``(+1, +1)``.

Everything here is computed once per size (``board_for``) and then only read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

MIN_SIZE = 7
"""Smallest side length the ``size`` option accepts."""
MAX_SIZE = 19
"""Largest side length the ``size`` option accepts (rows ``a``..``s``)."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, 0), (1, 1))
"""The six ``(dr, dc)`` steps; opposite directions are adjacent pairs."""


def cell_index(r: int, c: int) -> int:
    """The index of cell ``(r, c)``; the caller guarantees ``0 <= c <= r``."""
    return r * (r + 1) // 2 + c


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """The precomputed geometry of one board size. Compare boards by ``size``."""

    size: int
    """Side length: the number of rows and the number of cells in the base row."""
    num_cells: int
    """``size * (size + 1) // 2``."""
    coords: tuple[tuple[int, int], ...]
    """``(r, c)`` of every cell index."""
    names: tuple[str, ...]
    """The canonical name of every cell index."""
    index: dict[str, int]
    """Canonical name to cell index; exactly the names in ``names``."""
    neighbours: tuple[tuple[int, ...], ...]
    """The on-board neighbours of every cell, in ``DIRECTIONS`` order."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """Per cell, the non-empty rays (cells outward along one direction, nearest first)."""
    between: tuple[dict[int, tuple[int, ...]], ...]
    """Per cell, every cell on one of its lines mapped to the cells strictly between them."""

    def on_board(self, r: int, c: int) -> bool:
        """Whether ``(r, c)`` is a cell of this board."""
        return 0 <= c <= r < self.size

    def name(self, cell: int) -> str:
        """The canonical name of ``cell``."""
        return self.names[cell]


def _cell_name(r: int, c: int) -> str:
    return f"{chr(ord('a') + r)}{c + 1}"


@cache
def board_for(size: int) -> Board:
    """The geometry of the board of side ``size`` (cached).

    :raises ValueError: ``size`` is outside ``MIN_SIZE..MAX_SIZE``.
    """
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"trike board size {size} is outside {MIN_SIZE}..{MAX_SIZE}")
    coords = tuple((r, c) for r in range(size) for c in range(r + 1))
    names = tuple(_cell_name(r, c) for r, c in coords)
    neighbours: list[tuple[int, ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    between: list[dict[int, tuple[int, ...]]] = []
    for r, c in coords:
        cell_rays: list[tuple[int, ...]] = []
        cell_between: dict[int, tuple[int, ...]] = {}
        for dr, dc in DIRECTIONS:
            ray: list[int] = []
            rr, cc = r + dr, c + dc
            while 0 <= cc <= rr < size:
                target = cell_index(rr, cc)
                cell_between[target] = tuple(ray)
                ray.append(target)
                rr, cc = rr + dr, cc + dc
            if ray:
                cell_rays.append(tuple(ray))
        neighbours.append(tuple(ray[0] for ray in cell_rays))
        rays.append(tuple(cell_rays))
        between.append(cell_between)
    return Board(
        size=size,
        num_cells=len(coords),
        coords=coords,
        names=names,
        index={name: i for i, name in enumerate(names)},
        neighbours=tuple(neighbours),
        rays=tuple(rays),
        between=tuple(between),
    )
