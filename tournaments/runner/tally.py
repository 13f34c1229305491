"""``Tally``: a run's running points per entrant and its SPRT counts, game by game."""

from __future__ import annotations

from tournaments.results.elo import Pentanomial
from tournaments.results.game import GameReport
from tournaments.results.standings import place_points, placement_points
from tournaments.results.summary import EventInfo


class Tally:
    """Running points per entrant (for the progress line) and the SPRT's counts.

    Incremental, so the cost per game does not grow with the tournament; the
    SPRT follows ``tournaments.results.summary.summarize`` exactly (pentanomial over
    completed seat-swapped pairs when the games come in pairs, else W/D/L).
    """

    def __init__(self, info: EventInfo, finished: dict[int, GameReport]) -> None:
        self.info = info
        self.points = dict.fromkeys(info.names, 0.0)
        self.games = dict.fromkeys(info.names, 0)
        self.wdl = [0, 0, 0]
        self.open_pairs: dict[int, float] = {}
        self.penta = [0, 0, 0, 0, 0]
        for report in sorted(finished.values(), key=lambda r: r.number):
            self.add(report)

    def add(self, report: GameReport) -> None:
        ranks = report.outcome.ranks
        points = place_points(ranks, self.info.points_table)
        for name, value in zip(report.seats, points, strict=True):
            self.points[name] = self.points.get(name, 0.0) + value
            self.games[name] = self.games.get(name, 0) + 1
        if self.info.sprt is None or len(self.info.names) != 2:
            return
        first = self.info.names[0]
        mine = placement_points(ranks)[report.seats.index(first)]
        self.wdl[0 if mine == 1.0 else 2 if mine == 0.0 else 1] += 1
        if self.info.paired:
            if report.block in self.open_pairs:
                self.penta[round(2 * (self.open_pairs.pop(report.block) + mine))] += 1
            else:
                self.open_pairs[report.block] = mine

    def leader(self) -> tuple[str | None, float, int]:
        if not any(self.games.values()):
            return None, 0.0, 0
        name = max(self.points, key=lambda n: (self.points[n], -self.games[n]))
        return name, self.points[name], self.games[name]

    def sprt_decision(self) -> str | None:
        sprt = self.info.sprt
        if sprt is None or not any(self.wdl):
            return None
        if self.info.paired and any(self.penta):
            llr = sprt.llr_pentanomial(Pentanomial(*self.penta))
        else:
            wins, draws, losses = self.wdl
            llr = sprt.llr_wdl(wins, draws, losses)
        return sprt.decision(llr)
