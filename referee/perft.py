"""Perft: count the move sequences of a given length, to test move generators.

Generic over every game. One ply is one complete turn as ``State.legal_moves``
lists it (a pie swap, an extra placement by the same seat, a whole capture chain).
A finished game has no moves, so it contributes 0 at every depth above 0.
"""

from __future__ import annotations

from typing import Any

from referee.core import Game, State


def perft(state: State[Any], depth: int) -> int:
    """The number of legal move sequences of exactly ``depth`` plies from ``state``.

    :raises ValueError: ``depth`` is negative.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)


def divide(game: Game[Any, Any], state: State[Any], depth: int) -> list[tuple[str, int]]:
    """``perft(state, depth)`` split by first move: ``(move text, count)`` in move order.

    :raises ValueError: ``depth`` is less than 1.
    """
    if depth < 1:
        raise ValueError(f"divide depth must be >= 1, not {depth}")
    return [
        (game.format_move(state, move), perft(state.play(move), depth - 1))
        for move in state.legal_moves()
    ]
