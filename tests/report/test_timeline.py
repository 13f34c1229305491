"""The course of an event: prefixes of the journal, summarized as the tables are."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from tournaments.results.summary import summarize
from tournaments.results.timeline import (
    MAX_SAMPLES,
    MIN_SAMPLES,
    llr_series,
    points_series,
    rating_series,
    sample_count,
    sample_sizes,
    timeline,
)
from tournaments.store.event_dir import read_event


def test_sample_sizes() -> None:
    assert sample_sizes(0) == [] and sample_sizes(3) == [1, 2, 3]
    sizes = sample_sizes(1000, 10)
    assert sizes == list(range(100, 1001, 100))
    assert sample_count(10) == MAX_SAMPLES and sample_count(10**7) == MIN_SAMPLES
    assert MIN_SAMPLES < sample_count(5000) < MAX_SAMPLES


def test_points_ratings_and_llr_follow_the_journal(match_dir: Path) -> None:
    event = read_event(match_dir)
    samples = timeline(event.info, event.games)
    assert [s.games for s in samples] == [1, 2, 3, 4]
    final = summarize(event.info, list(event.games))
    points = points_series(samples)
    for row in final.rows:
        series = points[row.name]
        assert [x for x, _ in series] == [1, 2, 3, 4]
        assert series[-1][1] == row.points
        # Points never go down and rise by at most one a game.
        values = [y for _, y in series if y is not None]
        assert all(0 <= b - a <= 1 for a, b in itertools.pairwise(values))
    first = event.games[0]
    winner = first.seats[first.outcome.ranks.index(1)]
    assert points[winner][0] == (1, 1.0)
    assert set(rating_series(samples)) == set(event.info.names)
    llr = llr_series(samples)
    assert final.sprt is not None and llr[-1] == (4, final.sprt.llr)


@pytest.mark.parametrize("fixture", ["match_dir", "three_dir"])
def test_every_sample_is_what_summarize_shows_for_its_prefix(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    """The samples skip the rest of a summary, not its numbers: each one equals the
    tables of its prefix exactly (points, the charted rating, the LLR)."""
    event = read_event(request.getfixturevalue(fixture))
    samples = timeline(event.info, event.games)
    assert samples, "the fixture has games"
    for s in samples:
        tables = summarize(event.info, list(event.games[: s.games]))
        assert s.points == tuple((row.name, row.points) for row in tables.rows)
        if event.info.players == 2:
            elo = {e.name: e.elo.diff if e.elo is not None else None for e in tables.entrant_elo}
            assert dict(s.ratings) == {
                k: v if v is not None and math.isfinite(v) else None for k, v in elo.items()
            }
        else:
            assert s.ratings == tuple((r.name, r.rating) for r in tables.ratings)
        assert s.llr == (tables.sprt.llr if tables.sprt is not None else None)
