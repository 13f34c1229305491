"""A one-ply greedy player for every registered game: ``python -m bots greedy [--seed S]``.

For each legal move the bot looks one ply ahead with the game's own rules and
evaluation:

1. a move after which the game is over with this seat sole first wins outright:
   one of those is played;
2. otherwise every move is valued by the position it leads to: own score minus the
   best opponent score, from the outcome if the move ends the game, else from
   ``Game.score_unfinished`` (the game's own "if it ended now" evaluation: points,
   material, captured pieces). When that gives no scores, ranks stand in for them:
   the mean over the opponents of their rank minus one's own;
3. safety: among the moves of the best value, those after which the next seat can
   win outright with one move are dropped, unless all of them are such moves (then
   the next value down is tried, and so on; with no safe move at all, the best
   value is played). ``--no-safety`` turns this off;
4. ties are broken at random with a generator seeded like the random bot's (bot
   seed, game seed, ply), so a game is reproducible. (The moves of a group are
   tried in a random order and the first safe one is played: the same uniform
   choice among the safe moves, with few safety checks.)

Why the safety step: in Trike the game's evaluation (checkers around the pawn) only
decides at the very end, and a bot without it scores only about 57% against
``random`` (600 games); with it, about 68%. In games with captures or points the value of
step 2 dominates and the safety step rarely matters. The bot searches no deeper:
it is a baseline that must clearly beat ``random``, not a strong player.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from typing import Any

from bots.engine import RESIGN, run_engine
from bots.random_bot import AnyGame, AnyState, RandomBrain, mix_seed
from protocol.messages import Go, Position

WIN = 1
"""Tier of a move that ends the game with the mover sole first."""
OTHER = 0
"""Tier of every other move."""


def move_value(game: AnyGame, state: AnyState, move: Any) -> tuple[int, float]:
    """(tier, value) of playing ``move`` in ``state`` for the seat to move; higher is better."""
    seat = state.to_move
    assert seat is not None  # only called with a legal move, so the game is on
    after = state.play(move)
    outcome = after.outcome()
    if outcome is not None:
        ranks, scores = outcome.ranks, outcome.scores
        if ranks and ranks[seat] == 1 and sum(1 for r in ranks if r == 1) == 1:
            return WIN, 0.0
    else:
        ranks, scores = game.score_unfinished(after)
    others = [s for s in range(state.num_players) if s != seat]
    if len(scores) == state.num_players and others:
        return OTHER, float(scores[seat]) - max(float(scores[s]) for s in others)
    if len(ranks) == state.num_players and others:
        # Ranks only: the mean rank margin over the opponents, so that putting one of
        # two opponents behind counts (against the best opponent alone it would not).
        return OTHER, sum(ranks[s] - ranks[seat] for s in others) / len(others)
    return OTHER, 0.0


def gives_outright_win(state: AnyState, move: Any) -> bool:
    """Whether, after ``move``, the seat to move next can end the game as sole first."""
    after = state.play(move)
    seat = after.to_move
    if seat is None:
        return False
    for reply in after.legal_moves():
        outcome = after.play(reply).outcome()
        if outcome is not None and outcome.ranks:
            ranks = outcome.ranks
            if ranks[seat] == 1 and sum(1 for r in ranks if r == 1) == 1:
                return True
    return False


def ranked_groups(game: AnyGame, state: AnyState) -> list[list[Any]]:
    """The legal moves grouped by ``move_value``, best group first, canonical order within."""
    groups: dict[tuple[int, float], list[Any]] = {}
    for move in state.legal_moves():
        groups.setdefault(move_value(game, state, move), []).append(move)
    return [groups[value] for value in sorted(groups, reverse=True)]


def greedy_moves(game: AnyGame, state: AnyState) -> list[Any]:
    """The moves of the best value (before the safety step), in canonical order."""
    groups = ranked_groups(game, state)
    return groups[0] if groups else []


def greedy_move(
    game: AnyGame, state: AnyState, rng: random.Random, *, safety: bool = True
) -> Any | None:
    """The greedy bot's move (module docstring), None if the game is over.

    With safety, each group is tried in an order drawn from ``rng`` and the first
    safe move is played: a uniform choice among the group's safe moves that checks
    few moves in the usual case where most are safe.
    """
    groups = ranked_groups(game, state)
    if not groups:
        return None
    best = groups[0]
    top_is_win = move_value(game, state, best[0])[0] == WIN
    if not safety or top_is_win:
        return best[rng.randrange(len(best))]
    for group in groups:
        order = list(group)
        rng.shuffle(order)
        for move in order:
            if not gives_outright_win(state, move):
                return move
    return best[rng.randrange(len(best))]


class GreedyBrain(RandomBrain):
    """Plays one of the greedy moves, chosen with the random bot's seeded generator."""

    def __init__(self, seed: int = 0, *, safety: bool = True) -> None:
        super().__init__(seed)
        self.safety = safety

    def choose(self, position: Position, go: Go) -> str:
        """A greedy move, or ``resign`` if the position is already over."""
        state = self.replay(position)
        game = self.game
        assert game is not None  # replay raises without a game
        rng = random.Random(mix_seed(self.seed, self.game_seed, state.ply))
        move = greedy_move(game, state, rng, safety=self.safety)
        if move is None:
            return RESIGN
        return game.format_move(state, move)


def build_parser(prog: str = "python -m bots greedy") -> argparse.ArgumentParser:
    """The command-line options of the greedy bot."""
    parser = argparse.ArgumentParser(prog=prog, description="A one-ply greedy engine.")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    parser.add_argument(
        "--no-safety",
        dest="safety",
        action="store_false",
        help="pure one-ply greedy: do not avoid moves that hand the next seat a win",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the greedy bot as an engine on stdin/stdout."""
    args = build_parser().parse_args(argv)
    return run_engine(
        lambda: GreedyBrain(args.seed, safety=args.safety),
        name=f"greedy-{args.seed}",
        author="referee project",
    )
