"""``Counts``: an event's scored games folded into the few numbers the tables need.

An event's games end in few distinct ways: the seating (names by seat), the
termination, the ranks, the in-game scores and the culprit take a handful of values
each, so a million games make a few hundred distinct *outcome keys*. ``Counts`` keeps
how many games ended in each key (in order of first appearance), plus, for events
whose games come in seat-swapped pairs, the pentanomial counts of every pair of
entrants and the blocks still waiting for their second game. Everything
``tournaments.results.summary.summarize`` shows is a function of these counts
(``summarize_counts``), so the tables of any number of games cost O(distinct keys).

``add`` folds in one game (void games and games without a full ranking are ignored,
as ``summarize`` ignores them); it never looks at game numbers: a caller that may see
one game twice (a journal read again) deduplicates first. ``to_json``/``from_json``
round-trip exactly (the runner keeps them as a checkpoint: ``tournaments.store.checkpoint``).

Pairs: with ``paired`` (two seats, an even number of games per encounter) a block holds
at most two games; when a block's second game arrives and the two games seat the same
two entrants the other way round, the pair's points for the entrant named first in
``names`` (0, ½, … 2) are counted; any other block is left out, as ``summarize`` did.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from referee.core import Outcome, Termination
from tournaments.results.elo import Pentanomial
from tournaments.results.game import GameReport
from tournaments.results.standings import placement_points

Key = tuple[tuple[str, ...], str, tuple[int, ...], tuple[float, ...], int | None]
"""(names by seat, termination token, ranks, scores, culprit)."""


class Counts:
    """Scored games counted by outcome key; see the module docstring."""

    __slots__ = ("games", "names", "open_blocks", "paired", "penta")

    def __init__(self, names: Sequence[str], paired: bool) -> None:
        self.names = tuple(names)
        self.paired = paired
        self.games: dict[Key, int] = {}
        self.open_blocks: dict[int, tuple[tuple[str, ...], tuple[float, ...]]] = {}
        """Paired events: block -> (names by seat, placement points) of its first game."""
        self.penta: dict[tuple[str, str], list[int]] = {}
        """Paired events: (a, b), a named first in ``names`` -> pairs by a's points ×2."""

    @classmethod
    def of(cls, names: Sequence[str], paired: bool, games: Iterable[GameReport]) -> Counts:
        """The counts of ``games`` taken in game-number order."""
        counts = cls(names, paired)
        for game in sorted(games, key=lambda g: g.number):
            counts.add(game)
        return counts

    def copy(self) -> Counts:
        """An independent copy (a thread may compute tables from it while games are
        added to this one); O(keys), never O(games)."""
        other = Counts(self.names, self.paired)
        other.games = dict(self.games)
        other.open_blocks = dict(self.open_blocks)
        other.penta = {pair: list(row) for pair, row in self.penta.items()}
        return other

    @property
    def done(self) -> int:
        """Games counted."""
        return sum(self.games.values())

    def add(self, report: GameReport) -> None:
        """Count one game (ignored if void or without a rank per seat)."""
        outcome = report.outcome
        seats = tuple(report.seats)
        if outcome.termination is Termination.VOID or len(outcome.ranks) != len(seats):
            return
        ranks = tuple(outcome.ranks)
        key = (seats, outcome.termination.value, ranks, tuple(outcome.scores), outcome.culprit)
        self.games[key] = self.games.get(key, 0) + 1
        if self.paired:
            self._pair(report.block, seats, ranks)

    def _pair(self, block: int, seats: tuple[str, ...], ranks: tuple[int, ...]) -> None:
        points = placement_points(ranks)
        first = self.open_blocks.pop(block, None)
        if first is None:
            self.open_blocks[block] = (seats, points)
            return
        other_seats, other_points = first
        if len(seats) != 2 or seats[0] == seats[1] or other_seats != seats[::-1]:
            return
        a, b = sorted(seats, key=self._order)
        total = other_points[other_seats.index(a)] + points[seats.index(a)]
        row = self.penta.setdefault((a, b), [0, 0, 0, 0, 0])
        row[round(2 * total)] += 1

    def _order(self, name: str) -> tuple[int, str]:
        return (self.names.index(name), name) if name in self.names else (len(self.names), name)

    def outcomes(self) -> Iterator[tuple[tuple[str, ...], Outcome, int]]:
        """(names by seat, outcome without reason, games) per key, first seen first."""
        for (seats, token, ranks, scores, culprit), n in self.games.items():
            yield seats, Outcome(Termination(token), ranks, scores, culprit), n

    def wdl(self, name: str) -> tuple[int, int, int]:
        """``name``'s wins, draws and losses (sole first, sole last, else) in its games."""
        wins = draws = losses = 0
        for (seats, _token, ranks, _scores, _culprit), n in self.games.items():
            if name not in seats:
                continue
            mine = ranks[seats.index(name)]
            shared = ranks.count(mine) > 1
            if mine == 1 and not shared:
                wins += n
            elif mine == len(ranks) and not shared:
                losses += n
            else:
                draws += n
        return wins, draws, losses

    def pentanomial(self, a: str, b: str) -> Pentanomial | None:
        """The pair counts of ``a`` (named before ``b``) against ``b``; None without a
        completed pair."""
        row = self.penta.get((a, b))
        return Pentanomial(*row) if row is not None and any(row) else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (``from_json`` gives the same counts back)."""
        return {
            "names": list(self.names),
            "paired": self.paired,
            "games": [
                [list(s), t, list(r), list(sc), c, n] for (s, t, r, sc, c), n in self.games.items()
            ],
            "open": [[block, list(s), list(p)] for block, (s, p) in self.open_blocks.items()],
            "penta": [[a, b, *row] for (a, b), row in self.penta.items()],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Counts:
        """The inverse of ``to_json``.

        :raises ValueError, KeyError, TypeError: not such a dict.
        """
        counts = cls(tuple(str(n) for n in data["names"]), bool(data["paired"]))
        for seats, token, ranks, scores, culprit, n in data["games"]:
            Termination(token)  # an unknown token is a bad checkpoint, not a late KeyError
            key: Key = (
                tuple(str(s) for s in seats),
                str(token),
                tuple(int(r) for r in ranks),
                tuple(float(s) for s in scores),
                None if culprit is None else int(culprit),
            )
            counts.games[key] = int(n)
        for block, seats, points in data["open"]:
            counts.open_blocks[int(block)] = (
                tuple(str(s) for s in seats),
                tuple(float(p) for p in points),
            )
        for a, b, *row in data["penta"]:
            if len(row) != 5:
                raise ValueError("a pentanomial row of five counts expected")
            counts.penta[(str(a), str(b))] = [int(v) for v in row]
        return counts
