"""The last move of a picture: what callers may pass, and its resolved form.

A caller knows the move that led to the pictured position, and usually the position
it was played in too. Captured stones can only be shown with that earlier position:
a whistling chain's victims are gone from the position after it, and any swept cell
might or might not have held one. So ``last_move`` is either a bare move (a move
value or its text: the move is marked, its captures are not shown) or a ``LastMove``
carrying the position before it (everything is shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.core import Game, State


@dataclass(frozen=True, slots=True)
class LastMove:
    """A move together with the position it was played in."""

    before: State[Any]
    """The position the move was played in (its captures are read from it)."""
    move: object
    """The move: a move value of the game, or its canonical text."""


@dataclass(frozen=True, slots=True)
class Played:
    """A resolved last move, as the game modules read it."""

    move: Any
    """The move value (as ``Game.parse_move`` returns it)."""
    text: str
    """Its canonical text."""
    before: Any | None
    """The position it was played in, or None when the caller gave a bare move."""


def resolve(game: Game[Any, Any], state: State[Any], last_move: object) -> Played | None:
    """``last_move`` (None, a move, its text, or a ``LastMove``) as a ``Played``.

    Text is parsed in the position before the move when known, else in ``state``.

    :raises InvalidMoveError: text that does not parse in the game's notation.
    """
    if last_move is None:
        return None
    before: State[Any] | None = None
    move = last_move
    if isinstance(last_move, LastMove):
        before, move = last_move.before, last_move.move
    context = state if before is None else before
    if isinstance(move, str):
        move = game.parse_move(context, move)
    return Played(move, game.format_move(context, move), before)
