"""A seeded random player for every registered game: ``python -m bots random [--seed S]``.

The move depends only on the bot's ``--seed``, the game's ``newgame`` seed and the
position: the engine loop (``bots.engine``) keeps the position with the game's own
rules (an illegal history is refused with ``error``), and the bot draws from
``legal_moves()`` with a generator seeded by those three.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from bots.engine import RESIGN, Report, run_engine
from protocol.messages import Go, NewGame
from referee.core import AnyGame, State

AnyState = State[Any]

_MASK64 = (1 << 64) - 1


def mix_seed(bot_seed: int, game_seed: int, ply: int) -> int:
    """A generator seed from the bot's seed, the game's seed and the ply (pure, 64 bits)."""
    x = (bot_seed * 0x9E3779B97F4A7C15 + game_seed) & _MASK64
    x = (x ^ (x >> 31)) * 0xBF58476D1CE4E5B9 & _MASK64
    x = (x + ply * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 29)


class RandomBrain:
    """Plays a uniformly random legal move, deterministically (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.game: AnyGame | None = None
        self.game_seed = 0

    def newgame(self, game: AnyGame, cmd: NewGame) -> str | None:
        """Accept any game the loop could build."""
        self.game, self.game_seed = game, cmd.seed
        return None

    def rng(self, state: AnyState) -> random.Random:
        """The generator of the move at ``state`` (bot seed, game seed, ply)."""
        return random.Random(mix_seed(self.seed, self.game_seed, state.ply))

    def choose(self, state: AnyState, go: Go, report: Report) -> str:
        """A random legal move, or ``resign`` if the position is already over."""
        moves = state.legal_moves()
        if not moves:
            return RESIGN
        assert self.game is not None
        return self.game.format_move(state, moves[self.rng(state).randrange(len(moves))])


def build_parser(prog: str = "python -m bots random") -> argparse.ArgumentParser:
    """The command-line options of the random bot."""
    parser = argparse.ArgumentParser(prog=prog, description="A seeded random engine.")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the random bot as an engine on stdin/stdout."""
    args = build_parser().parse_args(argv)
    return run_engine(
        lambda: RandomBrain(args.seed), name=f"random-{args.seed}", author="referee project"
    )
