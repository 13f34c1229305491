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

    def add(self, report: GameReport) -> None:
        points = place_points(report.outcome.ranks, self.info.points_table)
        for name, value in zip(report.seats, points, strict=True):
            self.points[name] = self.points.get(name, 0.0) + value
            self.games[name] = self.games.get(name, 0) + 1

    def leader(self) -> tuple[str | None, float, int]:
        if not any(self.games.values()):
            return None, 0.0, 0
        name = max(self.points, key=lambda n: (self.points[n], -self.games[n]))
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
