"""Ratings of three (or more) players: the Plackett–Luce model of rankings.

``plackett_luce`` fits the model by the MM algorithm of Hunter (2004), "MM
algorithms for generalized Bradley–Terry models", Annals of Statistics 32(1),
section 5. Each entrant has a strength γ; a game's ranking has probability
Π_i γ(π_i) / Σ_{j≥i} γ(π_j). The MM update is
``γ_k ← w_k / Σ_stages [k still unplaced] / Σ_{unplaced} γ``, with ``w_k`` the
number of stages at which ``k`` takes the best remaining place. Ratings are
``400 log10 γ`` (so two players reduce to Bradley–Terry, i.e. the Elo logistic
curve), centred on a mean of 0. Ties (shared ranks) count as every ordering of
the tied entrants with equal weight. A prior of ``prior`` virtual draws per
entrant against a fixed 0-rated opponent (BayesElo's idea) keeps an entrant that
never loses finite; ``prior=0`` gives the plain maximum-likelihood fit. The 95%
error bars come from the observed Fisher information at the fit (the
Hessian of the log-likelihood in ``ln γ``), inverted (a pseudo-inverse without
the prior) and projected on mean-0 ratings.

Pure: games in, one ``Rating`` per entrant out. Every name in a game must be one
of ``entrants`` (else ``KeyError``); an error bar the data cannot fix is ``inf``,
not an exception.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.results.elo import Z95

ELO_PER_NATURAL = 400 / math.log(10)
"""Elo points per unit of ``ln γ``."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One entrant's fitted rating."""

    name: str
    rating: float
    """Elo-scale rating, mean 0 over the entrants."""
    error: float
    """Half-width of the 95% interval (inf when the data cannot tell)."""
    games: int


def _orderings(names: Sequence[str], ranks: Sequence[int]) -> list[tuple[tuple[str, ...], float]]:
    """Every strict ordering consistent with ``ranks`` (ties expanded), with equal weights."""
    groups: dict[int, list[str]] = {}
    for name, rank in zip(names, ranks, strict=True):
        groups.setdefault(rank, []).append(name)
    per_group = [list(itertools.permutations(groups[r])) for r in sorted(groups)]
    combos = list(itertools.product(*per_group))
    weight = 1.0 / len(combos)
    return [(tuple(itertools.chain.from_iterable(combo)), weight) for combo in combos]


def _invert(matrix: list[list[float]]) -> list[list[float]] | None:
    """Gauss–Jordan inverse with partial pivoting; None if singular."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        scale = a[col][col]
        a[col] = [x / scale for x in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def plackett_luce(
    games: Sequence[tuple[Sequence[str], Sequence[int]]],
    entrants: Sequence[str],
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
) -> list[Rating]:
    """Fit Plackett–Luce strengths to games given as (names by seat, ranks); see the module.

    Games with fewer than two ranked entrants are ignored. Returns one ``Rating`` per
    entrant in ``entrants`` order.
    """
    seen: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {}
    for names, ranks in games:
        key = (tuple(names), tuple(ranks))
        seen[key] = seen.get(key, 0) + 1
    return counted_plackett_luce(
        seen, entrants, prior=prior, tolerance=tolerance, max_iterations=max_iterations
    )


EXACT_LIMIT = 100
"""Most rated entrants (entrants with at least one game) fitted exactly, with error
bars. The fit inverts a dense information matrix of that size, in pure Python: O(m³)
time and O(m²) memory (a second at 100, minutes and gigabytes at 10,000). Over it the
ratings are ``LARGE_FIELD_ITERATIONS`` MM iterations (each a pass over the distinct
stages, so the cost grows with the games played) and every error bar is ``inf``."""
LARGE_FIELD_ITERATIONS = 200
"""MM iterations of a field over ``EXACT_LIMIT`` rated entrants (see there)."""


def counted_plackett_luce(
    seen: Mapping[tuple[tuple[str, ...], tuple[int, ...]], int],
    entrants: Sequence[str],
    *,
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
) -> list[Rating]:
    """``plackett_luce`` of games given as {(names by seat, ranks): how many games}.

    With a prior only the entrants that played are fitted: an entrant without games has
    only the prior's virtual draw against the 0-rated reference, so its strength is
    exactly that reference's (γ = 1) and its information the prior's alone; the fit of
    the others does not depend on it. So the cost grows with the entrants who played,
    not with the field (a 10,000-entrant event after 4 games fits 8 entrants). Over
    ``EXACT_LIMIT`` of them the fit is approximate (see there).
    """
    n = len(entrants)
    index = {name: i for i, name in enumerate(entrants)}
    counts = [0] * n
    for (names, ranks), times in seen.items():
        if len(names) < 2 or len(ranks) != len(names):
            continue
        for name in names:
            counts[index[name]] += times
    # Without a prior the scale is free and every entrant is fitted, as before.
    rated = [k for k in range(n) if counts[k]] if prior > 0 else list(range(n))
    local = {k: i for i, k in enumerate(rated)}
    m = len(rated)
    wins = [prior / 2] * m
    # Stages aggregated by their set of unplaced entrants: the MM update and the
    # information only depend on the set, so thousands of games cost a few sets.
    sets: dict[tuple[int, ...], float] = {}
    for (names, ranks), times in seen.items():
        if len(names) < 2 or len(ranks) != len(names):
            continue
        for ordering, weight in _orderings(names, ranks):
            ids = [local[index[name]] for name in ordering]
            for i in range(len(ids) - 1):
                wins[ids[i]] += weight * times
                remaining = tuple(sorted(ids[i:]))
                sets[remaining] = sets.get(remaining, 0.0) + weight * times
    stages = list(sets.items())
    exact = m <= EXACT_LIMIT
    gamma = _fit(
        stages,
        wins,
        prior,
        tolerance=tolerance,
        max_iterations=max_iterations if exact else LARGE_FIELD_ITERATIONS,
        newton=exact,
    )
    theta = [0.0] * n  # an entrant without games: γ = 1, the reference's strength
    for i, k in enumerate(rated):
        theta[k] = math.log(gamma[i])
    variances = _centred_variances(stages, gamma, prior, rated, n) if exact else [math.inf] * n
    mean = sum(theta) / n
    ratings = []
    for k, name in enumerate(entrants):
        variance = variances[k]
        error = Z95 * math.sqrt(variance) * ELO_PER_NATURAL if variance >= 0 else math.inf
        ratings.append(Rating(name, (theta[k] - mean) * ELO_PER_NATURAL, error, counts[k]))
    return ratings


def _fit(
    stages: Sequence[tuple[tuple[int, ...], float]],
    wins: Sequence[float],
    prior: float,
    *,
    tolerance: float,
    max_iterations: int,
    newton: bool,
) -> list[float]:
    """The strengths γ at the maximum: Hunter's MM iterations until close, then (with
    ``newton``) Newton steps on ln(γ) with the same information matrix as the error
    bars: MM alone converges linearly and slowly when results are lopsided; both stop
    at the same maximum."""
    gamma = [1.0] * len(wins)
    if not gamma:
        return gamma
    for _ in range(max_iterations):
        new = _mm_step(stages, gamma, wins, prior)
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < (NEWTON_FROM if newton else tolerance):
            break
    if not newton:
        return gamma
    for _ in range(NEWTON_STEPS):
        step = _newton_step(stages, gamma, wins, prior)
        if step is None or max(abs(d) for d in step) < tolerance:
            break
        moved = _damped(stages, gamma, wins, prior, step)
        if moved is gamma:  # no step raises the likelihood: at the maximum, to rounding
            break
        gamma = moved
        if max(abs(d) for d in step) < NEWTON_LAST:
            break  # the next step would be below rounding (Newton converges quadratically)
    return gamma


def _centred_variances(
    stages: Sequence[tuple[tuple[int, ...], float]],
    gamma: Sequence[float],
    prior: float,
    rated: Sequence[int],
    n: int,
) -> list[float]:
    """Each entrant's variance of its mean-0 rating (in ln γ), ``inf`` when the data do
    not fix it. The covariance is block-diagonal: the rated entrants' block (the inverse
    of their information), and for each entrant without games the prior's alone,
    ``1 / (prior · ¼)``; centring on the mean of all ``n`` (C Σ C, C = I - J/n) needs
    only its row sums."""
    m = len(rated)
    covariance = _covariance(_information(stages, gamma, prior, m), prior, m, centre=False)
    if covariance is None:
        return [math.inf] * n
    if m == n:  # every entrant rated (always so without a prior): the block is everything
        centred = _centre(covariance)
        return [centred[k][k] for k in range(n)]
    alone = 4.0 / prior  # γ = 1: p (1 - p) = ¼ per virtual game
    row_sums = [sum(row) for row in covariance]
    grand = (sum(row_sums) + (n - m) * alone) / (n * n)
    variances = [alone - 2 * alone / n + grand] * n
    for i, k in enumerate(rated):
        variances[k] = covariance[i][i] - 2 * row_sums[i] / n + grand
    return variances


NEWTON_FROM = 1e-3
"""MM hands over to Newton once no ln(gamma) moves more than this per iteration."""
NEWTON_STEPS = 50
NEWTON_LAST = 1e-6
"""A Newton step smaller than this in every ln(γ) (under 0.001 Elo) is the last one: the
gradient's rounding keeps later steps near this size without moving the maximum, and
each costs an inversion of the information."""


def _mm_step(
    stages: Sequence[tuple[tuple[int, ...], float]],
    gamma: Sequence[float],
    wins: Sequence[float],
    prior: float,
) -> list[float]:
    """One MM update (Hunter 2004, section 5), normalised to geometric mean 1 without prior."""
    n = len(gamma)
    denom = [prior / (g + 1.0) for g in gamma]
    for remaining, weight in stages:
        share = weight / sum(gamma[k] for k in remaining)
        for k in remaining:
            denom[k] += share
    new = [(wins[k] / denom[k]) if denom[k] > 0 and wins[k] > 0 else 1e-300 for k in range(n)]
    if prior == 0:  # the scale is free: keep the geometric mean at 1
        shift = math.exp(sum(math.log(g) for g in new) / n)
        new = [g / shift for g in new]
    return new


def _log_likelihood(
    stages: Sequence[tuple[tuple[int, ...], float]],
    gamma: Sequence[float],
    wins: Sequence[float],
    prior: float,
) -> float:
    total = sum(w * math.log(g) for w, g in zip(wins, gamma, strict=True))
    total -= sum(weight * math.log(sum(gamma[k] for k in rest)) for rest, weight in stages)
    return total - prior * sum(math.log(g + 1.0) for g in gamma)


def _newton_step(
    stages: Sequence[tuple[tuple[int, ...], float]],
    gamma: Sequence[float],
    wins: Sequence[float],
    prior: float,
) -> list[float] | None:
    """The Newton step in ln(gamma): information⁻¹ · gradient (mean-free without prior)."""
    n = len(gamma)
    gradient = [wins[k] - prior * gamma[k] / (gamma[k] + 1.0) for k in range(n)]
    for remaining, weight in stages:
        total = sum(gamma[k] for k in remaining)
        for k in remaining:
            gradient[k] -= weight * gamma[k] / total
    covariance = _covariance(_information(stages, gamma, prior, n), prior, n, centre=False)
    if covariance is None:
        return None
    return [sum(covariance[i][j] * gradient[j] for j in range(n)) for i in range(n)]


def _damped(
    stages: Sequence[tuple[tuple[int, ...], float]],
    gamma: list[float],
    wins: Sequence[float],
    prior: float,
    step: Sequence[float],
) -> list[float]:
    """``gamma`` moved by ``step`` (in ln), halved until the likelihood does not drop."""
    before = _log_likelihood(stages, gamma, wins, prior)
    scale = 1.0
    for _ in range(30):
        moved = [g * math.exp(scale * d) for g, d in zip(gamma, step, strict=True)]
        if _log_likelihood(stages, moved, wins, prior) >= before - 1e-12:
            return moved
        scale /= 2
    return gamma


def _information(
    stages: Sequence[tuple[tuple[int, ...], float]], gamma: Sequence[float], prior: float, n: int
) -> list[list[float]]:
    """Observed Fisher information in ``ln γ``: Σ weight (diag(p) - p pᵀ) over stages."""
    info = [[0.0] * n for _ in range(n)]
    for remaining, weight in stages:
        total = sum(gamma[k] for k in remaining)
        probs = [(k, gamma[k] / total) for k in remaining]
        for k, pk in probs:
            info[k][k] += weight * pk
            for j, pj in probs:
                info[k][j] -= weight * pk * pj
    for k in range(n):  # the prior's virtual games against a fixed γ = 1
        p = gamma[k] / (gamma[k] + 1.0)
        info[k][k] += prior * p * (1 - p)
    return info


def _covariance(
    info: list[list[float]], prior: float, n: int, *, centre: bool = True
) -> list[list[float]] | None:
    """The covariance of ``ln γ`` (mean-centred with ``centre``); None when the data
    do not fix it."""
    if prior > 0:
        inverse = _invert(info)
    else:  # rank n-1 with null space 1: pinv = (I + J/n)⁻¹ - J/n
        shifted = [[v + 1.0 / n for v in row] for row in info]
        inverse = _invert(shifted)
        if inverse is not None:
            inverse = [[v - 1.0 / n for v in row] for row in inverse]
    if inverse is None:
        return None
    if not centre:
        return inverse
    return _centre(inverse)


def _centre(matrix: list[list[float]]) -> list[list[float]]:
    """C Σ C with C = I - J/n: the covariance of mean-0 values."""
    n = len(matrix)
    row_means = [sum(row) / n for row in matrix]
    col_means = [sum(matrix[i][j] for i in range(n)) / n for j in range(n)]
    grand = sum(row_means) / n
    return [
        [matrix[i][j] - row_means[i] - col_means[j] + grand for j in range(n)] for i in range(n)
    ]
