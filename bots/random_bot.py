"""A seeded random player for every registered game: ``python -m bots random [--seed S]``.

The move depends only on the bot's ``--seed``, the game's ``newgame`` seed and the
position: the bot replays the position with the game's own rules (``parse_move``
and ``play``, so an illegal history is refused with ``error``), then draws from
``legal_moves()`` with a generator seeded by those three. The replayed state is
cached, so a position that extends the previous one costs only the new moves.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from bots.engine import RESIGN, run_engine
from protocol.messages import Go, NewGame, Position
from referee.core import Game, State
from referee.errors import RulesError
from referee.registry import make_game

AnyGame = Game[Any, Any]
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
        self.players = 0
        self.game_seed = 0
        # Cache of the last replay: (start text, moves, state).
        self._cached: tuple[str | None, tuple[str, ...], AnyState] | None = None

    def newgame(self, cmd: NewGame) -> str | None:
        """Accept any registered game with valid options; refuse anything else."""
        self._cached = None
        try:
            game = make_game(cmd.game, dict(cmd.options))
            game.check_players(cmd.players)
        except RulesError as exc:
            self.game = None
            return str(exc)
        self.game, self.players, self.game_seed = game, cmd.players, cmd.seed
        return None

    def replay(self, position: Position) -> AnyState:
        """The state after ``position`` (validated), reusing the previous replay if it is a prefix.

        :raises ValueError: no game, or a bad start position or move in the history.
        """
        game = self.game
        if game is None:
            raise ValueError("no game: send newgame first")
        moves = position.moves
        cached = self._cached
        if (
            cached is not None
            and cached[0] == position.state
            and len(cached[1]) <= len(moves)
            and moves[: len(cached[1])] == cached[1]
        ):
            state, done = cached[2], len(cached[1])
        else:
            if position.state is None:
                state = game.initial_state(self.players)
            else:
                state = game.decode(position.state)
            done = 0
        for index in range(done, len(moves)):
            try:
                state = state.play(game.parse_move(state, moves[index]))
            except RulesError as exc:
                raise ValueError(f"move {index + 1} {moves[index]!r}: {exc}") from None
        self._cached = (position.state, moves, state)
        return state

    def choose(self, position: Position, go: Go) -> str:
        """A random legal move, or ``resign`` if the position is already over."""
        state = self.replay(position)
        moves = state.legal_moves()
        if not moves:
            return RESIGN
        assert self.game is not None
        rng = random.Random(mix_seed(self.seed, self.game_seed, state.ply))
        return self.game.format_move(state, moves[rng.randrange(len(moves))])


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
