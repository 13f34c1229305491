"""The SPRT (``tournaments.results.sprt``) against published numbers and synthetic results.

Source of the expected LLRs (computed by another program, not by this code):
fastchess's unit tests (``app/tests/sprt_test.cpp`` in github.com/Disservin/fastchess)
for given trinomial ``Stats(wins, losses, draws)`` and pentanomial
``Stats(LL, LD, WL, DD, WD, WW)`` counts.
"""

from __future__ import annotations

import math

import pytest

from tournaments.results.elo import Pentanomial
from tournaments.results.sprt import Sprt

# fastchess sprt_test.cpp: (wins, losses, draws) or (LL, LD, WL, DD, WD, WW), bounds, LLR.
SPRT_TRINOMIAL = [
    ((36433, 36027, 68692), (0, 2), "normalized", 0.92),
    ((10871, 10650, 20431), (-1.75, 0.25), "normalized", 2.30),
    ((21404, 21184, 40708), (0.5, 2.5), "logistic", -1.57),
    ((57433, 57030, 106593), (0, 2), "logistic", -2.59),
]
SPRT_PENTANOMIAL = [
    ((365, 16618, 36029, 200, 16974, 390), (0, 2), "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), (-1.75, 0.25), "normalized", 3.01),
    ((223, 9863, 20279, 1000, 10037, 246), (0.5, 2.5), "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), (0, 2), "logistic", -4.98),
]


@pytest.mark.parametrize(("wld", "bounds", "model", "llr"), SPRT_TRINOMIAL)
def test_sprt_llr_trinomial(
    wld: tuple[int, int, int], bounds: tuple[float, float], model: str, llr: float
) -> None:
    wins, losses, draws = wld
    sprt = Sprt(*bounds, alpha=0.05, beta=0.05, model=model)
    assert sprt.llr_wdl(wins, draws, losses) == pytest.approx(llr, rel=0.01)


@pytest.mark.parametrize(("counts", "bounds", "model", "llr"), SPRT_PENTANOMIAL)
def test_sprt_llr_pentanomial(
    counts: tuple[int, ...], bounds: tuple[float, float], model: str, llr: float
) -> None:
    ll, ld, wl, dd, wd, ww = counts
    sprt = Sprt(*bounds, alpha=0.05, beta=0.05, model=model)
    assert sprt.llr_pentanomial(Pentanomial(ll, ld, wl + dd, wd, ww)) == pytest.approx(
        llr, rel=0.01
    )


def test_sprt_bounds_and_validation() -> None:
    sprt = Sprt(0, 5, alpha=0.05, beta=0.05)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.decision(3.0) == "H1"
    assert sprt.decision(-3.0) == "H0"
    assert sprt.decision(0.0) is None
    for elo0, elo1, alpha, beta in [(5, 0, 0.05, 0.05), (0, 5, 0, 0.05), (0, 5, 0.6, 0.5)]:
        with pytest.raises(ValueError):
            Sprt(elo0, elo1, alpha, beta)
    with pytest.raises(ValueError):
        Sprt(0, 5, model="bayesian")


def test_sprt_bounds_are_limited_where_the_normalized_fit_exists() -> None:
    # elo1 = 400 nElo once crashed the first results.json of a tournament (0 games).
    with pytest.raises(ValueError, match="200"):
        Sprt(0, 400)
    with pytest.raises(ValueError, match="200"):
        Sprt(-250, 0)
    wide = Sprt(-1000, 1000, model="logistic")  # Elo bounds: no such limit
    assert math.isfinite(wide.llr_wdl(0, 0, 0))
    edge = Sprt(-200, 200)
    for wins, draws, losses in [(0, 0, 0), (9, 0, 0), (0, 9, 0), (0, 0, 9), (3, 4, 5)]:
        assert math.isfinite(edge.llr_wdl(wins, draws, losses))
    for counts in [(0, 0, 0, 0, 0), (0, 0, 0, 0, 9), (9, 0, 0, 0, 0), (1, 2, 3, 2, 1)]:
        assert math.isfinite(edge.llr_pentanomial(Pentanomial(*counts)))


def _run_sprt(sprt: Sprt, cycle: str, limit: int = 200_000) -> tuple[str | None, int]:
    """Feed W/D/L results in a repeating pattern until the SPRT decides."""
    wins = draws = losses = 0
    for n in range(1, limit + 1):
        result = cycle[(n - 1) % len(cycle)]
        wins += result == "W"
        draws += result == "D"
        losses += result == "L"
        if n % len(cycle) == 0:
            decision = sprt.decision(sprt.llr_wdl(wins, draws, losses))
            if decision is not None:
                return decision, n
    return None, limit


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_sprt_decisions_on_synthetic_results(model: str) -> None:
    sprt = Sprt(0, 10, model=model)
    # A clearly better entrant (about +90 Elo) is accepted quickly...
    decision, fast = _run_sprt(sprt, "WWDL")
    assert decision == "H1" and fast < 2000
    # ... a clearly worse one rejected quickly, and an equal one rejected eventually.
    assert _run_sprt(sprt, "LLDW")[0] == "H0"
    decision, games = _run_sprt(sprt, "WDL")
    assert decision == "H0" and games > 10 * fast
    # A true difference between the bounds (+7 Elo) takes longer still.
    decision, slow = _run_sprt(sprt, "W" * 51 + "L" * 49)
    assert decision is not None and slow > games


def test_sprt_pentanomial_decides_like_the_trinomial_on_paired_results() -> None:
    sprt = Sprt(0, 10)
    # Pairs of a win and a draw (1.5 of 2 points): clearly better.
    llr = sprt.llr_pentanomial(Pentanomial(wd=200))
    assert sprt.decision(llr) == "H1"
    assert sprt.decision(sprt.llr_pentanomial(Pentanomial(ld=200))) == "H0"
