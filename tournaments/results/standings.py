"""Pure standings: finished games in, one row per entrant out.

Tournament points come from placements: with N seats, place p is worth
``(N - p) / (N - 1)`` (2 players: 1 and 0; 3 players: 1, 0.5, 0) and seats that
tie share the average of the places they span (a 2-player draw gives 0.5 each).
A points table (``points = [3, 1, 0]`` in a tournament config) replaces those
values per place, ties again sharing the average of the places they span.
Void games are not scored. W/D/L: a win is sole first place, a loss sole last
place, anything else a draw (for two players this is the usual meaning).
Placements count each game's rank per entrant (shared ranks count as the rank).

Game points: the in-game scores (``Outcome.scores``, the record's ``Score`` tag:
Trichess 3/2/1/0, Trike and Tricolor points) summed per entrant, next to the
tournament points, which stay placement-based for every game so that one ``points``
table means the same in every game. A seat that forfeits a game gets 0 game points
for it; the other seats keep the scores the outcome carries (the game's own
``score_unfinished``, e.g. a Trichess pat 1/1/1). Games without scores add nothing.
Reports show the column only for games whose rules give scores (``has_game_points``):
Tricouleur, Whistling Captures and Triablo score only games the referee stops, by
material, which is no in-game point.

The crosstable is pairwise, for any number of seats: in every game, every two
entrants at the table score 1 (ranked ahead), ½ (tied) or 0 (behind) against
each other.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from referee.core import Outcome, Termination


def placement_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """Tournament points per seat for competition ``ranks`` (see the module docstring)."""
    n = len(ranks)
    if n < 2:
        return tuple(1.0 for _ in ranks)
    points = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        places = range(rank, rank + tied)
        points.append(sum((n - p) / (n - 1) for p in places) / tied)
    return tuple(points)


def place_points(ranks: Sequence[int], table: Sequence[float] | None = None) -> tuple[float, ...]:
    """Points per seat from ``table`` (points of place 1, 2, …), or ``placement_points``.

    :raises ValueError: a table shorter than the number of seats.
    """
    if table is None:
        return placement_points(ranks)
    if len(table) < len(ranks):
        raise ValueError(f"a points table of {len(table)} places for {len(ranks)} seats")
    points = []
    for rank in ranks:
        tied = sum(1 for other in ranks if other == rank)
        points.append(sum(table[p - 1] for p in range(rank, rank + tied)) / tied)
    return tuple(points)


@dataclass
class Row:
    """One entrant's line in the standings."""

    name: str
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: dict[str, int] = field(default_factory=dict)
    """Games lost by this entrant's own failure, by termination token."""
    placements: dict[int, int] = field(default_factory=dict)
    """Games by the rank this entrant got (1 = first)."""
    game_points: float = 0.0
    """In-game scores summed over the games (see the module docstring)."""

    @property
    def average_place(self) -> float:
        """Mean rank over the games (0 with no games)."""
        return sum(r * c for r, c in self.placements.items()) / self.games if self.games else 0.0

    @property
    def score(self) -> float:
        """Points as a fraction of games (0 with no games)."""
        return self.points / self.games if self.games else 0.0


def standings(
    games: Iterable[tuple[Sequence[str], Outcome]],
    entrants: Sequence[str],
    points_table: Sequence[float] | None = None,
) -> list[Row]:
    """Rows sorted by points, then by name, for games given as (names by seat, outcome)."""
    return counted_standings(
        ((names, outcome, 1) for names, outcome in games), entrants, points_table
    )


def counted_standings(
    games: Iterable[tuple[Sequence[str], Outcome, int]],
    entrants: Sequence[str],
    points_table: Sequence[float] | None = None,
) -> list[Row]:
    """``standings`` of games given as (names by seat, outcome, how many games ended so)."""
    rows = {name: Row(name) for name in entrants}
    table = tuple(points_table) if points_table is not None else None
    for names, outcome, n in games:
        ranks = outcome.ranks
        if outcome.termination is Termination.VOID or len(ranks) != len(names):
            continue
        forfeit = outcome.termination.is_forfeit
        for seat, (name, (points, rank, kind)) in enumerate(
            zip(names, _seat_results(tuple(ranks), table), strict=True)
        ):
            row = rows.get(name) or rows.setdefault(name, Row(name))
            row.games += n
            row.points += points * n
            row.placements[rank] = row.placements.get(rank, 0) + n
            if len(outcome.scores) > seat and not (forfeit and outcome.culprit == seat):
                row.game_points += float(outcome.scores[seat]) * n  # as ``game_points``
            if kind == _WIN:
                row.wins += n
            elif kind == _LOSS:
                row.losses += n
            else:
                row.draws += n
            if forfeit and outcome.culprit == seat:
                token = outcome.termination.value
                row.forfeits[token] = row.forfeits.get(token, 0) + n
    return sorted(rows.values(), key=lambda row: (-row.points, row.name))


_WIN, _DRAW, _LOSS = range(3)


@functools.cache
def _seat_results(
    ranks: tuple[int, ...], table: tuple[float, ...] | None
) -> tuple[tuple[float, int, int], ...]:
    """Per seat: its tournament points, its rank, and whether that is a win (sole first),
    a loss (sole last) or a draw. A pure function of few distinct arguments (an event's
    games end in a handful of rankings), so computed once each: a big event's standings,
    and the report's chart of them, cost a few dictionary updates per game."""
    points = place_points(ranks, table)
    n = len(ranks)
    out = []
    for seat, rank in enumerate(ranks):
        shared = sum(1 for other in ranks if other == rank) > 1
        kind = _WIN if rank == 1 and not shared else _LOSS if rank == n and not shared else _DRAW
        out.append((points[seat], rank, kind))
    return tuple(out)


def game_points(outcome: Outcome, seat: int) -> float:
    """``seat``'s in-game score in ``outcome``: 0 for the culprit of a forfeit or when the
    outcome has no scores."""
    if len(outcome.scores) <= seat or (outcome.termination.is_forfeit and outcome.culprit == seat):
        return 0.0
    return float(outcome.scores[seat])


def has_game_points(outcomes: Iterable[Outcome]) -> bool:
    """Whether some game ended by the rules carries scores: the game has in-game points."""
    return any(o.termination is Termination.RULES and o.scores for o in outcomes)


def crosstable(
    games: Iterable[tuple[Sequence[str], Sequence[int]]],
) -> Mapping[tuple[str, str], tuple[float, int]]:
    """For every ordered pair (a, b) that met: a's pairwise points against b, and games.

    Games are given as (names by seat, ranks); void games (no ranks) are skipped.
    """
    return counted_crosstable((names, ranks, 1) for names, ranks in games)


def counted_crosstable(
    games: Iterable[tuple[Sequence[str], Sequence[int], int]],
) -> Mapping[tuple[str, str], tuple[float, int]]:
    """``crosstable`` of games given as (names by seat, ranks, how many games ended so)."""
    table: dict[tuple[str, str], tuple[float, int]] = {}
    for names, ranks, n in games:
        if len(ranks) != len(names):
            continue
        for i, j in itertools.permutations(range(len(names)), 2):
            key = (names[i], names[j])
            points = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            old = table.get(key, (0.0, 0))
            table[key] = (old[0] + points * n, old[1] + n)
    return table
