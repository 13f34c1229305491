"""The tables: error bars that have no finite value, and the Trichess game points."""

from __future__ import annotations

import dataclasses
import json
import math

from referee.core import Outcome, Termination
from tournaments.results.game import GameReport
from tournaments.results.plackett_luce import Rating
from tournaments.results.summary import EventInfo, summarize, summary_json
from tournaments.results.tables import (
    UNDEFINED_BAR,
    elo_rows,
    error_bar,
    pair_rows,
    rating_rows,
    render,
    standings_rows,
)


def _report(number: int, seats: tuple[str, ...], outcome: Outcome) -> GameReport:
    table = tuple(range(len(seats)))
    return GameReport(number, 1, (number + 1) // 2, table, seats, outcome, 10, record="")


def _sweep(games: int) -> list[GameReport]:
    """``a`` wins every game against ``b``, seats swapped in pairs."""
    reports = []
    for n in range(1, games + 1):
        seats = ("a", "b") if n % 2 else ("b", "a")
        ranks = (1, 2) if seats[0] == "a" else (2, 1)
        reports.append(_report(n, seats, Outcome(Termination.RULES, ranks)))
    return reports


def test_error_bar_rendering() -> None:
    assert error_bar(12.345) == "12.3"
    assert error_bar(math.inf) == UNDEFINED_BAR == "—"
    assert error_bar(math.nan) == UNDEFINED_BAR


def test_a_sweep_prints_no_infinite_error_bar() -> None:
    info = EventInfo("e", "trike", ("a", "b"), 2, 4, paired=True)
    summary = summarize(info, _sweep(4))
    headers, cells = pair_rows(summary)
    row = dict(zip(headers, cells[0], strict=False))
    assert row["W-D-L"] == "4-0-0" and row["Elo"] == "inf" and row["+/-"] == UNDEFINED_BAR
    assert cells[0][headers.index("Elo (ptnml)")] == "inf"
    assert cells[0][-1] == UNDEFINED_BAR
    for rows in (pair_rows(summary), elo_rows(summary)):
        bars = [i for i, header in enumerate(rows[0]) if header == "+/-"]
        assert bars and all(line[i] in (UNDEFINED_BAR, "-") for line in rows[1] for i in bars)
    for fmt in ("plain", "github", "html"):
        assert "nan" not in render(summary, fmt)
    data = summary_json(summary)
    json.dumps(data, allow_nan=False)  # no inf or nan in results.json
    assert data["pairs"][0]["elo"]["error"] is None and data["pairs"][0]["elo"]["elo"] is None


def test_a_finite_bar_is_printed_as_a_number() -> None:
    games = _sweep(6)
    # One loss of a: W-D-L 5-0-1 still crosses 1 at 95%; 10 more even games do not.
    games.append(_report(7, ("a", "b"), Outcome(Termination.RULES, (2, 1))))
    for n in range(8, 18):
        games.append(_report(n, ("a", "b"), Outcome(Termination.RULES, (1, 1))))
    summary = summarize(EventInfo("e", "trike", ("a", "b"), 2, 17), games)
    headers, cells = pair_rows(summary)
    bar = cells[0][headers.index("+/-")]
    assert isinstance(bar, str) and bar != UNDEFINED_BAR and float(bar) > 0


def test_plackett_luce_bar_without_information_is_undefined() -> None:
    summary = summarize(EventInfo("e", "trichess", ("a", "b", "c"), 3, 0), [])
    lost = (Rating("a", 0.0, math.inf, 0), Rating("b", 0.0, 12.0, 0))
    headers, cells = rating_rows(dataclasses.replace(summary, ratings=lost))
    assert [line[headers.index("+/-")] for line in cells] == [UNDEFINED_BAR, "12.0"]
    data = summary_json(dataclasses.replace(summary, ratings=lost))
    assert data["ratings"][0]["error"] is None


def test_trichess_standings_show_game_points_next_to_placement_points() -> None:
    info = EventInfo("e", "trichess", ("a", "b", "c"), 3, 2)
    games = [
        _report(1, ("a", "b", "c"), Outcome(Termination.RULES, (1, 3, 2), (3.0, 0.0, 1.0))),
        _report(2, ("b", "c", "a"), Outcome(Termination.RULES, (3, 1, 1), (0.0, 2.0, 2.0))),
    ]
    summary = summarize(info, games)
    headers, cells = standings_rows(summary)
    assert headers[:6] == ["#", "Entrant", "Games", "Points", "Score", "Game pts"]
    rows = {line[1]: dict(zip(headers, line, strict=True)) for line in cells}
    assert rows["a"]["Points"] == "1.75" and rows["a"]["Game pts"] == "5"
    assert rows["c"]["Game pts"] == "3" and rows["b"]["Game pts"] == "0"
    data = summary_json(summary)
    assert {row["name"]: row["game_points"] for row in data["standings"]} == {
        "a": 5.0,
        "b": 0.0,
        "c": 3.0,
    }


def test_games_without_rules_scores_show_no_game_points() -> None:
    info = EventInfo("e", "tricouleur", ("a", "b"), 2, 2)
    games = [
        _report(1, ("a", "b"), Outcome(Termination.RULES, (1, 2))),
        _report(2, ("b", "a"), Outcome(Termination.MOVE_LIMIT, (1, 2), (14.0, 9.0))),
    ]
    summary = summarize(info, games)
    headers, _ = standings_rows(summary)
    assert "Game pts" not in headers
    assert all(row["game_points"] is None for row in summary_json(summary)["standings"])
