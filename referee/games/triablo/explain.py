"""Why a Triablo move is illegal (``TriabloState.explain_illegal``).

The checks of ``movegen.is_legal`` and ``start.is_legal_setup`` in the order a player
thinks of them: the setup phase, whose piece, the line and the points between, then what
each kind of piece may do (a singleton along its tips, a doublet's cover tips for
captures, a king one step), the orientation suffix, and the vulnerability rule (three tips
of the mover's colour aimed at the target). Pure; only for the illegal path.
"""

from __future__ import annotations

from referee.games.triablo.board import DIRECTION_NAMES, LINES, NAMES, NUM_POINTS
from referee.games.triablo.config import Position
from referee.games.triablo.movegen import (
    ABDICATE,
    CAPTURE,
    NO_ORIENT,
    POINTS_SHIFT,
    SETUP,
    SLIDE,
    WEST_SHIFT,
    split_move,
)
from referee.games.triablo.pieces import (
    CONTROLLER,
    DOUBLET,
    KIND,
    KING,
    ORIENT,
    ORIENT_LETTERS,
    SEAT_NAMES,
    SINGLETON,
    tips_on,
)
from referee.games.triablo.start import allowed_orientations, setup_parts, singletons_of

_KINDS = {SINGLETON: "singleton", DOUBLET: "doublet", KING: "king"}


def explain(state: Position, move: int) -> str | None:
    """The rule ``move`` breaks for the seat to move, or None (the game not over)."""
    if move >= SETUP:
        return _setup(state, move)
    if state.in_setup:
        return (
            f"setup=free: {SEAT_NAMES[state.seat]} must first make its setup move "
            "(the orientation of each of its singletons)"
        )
    return _ordinary(state, move)


def _setup(state: Position, move: int) -> str | None:
    if not state.in_setup:
        return "a setup move is only played before White's first move (setup=free)"
    board, seat = state.board, state.seat
    points, orients = setup_parts(move)
    extra = move >> (WEST_SHIFT + NUM_POINTS) or (move >> WEST_SHIFT) & ~(
        (move >> POINTS_SHIFT) & ((1 << NUM_POINTS) - 1)
    )
    if extra or move & (SETUP - 1):
        return "not a setup move of this board"
    if points != singletons_of(board, seat):
        return f"a setup move gives an orientation to every singleton of {SEAT_NAMES[seat]}"
    for point, orient in zip(points, orients, strict=True):
        if orient not in allowed_orientations(board, point):
            return (
                f"setup: the singleton on {NAMES[point]} may not be Type-{ORIENT_LETTERS[orient]}"
                ": its tips would aim at an enemy piece while the other orientation does not"
            )
    return None


def _ordinary(state: Position, move: int) -> str | None:
    board, seat = state.board, state.seat
    frm, to, kind, orient = split_move(move)
    code = board[frm]
    if not code:
        return f"there is no piece on {NAMES[frm]}"
    owner = CONTROLLER[code]
    if owner != seat:
        return (
            f"the piece on {NAMES[frm]} is not {SEAT_NAMES[seat]}'s: "
            f"{SEAT_NAMES[owner]} controls it"
        )
    line = LINES[frm].get(to)
    if line is None:
        return f"{NAMES[to]} is not in a straight line from {NAMES[frm]}"
    for point in line.between:
        if board[point]:
            return f"the path from {NAMES[frm]} to {NAMES[to]} is blocked at {NAMES[point]}"
    if kind not in (SLIDE, CAPTURE, ABDICATE):
        return "not a move of this game"
    piece, target = KIND[code], board[to]
    name = f"the {_KINDS[piece]} on {NAMES[frm]}"
    along = line.direction % 2 == ORIENT[code]
    direction = DIRECTION_NAMES[line.direction]
    if kind == ABDICATE:
        if piece != KING:
            return f"only a king abdicates; {name} is not one"
        if KIND[target] != SINGLETON or CONTROLLER[target] != seat:
            return f"a king abdicates onto one of its own singletons; {NAMES[to]} holds none"
        return None if orient != NO_ORIENT else "an abdication names the orientation left behind"
    if kind == SLIDE:
        if target:
            return f"the point {NAMES[to]} is occupied (a capture is written with x)"
        if piece == KING:
            if line.between:
                return f"a king steps to an adjacent point only; {NAMES[to]} is farther"
            return None if orient == NO_ORIENT else "a king step carries no orientation"
        if orient == NO_ORIENT:
            return f"a {_KINDS[piece]} move carries its orientation after the move (/E or /W)"
        if piece == SINGLETON and not along:
            return f"{name} slides only along its tips; {direction} is not one of them"
        return None
    if not target:
        return f"there is nothing to capture on {NAMES[to]}"
    if CONTROLLER[target] == seat:
        return f"the piece on {NAMES[to]} is {SEAT_NAMES[seat]}'s own"
    if piece == KING:
        if line.between:
            return f"a king captures an adjacent piece only; {NAMES[to]} is farther"
        if orient != NO_ORIENT:
            return "a king capture carries no orientation"
    elif piece == SINGLETON:
        if KIND[target] != SINGLETON:
            held = _KINDS[KIND[target]]
            return f"a singleton captures only a singleton; {NAMES[to]} holds a {held}"
        if not along:
            return f"{name} captures only along its tips; {direction} is not one of them"
        if orient != NO_ORIENT:
            return "a singleton capture carries no orientation (it is forced)"
    else:
        if not along:
            return f"{name} captures only along its cover's tips; {direction} is not one of them"
        if orient == NO_ORIENT:
            return "a doublet capture carries the cover's orientation after it (/E or /W)"
    tips = tips_on(board, to, seat, state.config.back)
    if tips < 3:
        return (
            f"vulnerability: a capture needs three {SEAT_NAMES[seat]} tips aimed at the piece on "
            f"{NAMES[to]}; it has {tips}"
        )
    return None
