"""Placement points and standings rows."""

from __future__ import annotations

import pytest

from referee.core import Outcome, Termination
from tournaments.results.game import GameReport
from tournaments.results.standings import (
    game_points,
    has_game_points,
    placement_points,
    standings,
)
from tournaments.results.summary import EventInfo, summarize
from tournaments.results.tables import standings_rows


@pytest.mark.parametrize(
    ("ranks", "points"),
    [
        ((1, 2), (1.0, 0.0)),
        ((2, 1), (0.0, 1.0)),
        ((1, 1), (0.5, 0.5)),
        ((1, 2, 3), (1.0, 0.5, 0.0)),
        ((1, 1, 3), (0.75, 0.75, 0.0)),
        ((1, 2, 2), (1.0, 0.25, 0.25)),
        ((1, 1, 1), (0.5, 0.5, 0.5)),
    ],
)
def test_placement_points(ranks: tuple[int, ...], points: tuple[float, ...]) -> None:
    assert placement_points(ranks) == pytest.approx(points)


def test_standings_counts_results_and_forfeits_and_skips_void() -> None:
    games = [
        (("a", "b"), Outcome(Termination.RULES, (1, 2))),
        (("b", "a"), Outcome(Termination.TIMEOUT, (2, 1), culprit=0)),
        (("a", "b"), Outcome(Termination.RULES, (1, 1))),
        (("a", "b"), Outcome(Termination.VOID, (), culprit=1)),
    ]
    rows = {row.name: row for row in standings(games, ["a", "b"])}
    assert (rows["a"].games, rows["a"].points, rows["a"].wins, rows["a"].draws) == (3, 2.5, 2, 1)
    assert (rows["b"].games, rows["b"].points, rows["b"].losses) == (3, 0.5, 2)
    assert rows["b"].forfeits == {"timeout": 1}
    assert rows["a"].forfeits == {}
    assert [row.name for row in standings(games, ["b", "a"])] == ["a", "b"]


TRICHESS_GAMES = [
    # Single mate: a mates b; c is the vassal.
    (("a", "b", "c"), Outcome(Termination.RULES, (1, 3, 2), (3.0, 0.0, 1.0))),
    # Pat: 1/1/1.
    (("b", "c", "a"), Outcome(Termination.RULES, (1, 1, 1), (1.0, 1.0, 1.0))),
    # Double mate of c: 2/2/0.
    (("c", "a", "b"), Outcome(Termination.RULES, (3, 1, 1), (0.0, 2.0, 2.0))),
    # b forfeits; the others keep the stopped game's pat scores, b gets 0.
    (("a", "b", "c"), Outcome(Termination.CRASH, (1, 3, 1), (1.0, 1.0, 1.0), culprit=1)),
]


def test_trichess_tournament_points_are_placements_and_game_points_the_sums() -> None:
    rows = {row.name: row for row in standings(TRICHESS_GAMES, ["a", "b", "c"])}
    # Placement points (1, 1/2, 0; ties share): a 1 + 1/2 + 3/4 + 3/4.
    assert rows["a"].points == pytest.approx(3.0)
    assert rows["b"].points == pytest.approx(0 + 0.5 + 0.75 + 0)
    assert rows["c"].points == pytest.approx(0.5 + 0.5 + 0 + 0.75)
    # Game points: the 3/2/1/0 scores summed, 0 for the forfeiting seat.
    assert (rows["a"].game_points, rows["b"].game_points, rows["c"].game_points) == (
        3 + 1 + 2 + 1,
        0 + 1 + 2 + 0,
        1 + 1 + 0 + 1,
    )
    # A points table replaces the placement values, not the game points.
    table = {row.name: row for row in standings(TRICHESS_GAMES, ["a", "b", "c"], [3, 1, 0])}
    assert table["a"].points == pytest.approx(3 + 4 / 3 + 2 + 2)
    assert table["a"].game_points == rows["a"].game_points


def test_game_points_only_for_games_whose_rules_score() -> None:
    assert has_game_points(outcome for _, outcome in TRICHESS_GAMES)
    # Tricouleur: scores (stones) only for games the referee stopped.
    stopped = Outcome(Termination.MOVE_LIMIT, (1, 2), (14.0, 9.0))
    won = Outcome(Termination.RULES, (1, 2))
    assert not has_game_points([stopped, won])
    assert game_points(stopped, 0) == 14.0 and game_points(won, 0) == 0.0
    info = EventInfo("e", "tricouleur", ("a", "b"), 2, 1)
    headers, cells = standings_rows(summarize(info, [_report(("a", "b"), won)]))
    assert "Game pts" not in headers
    scored = Outcome(Termination.RULES, (1, 2), (14.0, 9.0))
    headers, cells = standings_rows(summarize(info, [_report(("a", "b"), scored)]))
    assert cells[0][headers.index("Game pts")] == "14"


def _report(seats: tuple[str, str], outcome: Outcome) -> GameReport:
    return GameReport(1, 1, 1, (0, 1), seats, outcome, 10, record="")
