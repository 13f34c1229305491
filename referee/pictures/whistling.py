"""Whistling Captures: the hexhex board of side 11 with X's dark and O's light stones.

Cell names are the source's doubled-width ones: the column letter (``a``…``z``,
``A``…``O``, one per half cell, written above and below the board) and the row number
(``1``…``21`` from the top, written at both ends of each row). The last move is its
path through every pivot; with the position before it, its victims are shown faded
and crossed.
"""

from __future__ import annotations

from functools import cache

from referee.games.hex import bits
from referee.games.whistling.notation import BOARD, LETTERS, NAMES, ROWS
from referee.games.whistling.rules import WhistlingCaptures, WhistlingState
from referee.pictures import svg
from referee.pictures.frame import Board, Status, status_lines
from referee.pictures.hexcells import Layout, draw_board
from referee.pictures.moves import Played
from referee.pictures.trike import STONES

LAYOUT = Layout(BOARD, radius=13.0, margin=30.0)
SIDES = ("X (dark)", "O (light)")


@cache
def stone(seat: int, radius: float) -> str:
    """Seat ``seat``'s stone centred on (0, 0)."""
    fill, outline = STONES[seat]
    return svg.circle((0, 0), radius, fill=fill, stroke=outline, stroke_width=1.5)


@cache
def labels() -> tuple[tuple[tuple[float, float], str], ...]:
    """Column letters above and below the board, row numbers at both ends of each row."""
    radius = BOARD.radius
    out = []
    for column, letter in enumerate(LETTERS):
        x = LAYOUT.at((column - 2 * radius) / 2, 0)[0]
        out.append(((x, LAYOUT.at(0, -radius - 1)[1] + 4), letter))
        out.append(((x, LAYOUT.at(0, radius + 1)[1] - 4), letter))
    for number, row in enumerate(ROWS, 1):
        (q0, r), (q1, _) = BOARD.coords[row[0]], BOARD.coords[row[-1]]
        out.append((LAYOUT.at(q0 - 1, r), str(number)))
        out.append((LAYOUT.at(q1 + 1, r), str(number)))
    return tuple(out)


def draw(
    game: WhistlingCaptures, state: WhistlingState, played: Played | None, coordinates: bool
) -> tuple[Board, Status]:
    """The board and status of a Whistling Captures position (see the module doc)."""
    small = LAYOUT.radius * 0.72
    stones = {
        slot: (stone(seat, small), f"piece seat{seat + 1}")
        for seat in (0, 1)
        for slot in bits(state.stones[seat])
    }
    path: tuple[int, ...] = ()
    victims = {}
    if played is not None:
        move = played.move
        path = (move[0], move[1]) if len(move) == 3 and move[2] < 0 else tuple(move)
        if played.before is not None:
            before: WhistlingState = played.before
            enemy = 1 - before.turn
            for slot in bits(before.stones[enemy] & ~state.stones[enemy]):
                victims[slot] = stone(enemy, small)
    board = draw_board(
        LAYOUT, NAMES, stones, path=path, victims=victims, labels=labels() if coordinates else ()
    )
    mover = "" if state.turn < 0 else f"seat {state.turn + 1}, {SIDES[state.turn]},"
    lines = status_lines(state, mover.rstrip(","), f"{state.quiet} plies without capture")
    left = (state.stones[0].bit_count(), state.stones[1].bit_count())
    lines.append(f"stones left: X {left[0]}, O {left[1]}")
    if victims:
        lines.append(f"captured by the last move: {len(victims)}")
    swatch = None if state.turn < 0 else stone(state.turn, 7)
    return board, Status(lines, swatch)
