"""Tricolor: the hexagon of side ``n`` cut into triangles, with the placed lozenges.

Geometry of docs/rules/tricolor.md: vertex ``V(i,j)`` at ``((√3/2)·j, i + j/2)`` (y up), so the
hexagon has vertical left and right sides. Every triangle is a cell; each placed piece
is drawn as its lozenge in its colour (orange, green, yellow). Pieces belong to no
seat, so the status lines give the scores and the colour to place next. Coordinates:
each free right-pointing triangle ``R(i,j)`` is labelled ``i,j``, the coordinates a
move names (``O(i,j)`` is the orange lozenge whose R triangle that is).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache

from referee.games.tricolor.geometry import COLOUR_NAMES, board_for, l_valid, r_valid
from referee.games.tricolor.rules import Tricolor, TricolorState
from referee.pictures import svg
from referee.pictures.frame import LAST_MOVE, Board, Status, status_lines
from referee.pictures.moves import Played

Point = tuple[float, float]
Vertex = Callable[[float, float], Point]

FILLS = ("#f28c28", "#3aa655", "#f2d02a")
"""Orange, green and yellow lozenges."""
OUTLINES = ("#8a4a0c", "#1d5e2d", "#8a7410")
MARGIN = 24.0


def unit(n: int) -> float:
    """The triangle edge in drawing units: a board about 520 units high."""
    return 260.0 / n


def frame_size(n: int) -> tuple[float, float]:
    """The board's (width, height) in drawing units."""
    edge = unit(n)
    return 2 * n * edge * math.sqrt(3) / 2 + 2 * MARGIN, 2 * n * edge + 2 * MARGIN


def vertex_of(n: int) -> Vertex:
    """Drawing coordinates of vertex ``V(i,j)`` on the hexagon of side ``n``."""
    edge = unit(n)
    width, height = frame_size(n)

    def vertex(i: float, j: float) -> Point:
        x, y = math.sqrt(3) / 2 * j, i + j / 2
        return (width / 2 + x * edge, height / 2 - y * edge)

    return vertex


@cache
def cells_layer(n: int) -> str:
    """Every triangle of the hexagon of side ``n``, drawn once."""
    vertex = vertex_of(n)
    body = []
    for i in range(-n, n):
        for j in range(-n, n):
            if r_valid(n, i, j):
                body.append(
                    svg.polygon(
                        [vertex(i, j), vertex(i + 1, j), vertex(i, j + 1)],
                        fill="#f7f3ea",
                        stroke="#b7ad98",
                        stroke_width=1,
                        class_="cell",
                        data_cell=f"R({i},{j})",
                    )
                )
            if l_valid(n, i, j):
                body.append(
                    svg.polygon(
                        [vertex(i + 1, j), vertex(i, j + 1), vertex(i + 1, j + 1)],
                        fill="#f7f3ea",
                        stroke="#b7ad98",
                        stroke_width=1,
                        class_="cell",
                        data_cell=f"L({i},{j})",
                    )
                )
    return "".join(body)


@cache
def placed(n: int, move: int) -> str:
    """The lozenge of placement ``move`` on the hexagon of side ``n``."""
    board = board_for(n)
    colour, i, j = board.position_of(move)
    return lozenge(vertex_of(n), colour, i, j, board.names[move])


@cache
def label(n: int, i: int, j: int) -> str:
    """The coordinates ``i,j`` written in triangle ``R(i,j)``."""
    (x0, y0), (x1, y1), (x2, y2) = (vertex_of(n)(a, b) for a, b in ((i, j), (i + 1, j), (i, j + 1)))
    return svg.text(
        ((x0 + x1 + x2) / 3, (y0 + y1 + y2) / 3),
        f"{i},{j}",
        font_size=min(10.0, unit(n) * 0.16),
        fill="#7d7461",
        class_="coord",
    )


@cache
def outline(n: int, move: int) -> str:
    """The last move's mark: the outline of placement ``move``."""
    colour, i, j = board_for(n).position_of(move)
    return svg.polygon(
        lozenge_corners(vertex_of(n), colour, i, j),
        fill="none",
        stroke=LAST_MOVE,
        stroke_width=4,
        stroke_linejoin="round",
        class_="last-move",
    )


def draw(
    game: Tricolor, state: TricolorState, played: Played | None, coordinates: bool
) -> tuple[Board, Status]:
    """The board and status of a Tricolor position (see the module doc)."""
    n = state.n
    board = state.configs.board
    width, height = frame_size(n)
    body = [cells_layer(n)]
    placed_bits = state.placed
    for move in range(3 * board.plane):
        if placed_bits >> move & 1:
            body.append(placed(n, move))
    if coordinates:
        for i in range(-n, n):
            for j in range(-n, n):
                if r_valid(n, i, j) and not state.covered >> board.cell(i, j) & 1:
                    body.append(label(n, i, j))
    if played is not None:
        body.append(outline(n, played.move))
    colour = state.ply % 3
    mover = "" if state.turn < 0 else f"seat {state.turn + 1}"
    lines = status_lines(state, mover, f"placing {COLOUR_NAMES[colour]}")
    lines.append("scores: " + ", ".join(f"seat {k + 1} {s}" for k, s in enumerate(state.scores)))
    swatch = None
    if state.turn >= 0:
        swatch = svg.polygon(
            [(-9, 0), (0, -5), (9, 0), (0, 5)],
            fill=FILLS[colour],
            stroke=OUTLINES[colour],
            stroke_width=1.5,
        )
    return Board(width, height, body), Status(lines, swatch)


def lozenge_corners(v: Vertex, colour: int, i: int, j: int) -> list[Point]:
    """The four corners of the lozenge of ``colour`` whose R triangle is ``R(i,j)``,
    in order around it (acute, obtuse, acute, obtuse)."""
    if colour == 0:  # R(i,j) ∪ L(i,j-1): acute corners V(i+1,j-1) and V(i,j+1)
        return [v(i + 1, j - 1), v(i + 1, j), v(i, j + 1), v(i, j)]
    if colour == 1:  # R(i,j) ∪ L(i,j): acute corners V(i,j) and V(i+1,j+1)
        return [v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)]
    # R(i,j) ∪ L(i-1,j): acute corners V(i+1,j) and V(i-1,j+1)
    return [v(i + 1, j), v(i, j + 1), v(i - 1, j + 1), v(i, j)]


def lozenge(vertex: Vertex, colour: int, i: int, j: int, name: str) -> str:
    """A placed piece: its lozenge, filled in its colour."""
    return svg.polygon(
        lozenge_corners(vertex, colour, i, j),
        fill=FILLS[colour],
        stroke=OUTLINES[colour],
        stroke_width=1.5,
        stroke_linejoin="round",
        class_="piece",
        data_move=name,
    )
