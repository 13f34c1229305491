"""A greedy player for every registered game: ``python -m bots greedy [--seed S]``.

The bot values positions for the seat to move (``utility``) and looks two plies ahead:

1. **Utility** of a position for a seat: when the game is over, ``WIN_VALUE`` times
   ``2·share - 1`` with the seat's placement share (sole first ``+WIN_VALUE``, sole
   last ``-WIN_VALUE``, a 2-player draw or 2nd of 3 ``0``); otherwise the game's own
   evaluation, ``Game.evaluate`` (stones, material, points so far; by default the
   scores of ``score_unfinished``): the seat's value minus the opponents' mean (with
   three seats, taking from either opponent counts). A game that gives no values falls
   back on the ranks of ``score_unfinished`` (the mean rank margin over the opponents).
2. **Value of a move**: a move that ends the game, or after which the same seat moves
   again (a Tricolor extra placement), is worth the utility after it. Otherwise the
   next seat answers with the reply worst for this seat (with three seats the
   "paranoid" assumption: the next seat plays against us) and the move is worth the
   utility after that reply: the one-ply gain minus the opponent's best immediate
   reply. That counts the material a move hangs (captures are often compulsory: in
   Tricouleur a capture that lets the opponent take back two stones is a bad capture)
   and includes the old safety step: a move that lets the next seat win at once is
   worth ``-WIN_VALUE``.
3. **Choice** (``greedy_move``): moves are grouped by their utility right after the
   move, best group first, and shuffled within a group by a generator seeded like the
   random bot's (bot seed, game seed, ply), so a game is reproducible. A reply is
   assumed not to raise a move's value (true of material in the two-player capture
   games: it can only take the mover's stones or win), so the first move that no
   reply lowers is played, a uniform choice among the best group's unhurt moves; if
   every move is hurt, the best value found is played. A game won at once is always
   taken.

Speed: replies are searched with a floor, the best value found so far: a move is
dropped as soon as one reply takes it there (alpha-beta at depth two), and the
replies that refuted earlier moves ("killers") are tried first. Typical moves take a
few milliseconds (``tests/test_greedy_bot.py`` plays every game against ``random``);
the cost grows with the number of legal replies, which in Whistling Captures can reach
thousands of chains. ``--one-ply`` (alias ``--no-safety``) skips the replies: pure
one-ply greedy. The bot is a baseline that must clearly beat ``random`` in every game,
not a strong player.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from typing import Any

from bots.engine import RESIGN, Report, run_engine
from bots.random_bot import AnyState, RandomBrain
from protocol.messages import Go
from referee.core import AnyGame, Outcome

WIN_VALUE = 1_000_000.0
"""Utility of a game won as sole first; far above any material difference."""


def _share(ranks: Sequence[int], seat: int) -> float:
    """The seat's placement share: place ``p`` of ``n`` is worth ``(n - p) / (n - 1)``,
    tied seats sharing the average of the places they span (1, ½, 0 for three seats)."""
    n = len(ranks)
    rank = ranks[seat]
    tied = sum(1 for other in ranks if other == rank)
    return sum((n - p) / (n - 1) for p in range(rank, rank + tied)) / tied


def outcome_utility(outcome: Outcome, seat: int) -> float:
    """``WIN_VALUE`` scaled from ``+1`` (sole first) to ``-1`` (sole last)."""
    ranks = outcome.ranks
    if len(ranks) < 2:
        return 0.0
    return WIN_VALUE * (2.0 * _share(ranks, seat) - 1.0)


def utility(game: AnyGame, state: AnyState, seat: int) -> float:
    """The value of ``state`` for ``seat`` (module docstring, step 1); higher is better."""
    outcome = state.outcome()
    if outcome is not None:
        return outcome_utility(outcome, seat)
    n = state.num_players
    others = [s for s in range(n) if s != seat]
    if not others:
        return 0.0
    values = game.evaluate(state)
    if len(values) == n:
        # The mean over the opponents: with three seats, taking from either counts.
        return float(values[seat]) - sum(float(values[s]) for s in others) / len(others)
    ranks = game.score_unfinished(state)[0]
    if len(ranks) == n:
        # Ranks only: the mean rank margin over the opponents, so that putting one of
        # two opponents behind counts (against the best opponent alone it would not).
        return sum(ranks[s] - ranks[seat] for s in others) / len(others)
    return 0.0


def reply_value(
    game: AnyGame,
    after: AnyState,
    seat: int,
    static: float,
    floor: float = -math.inf,
    killers: list[Any] | None = None,
) -> float:
    """The value for ``seat`` of the position ``after`` its move, once the next seat has
    made the reply worst for ``seat``; ``static`` is ``utility(game, after, seat)``.

    Stops early, returning a value at or below ``floor``, as soon as one reply gets there.
    ``killers`` holds replies that refuted earlier moves: they are tried first (when
    legal here), and the reply that refutes this move is put in front of it.
    """
    nxt = after.to_move
    if nxt is None or nxt == seat:
        return static
    replies = after.legal_moves()
    if killers:
        first = [k for k in killers if k in replies]
        if first:
            replies = (*first, *(r for r in replies if r not in first))
    worst, refutation = math.inf, None
    for reply in replies:
        value = utility(game, after.play(reply), seat)
        if value < worst:
            worst, refutation = value, reply
            if worst <= floor:
                break
    if killers is not None and refutation is not None and worst < static:
        if refutation in killers:
            killers.remove(refutation)
        killers.insert(0, refutation)
        del killers[KILLERS:]
    return worst if worst != math.inf else static


KILLERS = 4
"""Refuting replies remembered while one move is chosen."""


def greedy_move(
    game: AnyGame, state: AnyState, rng: random.Random, *, replies: bool = True
) -> Any | None:
    """The greedy bot's move (module docstring, step 3); None if the game is over.

    Groups are searched best first until one holds a move no reply lowers, or the next
    group's utility is no better than the best value found (replies are assumed not
    to raise it). With ``replies=False``: a uniform choice in the best group.
    """
    seat = state.to_move
    if seat is None:
        return None
    moves = state.legal_moves()
    if not moves:
        return None
    afters = [state.play(move) for move in moves]
    statics = [utility(game, after, seat) for after in afters]
    groups: dict[float, list[int]] = {}
    for i, value in enumerate(statics):
        groups.setdefault(value, []).append(i)
    tops = sorted(groups, reverse=True)
    if not replies or tops[0] >= WIN_VALUE:
        best_group = groups[tops[0]]
        return moves[best_group[rng.randrange(len(best_group))]]
    best, chosen = -math.inf, -1
    killers: list[Any] = []
    for static in tops:
        if static <= best:
            break
        group = list(groups[static])
        rng.shuffle(group)
        for i in group:
            value = reply_value(game, afters[i], seat, static, best, killers)
            if value > best:
                best, chosen = value, i
            if value >= static:
                return moves[i]
    return moves[chosen]


class GreedyBrain(RandomBrain):
    """Plays one of the greedy moves, chosen with the random bot's seeded generator."""

    def __init__(self, seed: int = 0, *, replies: bool = True) -> None:
        super().__init__(seed)
        self.replies = replies

    def choose(self, state: AnyState, go: Go, report: Report) -> str:
        """A greedy move, or ``resign`` if the position is already over."""
        game = self.game
        assert game is not None  # the loop asks for moves only in a game
        move = greedy_move(game, state, self.rng(state), replies=self.replies)
        if move is None:
            return RESIGN
        return game.format_move(state, move)


def build_parser(prog: str = "python -m bots greedy") -> argparse.ArgumentParser:
    """The command-line options of the greedy bot."""
    parser = argparse.ArgumentParser(prog=prog, description="A greedy engine (two plies).")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    parser.add_argument(
        "--one-ply",
        "--no-safety",
        dest="replies",
        action="store_false",
        help="pure one-ply greedy: do not look at the next seat's replies",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the greedy bot as an engine on stdin/stdout."""
    args = build_parser().parse_args(argv)
    return run_engine(
        lambda: GreedyBrain(args.seed, replies=args.replies),
        name=f"greedy-{args.seed}",
        author="referee project",
    )
