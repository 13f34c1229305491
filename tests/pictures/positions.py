"""The positions the picture tests draw: each game's start and a seeded mid-game.

A mid-game position is reached by seeded random choices among ``legal_moves()``,
which are in canonical order, so the same seed always reaches the same position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from referee.core import Game, State
from referee.pictures import LastMove
from referee.registry import make_game


@dataclass(frozen=True)
class Case:
    """One game and seat count, with the seed and plies of its mid-game position."""

    game: str
    players: int
    seed: int
    plies: int

    @property
    def slug(self) -> str:
        return f"{self.game}-{self.players}p"


CASES = (
    Case("trike", 2, 1, 10),
    Case("tricouleur", 2, 1, 20),
    Case("whistling-captures", 2, 10, 12),  # its last move is a 4-leg chain taking 4 stones
    Case("trichess", 3, 1, 24),
    Case("tricolor", 2, 1, 12),
    Case("triablo", 2, 1, 16),
    Case("triablo", 3, 1, 18),
)


def start(case: Case) -> tuple[Game[Any, Any], State[Any]]:
    """The game and its start position."""
    game = make_game(case.game)
    return game, game.initial_state(case.players)


def mid_game(case: Case) -> tuple[Game[Any, Any], State[Any], LastMove]:
    """The game, the position after ``case.plies`` seeded random moves, and the last move."""
    game, state = start(case)
    rng = random.Random(case.seed)
    last = None
    for _ in range(case.plies):
        assert state.to_move is not None, f"{case.slug} ended before ply {case.plies}"
        move = rng.choice(state.legal_moves())
        last = LastMove(state, move)
        state = state.play(move)
    assert last is not None and state.to_move is not None, f"{case.slug} is over"
    return game, state, last


def move_texts(case: Case) -> list[str]:
    """The canonical texts of the moves ``mid_game`` plays."""
    game, state = start(case)
    rng = random.Random(case.seed)
    texts = []
    for _ in range(case.plies):
        move = rng.choice(state.legal_moves())
        texts.append(game.format_move(state, move))
        state = state.play(move)
    return texts
