"""The phases of a run: all fixtures in one (made as they are played), or Swiss rounds
paired one by one."""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.event.plan import Plan
from tournaments.event.schedule import Fixture, swiss_pairings, swiss_round_fixtures
from tournaments.play.event_dir import open_event
from tournaments.play.writer import Journal
from tournaments.results.standings import place_points


def phases(plan: Plan, journal: Journal) -> Iterable[Iterable[Fixture]]:
    if not plan.swiss:
        return [plan.iter_static_fixtures()]
    return SwissPhases(plan, journal)


class SwissPhases:
    """Swiss rounds, each paired when iterated to, from the journal's results so far."""

    def __init__(self, plan: Plan, journal: Journal) -> None:
        self.plan = plan
        self.journal = journal
        self.round = 0

    def __iter__(self) -> SwissPhases:
        return self

    def __next__(self) -> list[Fixture]:
        plan = self.plan
        self.round += 1
        if self.round > plan.config.rounds:
            raise StopIteration
        n = len(plan.entrants)
        per = plan.games_per_encounter
        scores: dict[int, float] = {}
        played: set[frozenset[int]] = set()
        byes: set[int] = set()
        first_seats: dict[int, int] = {}
        # Read back from the directory (its index and journal tail): the journal keeps
        # only counts in memory. Swiss events are small; this runs once per round.
        results = open_event(self.journal.directory).results()
        earlier = [r for r in results if r.round < self.round]
        for report in earlier:
            points = place_points(report.outcome.ranks, plan.points_table)
            for entrant, value in zip(report.table, points, strict=True):
                scores[entrant] = scores.get(entrant, 0.0) + value
            played.add(frozenset(report.table))
            first_seats[report.table[0]] = first_seats.get(report.table[0], 0) + 1
        if n % 2:
            # A bye counts as a won encounter for pairing (as in chess Swiss systems).
            for past in range(1, self.round):
                rounds_entrants = {e for r in earlier if r.round == past for e in r.table}
                for e in range(n):
                    if e not in rounds_entrants:
                        byes.add(e)
                        scores[e] = scores.get(e, 0.0) + per
        pairing = swiss_pairings(n, scores, played, byes, first_seats)
        return swiss_round_fixtures(
            pairing, round_no=self.round, entrants=n, games_per_encounter=per
        )
