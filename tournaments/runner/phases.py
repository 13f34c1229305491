"""The phases of a run: all fixtures in one (made as they are played), Swiss rounds
paired one by one, or knockout phases (a round's heats, then their tiebreaks) made from
the results so far."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from referee.errors import RulesError
from tournaments.event.knockout import GameResult, KnockoutStep, knockout_step
from tournaments.event.plan import Plan
from tournaments.event.schedule import (
    Fixture,
    block_size,
    swiss_pairings,
    swiss_round_fixtures,
)
from tournaments.event.wire import WireError, from_json
from tournaments.results.standings import place_points
from tournaments.results.summary import EventInfo
from tournaments.store.event_dir import open_event
from tournaments.store.journal import JOURNAL, JournalError, read_failed, read_header
from tournaments.store.writer import Journal


def phases(plan: Plan, journal: Journal) -> Iterable[Iterable[Fixture]]:
    if plan.knockout:
        return KnockoutPhases(plan, journal.directory)
    if not plan.swiss:
        return [plan.iter_static_fixtures()]
    return SwissPhases(plan, journal)


def knockout_state(plan: Plan, directory: Path) -> KnockoutStep:
    """The knockout in ``directory`` as its journal has it (``event.knockout``).

    :raises JournalError: the directory cannot be read.
    """
    return knockout_step(
        len(plan.entrants),
        plan.players,
        plan.games_per_encounter,
        _finished(directory, plan.points_table),
        seat_order=plan.config.seat_order,
    )


def event_knockout(directory: Path) -> tuple[KnockoutStep, tuple[str, ...]] | None:
    """The knockout of the event in ``directory`` and its entrants' names, from the
    journal alone (its header's config; no engine is looked at): for ``referee
    standings`` and the live page. None when the event is not a knockout.

    :raises JournalError: the directory cannot be read.
    """
    try:
        header = read_header(directory / JOURNAL)
    except OSError as exc:
        raise read_failed(directory, exc) from None
    if header is None or header[0].get("format") != "knockout":
        return None
    config, info_json, _ = header
    try:
        info = from_json(EventInfo, info_json)
        seat_order = str(config.get("seat_order") or "all")
        per = int(config.get("games_per_encounter") or block_size(info.players, seat_order))
        step = knockout_step(
            len(info.names),
            info.players,
            per,
            _finished(directory, info.points_table),
            seat_order=seat_order,
        )
    except (KeyError, TypeError, ValueError, RulesError, WireError) as exc:
        raise JournalError(f"{directory}: unreadable tournament header: {exc}") from None
    return step, info.names


def _finished(directory: Path, points: tuple[float, ...] | None) -> dict[int, GameResult]:
    """Each finished game's seats and tournament points, by number."""
    return {
        report.number: (report.table, place_points(report.outcome.ranks, points))
        for report in open_event(directory).results()
    }


class KnockoutPhases:
    """Knockout phases, each made when iterated to from the journal's results: the
    games of a round's heats, then each tiebreak block of the heats still tied, round
    after round, until one entrant is left. The walk is pure and replays the whole
    event from the results each time (a knockout has at most a few thousand games), so
    a resumed knockout schedules exactly what the first run did."""

    def __init__(self, plan: Plan, directory: Path) -> None:
        self.plan = plan
        self.directory = directory

    def __iter__(self) -> KnockoutPhases:
        return self

    def __next__(self) -> list[Fixture]:
        pending = knockout_state(self.plan, self.directory).pending
        if not pending:
            raise StopIteration
        return pending


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
