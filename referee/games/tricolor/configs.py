"""Tricolor configurations: crowns, stars, hexagons and empty triangles (rules file §2.2).

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

A configuration is made of specific pieces, so crowns, stars and hexagons are masks of
move ids (the placed set must contain the mask); an empty triangle is a coverage bit with
the coverage mask of its neighbours. A placement *completes* those containing its piece
(for empty triangles: bordering its piece) that are whole after it and were not before.
Everything is precomputed per board side and option (``configs_for``) and indexed by
move id, so a placement checks only the few configurations it can complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from referee.games.tricolor.geometry import (
    GREEN,
    ORANGE,
    YELLOW,
    Board,
    board_for,
    l_valid,
    position_valid,
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


@dataclass(frozen=True, slots=True, eq=False)
class Configs:
    """Every configuration of one board side and ``rim-crowns`` choice, indexed by move id."""

    board: Board
    rim_crowns: bool
    crowns: tuple[int, ...]
    """Masks of move ids, one per crown."""
    crown_vertices: tuple[tuple[int, int], ...]
    """The vertex of each crown, parallel to ``crowns``."""
    stars: tuple[int, ...]
    star_vertices: tuple[tuple[int, int], ...]
    hexagons: tuple[int, ...]
    hexagon_vertices: tuple[tuple[int, int], ...]
    triangles: tuple[tuple[int, int], ...]
    """Every triangle as ``(coverage bit, coverage mask of its on-board neighbours)``."""
    crowns_of: tuple[tuple[int, ...], ...]
    """Per move id, the crowns that contain it."""
    stars_of: tuple[tuple[int, ...], ...]
    hexagons_of: tuple[tuple[int, ...], ...]
    empties_of: tuple[tuple[tuple[int, int], ...], ...]
    """Per move id, ``(bit, neighbours)`` of each triangle bordering its piece."""


def _tri_bit(board: Board, kind: str, i: int, j: int) -> int:
    return board.r_bit(i, j) if kind == "R" else board.l_bit(i, j)


def _on_board(n: int, kind: str, i: int, j: int) -> bool:
    return r_valid(n, i, j) if kind == "R" else l_valid(n, i, j)


@cache
def configs_for(n: int, rim_crowns: bool) -> Configs:
    """The configurations of the board of side ``n`` (cached).

    :raises ValueError: ``n < 1``.
    """
    board = board_for(n)

    def mask(positions: tuple[Pos, ...]) -> int:
        return sum(1 << board.move_id(c, i, j) for c, i, j in positions)

    crowns: list[int] = []
    crown_vertices: list[tuple[int, int]] = []
    stars: list[int] = []
    star_vertices: list[tuple[int, int]] = []
    hexagons: list[int] = []
    hexagon_vertices: list[tuple[int, int]] = []
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            if not vertex_on_board(n, i, j):
                continue
            interior = vertex_interior(n, i, j)
            sectors = acute_sectors(i, j)
            ok = [position_valid(n, *pos) for pos in sectors]
            if interior or rim_crowns:
                for k in range(6):
                    triple = tuple(sectors[(k + d) % 6] for d in range(3))
                    if all(ok[(k + d) % 6] for d in range(3)):
                        crowns.append(mask(triple))
                        crown_vertices.append((i, j))
            if all(ok):
                stars.append(mask(sectors))
                star_vertices.append((i, j))
            if interior:
                for triple in hexagon_triples(i, j):
                    hexagons.append(mask(triple))
                    hexagon_vertices.append((i, j))

    triangles: list[tuple[int, int]] = []
    neighbours_of: dict[int, int] = {}
    for kind in ("R", "L"):
        for i in range(-n, n):
            for j in range(-n, n):
                if not _on_board(n, kind, i, j):
                    continue
                bit = _tri_bit(board, kind, i, j)
                near = sum(
                    _tri_bit(board, *nb)
                    for nb in triangle_neighbours(kind, i, j)
                    if _on_board(n, *nb)
                )
                triangles.append((bit, near))
                neighbours_of[bit] = near

    moves = 3 * board.plane
    crowns_of: list[list[int]] = [[] for _ in range(moves)]
    stars_of: list[list[int]] = [[] for _ in range(moves)]
    hexagons_of: list[list[int]] = [[] for _ in range(moves)]
    empties_of: list[tuple[tuple[int, int], ...]] = [() for _ in range(moves)]
    for table, masks in ((crowns_of, crowns), (stars_of, stars), (hexagons_of, hexagons)):
        for m in masks:
            rest = m
            while rest:
                low = rest & -rest
                table[low.bit_length() - 1].append(m)
                rest ^= low
    for move, cover in enumerate(board.tmask):
        if not cover:
            continue
        bordering: list[tuple[int, int]] = []
        for bit in (cover & -cover, cover & (cover - 1)):
            near = neighbours_of[bit] & ~cover
            while near:
                low = near & -near
                bordering.append((low, neighbours_of[low]))
                near ^= low
        empties_of[move] = tuple(bordering)

    return Configs(
        board=board,
        rim_crowns=rim_crowns,
        crowns=tuple(crowns),
        crown_vertices=tuple(crown_vertices),
        stars=tuple(stars),
        star_vertices=tuple(star_vertices),
        hexagons=tuple(hexagons),
        hexagon_vertices=tuple(hexagon_vertices),
        triangles=tuple(triangles),
        crowns_of=tuple(tuple(t) for t in crowns_of),
        stars_of=tuple(tuple(t) for t in stars_of),
        hexagons_of=tuple(tuple(t) for t in hexagons_of),
        empties_of=tuple(empties_of),
    )


def completed(configs: Configs, placed: int, covered: int, move: int) -> Completion:
    """What placing ``move`` completes, given the placed ids and covered triangles before it.

    Assumes ``move`` is a valid position whose triangles are empty.
    """
    placed |= 1 << move
    covered |= configs.board.tmask[move]
    return Completion(
        crowns=sum(1 for m in configs.crowns_of[move] if placed & m == m),
        stars=sum(1 for m in configs.stars_of[move] if placed & m == m),
        hexagons=sum(1 for m in configs.hexagons_of[move] if placed & m == m),
        empty=sum(
            1
            for bit, near in configs.empties_of[move]
            if not covered & bit and covered & near == near
        ),
    )


def on_board(configs: Configs, placed: int, covered: int, *, crowns: bool = True) -> Completion:
    """Every complete configuration of a position (each was completed by exactly one move).

    With ``crowns=False`` the crowns, which score nothing, are not counted (reported as 0).
    """
    return Completion(
        crowns=sum(1 for m in configs.crowns if placed & m == m) if crowns else 0,
        stars=sum(1 for m in configs.stars if placed & m == m),
        hexagons=sum(1 for m in configs.hexagons if placed & m == m),
        empty=sum(
            1 for bit, near in configs.triangles if not covered & bit and covered & near == near
        ),
    )
