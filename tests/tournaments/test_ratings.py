"""Ratings against published numbers and known results.

Sources of the expected values (computed by other programs, not by this code):

* cutechess-cli result lines quoted in engine READMEs: ``Score of A vs B: W - L - D``
  followed by ``Elo difference: x +/- y, LOS: z %, DrawRatio: d %``;
* fastchess's unit tests (``app/tests/elo_test.cpp``, ``app/tests/sprt_test.cpp`` in
  github.com/Disservin/fastchess): Elo, error, nElo, LOS and SPRT LLR for given
  trinomial ``Stats(wins, losses, draws)`` and pentanomial
  ``Stats(LL, LD, WL, DD, WD, WW)`` counts;
* closed forms: Bradley–Terry with two players (γa/γb = wins/losses), and
  Plackett–Luce data whose ranking frequencies equal the model's own probabilities
  for γ = (4, 2, 1), whose maximum-likelihood fit is exactly those strengths.
"""

from __future__ import annotations

import math

import pytest

from tournaments.ratings import (
    Pentanomial,
    Sprt,
    elo_pentanomial,
    elo_wdl,
    los_wins_losses,
    plackett_luce,
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


# --- Plackett–Luce -------------------------------------------------------------------------

# Rankings of three entrants with gamma = (4, 2, 1): P(a>b>c) = 4/7 * 2/3 = 8/21, and so on;
# over 105 games each ordering appears exactly 105 times its probability.
PL_COUNTS = {("a", "b", "c"): 40, ("a", "c", "b"): 20, ("b", "a", "c"): 24,
             ("b", "c", "a"): 6, ("c", "a", "b"): 10, ("c", "b", "a"): 5}  # fmt: skip


def _pl_games(scale: int = 1) -> list[tuple[tuple[str, ...], tuple[int, ...]]]:
    games: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    for order, count in PL_COUNTS.items():
        games += [(order, (1, 2, 3))] * (count * scale)
    return games


def test_plackett_luce_recovers_known_strengths() -> None:
    assert sum(PL_COUNTS.values()) == 105
    ratings = {r.name: r for r in plackett_luce(_pl_games(), ["a", "b", "c"], prior=0)}
    step = 400 * math.log10(2)  # gamma doubles from c to b to a: 120.4 Elo each
    assert ratings["a"].rating == pytest.approx(step, abs=1e-6)
    assert ratings["b"].rating == pytest.approx(0.0, abs=1e-6)
    assert ratings["c"].rating == pytest.approx(-step, abs=1e-6)
    assert all(r.games == 105 for r in ratings.values())
    # Seat order does not matter, only the ranks.
    shuffled = [((o[2], o[0], o[1]), (3, 1, 2)) for o, _ in _pl_games()]
    again = {r.name: r.rating for r in plackett_luce(shuffled, ["a", "b", "c"], prior=0)}
    assert again["a"] == pytest.approx(step, abs=1e-6)


def test_plackett_luce_error_bars_shrink_with_data_and_match_the_information() -> None:
    small = {r.name: r for r in plackett_luce(_pl_games(1), ["a", "b", "c"], prior=0)}
    large = {r.name: r for r in plackett_luce(_pl_games(4), ["a", "b", "c"], prior=0)}
    for name in "abc":  # four times the games: half the error bar
        assert large[name].error == pytest.approx(small[name].error / 2, rel=1e-6)
    # The error of "a" from the observed information, computed here by finite
    # differences of the log-likelihood in ln(gamma) with b and c's mean fixed.
    assert small["a"].error == pytest.approx(_numeric_error_a(), rel=1e-3)


def _numeric_error_a() -> float:
    games = _pl_games()

    def loglik(theta: dict[str, float]) -> float:
        total = 0.0
        for order, _ in games:
            for i in range(len(order) - 1):
                rest = order[i:]
                total += theta[order[i]] - math.log(sum(math.exp(theta[x]) for x in rest))
        return total

    base = {"a": math.log(4), "b": math.log(2), "c": 0.0}
    h = 1e-4
    # Second derivatives of the centred parametrisation: x = theta_a - mean, with the
    # Hessian of the 3 log-strengths projected on mean-0 directions.
    names = ["a", "b", "c"]
    hess = [[0.0] * 3 for _ in range(3)]
    for i, p in enumerate(names):
        for j, q in enumerate(names):

            def at(dp: float, dq: float, p: str = p, q: str = q) -> float:
                t = dict(base)
                t[p] += dp
                t[q] += dq
                return loglik(t)

            hess[i][j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    info = [[-v for v in row] for row in hess]
    # Pseudo-inverse through (I + J/3)^-1 - J/3, then the variance of centred theta_a.
    shifted = [[info[i][j] + 1 / 3 for j in range(3)] for i in range(3)]
    inv = _inverse3(shifted)
    cov = [[inv[i][j] - 1 / 3 for j in range(3)] for i in range(3)]
    variance = cov[0][0]
    return 1.959963984540054 * math.sqrt(variance) * 400 / math.log(10)


def _inverse3(m: list[list[float]]) -> list[list[float]]:
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    adj = [
        [e * i - f * h, c * h - b * i, b * f - c * e],
        [f * g - d * i, a * i - c * g, c * d - a * f],
        [d * h - e * g, b * g - a * h, a * e - b * d],
    ]
    return [[v / det for v in row] for row in adj]


def test_bradley_terry_two_players_closed_form() -> None:
    # 30 wins, 10 losses, 10 draws (a draw is half a win each way): gamma ratio 35/15.
    games = [(("a", "b"), (1, 2))] * 30 + [(("b", "a"), (1, 2))] * 10 + [(("a", "b"), (1, 1))] * 10
    ratings = {r.name: r for r in plackett_luce(games, ["a", "b"], prior=0)}
    diff = ratings["a"].rating - ratings["b"].rating
    assert diff == pytest.approx(400 * math.log10(35 / 15), abs=1e-6)
    # Fisher information of the difference: 50 comparisons at p = 0.7.
    se_diff = math.sqrt(1 / (50 * 0.7 * 0.3)) * 400 / math.log(10)
    assert ratings["a"].error == pytest.approx(1.959964 * se_diff / 2, rel=1e-4)


def test_prior_keeps_an_unbeaten_entrant_finite() -> None:
    games = [(("a", "b", "c"), (1, 2, 3))] * 20
    ratings = {r.name: r for r in plackett_luce(games, ["a", "b", "c"])}
    assert ratings["a"].rating > ratings["b"].rating > ratings["c"].rating
    assert all(math.isfinite(r.rating) and math.isfinite(r.error) for r in ratings.values())
    assert sum(r.rating for r in ratings.values()) == pytest.approx(0.0, abs=1e-9)
    # Without games, everyone is equal with a prior-only error bar.
    empty = plackett_luce([], ["a", "b"])
    assert [r.rating for r in empty] == [0.0, 0.0]
