"""Pure standings: finished games in, one row per entrant out.

Tournament points come from placements: with N seats, place p is worth
``(N - p) / (N - 1)`` (2 players: 1 and 0; 3 players: 1, 0.5, 0) and seats that
tie share the average of the places they span (a 2-player draw gives 0.5 each).
Void games are not scored. W/D/L: a win is sole first place, a loss sole last
place, anything else a draw (for two players this is the usual meaning).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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

    @property
    def score(self) -> float:
        """Points as a fraction of games (0 with no games)."""
        return self.points / self.games if self.games else 0.0


def standings(games: Iterable[tuple[Sequence[str], Outcome]], entrants: Sequence[str]) -> list[Row]:
    """Rows sorted by points, then by name, for games given as (names by seat, outcome)."""
    rows = {name: Row(name) for name in entrants}
    for names, outcome in games:
        if outcome.termination is Termination.VOID or len(outcome.ranks) != len(names):
            continue
        points = placement_points(outcome.ranks)
        n = len(names)
        for seat, name in enumerate(names):
            row = rows.setdefault(name, Row(name))
            rank = outcome.ranks[seat]
            shared = sum(1 for other in outcome.ranks if other == rank) > 1
            row.games += 1
            row.points += points[seat]
            if rank == 1 and not shared:
                row.wins += 1
            elif rank == n and not shared:
                row.losses += 1
            else:
                row.draws += 1
            if outcome.culprit == seat and outcome.termination.is_forfeit:
                token = outcome.termination.value
                row.forfeits[token] = row.forfeits.get(token, 0) + 1
    return sorted(rows.values(), key=lambda row: (-row.points, row.name))


def standings_table(rows: Sequence[Row]) -> tuple[list[str], list[list[object]]]:
    """Headers and cells for ``tabulate``."""
    headers = ["#", "Entrant", "Games", "Points", "Score", "W", "D", "L", "Forfeits"]
    cells: list[list[object]] = []
    for place, row in enumerate(rows, start=1):
        forfeits = ", ".join(f"{k} {v}" for k, v in sorted(row.forfeits.items())) or "-"
        cells.append(
            [
                place,
                row.name,
                row.games,
                f"{row.points:g}",
                f"{100 * row.score:.1f}%",
                row.wins,
                row.draws,
                row.losses,
                forfeits,
            ]
        )
    return headers, cells
