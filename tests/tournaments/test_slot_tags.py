"""The record tags a game slot makes once and keeps (``play.slot``): the clock's tags of a
table, and the day's ``Date``, are what making them for each game gives."""

from __future__ import annotations

import datetime as dt

from referee.clock_audit import clock_tags
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.play.slot import game_tags, utc_date


def test_the_kept_date_is_todays_utc_date() -> None:
    before = dt.datetime.now(dt.UTC).strftime("%Y.%m.%d")
    kept = utc_date()
    after = dt.datetime.now(dt.UTC).strftime("%Y.%m.%d")
    assert kept in (before, after)  # the day may turn between the looks
    assert utc_date() == kept or utc_date() == after


def test_tags_with_a_tables_kept_clock_tags_are_the_tags_made_afresh() -> None:
    config = parse_config(
        {
            "event": "tags",
            "game": "trike",
            "games": 4,
            "tc": "10+0.1",
            "entrants": [
                {"name": "a", "command": "random", "tc": "5+0.05"},
                {"name": "b", "command": "random"},
            ],
        },
        "tags",
    )
    plan = Plan.from_config(config, "tags")
    setup = plan.slot_setup(None)
    for fixture in plan.iter_static_fixtures():
        job = plan.job(fixture)
        kept = clock_tags(setup.seat_controls(job.table))
        assert game_tags(setup, job, clock=kept) == game_tags(setup, job)
        assert ("TimeControl", "5+0.05,10+0.1") in kept or (
            "TimeControl",
            "10+0.1,5+0.05",
        ) in kept
