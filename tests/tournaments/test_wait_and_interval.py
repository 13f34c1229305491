"""``--wait`` (a pause per game slot between its games) and ``--rating-interval`` (the
standings printed every N finished games)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import trio

from tests.clirun import cli
from tests.tournaments.local import bot_factory, hooked_factory
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.play.slot import PlayerFactory
from tournaments.results.summary import Summary
from tournaments.runner.run import run_tournament

TWO = [
    {"name": "greedy", "command": "greedy --seed 1"},
    {"name": "random", "command": "random --seed 1"},
]


def _plan(**settings: Any) -> Plan:
    data: dict[str, Any] = {"game": "trike", "entrants": TWO, "tc": "inf"}
    data.update(settings)
    return Plan.from_config(parse_config(data, "test"), "test")


def _timed_factory(starts: list[tuple[int, float]]) -> PlayerFactory:
    """``bot_factory`` players that note (seat, trio time) when each game starts."""
    return hooked_factory(lambda spec, setup: starts.append((setup.seat, trio.current_time())))


@pytest.mark.parametrize("wait", [0.0, 0.3])
def test_wait_separates_the_games_of_a_slot(tmp_path: Path, wait: float) -> None:
    starts: list[tuple[int, float]] = []
    plan = _plan(rounds=2, adjudication={"max_plies": 6})  # 4 games, one slot
    result = trio.run(
        lambda: run_tournament(
            plan, tmp_path / "t", factory=_timed_factory(starts), workers=0, wait=wait
        )
    )
    assert result.complete and result.done == 4
    game_starts = [t for seat, t in starts if seat == 0]  # seat 0's start: one per game
    assert len(game_starts) == 4
    gaps = [b - a for a, b in itertools.pairwise(game_starts)]
    # The pause comes between games, never before the first: with it every gap holds
    # it, and a run without it shows what a gap is without (far below 0.3 s).
    if wait:
        assert min(gaps) >= wait
    else:
        assert min(gaps) < 0.3


def test_rating_interval_reports_the_standings_every_n_games(tmp_path: Path) -> None:
    seen: list[Summary] = []
    plan = _plan(rounds=3, adjudication={"max_plies": 6})  # 6 games
    trio.run(
        lambda: run_tournament(
            plan,
            tmp_path / "t",
            factory=bot_factory(),
            workers=0,
            standings_every=2,
            on_standings=seen.append,
        )
    )
    assert len(seen) == 3
    # Each at (or, when the journal noted games in a group, just past) a multiple of 2.
    assert [s.done >= n for s, n in zip(seen, (2, 4, 6), strict=True)] == [True] * 3
    assert seen[-1].done == 6


def test_rating_interval_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(
        capsys,
        "tournament", "--game", "trike", "-e", "random", "-e", "greedy",
        "--rounds", "2", "--max-plies", "12", "--tc", "inf",
        "--rating-interval", "2", "--wait", "10", "--out", str(tmp_path / "t"),
    )  # fmt: skip
    assert code == 0, err
    games = [line for line in out.splitlines() if line.startswith("Game ")]
    assert len(games) == 4
    lines = out.splitlines()
    headings = [i for i, line in enumerate(lines) if line == "Standings"]
    # after game 2, after game 4, and the final tables
    assert len(headings) == 3
    second_game = lines.index(games[1])
    third_game = lines.index(games[2])
    assert second_game < headings[0] < third_game
