"""Values of positions for the search: one number per seat, the seat's expected placement points.

A seat's placement points are those of the tournament standings: place ``p`` of ``n`` is
worth ``(n - p) / (n - 1)`` (1 for first, 0 for last, ½ for second of three; tied seats
share the average of the places they span). They sum to ``n / 2`` over the seats, so
``share = points · 2 / n`` is each seat's share of the game's points, summing to 1: the
``score`` the engine reports.

An unfinished position is valued from the game's own heuristic ``Game.evaluate``
(material, stones, points so far), plus the engine's positional term for the games that
have one (``heuristics``), through pairwise comparisons: seat ``i`` finishes ahead
of seat ``j`` with probability ``sigmoid((v_i - v_j) / scale)``, and a seat's expected
points are the mean of those probabilities over its opponents. For a finished game the
probabilities are 1, ½ or 0, which gives exactly the placement points, so heuristic and
exact values live on one scale. A game that gives no heuristic values falls back on the
ranks of ``Game.score_unfinished``; one that gives neither is an even split.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import add
from typing import Any

from bots.mcts.heuristics import Positional, positional
from referee.core import AnyGame, Outcome, State

AnyState = State[Any]

Values = list[float]
"""Expected placement points per seat, in seat order (each in 0..1)."""


def placement_points(ranks: Sequence[int]) -> Values:
    """Placement points per seat for competition ``ranks`` (module docstring)."""
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    points = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        points.append(sum((n - p) / (n - 1) for p in range(rank, rank + tied)) / tied)
    return points


def default_scale(game: AnyGame, state: AnyState) -> float:
    """The heuristic's unit for ``game``: an eighth of a seat's mean value at the start
    (Trichess material 39 gives about 5, so a rook up is worth 73 % against an equal
    seat), at least 1 (games that start at 0 points: Trike, Tricolor)."""
    values = game.evaluate(state)
    if not values:
        return 1.0
    return max(1.0, sum(abs(float(v)) for v in values) / len(values) / 8.0)


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def pairwise_points(values: Sequence[float], scale: float) -> Values:
    """Expected placement points from heuristic ``values`` (module docstring)."""
    n = len(values)
    if n < 2:
        return [1.0] * n
    points = [0.0] * n
    for i in range(n):
        for j in range(i + 1, n):
            ahead = _sigmoid((values[i] - values[j]) / scale)
            points[i] += ahead
            points[j] += 1.0 - ahead
    return [p / (n - 1) for p in points]


MEMO_SIZE = 4096
"""Values remembered by ``Valuer.memo_points`` before it starts afresh."""
SHUFFLE_PLIES = 50
"""Plies without a change of the heuristic values after which a lead counts for little."""
SHUFFLE_FLOOR = 0.1
"""The least fraction of a lead that shuffling leaves."""


def shuffle_factor(quiet: int) -> float:
    """The fraction of a heuristic lead kept after ``quiet`` plies without a change."""
    return max(SHUFFLE_FLOOR, 1.0 - quiet / SHUFFLE_PLIES)


class Valuer:
    """Values positions of one game (module docstring); ``scale`` is the heuristic's unit.

    A heuristic value is computed in two steps: ``raw`` (the game's ``evaluate``, or the
    ranks of ``score_unfinished`` negated when it gives none, or ``()``) and ``points``.
    ``points`` also damps leads that have not changed for a while, as chess engines do
    near the fifty-move rule: after ``quiet`` plies in which the raw values stayed the
    same, every seat's points move toward the even ½ by ``shuffle_factor(quiet)``. Games
    with a no-capture draw (Tricouleur, Whistling Captures, Triablo) end a shuffling game
    in a draw whatever the material says, and a search that sees the lead fade prefers
    the captures and exchanges that keep it. Two seats take a one-sigmoid path: the
    search values every child of every position it expands, so this is hot.
    """

    def __init__(
        self, game: AnyGame, num_players: int, scale: float, *, use_positional: bool = True
    ) -> None:
        self.game = game
        self.num_players = num_players
        self.scale = scale
        self.even: Values = [0.5] * num_players
        self.points: Callable[[tuple[float, ...], int], Values] = self._make_points()
        start = game.initial_state(num_players)
        per_seat = len(game.evaluate(start)) == num_players
        self.raw_of: Callable[[AnyState], tuple[float, ...]] = (
            game.evaluate if per_seat else self.raw
        )
        """``raw``, or the game's ``evaluate`` itself when it gives a value per seat: the
        material, which also counts the shuffling plies."""
        self.positional: Positional | None = (
            positional(game) if per_seat and use_positional else None
        )
        """The game's positional term (``heuristics``), added to ``raw_of``'s values;
        None without one or with ``use_positional=False`` (material alone)."""
        self._memo: dict[tuple[tuple[float, ...], int], Values] = {}

    def memo_points(self, raw: tuple[float, ...], quiet: int) -> Values:
        """``points(raw, quiet)``, remembered: most positions of a search share a few
        raw values (material rarely changes from one child to the next). The lists
        returned are shared and must not be changed."""
        key = (raw, quiet)
        values = self._memo.get(key)
        if values is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            values = self._memo[key] = self.points(raw, quiet)
        return values

    def raw(self, state: AnyState) -> tuple[float, ...]:
        """The heuristic's raw values of ``state`` (one per seat, or ``()``)."""
        values = self.game.evaluate(state)
        if len(values) == self.num_players:
            return values
        ranks = self.game.score_unfinished(state)[0]
        if len(ranks) == self.num_players:
            return tuple(-float(rank) for rank in ranks)
        return ()

    def _make_points(self) -> Callable[[tuple[float, ...], int], Values]:
        scale, n, even, exp = self.scale, self.num_players, self.even, math.exp

        def two(values: tuple[float, ...], quiet: int) -> Values:
            if not values:
                return list(even)
            x = (values[1] - values[0]) / scale
            first = 1.0 / (1.0 + exp(x)) if x < 700.0 else 0.0
            if quiet:
                first = 0.5 + (first - 0.5) * shuffle_factor(quiet)
            return [first, 1.0 - first]

        def many(values: tuple[float, ...], quiet: int) -> Values:
            if not values:
                return list(even)
            points = pairwise_points(values, scale)
            if quiet:
                keep = shuffle_factor(quiet)
                points = [0.5 + (p - 0.5) * keep for p in points]
            return points

        return two if n == 2 else many

    def positional_points(self, raw: tuple[float, ...], state: AnyState, quiet: int) -> Values:
        """``points`` of the material ``raw`` of ``state`` plus the positional term (set
        ``positional`` first); not remembered, since positions differ in the term."""
        assert self.positional is not None
        return self.points(tuple(map(add, raw, self.positional(state))), quiet)

    def heuristic(self, state: AnyState, quiet: int = 0) -> Values:
        """The values of an unfinished ``state`` after ``quiet`` shuffling plies."""
        raw = self.raw(state)
        if self.positional is not None:
            return self.positional_points(raw, state, quiet)
        return self.points(raw, quiet)

    def exact(self, outcome: Outcome) -> Values:
        """The values of a finished game."""
        return placement_points(outcome.ranks) if outcome.ranks else list(self.even)

    def value(self, state: AnyState, quiet: int = 0) -> tuple[Values, bool]:
        """``(values, terminal)``: exact values for a finished game, else heuristic ones."""
        outcome = state.outcome()
        if outcome is not None:
            return self.exact(outcome), True
        return self.heuristic(state, quiet), False


def shares(points: Sequence[float]) -> tuple[int, ...]:
    """Points as integer thousandths of the game's points that sum to exactly 1000
    (largest remainders get the rounding), the engine's ``score`` items."""
    n = len(points)
    total = sum(points)
    if n == 0:
        return ()
    exact = [1000.0 / n] * n if total <= 0 else [1000.0 * p / total for p in points]
    floors = [math.floor(x) for x in exact]
    missing = 1000 - sum(floors)
    order = sorted(range(n), key=lambda i: (floors[i] - exact[i], i))
    for i in order[:missing]:
        floors[i] += 1
    return tuple(floors)
