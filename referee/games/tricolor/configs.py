"""Tricolor configurations: crowns, stars, hexagons and empty triangles (docs/rules/tricolor.md).

For a vertex ``V = V(i,j)`` its six acute sectors, anticlockwise from 0°, are held by

    A(V) = [O(i-1,j+1), G(i,j), Y(i+1,j-1), O(i,j-1), G(i-1,j-1), Y(i-1,j)]

(the unique position covering each triangle around ``V`` with its acute angle at ``V``;
off-board entries are invalid). Then:

- a **crown** is three cyclically consecutive valid entries of ``A(V)``, all placed;
  a non-corner rim vertex has exactly one, and ``rim-crowns=no`` drops those;
- a **star** is all six entries of ``A(V)`` placed (only where all six are valid);
- a **hexagon** is, at an interior vertex, ``{Y(i,j), G(i,j-1), O(i-1,j)}`` or
  ``{O(i,j), Y(i,j-1), G(i-1,j)}`` placed (three obtuse angles at ``V``);
- an **empty triangle** is an empty triangle whose on-board edge neighbours are all covered.

A configuration is made of specific pieces, so crowns, stars and hexagons are sets of
move ids (every one must be placed); an empty triangle is a coverage bit index with those
of its on-board neighbours. A placement *completes* those containing its piece (for empty
triangles: bordering its piece) that are whole after it and were not before.

Nothing is listed per board up front: ``Configs.of(move)`` derives the few configurations
of one position from the geometry (offsets around its vertices) on first use and caches
them, so a placement checks only what it can complete and a board costs nothing until its
positions are played. (Listing every configuration of ``n = 64`` as masks of move ids took
many seconds and over a gigabyte, so adjudicating a short record on a big board hung.)
A whole position's configurations (``on_board``, the score check of a decoded position)
are counted from ``cell_masks``: per board side a few masks of ``W²`` bits, shifted and
ANDed with the position's per-colour planes, so a decode walks neither the vertices nor
the triangles.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from referee.games.tricolor.geometry import (
    GREEN,
    ORANGE,
    YELLOW,
    Board,
    board_for,
    l_valid,
    r_valid,
    vertex_interior,
    vertex_on_board,
)

Pos = tuple[int, int, int]
"""``(colour, i, j)`` of a position."""


def acute_sectors(i: int, j: int) -> tuple[Pos, ...]:
    """``A(V(i,j))``: the six positions with an acute angle at the vertex, anticlockwise."""
    return (
        (ORANGE, i - 1, j + 1),
        (GREEN, i, j),
        (YELLOW, i + 1, j - 1),
        (ORANGE, i, j - 1),
        (GREEN, i - 1, j - 1),
        (YELLOW, i - 1, j),
    )


def hexagon_triples(i: int, j: int) -> tuple[tuple[Pos, Pos, Pos], tuple[Pos, Pos, Pos]]:
    """The two triples of positions with an obtuse angle at the interior vertex ``V(i,j)``."""
    return (
        ((YELLOW, i, j), (GREEN, i, j - 1), (ORANGE, i - 1, j)),
        ((ORANGE, i, j), (YELLOW, i, j - 1), (GREEN, i - 1, j)),
    )


def triangle_neighbours(kind: str, i: int, j: int) -> tuple[tuple[str, int, int], ...]:
    """The edge neighbours of ``R(i,j)`` or ``L(i,j)`` (on the board or not)."""
    if kind == "R":
        return (("L", i, j - 1), ("L", i - 1, j), ("L", i, j))
    return (("R", i, j), ("R", i + 1, j), ("R", i, j + 1))


class Completion(NamedTuple):
    """What one placement completes."""

    crowns: int
    stars: int
    hexagons: int
    empty: int
    """Empty triangles."""

    @property
    def points(self) -> int:
        """The mover's gain ``S + H - E``."""
        return self.stars + self.hexagons - self.empty

    @property
    def extra(self) -> bool:
        """Whether the mover must place again: a crown or star, no hexagon, no empty triangle."""
        return (self.crowns > 0 or self.stars > 0) and self.hexagons == 0 and self.empty == 0


class MoveConfigs(NamedTuple):
    """The configurations one position belongs to, as the *other* pieces' move ids."""

    crowns: tuple[tuple[int, ...], ...]
    """Per crown containing the position, the move ids of its two other pieces."""
    stars: tuple[tuple[int, ...], ...]
    """Per star containing the position, the move ids of its five other pieces."""
    hexagons: tuple[tuple[int, ...], ...]
    """Per hexagon containing the position, the move ids of its two other pieces."""
    empties: tuple[tuple[int, tuple[int, ...]], ...]
    """Per triangle bordering the piece, its coverage bit index and those of its on-board
    neighbours (the ones it needs covered to be an empty triangle)."""


class WholeBoard(NamedTuple):
    """Every configuration of a board, each as the sorted move ids of its pieces."""

    crowns: tuple[tuple[int, ...], ...]
    crown_vertices: tuple[tuple[int, int], ...]
    stars: tuple[tuple[int, ...], ...]
    star_vertices: tuple[tuple[int, int], ...]
    hexagons: tuple[tuple[int, ...], ...]
    hexagon_vertices: tuple[tuple[int, int], ...]
    triangles: tuple[tuple[int, tuple[int, ...]], ...]
    """Every triangle as ``(coverage bit index, bit indices of its on-board neighbours)``."""


# For a colour, the two vertices where its position (i, j) has an acute angle, as offsets
# (di, dj) of V from (i, j) with the index of the position in A(V); then the two vertices
# where it has an obtuse angle, with the index of the hexagon triple (hexagon_triples).
_ACUTE: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((1, -1, 0), (0, 1, 3)),  # orange: A(i+1,j-1)[0], A(i,j+1)[3]
    ((0, 0, 1), (1, 1, 4)),  # green: A(i,j)[1], A(i+1,j+1)[4]
    ((-1, 1, 2), (1, 0, 5)),  # yellow: A(i-1,j+1)[2], A(i+1,j)[5]
)
_OBTUSE: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((1, 0, 0), (0, 0, 1)),  # orange: first triple at V(i+1,j), second at V(i,j)
    ((0, 1, 0), (1, 0, 1)),  # green: first at V(i,j+1), second at V(i+1,j)
    ((0, 0, 0), (0, 1, 1)),  # yellow: first at V(i,j), second at V(i,j+1)
)


@dataclass(frozen=True, slots=True, eq=False)
class Configs:
    """The configurations of one board side and ``rim-crowns`` choice.

    Nothing is listed up front: ``of(move)`` derives the few configurations of one
    position from the geometry on first use and caches them, so the cost of a board is
    paid per position actually placed, not per board (at ``n = 64`` listing every
    configuration took many seconds and over a gigabyte). The whole-board lists
    (``crowns``, ``stars``, …) are built only when asked for (tests, small boards).
    """

    board: Board
    rim_crowns: bool
    _per_move: dict[int, MoveConfigs] = field(default_factory=dict, repr=False)
    """``of``'s cache."""
    _near: dict[int, tuple[int, ...]] = field(default_factory=dict, repr=False)
    """Per coverage bit index, those of the triangle's on-board neighbours (a cache)."""

    def of(self, move: int) -> MoveConfigs:
        """The configurations containing (for empty triangles: bordering) the position
        ``move``, which must be a valid position."""
        found = self._per_move.get(move)
        if found is None:
            found = self._per_move[move] = _move_configs(self, move)
        return found

    @property
    def whole(self) -> WholeBoard:
        """Every configuration of the board (built on first use, cached per ``n``)."""
        return _whole_board(self.board.n, self.rim_crowns)

    @property
    def crowns(self) -> tuple[tuple[int, ...], ...]:
        """Every crown, as the sorted move ids of its three pieces."""
        return self.whole.crowns

    @property
    def crown_vertices(self) -> tuple[tuple[int, int], ...]:
        """The vertex of each crown, parallel to ``crowns``."""
        return self.whole.crown_vertices

    @property
    def stars(self) -> tuple[tuple[int, ...], ...]:
        return self.whole.stars

    @property
    def star_vertices(self) -> tuple[tuple[int, int], ...]:
        return self.whole.star_vertices

    @property
    def hexagons(self) -> tuple[tuple[int, ...], ...]:
        return self.whole.hexagons

    @property
    def hexagon_vertices(self) -> tuple[tuple[int, int], ...]:
        return self.whole.hexagon_vertices

    @property
    def triangles(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        return self.whole.triangles


def _tri_index(board: Board, kind: str, i: int, j: int) -> int:
    """The coverage bit index of ``R(i,j)`` or ``L(i,j)``."""
    return board.cell(i, j) + (0 if kind == "R" else board.plane)


def _on_board(n: int, kind: str, i: int, j: int) -> bool:
    return r_valid(n, i, j) if kind == "R" else l_valid(n, i, j)


def _neighbours(board: Board, kind: str, i: int, j: int) -> tuple[int, ...]:
    """The bit indices of the on-board edge neighbours of a triangle."""
    return tuple(
        _tri_index(board, *nb) for nb in triangle_neighbours(kind, i, j) if _on_board(board.n, *nb)
    )


def _sector_ids(board: Board, i: int, j: int) -> list[int]:
    """The move ids of ``A(V(i,j))``, -1 for the off-board entries."""
    n, width, plane, valid = board.n, board.width, board.plane, board.valid_ids
    ids = []
    for colour, di, dj in _SECTORS:
        a, b = i + di + n, j + dj + n  # 0 <= a, b < 2n on the board
        move = colour * plane + a * width + b
        ids.append(move if 0 <= a < width and 0 <= b < width and valid[move] else -1)
    return ids


_HEXAGONS = hexagon_triples(0, 0)
"""``hexagon_triples`` as offsets from the vertex."""

_SECTORS = acute_sectors(0, 0)
"""``acute_sectors`` as offsets from the vertex."""


def _move_configs(configs: Configs, move: int) -> MoveConfigs:
    board, rim_crowns, known = configs.board, configs.rim_crowns, configs._near
    n = board.n
    colour, i, j = board.position_of(move)
    crowns: list[tuple[int, ...]] = []
    stars: list[tuple[int, ...]] = []
    hexagons: list[tuple[int, ...]] = []
    for di, dj, k in _ACUTE[colour]:
        a, b = i + di, j + dj
        if not vertex_on_board(n, a, b):
            continue
        ids = _sector_ids(board, a, b)
        if rim_crowns or vertex_interior(n, a, b):
            for start in (k - 2, k - 1, k):
                first, second = ids[(start + 1) % 6], ids[(start + 2) % 6]
                others = [x for x in (ids[start], first, second) if x != move]
                if min(others) >= 0:
                    crowns.append(tuple(others))
        if min(ids) >= 0:
            stars.append(tuple(x for x in ids if x != move))
    width, plane = board.width, board.plane
    for di, dj, t in _OBTUSE[colour]:
        a, b = i + di, j + dj
        if vertex_interior(n, a, b):
            base = (a + n) * width + b + n  # the cell of V(a, b)'s R(a, b)
            hexagons.append(
                tuple(
                    x
                    for x in (c * plane + base + oi * width + oj for c, oi, oj in _HEXAGONS[t])
                    if x != move
                )
            )
    r_cell = move - colour * plane
    l_cell = r_cell + board.l_offset[colour]
    own = (r_cell, plane + l_cell)
    empties: list[tuple[int, tuple[int, ...]]] = []
    for near in _near_r(board, r_cell) + _near_l(board, l_cell):
        if near not in own:
            around = known.get(near)
            if around is None:
                around = known[near] = _near(board, near)
            empties.append((near, around))
    return MoveConfigs(tuple(crowns), tuple(stars), tuple(hexagons), tuple(empties))


def _near(board: Board, bit: int) -> tuple[int, ...]:
    """The bit indices of the on-board neighbours of the triangle of coverage bit ``bit``."""
    plane = board.plane
    return _near_r(board, bit) if bit < plane else _near_l(board, bit - plane)


def _near_r(board: Board, cell: int) -> tuple[int, ...]:
    """The bit indices of the on-board neighbours of the R triangle at ``cell``:
    ``L(i,j-1)``, ``L(i-1,j)``, ``L(i,j)``."""
    n, width = board.n, board.width
    i, j = board.coords[cell]
    at = board.plane + cell
    return tuple(
        at + offset
        for ni, nj, offset in ((i, j - 1, -1), (i - 1, j, -width), (i, j, 0))
        if -n <= ni <= n - 1 and -n <= nj <= n - 1 and -n - 1 <= ni + nj <= n - 2
    )


def _near_l(board: Board, cell: int) -> tuple[int, ...]:
    """The bit indices of the on-board neighbours of the L triangle at ``cell``:
    ``R(i,j)``, ``R(i+1,j)``, ``R(i,j+1)``."""
    n, width = board.n, board.width
    i, j = board.coords[cell]
    return tuple(
        cell + offset
        for ni, nj, offset in ((i, j, 0), (i + 1, j, width), (i, j + 1, 1))
        if -n <= ni <= n - 1 and -n <= nj <= n - 1 and -n <= ni + nj <= n - 1
    )


def _vertex_configs(
    board: Board, rim_crowns: bool
) -> Iterator[tuple[str, tuple[int, int], tuple[int, ...]]]:
    """Every crown, star and hexagon of the board as ``(kind, vertex, sorted move ids)``."""
    n = board.n
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            if not vertex_on_board(n, i, j):
                continue
            interior = vertex_interior(n, i, j)
            ids = _sector_ids(board, i, j)
            if interior or rim_crowns:
                for k in range(6):
                    triple = [ids[(k + d) % 6] for d in range(3)]
                    if min(triple) >= 0:
                        yield "crown", (i, j), tuple(sorted(triple))
            if min(ids) >= 0:
                yield "star", (i, j), tuple(sorted(ids))
            if interior:
                for hexagon in hexagon_triples(i, j):
                    yield "hexagon", (i, j), tuple(sorted(board.move_id(*p) for p in hexagon))


def _all_triangles(board: Board) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every triangle as ``(bit index, bit indices of its on-board neighbours)``."""
    n = board.n
    for kind in ("R", "L"):
        for i in range(-n, n):
            for j in range(-n, n):
                if _on_board(n, kind, i, j):
                    yield _tri_index(board, kind, i, j), _neighbours(board, kind, i, j)


@cache
def _whole_board(n: int, rim_crowns: bool) -> WholeBoard:
    board = board_for(n)
    lists: dict[str, tuple[list[tuple[int, ...]], list[tuple[int, int]]]] = {
        kind: ([], []) for kind in ("crown", "star", "hexagon")
    }
    for kind, vertex, ids in _vertex_configs(board, rim_crowns):
        lists[kind][0].append(ids)
        lists[kind][1].append(vertex)
    (crowns, crown_v), (stars, star_v), (hexagons, hexagon_v) = lists.values()
    return WholeBoard(
        tuple(crowns),
        tuple(crown_v),
        tuple(stars),
        tuple(star_v),
        tuple(hexagons),
        tuple(hexagon_v),
        tuple(_all_triangles(board)),
    )


@cache
def configs_for(n: int, rim_crowns: bool) -> Configs:
    """The configurations of the board of side ``n`` (cached; cheap, see ``Configs``).

    :raises ValueError: ``n < 1``.
    """
    return Configs(board_for(n), rim_crowns)


def completed(configs: Configs, placed: int, covered: int, move: int) -> Completion:
    """What placing ``move`` completes, given the placed ids and covered triangles before it.

    Assumes ``move`` is a valid position whose triangles are empty.
    """
    placed |= 1 << move
    covered |= configs.board.tmask[move]
    mine = configs.of(move)

    def whole(others: tuple[int, ...]) -> bool:
        return all(placed >> x & 1 for x in others)

    return Completion(
        crowns=sum(1 for others in mine.crowns if whole(others)),
        stars=sum(1 for others in mine.stars if whole(others)),
        hexagons=sum(1 for others in mine.hexagons if whole(others)),
        empty=sum(
            1
            for bit, near in mine.empties
            if not covered >> bit & 1 and all(covered >> x & 1 for x in near)
        ),
    )


class CellMasks(NamedTuple):
    """Cell masks of one board side, for counting configurations with whole-board bit
    operations (``on_board``). A vertex ``V(a,b)`` is keyed by the cell of ``(a, b)``;
    only vertices with ``-n <= a, b < n`` have one, which holds every star and hexagon
    vertex (they are interior). Every mask is restricted to cells where the offsets it
    is combined with stay on the board, so a shift never wraps into another row."""

    plane: int
    """Every cell of the plane, ``W²`` ones."""
    stars: int
    """The vertices whose six acute sectors are all valid positions."""
    hexagons: tuple[int, int]
    """Per triple of ``hexagon_triples``, the interior vertices where its three positions
    are valid."""
    r_cells: int
    """The R triangles on the board."""
    l_cells: int
    """The L triangles on the board."""
    r_open: tuple[tuple[int, int], ...]
    """Per edge neighbour of an R triangle (``triangle_neighbours``): its cell offset in
    the L plane, and the R triangles that lack that neighbour (off the board)."""
    l_open: tuple[tuple[int, int], ...]
    """The same for the L triangles, their neighbours in the R plane."""


def _shifted(mask: int, offset: int) -> int:
    """``mask`` moved so that the bit of cell ``c + offset`` lands on cell ``c``."""
    return mask >> offset if offset >= 0 else mask << -offset


@cache
def cell_masks(n: int) -> CellMasks:
    """The ``CellMasks`` of the board of side ``n`` (cached; a few dozen operations on
    masks of ``W²`` bits, and one pass over the cells for the interior vertices).

    :raises ValueError: ``n < 1``.
    """
    board = board_for(n)
    width = board.width
    every_row = sum(1 << (row * width) for row in range(width))  # bit 0 of each row

    def inside(di: int, dj: int) -> int:
        """The cells ``(a, b)`` for which ``(a+di, b+dj)`` is a cell too (no wrap): the
        ``W - |di|`` rows and, in each, the ``W - |dj|`` columns that stay in range."""
        band = ((1 << (width * (width - abs(di)))) - 1) << (width * max(0, -di))
        columns = ((1 << (width - abs(dj))) - 1) << max(0, -dj)
        return band & (columns * every_row)

    def found(plane: int, di: int, dj: int) -> int:
        """The cells ``(a, b)`` whose ``(a+di, b+dj)`` is set in ``plane``."""
        return inside(di, dj) & _shifted(plane, di * width + dj)

    interior = sum(
        1 << cell for cell, (a, b) in enumerate(board.coords) if vertex_interior(n, a, b)
    )
    stars = (1 << board.plane) - 1
    for colour, di, dj in _SECTORS:
        stars &= found(board.valid[colour], di, dj)
    hexagons = []
    for triple in _HEXAGONS:
        at = interior
        for colour, di, dj in triple:
            at &= found(board.valid[colour], di, dj)
        hexagons.append(at)
    r_cells, l_cells = board.all_r, board.all_l_cells
    r_open = tuple(
        (di * width + dj, r_cells & ~found(l_cells, di, dj))
        for _, di, dj in triangle_neighbours("R", 0, 0)
    )
    l_open = tuple(
        (di * width + dj, l_cells & ~found(r_cells, di, dj))
        for _, di, dj in triangle_neighbours("L", 0, 0)
    )
    return CellMasks(
        plane=(1 << board.plane) - 1,
        stars=stars,
        hexagons=(hexagons[0], hexagons[1]),
        r_cells=r_cells,
        l_cells=l_cells,
        r_open=r_open,
        l_open=l_open,
    )


def on_board(configs: Configs, placed: int, covered: int, *, crowns: bool = True) -> Completion:
    """Every complete configuration of a position (each was completed by exactly one move).

    Stars, hexagons and empty triangles are counted with a few dozen bit operations on
    whole planes (``CellMasks``), with no loop over the board: this is the score check of
    every decoded position. Crowns, which score nothing, are counted per placed piece
    (``Configs.of``, each crown once, at its lowest move id); with ``crowns=False`` they
    are not counted (reported as 0).
    """
    board = configs.board
    masks = cell_masks(board.n)
    plane, width, full = board.plane, board.width, masks.plane
    pieces = [placed >> (colour * plane) & full for colour in range(3)]
    stars = masks.stars
    for colour, di, dj in _SECTORS:
        stars &= _shifted(pieces[colour], di * width + dj)
    hexagons = 0
    for triple, at in zip(_HEXAGONS, masks.hexagons, strict=True):
        for colour, di, dj in triple:
            at &= _shifted(pieces[colour], di * width + dj)
        hexagons += at.bit_count()
    r_covered, l_covered = covered & full, covered >> plane
    empty_r = masks.r_cells & ~r_covered
    for offset, lacking in masks.r_open:
        empty_r &= lacking | _shifted(l_covered, offset)
    empty_l = masks.l_cells & ~l_covered
    for offset, lacking in masks.l_open:
        empty_l &= lacking | _shifted(r_covered, offset)
    return Completion(
        _crowns_on_board(configs, placed) if crowns else 0,
        stars.bit_count(),
        hexagons,
        empty_r.bit_count() + empty_l.bit_count(),
    )


def _crowns_on_board(configs: Configs, placed: int) -> int:
    """The complete crowns of ``placed``, each counted at its lowest move id."""
    count = 0
    rest = placed
    while rest:
        low = rest & -rest
        move = low.bit_length() - 1
        rest ^= low
        for others in configs.of(move).crowns:
            if move < min(others) and all(placed >> x & 1 for x in others):
                count += 1
    return count
