"""Pictures of positions: ``position_svg`` draws any position of any game as SVG.

One module per game draws the board in the game's true geometry; ``frame`` adds the
title, the side to move (or the result) and the last move; ``svg`` builds the text.
The pictures read the games' state fields and geometry tables; they change nothing.

Speed: a report draws thousands of positions, so whatever positions share (the board,
its labels, a piece on a given cell, the frame's fixed parts) is drawn once per process
as ready text, by functions cached on their plain arguments (``functools.cache``);
drawing a position then mostly joins cached strings. The caches hold no position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core import Game, State
from referee.pictures import frame, moves, triablo, trichess, tricolor, tricouleur, trike, whistling
from referee.pictures.moves import LastMove, Played

Drawer = Callable[[Any, Any, Played | None, bool], tuple[frame.Board, frame.Status]]

DRAWERS: dict[str, Drawer] = {
    "trike": trike.draw,
    "tricouleur": tricouleur.draw,
    "whistling-captures": whistling.draw,
    "trichess": trichess.draw,
    "tricolor": tricolor.draw,
    "triablo": triablo.draw,
}
"""The drawing function of every game id in the registry."""

__all__ = ["DRAWERS", "LastMove", "position_parts", "position_svg"]


def position_svg(
    game: Game[Any, Any],
    state: State[Any],
    *,
    last_move: object = None,
    size: float | None = None,
    coordinates: bool = True,
) -> str:
    """A self-contained SVG document picturing ``state`` of ``game``.

    - ``last_move``: the move that led to ``state``, or None. A move value, its canonical
      text, or a ``LastMove(before, move)``; only the latter shows captured stones
      (see ``moves``). It is drawn as given: whether it really led to ``state`` is
      the caller's business.
    - ``size``: the rendered width in pixels (the height keeps the aspect); None for the
      picture's natural size.
    - ``coordinates``: whether to write the cell names of the game's notation.

    The output is deterministic (no ids, no scripts, no external references).

    :raises KeyError: the game has no drawing module.
    :raises InvalidMoveError: ``last_move`` is text that does not parse.
    """
    parts = position_parts(game, state, last_move=last_move, size=size, coordinates=coordinates)
    return "".join(parts)


def position_parts(
    game: Game[Any, Any],
    state: State[Any],
    *,
    last_move: object = None,
    size: float | None = None,
    coordinates: bool = True,
) -> list[str]:
    """``position_svg``'s text as the pieces whose concatenation it is: what positions
    share (the board, a piece on a cell, the frame) comes as the very same cached string
    objects, so a caller storing many pictures can store each piece once and cheaply
    (``tournaments.html.replay.FramePool``). Same arguments and errors."""
    draw = DRAWERS[game.name]
    played = moves.resolve(game, state, last_move)
    board, status = draw(game, state, played, coordinates)
    title = f"{game.name}, ply {state.ply}"
    return frame.page(title, board, status, played.text if played else None, size=size)
