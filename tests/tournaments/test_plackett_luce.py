"""Plackett–Luce ratings (``tournaments.results.plackett_luce``) against known results.

Closed forms: Bradley–Terry with two players (γa/γb = wins/losses), and
Plackett–Luce data whose ranking frequencies equal the model's own probabilities
for γ = (4, 2, 1), whose maximum-likelihood fit is exactly those strengths.
"""

from __future__ import annotations

import math

import pytest

from tournaments.results.plackett_luce import plackett_luce

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
