"""Placement points and standings rows."""

from __future__ import annotations

import pytest

from referee.core import Outcome, Termination
from tournaments.standings import placement_points, standings


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
