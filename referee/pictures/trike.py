"""Trike: the triangle of hexagonal cells, seat 1's dark and seat 2's light checkers,
and the neutral pawn (a gold ring) on the last placed checker.

Rows ``a``… are written left of each row, the index of a cell within its row under
the base row (``e3`` is the third cell of row ``e``), as in ``Game.render``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from referee.games.trike.board import board_for
from referee.games.trike.rules import SWAP, Trike, TrikeState
from referee.pictures import svg
from referee.pictures.frame import INK, LAST_MOVE, Board, Status, status_lines
from referee.pictures.moves import Played

RADIUS = 18.0
"""Centre to corner of a cell."""
STEP = math.sqrt(3) * RADIUS
"""Centre distance of neighbours along a row."""
ROW = 1.5 * RADIUS
MARGIN = 34.0
STONES = (("#262626", "#000000"), ("#f4f4f4", "#333333"))
"""(fill, outline) of seat 1's and seat 2's checkers."""
SHADES = ("dark", "light")
"""How the status line names each seat's checkers."""
PAWN = "#e8a400"
EMPTY = "#e9dcc0"


def hexagon(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    """The corners of a pointy-top hexagon centred on ``(x, y)``."""
    return [
        (
            x + radius * math.cos(math.radians(30 + 60 * k)),
            y + radius * math.sin(math.radians(30 + 60 * k)),
        )
        for k in range(6)
    ]


@cache
def stone(seat: int, radius: float) -> str:
    """Seat ``seat``'s checker centred on (0, 0)."""
    fill, outline = STONES[seat]
    return svg.circle((0, 0), radius, fill=fill, stroke=outline, stroke_width=1.5)


@dataclass(frozen=True, slots=True)
class Layers:
    """What every position of one board size shares, drawn once."""

    width: float
    height: float
    cells: str
    labels: str
    """The coordinate labels, or nothing."""
    centres: tuple[tuple[float, float], ...]
    moves: tuple[str, ...]
    """Each cell's ``translate(…)``, placing a piece drawn around (0, 0)."""


@cache
def layers(size: int, coordinates: bool) -> Layers:
    """The shared layers of a board of ``size``, made once per size and option."""
    board = board_for(size)
    width = size * STEP + 2 * MARGIN
    height = (size - 1) * ROW + 2 * RADIUS + 2 * MARGIN

    def centre(r: int, c: int) -> tuple[float, float]:
        return (width / 2 + (c - r / 2) * STEP, MARGIN + RADIUS + r * ROW)

    cells, centres, moves = [], [], []
    for i, (r, c) in enumerate(board.coords):
        x, y = centre(r, c)
        cells.append(
            svg.polygon(
                hexagon(x, y, RADIUS),
                fill=EMPTY,
                stroke=INK,
                stroke_width=1,
                class_="cell",
                data_cell=board.names[i],
            )
        )
        centres.append((x, y))
        moves.append(f"translate({svg.num(x)},{svg.num(y)})")
    labels = []
    if coordinates:
        for r in range(size):
            x, y = centre(r, 0)
            labels.append(
                svg.text(
                    (x - STEP * 0.85, y), chr(ord("a") + r), font_size=13, fill=INK, class_="coord"
                )
            )
        for c in range(size):
            x, y = centre(size - 1, c)
            labels.append(
                svg.text((x, y + RADIUS + 12), str(c + 1), font_size=13, fill=INK, class_="coord")
            )
    return Layers(width, height, "".join(cells), "".join(labels), tuple(centres), tuple(moves))


@cache
def placed(size: int, cell: int, seat: int) -> str:
    """Seat ``seat``'s checker (1 or 2) on ``cell``."""
    move = layers(size, False).moves[cell]
    return svg.group([stone(seat - 1, RADIUS * 0.72)], transform=move, class_=f"piece seat{seat}")


@cache
def marks(size: int, pawn: int, marked: bool) -> str:
    """The pawn on cell ``pawn``, outlined as the last move when ``marked``."""
    x, y = layers(size, False).centres[pawn]
    out = svg.circle((x, y), RADIUS * 0.36, fill=PAWN, stroke=INK, stroke_width=1.5, class_="pawn")
    if marked:
        out += svg.polygon(
            hexagon(x, y, RADIUS - 2),
            fill="none",
            stroke=LAST_MOVE,
            stroke_width=3.5,
            class_="last-move",
        )
    return out


def draw(
    game: Trike, state: TrikeState, played: Played | None, coordinates: bool
) -> tuple[Board, Status]:
    """The board and status of a Trike position (see the module doc)."""
    size = state.board.size
    shared = layers(size, coordinates)
    body = [shared.cells]
    for i, seat in enumerate(state.cells):
        if seat:
            body.append(placed(size, i, seat))
    if state.pawn >= 0:
        body.append(marks(size, state.pawn, played is not None))
    body.append(shared.labels)
    mover = "" if state.turn < 0 else f"seat {state.turn + 1} ({SHADES[state.turn]})"
    details = []
    if state.pawn < 0:
        details.append("no pawn yet")
    if state.free:
        details.append("pawn trapped: place anywhere")
    if played is not None and played.move == SWAP:
        details.append("seat 2 swapped")
    lines = status_lines(state, mover, ", ".join(details))
    scores = state.scores()
    lines.append(f"score around the pawn: seat 1 {scores[0]}, seat 2 {scores[1]}")
    swatch = None if state.turn < 0 else stone(state.turn, 7)
    return Board(shared.width, shared.height, body), Status(lines, swatch)
