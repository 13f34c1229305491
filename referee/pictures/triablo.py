"""Triablo: the 37 points of a hexhex board of side 4, and its triangle pieces.

The points sit on a triangular lattice (rows horizontal, lines at 0°, 60° and 120°),
every point named under it (``a``–``g`` and ``1``–``7``). A singleton is a triangle in
its owner's colour whose corners are its three tips (Type E: tips E, NW, SW; Type W:
W, NE, SE). A doublet is its captive's triangle under its cover's, the other way
round: a six-pointed star of two colours. A king is a star of one colour with a gold
centre. White, Red and Black are seats 1, 2 and 3.
"""

from __future__ import annotations

import math
from functools import cache

from referee.games.triablo.board import COORDS, NAMES, NEIGHBOURS, NUM_POINTS
from referee.games.triablo.movegen import SETUP, split_move
from referee.games.triablo.pieces import (
    CAPTIVE,
    CONTROLLER,
    DOUBLET,
    KIND,
    KING,
    ORIENT,
    SEAT_NAMES,
)
from referee.games.triablo.rules import Triablo, TriabloState, seat_label
from referee.pictures import svg
from referee.pictures.frame import CAPTURED, LAST_MOVE, Board, Status, status_lines
from referee.pictures.moves import Played

Point = tuple[float, float]

SPACING = 60.0
"""Distance between neighbouring points."""
MARGIN = 40.0
TIP = 0.42 * SPACING
"""Centre to tip of a piece."""
COLOURS = (("#fafafa", "#333333"), ("#cf2a2a", "#5e0c0c"), ("#1c1c1c", "#000000"))
"""Per seat, (fill, outline)."""
ANGLES = ((0.0, 240.0, 120.0), (180.0, 300.0, 60.0))
"""Screen angles (y down, degrees) of the tips of Type E (E, NW, SW) and Type W (W, NE, SE)."""
WIDTH = 6 * SPACING + 2 * MARGIN
HEIGHT = 6 * SPACING * math.sqrt(3) / 2 + 2 * MARGIN


@cache
def centre(point: int) -> Point:
    q, r = COORDS[point]
    return (WIDTH / 2 + SPACING * (q + r / 2), HEIGHT / 2 + SPACING * r * math.sqrt(3) / 2)


@cache
def triangle(orient: int, seat: int, size: float) -> str:
    """A triangle of ``seat`` with the tips of ``orient``, centred on (0, 0)."""
    fill, outline = COLOURS[seat]
    corners = [
        (size * math.cos(math.radians(a)), size * math.sin(math.radians(a))) for a in ANGLES[orient]
    ]
    return svg.polygon(
        corners, fill=fill, stroke=outline, stroke_width=1.5, stroke_linejoin="round"
    )


@cache
def piece(code: int, size: float) -> str:
    """The piece of ``code`` (see ``referee.games.triablo.pieces``) centred on (0, 0)."""
    top = CONTROLLER[code]
    kind = KIND[code]
    if kind == KING:
        return (
            triangle(0, top, size)
            + triangle(1, top, size)
            + svg.circle((0, 0), size * 0.22, fill="#e8b400", stroke="#5a4500", stroke_width=1)
        )
    orient = ORIENT[code]
    if kind == DOUBLET:
        return triangle(1 - orient, CAPTIVE[code], size) + triangle(orient, top, size)
    return triangle(orient, top, size)


def lattice() -> list[str]:
    """The board's lines: from each point to its E, SE and SW neighbours."""
    out = []
    for p in range(NUM_POINTS):
        for d in (0, 4, 5):  # E, SW, SE
            n = NEIGHBOURS[p][d]
            if n >= 0:
                out.append(svg.line(centre(p), centre(n), stroke="#9c8a66", stroke_width=1.5))
    return out


@cache
def board_layer(coordinates: bool) -> str:
    """The board every position shares: its outline, lines, points and their names."""
    outline = [
        (
            WIDTH / 2 + 3.55 * SPACING * math.cos(math.radians(a)),
            HEIGHT / 2 + 3.55 * SPACING * math.sin(math.radians(a)),
        )
        for a in range(0, 360, 60)
    ]
    body = [svg.polygon(outline, fill="#efe4c8", stroke="#9c8a66", stroke_width=2), *lattice()]
    for p in range(NUM_POINTS):
        body.append(svg.circle(centre(p), 4, fill="#6b5a3c", class_="cell", data_cell=NAMES[p]))
        if coordinates:
            x, y = centre(p)
            body.append(
                svg.text(
                    (x, y + 0.37 * SPACING), NAMES[p], font_size=11, fill="#4a3f2a", class_="coord"
                )
            )
    return "".join(body)


@cache
def ring(p: int) -> str:
    """The last move's mark around point ``p``."""
    return svg.circle(
        centre(p),
        TIP + 3,
        fill=LAST_MOVE,
        fill_opacity="0.18",
        stroke=LAST_MOVE,
        stroke_width=3,
        class_="last-move",
    )


@cache
def placed(p: int, code: int) -> str:
    """The piece of ``code`` on point ``p``."""
    x, y = centre(p)
    return svg.group(
        [piece(code, TIP)],
        transform=f"translate({svg.num(x)},{svg.num(y)})",
        class_=f"piece seat{CONTROLLER[code] + 1}",
    )


def draw(
    game: Triablo, state: TriabloState, played: Played | None, coordinates: bool
) -> tuple[Board, Status]:
    """The board and status of a Triablo position (see the module doc)."""
    body = [board_layer(coordinates)]
    path: tuple[int, ...] = ()
    extra = []
    if played is not None and played.move < SETUP:
        frm, to, _, _ = split_move(played.move)
        path = (frm, to)
        body.append(ring(frm))
        body.append(ring(to))
    for p, code in enumerate(state.board):
        if code:
            body.append(placed(p, code))
    if len(path) == 2:
        body.append(
            svg.arrow(
                [centre(path[0]), centre(path[1])],
                colour=LAST_MOVE,
                width=3,
                head=12,
                class_="last-move",
                opacity="0.85",
            )
        )
        before = played.before if played is not None else None
        if (
            before is not None
            and before.board[path[1]]
            and (CONTROLLER[before.board[path[1]]] != before.seat)
        ):
            x, y = centre(path[1])
            body.append(
                svg.group(
                    [svg.cross((x + TIP, y - TIP * 0.8), 6, colour=CAPTURED, width=3)],
                    class_="captured-mark",
                    data_cell=NAMES[path[1]],
                )
            )
            gone = before.board[path[1]]
            extra.append(f"captured: {SEAT_NAMES[CONTROLLER[gone]]}'s piece on {NAMES[path[1]]}")
    mover = "" if state.seat < 0 else seat_label(state.seat)
    details = []
    if state.seat >= 0:
        details.append(
            "setup: orient every singleton"
            if state.in_setup
            else f"{state.quiet} plies without capture"
        )
    lines = status_lines(state, mover, ", ".join(details))
    if state.out:
        lines.append("out: " + ", ".join(seat_label(seat) for seat, _ in state.out))
    lines.extend(extra)
    swatch = None if state.seat < 0 else triangle(0, state.seat, 9)
    return Board(WIDTH, HEIGHT, body), Status(lines, swatch)
