"""The frame shared by every picture: a title above the board, status lines below.

A game module draws its board into a ``Board`` (its own coordinate system, origin at
the top left) and describes the side to move or the result in a ``Status``; ``frame``
places them on one page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.core import State
from referee.pictures import svg

TITLE_HEIGHT = 30.0
LINE_HEIGHT = 20.0
MARGIN = 12.0
INK = "#222222"
"""Text and outlines."""
LAST_MOVE = "#d0169b"
"""Magenta: the last move's arrows and outlines in every game (no game uses it for pieces)."""
CAPTURED = "#d0169b"
"""The crosses on stones the last move captured."""


@dataclass(frozen=True, slots=True)
class Board:
    """A drawn board: its size in drawing units and its SVG elements."""

    width: float
    height: float
    body: Sequence[str]


@dataclass(frozen=True, slots=True)
class Status:
    """What the lines under the board say."""

    lines: Sequence[str]
    """The first names the side to move, or the result when the game is over."""
    swatch: str | None = None
    """An SVG element drawn left of the first line, centred on (0, 0): the mover's piece."""


def status_lines(state: State[Any], mover: str, details: str = "") -> list[str]:
    """``"<mover> to move"`` (plus ``details``) or ``"Game over: <reason>"``.

    ``mover`` names the seat to move; it is ignored once the game is over.
    """
    outcome = state.outcome()
    if outcome is not None:
        ranks = ", ".join(str(rank) for rank in outcome.ranks)
        return [f"Game over: {outcome.reason}", f"ranks by seat (1 = best): {ranks}"]
    return [f"{mover} to move" + (f", {details}" if details else "")]


def page(
    title: str, board: Board, status: Status, played_text: str | None, *, size: float | None
) -> list[str]:
    """The whole SVG document, as the pieces whose concatenation it is.

    Layout, top to bottom: the title, the board, then the status lines (the first one
    with the mover's swatch) and ``Last move: …`` when there is one.
    """
    lines = list(status.lines)
    if played_text is not None:
        lines.append(f"Last move: {played_text}")
    # 0.6 em is a generous average glyph width for the sans-serif fonts asked for
    longest = max(len(words) for words in lines) * 14 * 0.6 + 2 * MARGIN + 22
    width = max(board.width + 2 * MARGIN, longest, 360.0)
    height = TITLE_HEIGHT + board.height + MARGIN + LINE_HEIGHT * len(lines) + MARGIN
    head, tail = _title(width)
    body = [head, svg.esc(title), tail, _board_open((width - board.width) / 2), *board.body, "</g>"]
    y = TITLE_HEIGHT + board.height + MARGIN + LINE_HEIGHT / 2
    for k, words in enumerate(lines):
        x = MARGIN
        if k == 0 and status.swatch is not None:
            body += [_swatch_open(x + 8, y), status.swatch, "</g>"]
            x += 22
        head, tail = _line(x, y, "status" if k < len(status.lines) else "last-move-text")
        body += [head, svg.esc(words), tail]
        y += LINE_HEIGHT
    return svg.document_parts(width, height, body, title=title, size=size)


# The pieces of the frame, each made once by the general builders and cut around a
# placeholder (``svg.cut``): a report draws thousands of pictures, and these repeat.


@cache
def _title(width: float) -> tuple[str, str]:
    """The title's text element, before and after its words."""
    return svg.cut(
        svg.text(
            (width / 2, TITLE_HEIGHT / 2 + 4),
            svg.HOLE,
            font_size=16,
            font_weight="bold",
            fill=INK,
            class_="title",
        )
    )


@cache
def _board_open(dx: float) -> str:
    """The opening tag of the group placing the board under the title."""
    return svg.cut(
        svg.group(
            [svg.HOLE],
            transform=f"translate({svg.num(dx)},{svg.num(TITLE_HEIGHT)})",
            class_="board",
        )
    )[0]


@cache
def _swatch_open(x: float, y: float) -> str:
    """The opening tag of the group placing the mover's swatch."""
    return svg.cut(svg.group([svg.HOLE], transform=f"translate({svg.num(x)},{svg.num(y)})"))[0]


@cache
def _line(x: float, y: float, kind: str) -> tuple[str, str]:
    """A status line's text element, before and after its words."""
    return svg.cut(
        svg.text((x, y), svg.HOLE, font_size=14, fill=INK, text_anchor="start", class_=kind)
    )
