"""A run never holds its whole schedule: fixtures are made and jobs handed to the slots
one at a time, so a million-game event costs the runner no memory per game."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
import trio
import trio.lowlevel

from referee.core import Outcome, Termination
from tournaments.event.config import parse_config
from tournaments.event.jobs import Job
from tournaments.event.plan import Plan
from tournaments.event.schedule import iter_static_schedule, round_robin_encounters
from tournaments.results.game import GameReport
from tournaments.runner.slots import play_all


def _plan(games: int) -> Plan:
    config = {
        "game": "trike",
        "games": games,
        "entrants": [{"command": f"random --seed {i}"} for i in range(2)],
    }
    return Plan.from_config(parse_config(config, "test"), "test")


def test_a_million_game_schedule_is_made_as_it_is_taken() -> None:
    plan = _plan(10**6)
    assert plan.total() == 10**6
    fixtures = plan.iter_static_fixtures()
    assert iter(fixtures) is fixtures  # an iterator, not a list made whole
    first = list(itertools.islice(fixtures, 4))
    assert [f.number for f in first] == [1, 2, 3, 4]
    assert [f.table for f in first] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert first == _plan(4).static_fixtures()


def test_the_lazy_schedule_ends_where_the_list_does() -> None:
    encounters = round_robin_encounters(4, 2)
    by_rounds = list(iter_static_schedule(encounters, players=2, rounds=3))
    assert len(by_rounds) == 3 * 6 * 2 and by_rounds[-1].round == 3
    assert len(list(iter_static_schedule([], players=2, rounds=3))) == 0
    cut = list(iter_static_schedule(encounters, players=2, total_games=7))
    assert [f.number for f in cut] == list(range(1, 8))


def test_bad_counts_fail_when_asked_not_when_iterated() -> None:
    with pytest.raises(ValueError):
        iter_static_schedule(round_robin_encounters(2, 2), players=2, total_games=0)


class _Slot:
    """Plays a job at once, as a draw."""

    async def play(self, job: Job) -> GameReport:
        await trio.lowlevel.checkpoint()
        outcome = Outcome(Termination.RULES, (1, 1))
        return GameReport(job.number, job.round, job.block, job.table, ("a", "b"), outcome, 10, "")


def test_play_all_takes_jobs_only_as_slots_come_free() -> None:
    drawn: list[int] = []

    def jobs() -> Iterator[Job]:
        for number in itertools.count(1):  # endless: play_all must not list it
            drawn.append(number)
            yield Job(number=number, round=1, block=number, table=(0, 1), seed=number)

    submitted: list[int] = []

    class Enough(Exception):
        pass

    def submit(report: GameReport) -> None:
        submitted.append(report.number)
        # With two slots, a game finishing has at most the two in play and the one
        # waiting at the channel drawn beyond those finished.
        assert len(drawn) <= len(submitted) + 3
        if len(submitted) == 50:
            raise Enough

    async def main() -> None:
        await play_all([_Slot(), _Slot()], jobs(), submit, trio.lowlevel.checkpoint)

    with pytest.raises(BaseException) as caught:
        trio.run(main)
    error: BaseException = caught.value
    while isinstance(error, BaseExceptionGroup):  # trio's nurseries group what they raise
        error = error.exceptions[0]
    assert isinstance(error, Enough)
    # The other slot may finish its game before the error cancels it.
    assert set(range(1, 51)) <= set(submitted) and len(submitted) <= 51
    assert len(drawn) <= 54
