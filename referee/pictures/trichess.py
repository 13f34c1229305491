"""Trichess: the curved 96-cell board of docs/rules/trichess.md, White at the bottom.

The board is a hexagon whose centre is the central obstacle. Straight seams from the
centre to the edge midpoints part the three territories and halve each one (files a–d
and e–h); inside each half the 4 × 4 cells follow curved files and ranks
(``trichess_grid``) that cross at right angles and run on smoothly across every seam,
as the rules' "lignes courbes du plateau" do: White's a–d files into Black's h–e, its
e–h into Red's d–a. Red sits on White's right and Black on its left (turn order
anticlockwise). Each territory is tinted in its owner's colour and bounded by a heavy
line; file letters are written along its back edge and rank numbers along its two
side edges, in the owner's colour. Everything but the pieces and the last move is
drawn once per process (``board_layer``, ``labels_layer``).
"""

from __future__ import annotations

import itertools
import math
from functools import cache

from referee.games.trichess.attacks import PIECE_LETTERS
from referee.games.trichess.board import COLOUR_NAMES, COLOURS, FILES, NAMES
from referee.games.trichess.position import TrichessState
from referee.games.trichess.rules import Trichess
from referee.pictures import svg
from referee.pictures.frame import CAPTURED, INK, LAST_MOVE, Board, Status, status_lines
from referee.pictures.moves import Played
from referee.pictures.trichess_grid import unit_point

Point = tuple[float, float]

RADIUS = 270.0
"""Centre to corner of the hexagon."""
MARGIN = 58.0
WIDTH = 2 * (RADIUS + MARGIN)
HEIGHT = 2 * (RADIUS * math.sqrt(3) / 2 + MARGIN)
SQUARES = (("#f3e3c3", "#c29a6b"), ("#f7d9d4", "#cf7f74"), ("#e2e2e2", "#9a9a9a"))
"""Per territory, (light, dark) cell colours: White's wood, Red's pink, Black's grey."""
PIECES = (
    ("#ffffff", "#000000", "#000000"),
    ("#c62828", "#5e0c0c", "#ffffff"),
    ("#1a1a1a", "#000000", "#ffffff"),
)
"""Per owner, (fill, outline, letter) of a piece."""
LABELS = ("#5a4632", "#a3281e", "#333333")
"""Per territory, the colour of its coordinate labels."""


def corner(k: int) -> Point:
    """Hexagon corner ``k`` (anticlockwise from the right) in unit coordinates, y up."""
    angle = math.radians(60 * (k % 6))
    return (math.cos(angle), math.sin(angle))


def mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def screen(point: Point) -> Point:
    """Unit coordinates (y up) to drawing coordinates (y down)."""
    return (WIDTH / 2 + point[0] * RADIUS, HEIGHT / 2 - point[1] * RADIUS)


def at(p: int, f: float, r: float) -> Point:
    """The drawing point at file coordinate ``f`` (0..8) and rank coordinate ``r``
    (0..4) of territory ``p``; both must be whole or half numbers."""
    return screen(unit_point(p, round(2 * f), round(2 * r)))


@cache
def cell_path(cell: int) -> str:
    """The ``d`` of a cell's outline: four curved edges, each a quadratic Bézier
    through the edge's true midpoint, so neighbours share their edges exactly."""
    p, r, f = cell >> 5, (cell >> 3) & 3, cell & 7
    corners = [(f, r), (f + 1, r), (f + 1, r + 1), (f, r + 1), (f, r)]
    x, y = at(p, f, r)
    d = [f"M{svg.num(x)},{svg.num(y)}"]
    for (f0, r0), (f1, r1) in itertools.pairwise(corners):
        a, b = at(p, f0, r0), at(p, f1, r1)
        m = at(p, (f0 + f1) / 2, (r0 + r1) / 2)
        # the control point that puts the curve's middle on m
        cx, cy = 2 * m[0] - (a[0] + b[0]) / 2, 2 * m[1] - (a[1] + b[1]) / 2
        d.append(f"Q{svg.num(cx)},{svg.num(cy)} {svg.num(b[0])},{svg.num(b[1])}")
    return "".join(d) + "Z"


@cache
def cell_centre(cell: int) -> Point:
    p, r, f = cell >> 5, (cell >> 3) & 3, cell & 7
    return at(p, f + 0.5, r + 0.5)


@cache
def piece(code: int, radius: float) -> str:
    """The piece of code ``owner * 8 + type`` centred on (0, 0): a disc with its letter."""
    fill, outline, ink = PIECES[code >> 3]
    letter = PIECE_LETTERS[code & 7]
    return svg.circle((0, 0), radius, fill=fill, stroke=outline, stroke_width=1.5) + svg.text(
        (0, 0), letter, font_size=radius * 1.15, font_weight="bold", fill=ink
    )


def outward(k: int) -> Point:
    """The unit normal of hexagon edge ``corner(k)``–``corner(k+1)``, pointing out."""
    m = mid(corner(k), corner(k + 1))
    length = math.hypot(*m)
    return (m[0] / length, -m[1] / length)  # drawing coordinates: y down


@cache
def labels_layer() -> str:
    """File letters beyond each back edge, rank numbers beyond each side edge."""
    out = []
    for p in range(3):
        colour = LABELS[p]
        nx, ny = outward(4 + 2 * p)
        for f in range(8):
            x, y = at(p, f + 0.5, 0)
            out.append(
                svg.text(
                    (x + nx * 14, y + ny * 14), FILES[f], font_size=13, fill=colour, class_="coord"
                )
            )
        x, y = at(p, 4, 0)
        anchor = "end" if nx < -0.3 else ("start" if nx > 0.3 else "middle")
        out.append(
            svg.text(
                (x + nx * 34, y + ny * 34),
                f"{COLOUR_NAMES[p]} ({COLOURS[p]})",
                font_size=14,
                font_weight="bold",
                fill=colour,
                text_anchor=anchor,
                class_="coord",
            )
        )
        for k, f in ((3 + 2 * p, 0), (5 + 2 * p, 8)):  # the a-file and h-file edges
            nx, ny = outward(k)
            for r in range(4):
                x, y = at(p, f, r + 0.5)
                out.append(
                    svg.text(
                        (x + nx * 12, y + ny * 12),
                        str(r + 1),
                        font_size=12,
                        fill=colour,
                        class_="coord",
                    )
                )
    return "".join(out)


@cache
def board_layer() -> str:
    """The cells, the hexagon, the seams between territories and the centre."""
    body = []
    for cell in range(96):
        p, r, f = cell >> 5, (cell >> 3) & 3, cell & 7
        light, dark = SQUARES[p]
        body.append(
            svg.element(
                "path",
                d=cell_path(cell),
                fill=dark if (r + f) % 2 == 0 else light,
                stroke="#6b5a45",
                stroke_width=0.8,
                class_="cell",
                data_cell=NAMES[cell],
            )
        )
    hexagon = [screen(corner(k)) for k in range(6)]
    body.append(svg.polygon(hexagon, fill="none", stroke=INK, stroke_width=2))
    for p in range(3):  # each territory's rank-4 edge on its left: the seams
        body.append(svg.line(screen((0, 0)), at(p, 0, 4), stroke=INK, stroke_width=2))
    body.append(svg.circle(screen((0, 0)), 5, fill=INK, class_="centre"))
    return "".join(body)


@cache
def highlight(cell: int) -> str:
    """The last move's mark on ``cell``."""
    return svg.element(
        "path",
        d=cell_path(cell),
        fill=LAST_MOVE,
        fill_opacity="0.25",
        stroke=LAST_MOVE,
        stroke_width=3,
        class_="last-move",
    )


@cache
def placed(cell: int, code: int) -> str:
    """The piece of ``code`` on ``cell``."""
    x, y = cell_centre(cell)
    return svg.group(
        [piece(code, 12)],
        transform=f"translate({svg.num(x)},{svg.num(y)})",
        class_=f"piece seat{(code >> 3) + 1}",
    )


def draw(
    game: Trichess, state: TrichessState, played: Played | None, coordinates: bool
) -> tuple[Board, Status]:
    """The board and status of a Trichess position (see the module doc)."""
    body = [board_layer()]
    path: tuple[int, ...] = ()
    if played is not None:
        frm, to = played.move >> 10, (played.move >> 3) & 127
        path = (to,) if frm == to else (frm, to)
        body.extend(highlight(cell) for cell in path)
    for cell, code in enumerate(state.board):
        if code:
            body.append(placed(cell, code))
    lines_extra = []
    if played is not None and len(path) == 2:
        body.append(
            svg.arrow(
                [cell_centre(path[0]), cell_centre(path[1])],
                colour=LAST_MOVE,
                width=3,
                head=11,
                class_="last-move",
                opacity="0.85",
            )
        )
        before = played.before
        if before is not None:
            taken = [
                c
                for c in range(96)
                if before.board[c]
                and (before.board[c] >> 3) != before.turn
                and state.board[c] != before.board[c]
            ]
            for c in taken:
                x, y = cell_centre(c)
                body.append(
                    svg.group(
                        [svg.cross((x + 13, y - 13), 6, colour=CAPTURED, width=3)],
                        class_="captured-mark",
                        data_cell=NAMES[c],
                    )
                )
                code = before.board[c]
                lines_extra.append(
                    f"captured: {COLOUR_NAMES[code >> 3]} {PIECE_LETTERS[code & 7]} on {NAMES[c]}"
                )
    if coordinates:
        body.append(labels_layer())
    seat = state.turn
    mover = f"{COLOUR_NAMES[seat]} (seat {seat + 1})"
    details = "in check" if state.status().check and state.outcome() is None else ""
    lines = status_lines(state, mover, details)
    outcome = state.outcome()
    if outcome is not None:
        lines[-1] += f", scores {','.join(f'{s:g}' for s in outcome.scores)}"
    lines.extend(lines_extra)
    swatch = None if outcome is not None else piece(seat * 8 + 6, 8)
    return Board(WIDTH, HEIGHT, body), Status(lines, swatch)
