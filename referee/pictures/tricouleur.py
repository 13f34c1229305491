"""Tricouleur: the hexhex board of side 8 with red, white and blue stones.

Seat 1 (First) has the source's *marked* stones: drawn with a black centre dot; seat 2's
are plain. Cell names follow the source: the letter names the line running up to the
right (``a`` is the upper left edge), the number the line running down to the right
(``1`` is the lower left edge); each label sits just off the board at one end of its line.
"""

from __future__ import annotations

from functools import cache

from referee.games.hex import bits
from referee.games.tricouleur.notation import BOARD, NAMES
from referee.games.tricouleur.rules import Tricouleur, TricouleurState
from referee.pictures import svg
from referee.pictures.frame import Board, Status, status_lines
from referee.pictures.hexcells import Layout, draw_board
from referee.pictures.moves import Played

LAYOUT = Layout(BOARD, radius=16.0, margin=30.0)
COLOURS = (("#d62828", "#7a0f0f"), ("#fbfbf5", "#555555"), ("#2456c9", "#0f2a66"))
"""(fill, outline) of red, white and blue stones."""
ARMIES = ("First (marked)", "Second")


@cache
def stone(kind: int, radius: float) -> str:
    """The stone of kind ``3 * seat + colour`` centred on (0, 0)."""
    fill, outline = COLOURS[kind % 3]
    parts = [svg.circle((0, 0), radius, fill=fill, stroke=outline, stroke_width=1.5)]
    if kind < 3:
        parts.append(svg.circle((0, 0), radius * 0.3, fill="#000000"))
    return "".join(parts)


@cache
def labels() -> tuple[tuple[tuple[float, float], str], ...]:
    """Each line's name just off the board at one end: numbers above the upper end of
    the lines running down to the right, letters below the lower end of those running
    up to the right. (The other ends would put two labels on one spot.)"""
    radius = BOARD.radius
    out = []
    for k in range(2 * radius + 1):
        q = k - radius  # number k + 1 names the line of constant q
        top = min(r for (qq, r) in BOARD.slot_of if qq == q)
        out.append((LAYOUT.at(q, top - 1), str(k + 1)))
    for k in range(2 * radius + 1):
        total = k - radius  # letter k names the line of constant q + r
        bottom = max(r for (q, r) in BOARD.slot_of if q + r == total)
        out.append((LAYOUT.at(total - bottom - 1, bottom + 1), chr(ord("a") + k)))
    return tuple(out)


def draw(
    game: Tricouleur, state: TricouleurState, played: Played | None, coordinates: bool
) -> tuple[Board, Status]:
    """The board and status of a Tricouleur position (see the module doc)."""
    stones = {}
    for kind, mask in enumerate(state.stones):
        for slot in bits(mask):
            stones[slot] = (stone(kind, LAYOUT.radius * 0.7), f"piece seat{kind // 3 + 1}")
    path: tuple[int, ...] = ()
    victims = {}
    if played is not None:
        path = (played.move[0], played.move[1])
        if played.before is not None:
            before: TricouleurState = played.before
            enemy = 1 - before.turn
            for kind in range(3 * enemy, 3 * enemy + 3):
                for slot in bits(before.stones[kind] & ~state.stones[kind]):
                    victims[slot] = stone(kind, LAYOUT.radius * 0.7)
    board = draw_board(
        LAYOUT, NAMES, stones, path=path, victims=victims, labels=labels() if coordinates else ()
    )
    mover = "" if state.turn < 0 else f"seat {state.turn + 1}, {ARMIES[state.turn]},"
    lines = status_lines(state, mover.rstrip(","), f"{state.quiet} plies without capture")
    left = (state.armies(0).bit_count(), state.armies(1).bit_count())
    lines.append(f"stones left: seat 1 {left[0]}, seat 2 {left[1]}")
    if coordinates:
        lines.append("cells: letter \u2197 (a: upper left edge), number \u2198 (1: lower left)")
    swatch = None if state.turn < 0 else stone(3 * state.turn, 7)
    return board, Status(lines, swatch)
