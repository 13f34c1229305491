"""Consistency checks of a decoded Triablo position (``Triablo.decode``).

A position must be one that legal play could reach, as far as these counts show:

- at most ten singletons per seat (a doublet holds two, a king two of one colour), at
  most one king each, no pieces of a seat beyond the player count;
- during the setup phase: the start's points and owners, seat = ply, the seats already
  set up oriented as the constraint allows, the others as in the default start;
- a running game: the seat to move is in the game and its king can act, every seat in
  the game has its king and at least three pieces, eliminated seats control nothing,
  the no-capture count is below its limit;
- a finished game: either one seat is left and the last elimination's reason holds on
  the board, or the no-capture count has just reached its limit with two or more left.
"""

from __future__ import annotations

from referee.errors import InvalidPositionError
from referee.games.triablo import movegen, start
from referee.games.triablo.config import Position
from referee.games.triablo.notation import KING_CAPTURED, TOO_FEW
from referee.games.triablo.pieces import (
    CAPTIVE,
    CONTROLLER,
    DOUBLET,
    KIND,
    KING,
    SINGLETON,
    controlled,
    king,
)


def _fail(text: str, why: str) -> None:
    raise InvalidPositionError(f"triablo position {text!r}: {why}")


def _check_material(state: Position, text: str) -> None:
    singles = [0, 0, 0]
    kings = [0, 0, 0]
    for code in state.board:
        kind = KIND[code]
        if kind == SINGLETON:
            singles[CONTROLLER[code]] += 1
        elif kind == DOUBLET:
            singles[CONTROLLER[code]] += 1
            singles[CAPTIVE[code]] += 1
        elif kind == KING:
            singles[CONTROLLER[code]] += 2
            kings[CONTROLLER[code]] += 1
    for seat in range(3):
        if seat >= state.config.players and singles[seat]:
            _fail(text, f"pieces of seat {seat + 1} in a {state.config.players}-player game")
        if singles[seat] > 10 or kings[seat] > 1:
            _fail(text, f"seat {seat + 1} has more than ten singletons or more than one king")


def _check_setup(state: Position, text: str) -> None:
    first = start.START[state.config.players]
    if state.seat != state.ply or state.quiet or state.out:
        _fail(text, "during the setup the seats set up in turn, without captures")
    for point, code in enumerate(state.board):
        model = first[point]
        if CONTROLLER[code] != CONTROLLER[model] or KIND[code] != KIND[model]:
            _fail(text, "the setup phase keeps the start's points")
        if KIND[code] != SINGLETON:
            continue
        if CONTROLLER[code] >= state.ply:
            if code != model:
                _fail(text, "a seat not yet set up has the default orientations")
        elif (code - 1) % 2 not in start.allowed_orientations(state.board, point):
            _fail(text, "an orientation breaks the setup constraint")


def _in_play(state: Position, seats: tuple[int, ...], text: str) -> None:
    for seat in seats:
        if state.board.find(king(seat)) < 0 or controlled(state.board, seat) < 3:
            _fail(text, f"seat {seat + 1} is in the game without a king or three pieces")


def _out_of_play(state: Position, seats: list[int], text: str) -> None:
    for seat in seats:
        if controlled(state.board, seat):
            _fail(text, f"eliminated seat {seat + 1} still controls pieces")


def check_position(state: Position, text: str) -> None:
    """:raises InvalidPositionError: the position is inconsistent (see the module doc)."""
    config = state.config
    _check_material(state, text)
    out_seats = [seat for seat, _ in state.out]
    if len(set(out_seats)) != len(out_seats) or len(out_seats) >= config.players:
        _fail(text, "bad eliminations")
    alive = state.alive
    setup_plies = config.players if config.free_setup else 0
    if state.in_setup:
        if state.seat < 0:
            _fail(text, "a game cannot end during the setup")
        _check_setup(state, text)
        return
    if state.quiet > state.ply - setup_plies:
        _fail(text, "more plies without capture than moves")
    limit = config.draw_limit
    if state.seat >= 0:
        if state.seat not in alive:
            _fail(text, f"seat {state.seat + 1} is out of the game")
        if limit and state.quiet >= limit:
            _fail(text, f"the game is drawn after {limit} plies without capture")
        _in_play(state, alive, text)
        _out_of_play(state, out_seats, text)
        if not movegen.king_can_act(state.board, state.seat, config.back):
            _fail(text, f"seat {state.seat + 1} lost: its king cannot move or abdicate")
        return
    if len(alive) >= 2:
        if not limit or state.quiet != limit:
            _fail(text, "a game over with two seats left must be a no-capture draw")
        _in_play(state, alive, text)
        _out_of_play(state, out_seats, text)
        return
    _in_play(state, alive, text)
    _out_of_play(state, out_seats[:-1], text)
    loser, why = state.out[-1]
    has_king = state.board.find(king(loser)) >= 0
    if why == KING_CAPTURED:
        holds = not has_king
    elif why == TOO_FEW:
        holds = has_king and controlled(state.board, loser) < 3
    else:
        holds = (
            has_king
            and controlled(state.board, loser) >= 3
            and not movegen.king_can_act(state.board, loser, config.back)
        )
    if not holds:
        _fail(text, f"the reason given for seat {loser + 1}'s loss does not hold")
