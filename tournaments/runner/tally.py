"""``Tally``: a run's running points per entrant and its SPRT, game by game."""

from __future__ import annotations

from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.standings import counted_standings, place_points
from tournaments.results.summary import EventInfo


class Tally:
    """Running points per entrant (for the progress line) and the SPRT's decision.

    Incremental, so the cost per game does not grow with the tournament. ``counts`` is
    the journal's own (``Journal.counts``, updated as games are journaled), so the SPRT
    reads exactly what ``tournaments.results.summary.summarize_counts`` reads
    (pentanomial over completed seat-swapped pairs when the games come in pairs, else
    W/D/L).
    """

    def __init__(self, info: EventInfo, counts: Counts) -> None:
        self.info = info
        self.counts = counts
        self.points = dict.fromkeys(info.names, 0.0)
        self.games = dict.fromkeys(info.names, 0)
        for row in counted_standings(counts.outcomes(), info.names, info.points_table):
            self.points[row.name] = row.points
            self.games[row.name] = row.games
        self._order = {name: i for i, name in enumerate(self.points)}
        """Ties go to the entrant first in the config (as ``max`` over the names did)."""
        self._played = any(self.games.values())
        self._leader: str | None = self._best() if self._played else None

    def add(self, report: GameReport) -> None:
        points = place_points(report.outcome.ranks, self.info.points_table)
        leader = self._leader
        before = self._key(leader) if leader is not None else None
        for name, value in zip(report.seats, points, strict=True):
            self.points[name] = self.points.get(name, 0.0) + value
            self.games[name] = self.games.get(name, 0) + 1
            self._order.setdefault(name, len(self._order))
        self._played = True
        if leader is None or before is None or self._key(leader) < before:
            # The leader fell back (a game without points for it counts against it):
            # anyone may lead now. A pass over the field, but only then.
            self._leader = self._best()
            return
        for name in report.seats:  # else only the entrants of this game can overtake it
            if self._key(name) > self._key(leader):
                leader = name
        self._leader = leader

    def _key(self, name: str) -> tuple[float, int, int]:
        return self.points[name], -self.games[name], -self._order[name]

    def _best(self) -> str:
        return max(self.points, key=self._key)

    def leader(self) -> tuple[str | None, float, int]:
        """The entrant with the most points (fewest games on equal points), its points
        and games; kept up to date game by game, so asking costs no pass over the field."""
        name = self._leader
        if not self._played or name is None:
            return None, 0.0, 0
        return name, self.points[name], self.games[name]

    def sprt_decision(self) -> str | None:
        sprt = self.info.sprt
        if sprt is None or len(self.info.names) != 2 or not self.counts.games:
            return None
        a, b = self.info.names
        penta = self.counts.pentanomial(a, b) if self.info.paired else None
        if penta is not None:
            llr = sprt.llr_pentanomial(penta)
        else:
            wins, draws, losses = self.counts.wdl(a)
            llr = sprt.llr_wdl(wins, draws, losses)
        return sprt.decision(llr)
