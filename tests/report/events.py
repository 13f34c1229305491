"""Small real tournaments for the report tests, played in-process by the built-in bots,
and the console script run in-process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

from tests.tournaments.local import bot_factory
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.runner.run import run_tournament

MATCH: dict[str, Any] = {
    "event": "Report <test> & match",  # characters the page must escape
    "game": "trike",
    "entrants": [
        {"name": "greedy", "command": "greedy --seed 1"},
        {"name": "random", "command": "random --seed 1"},
    ],
    "games": 4,
    "openings": {"plies": 2},
    "sprt": {"elo0": 0, "elo1": 100},
}
"""A 2-seat SPRT match of 4 games (two seat-swapped pairs): too short for the SPRT to decide."""

THREE: dict[str, Any] = {
    "event": "Report three",
    "game": "triablo",
    "players": 3,
    "seat_order": "cyclic",
    "entrants": [
        {"name": "greedy-1", "command": "greedy --seed 1"},
        {"name": "random-1", "command": "random --seed 1"},
        {"name": "random-2", "command": "random --seed 2"},
    ],
    "adjudication": {"max_plies": 100},
}
"""A 3-seat event of 3 games, cut at 100 plies."""


def play(settings: dict[str, Any], out: Path) -> Path:
    """Play the tournament of ``settings`` into ``out`` (journal, records, results.json)."""
    plan = Plan.from_config(parse_config(settings, "test"), "test")
    trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), workers=0))
    return out
