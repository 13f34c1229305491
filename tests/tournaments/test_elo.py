"""Two-player Elo (``tournaments.results.elo``) against published numbers.

Sources of the expected values (computed by other programs, not by this code):

* cutechess-cli result lines quoted in engine READMEs: ``Score of A vs B: W - L - D``
  followed by ``Elo difference: x +/- y, LOS: z %, DrawRatio: d %``;
* fastchess's unit tests (``app/tests/elo_test.cpp`` in github.com/Disservin/fastchess):
  Elo, error, nElo and LOS for given trinomial ``Stats(wins, losses, draws)`` and
  pentanomial ``Stats(LL, LD, WL, DD, WD, WW)`` counts.
"""

from __future__ import annotations

import math

import pytest

from tournaments.results.elo import (
    Pentanomial,
    elo_pentanomial,
    elo_wdl,
    los_wins_losses,
    score_to_elo,
)

# (wins, losses, draws) and what cutechess printed: Elo, +/-, LOS %, DrawRatio %.
CUTECHESS = [
    ((149, 133, 1718), (2.8, 5.7, 83.0, 85.9)),  # Rawr 0.1.0 vs Random
    ((331, 275, 394), (19.5, 16.8, 98.9, 39.4)),  # 100 Elo Chess Engine vs Stash v15
    ((386, 138, 476), (88.0, 15.6, 100.0, 47.6)),  # v04-checkext vs v05-pv
]


@pytest.mark.parametrize(("wld", "printed"), CUTECHESS)
def test_elo_as_cutechess_prints_it(
    wld: tuple[int, int, int], printed: tuple[float, float, float, float]
) -> None:
    wins, losses, draws = wld
    est = elo_wdl(wins, draws, losses)
    assert est is not None
    elo, error, los, draw_ratio = printed
    assert round(est.diff, 1) == elo
    assert round(est.error, 1) == error
    assert round(100 * est.los, 1) == los
    assert round(100 * draws / (wins + losses + draws), 1) == draw_ratio


# fastchess elo_test.cpp: Stats(wins, losses, draws) -> nElo, nElo error, Elo, error.
FASTCHESS_WDL = [
    ((76, 89, 123), (-20.76, 40.13, None, None)),
    ((136, 96, 111), (49.77, 36.77, 40.70, 30.43)),
    ((34, 356, 0), (-508.44, 34.48, None, None)),
]


@pytest.mark.parametrize(("wld", "expected"), FASTCHESS_WDL)
def test_wdl_as_fastchess_computes_it(
    wld: tuple[int, int, int], expected: tuple[float, float, float | None, float | None]
) -> None:
    wins, losses, draws = wld
    est = elo_wdl(wins, draws, losses)
    assert est is not None
    nelo, nelo_error, elo, error = expected
    assert est.nelo == pytest.approx(nelo, rel=0.01)
    assert est.nelo_error == pytest.approx(nelo_error, rel=0.01)
    if elo is not None and error is not None:
        assert est.diff == pytest.approx(elo, rel=0.01)
        assert est.error == pytest.approx(error, rel=0.01)


# fastchess elo_test.cpp: Stats(LL, LD, WL, DD, WD, WW) -> nElo, error, Elo, error, LOS %.
FASTCHESS_PENTA = [
    ((34, 54, 31, 32, 64, 75), (57.94, 28.28, 55.58, 27.65, 100.00)),
    ((332, 433, 457, 41, 333, 334), (-9.17, 10.96, -8.64, 10.33, 5.05)),
    ((7895, 8757, 5485, 200, 568, 9999), (-19.01, 2.65, -21.04, 2.95, None)),
]


@pytest.mark.parametrize(("counts", "expected"), FASTCHESS_PENTA)
def test_pentanomial_as_fastchess_computes_it(
    counts: tuple[int, ...], expected: tuple[float, float, float, float, float | None]
) -> None:
    ll, ld, wl, dd, wd, ww = counts
    est = elo_pentanomial(Pentanomial(ll, ld, wl + dd, wd, ww))
    assert est is not None
    nelo, nelo_error, elo, error, los = expected
    assert est.nelo == pytest.approx(nelo, rel=0.01)
    assert est.nelo_error == pytest.approx(nelo_error, rel=0.01)
    assert est.diff == pytest.approx(elo, rel=0.01)
    assert est.error == pytest.approx(error, rel=0.01)
    if los is not None:
        assert round(100 * est.los, 2) == los


def test_elo_edge_cases() -> None:
    assert elo_wdl(0, 0, 0) is None
    assert elo_pentanomial(Pentanomial()) is None
    perfect = elo_wdl(10, 0, 0)
    assert perfect is not None and perfect.diff == math.inf
    even = elo_wdl(0, 10, 0)
    assert even is not None and even.diff == 0 and even.error == 0 and even.los == 0.5
    assert score_to_elo(0.5) == 0
    assert score_to_elo(0.0) == -math.inf
    assert los_wins_losses(0, 0) == 0.5
    # A perfect score: infinite Elo and nElo, no finite error bar (not nan).
    assert perfect.error == math.inf and perfect.nelo == math.inf
    assert perfect.nelo_error == math.inf
    # A score whose 95% interval crosses 1: a finite Elo without a finite bar.
    near = elo_wdl(9, 1, 0)
    assert near is not None and math.isfinite(near.diff) and near.error == math.inf
    null = elo_wdl(0, 0, 4)
    assert null is not None and null.diff == -math.inf and null.nelo == -math.inf
    sweep = elo_pentanomial(Pentanomial(ww=5))
    assert sweep is not None and sweep.diff == math.inf and sweep.error == math.inf
    assert Pentanomial.from_pair_points([0, 0.5, 1, 1, 1.5, 2, 2]).counts == (1, 1, 2, 1, 2)
    with pytest.raises(ValueError):
        Pentanomial.from_pair_points([0.25])
