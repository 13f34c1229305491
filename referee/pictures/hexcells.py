"""Drawing a hexhex board of pointy-top cells (Tricouleur, Whistling Captures).

Cells are at axial ``(q, r)`` (``referee.games.hex``): ``r`` is the screen row,
``q`` grows to the right, so a cell's centre is ``(STEP·(q + r/2), ROW·r)``. Stones are
SVG snippets centred on (0, 0), placed by translation; the last move is an arrow
through its cells, its captured stones faded and crossed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from referee.games.hex import HexBoard
from referee.pictures import svg
from referee.pictures.frame import CAPTURED, INK, LAST_MOVE, Board
from referee.pictures.trike import hexagon

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the cells of one board go: cell radius and the margin kept for labels."""

    board: HexBoard
    radius: float
    margin: float

    @property
    def step(self) -> float:
        return math.sqrt(3) * self.radius

    @property
    def width(self) -> float:
        return (2 * self.board.radius + 1) * self.step + 2 * self.margin

    @property
    def height(self) -> float:
        return 2 * self.board.radius * 1.5 * self.radius + 2 * self.radius + 2 * self.margin

    def at(self, q: float, r: float) -> Point:
        """The centre of axial ``(q, r)`` (also for points off the board, for labels)."""
        return (
            self.width / 2 + self.step * (q + r / 2),
            self.height / 2 + 1.5 * self.radius * r,
        )

    def centre(self, slot: int) -> Point:
        q, r = self.board.coords[slot]
        return self.at(q, r)


def place(snippet: str, at: Point, **pairs: str) -> str:
    """``snippet`` (drawn around (0, 0)) moved to ``at``."""
    return svg.group([snippet], transform=f"translate({svg.num(at[0])},{svg.num(at[1])})", **pairs)


_IN_ORDER: dict[tuple[int, int], tuple[Layout, Mapping[int, str], tuple[str, ...]]] = {}
"""Per (layout, names) identity, the names in cell order, so each picture need not
rebuild that tuple just to look up its cached cells."""


def in_cell_order(layout: Layout, names: Mapping[int, str]) -> tuple[str, ...]:
    """``names`` of the cells of ``layout``, in the board's cell order (memoised)."""
    key = (id(layout), id(names))
    known = _IN_ORDER.get(key)
    if known is None or known[0] is not layout or known[1] is not names:
        # the entry keeps both alive, so their ids cannot be reused while it exists
        known = _IN_ORDER[key] = (layout, names, tuple(names[s] for s in layout.board.cells))
    return known[2]


@cache
def cells_layer(layout: Layout, names: tuple[str, ...], fill: str) -> str:
    """Every cell of ``layout`` (``names`` in the board's cell order), drawn once."""
    return "".join(
        svg.polygon(
            hexagon(*layout.centre(s), layout.radius),
            fill=fill,
            stroke="#8a7a5c",
            stroke_width=1,
            class_="cell",
            data_cell=name,
        )
        for s, name in zip(layout.board.cells, names, strict=True)
    )


@cache
def outline(layout: Layout, slot: int) -> str:
    """The last move's mark on ``slot``: an outline inside the cell."""
    return svg.polygon(
        hexagon(*layout.centre(slot), layout.radius - 1.5),
        fill="none",
        stroke=LAST_MOVE,
        stroke_width=3,
        class_="last-move",
    )


@cache
def placed(layout: Layout, slot: int, snippet: str, kind: str) -> str:
    """``snippet`` moved to the centre of ``slot``, with class ``kind``."""
    return place(snippet, layout.centre(slot), class_=kind)


@cache
def labels_layer(labels: tuple[tuple[Point, str], ...], size: float) -> str:
    """The coordinate labels, drawn once."""
    return "".join(
        svg.text(at, words, font_size=size, fill=INK, class_="coord") for at, words in labels
    )


def draw_board(
    layout: Layout,
    names: Mapping[int, str],
    stones: Mapping[int, tuple[str, str]],
    *,
    path: Sequence[int] = (),
    victims: Mapping[int, str] | None = None,
    labels: Sequence[tuple[Point, str]] = (),
    fill: str = "#eadfc8",
) -> Board:
    """The board: cells (class ``cell``, ``data-cell`` = name), stones, last move, labels.

    ``stones`` maps a slot to ``(snippet, class)``; ``path`` is the last move's cells in
    order (an arrow through them, the first and last outlined); ``victims`` maps the
    slots of captured stones to their snippets, drawn faded under a cross.
    """
    radius = layout.radius
    body = [cells_layer(layout, in_cell_order(layout, names), fill)]
    for slot in (*path[:1], *path[-1:]):
        body.append(outline(layout, slot))
    for slot in sorted(stones):
        body.append(placed(layout, slot, *stones[slot]))
    for slot in sorted(victims or {}):
        x, y = layout.centre(slot)
        if slot in stones:  # replaced: the mover stands there, so a small copy beside it
            corner = (x + radius * 0.62, y - radius * 0.62)
            body.append(
                place(
                    svg.group([(victims or {})[slot]], transform="scale(0.45)"),
                    corner,
                    opacity="0.6",
                    class_="captured",
                    data_cell=names[slot],
                )
            )
            mark = svg.cross(corner, radius * 0.3, colour=CAPTURED, width=2.5)
        else:
            body.append(
                place(
                    (victims or {})[slot],
                    (x, y),
                    opacity="0.35",
                    class_="captured",
                    data_cell=names[slot],
                )
            )
            mark = svg.cross((x, y), radius * 0.5, colour=CAPTURED, width=3)
        body.append(svg.group([mark], class_="captured-mark"))
    if len(path) >= 2:
        for slot in path[1:-1]:  # the pivots of a chain
            body.append(
                svg.circle(
                    layout.centre(slot), radius * 0.3, fill=LAST_MOVE, class_="last-move pivot"
                )
            )
        body.append(
            svg.arrow(
                [layout.centre(s) for s in path],
                colour=LAST_MOVE,
                width=3.5,
                head=radius * 0.8,
                class_="last-move",
                opacity="0.9",
            )
        )
    body.append(labels_layer(tuple(labels), min(12.0, radius * 0.85)))
    return Board(layout.width, layout.height, body)
