"""Pure rating statistics: Elo with error bars and LOS, pentanomial, SPRT, Plackett–Luce.

Two players (the formulas cutechess and fastchess print):

* ``elo_wdl``: from wins/draws/losses. The score ``s = (W + D/2) / N``; the per-game
  variance ``v = (W(1-s)² + D(1/2-s)² + L(0-s)²) / N``; the Elo difference
  ``-400 log10(1/s - 1)``; the 95% error bar is half the Elo distance between
  ``s ± 1.959964 √(v/N)`` (cutechess ``Elo::errorMargin``, fastchess ``EloWDL``).
  LOS (likelihood of superiority) is cutechess's ``½(1 + erf((W-L) / √(2(W+L))))``.
  nElo (normalised Elo, fastchess) is ``(s - ½) / √v · 800 / ln 10``.
* ``elo_pentanomial``: from game pairs (the two games of one opening with seats
  swapped), the pair scores 0, ¼, ½, ¾, 1 with the same formulas over pairs;
  LOS ``½(1 + erf((s-½) / √(2 v/P)))`` and nElo with ``√(2v)`` (fastchess
  ``EloPentanomial``).
* ``Sprt``: the generalised SPRT of Michel Van den Bergh ("Comments on Normalized
  Elo", https://www.cantate.be/Fishtest/normalized_elo_practical.pdf): the
  log-likelihood ratio of the maximum-likelihood result distributions with the
  expected score (``logistic``) or the normalised Elo (``normalized``) fixed at
  ``elo0`` and ``elo1``; bounds ``ln(β/(1-α))`` and ``ln((1-β)/α)``. Empty
  categories count as 0.001 (as fastchess does), so the first games give finite
  values.

Three (or more) players:

* ``plackett_luce``: the Plackett–Luce model of rankings, fitted by the MM algorithm
  of Hunter (2004), "MM algorithms for generalized Bradley–Terry models", Annals of
  Statistics 32(1), section 5. Each entrant has a strength γ; a game's ranking has
  probability Π_i γ(π_i) / Σ_{j≥i} γ(π_j). The MM update is
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
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.959964…"""
NELO_SCALE = 800 / math.log(10)
"""nElo per standard deviation of the score."""
ELO_PER_NATURAL = 400 / math.log(10)
"""Elo points per unit of ``ln γ``."""
REGULARIZE = 1e-3
"""The count an empty result category gets in the SPRT (fastchess's value)."""


def score_to_elo(score: float) -> float:
    """``-400 log10(1/s - 1)``; ±inf at scores 1 and 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_to_score(elo: float) -> float:
    """The expected score of an Elo difference on the logistic curve."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference with its 95% error bar, as fastchess and cutechess print it."""

    diff: float
    """Elo difference (±inf for a perfect or null score)."""
    error: float
    """Half-width of the 95% interval in Elo; ``inf`` when the score interval reaches 0
    or 1 (a perfect or null score, or one near it after few games), whose Elo is
    infinite. The tables print such a bar as ``—`` (``report.error_bar``)."""
    los: float
    """Likelihood of superiority, 0..1."""
    nelo: float
    """Normalised Elo difference."""
    nelo_error: float
    """Half-width of its 95% interval."""
    score: float
    """Mean score, 0..1."""
    samples: int
    """Games (trinomial) or game pairs (pentanomial)."""


def _estimate(
    score: float,
    variance: float,
    samples: int,
    los: float,
    nelo_of: Callable[[float], float],
) -> EloEstimate:
    spread = Z95 * math.sqrt(variance / samples)
    upper, lower = score + spread, score - spread
    diff = score_to_elo(score)
    error = (score_to_elo(upper) - score_to_elo(lower)) / 2.0
    if math.isnan(error):
        error = math.inf
    nelo = nelo_of(score)
    nelo_error = (nelo_of(upper) - nelo_of(lower)) / 2.0
    if math.isnan(nelo_error):
        nelo_error = math.inf
    return EloEstimate(diff, error, los, nelo, nelo_error, score, samples)


def los_wins_losses(wins: int, losses: int) -> float:
    """cutechess's likelihood of superiority: ``½(1 + erf((W-L)/√(2(W+L))))``."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def elo_wdl(wins: int, draws: int, losses: int) -> EloEstimate | None:
    """Elo, error bar, LOS and nElo of a W/D/L result; None without games."""
    n = wins + draws + losses
    if n == 0:
        return None
    win, draw, loss = wins / n, draws / n, losses / n
    score = win + draw / 2
    variance = win * (1 - score) ** 2 + draw * (0.5 - score) ** 2 + loss * score**2

    def nelo(s: float) -> float:
        return _ratio(s - 0.5, math.sqrt(variance)) * NELO_SCALE

    return _estimate(score, variance, n, los_wins_losses(wins, losses), nelo)


def _ratio(offset: float, spread: float) -> float:
    """``offset / spread``, with a zero spread giving 0 (no offset) or a signed infinity
    (every game won or lost: an unbounded normalised Elo, as fastchess computes it)."""
    if spread > 0:
        return offset / spread
    return 0.0 if offset == 0 else math.copysign(math.inf, offset)


PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Pair scores (points of both games / 2) of the pentanomial categories."""


@dataclass(frozen=True, slots=True)
class Pentanomial:
    """Counts of game pairs by the first entrant's total points in the pair."""

    ll: int = 0
    """0 of 2 points."""
    ld: int = 0
    """½ of 2."""
    even: int = 0
    """1 of 2: a win and a loss, or two draws."""
    wd: int = 0
    """1½ of 2."""
    ww: int = 0
    """2 of 2."""

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """The five counts from 0 to 2 points."""
        return (self.ll, self.ld, self.even, self.wd, self.ww)

    @property
    def pairs(self) -> int:
        """Number of pairs."""
        return sum(self.counts)

    @classmethod
    def from_pair_points(cls, points: Sequence[float]) -> Pentanomial:
        """Counts from each pair's points (0, 0.5, 1, 1.5 or 2).

        :raises ValueError: a value that is not a multiple of ½ within 0..2.
        """
        counts = [0] * 5
        for value in points:
            index = round(value * 2)
            if not (0 <= index <= 4 and abs(index - value * 2) < 1e-9):
                raise ValueError(f"a pair scores 0..2 points in halves, not {value}")
            counts[index] += 1
        return cls(*counts)


def elo_pentanomial(penta: Pentanomial) -> EloEstimate | None:
    """Elo, error bar, LOS and nElo over game pairs; None without pairs."""
    pairs = penta.pairs
    if pairs == 0:
        return None
    freqs = [c / pairs for c in penta.counts]
    score = sum(f * a for f, a in zip(freqs, PAIR_SCORES, strict=True))
    variance = sum(f * (a - score) ** 2 for f, a in zip(freqs, PAIR_SCORES, strict=True))
    per_pair = variance / pairs
    if per_pair > 0:
        los = 0.5 * (1.0 + math.erf((score - 0.5) / math.sqrt(2.0 * per_pair)))
    else:
        los = 0.5 if score == 0.5 else float(score > 0.5)

    def nelo(s: float) -> float:
        return _ratio(s - 0.5, math.sqrt(2 * variance)) * NELO_SCALE

    return _estimate(score, variance, pairs, los, nelo)


# --- SPRT --------------------------------------------------------------------------------


def _solve_root(xs: Sequence[float], probs: Sequence[float]) -> float:
    """The root θ of ``f(θ) = Σ pᵢ xᵢ / (1 + θ xᵢ)`` on ``(-1/max x, -1/min x)``.

    ``f`` decreases on that interval (its derivative is ``-Σ pᵢ xᵢ² / (1 + θ xᵢ)²``), so
    Newton's method kept inside a shrinking bracket converges safely and fast.
    """
    low, high = -1.0 / max(xs), -1.0 / min(xs)
    theta = 0.0 if low < 0.0 < high else (low + high) / 2
    for _ in range(200):
        value = slope = 0.0
        for x, p in zip(xs, probs, strict=True):
            d = 1.0 + theta * x
            value += p * x / d
            slope -= p * x * x / (d * d)
        if value > 0:
            low = theta
        else:
            high = theta
        step = theta - value / slope if slope < 0 else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - theta) <= 1e-15 * (1.0 + abs(theta)) or step in (low, high):
            return step
        theta = step
    return theta


def _mle_with_mean(scores: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``scores`` closest (max. likelihood) to ``probs`` with mean ``s``."""
    xs = [a - s for a in scores]
    theta = _solve_root(xs, probs)
    return [p / (1 + theta * x) for x, p in zip(xs, probs, strict=True)]


def _mle_with_t(scores: Sequence[float], probs: Sequence[float], t: float) -> list[float]:
    """The max.-likelihood distribution with ``(mean - ½) / stdev`` fixed at ``t``
    (section 4.1 of Van den Bergh's note), by fixed-point iteration from uniform."""
    p = [1.0 / len(scores)] * len(scores)
    for _ in range(1000):
        mu = sum(a * q for a, q in zip(scores, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2) for a in scores]
        theta = _solve_root(phi, probs)
        new = [q / (1 + theta * x) for q, x in zip(probs, phi, strict=True)]
        change = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if change < 1e-10:
            break
    return p


MAX_SPRT_NELO = 200.0
"""Largest |elo0|, |elo1| of a normalized SPRT (the pentanomial fit breaks down near 245)."""


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    """Probability of accepting H1 when H0 holds."""
    beta: float = 0.05
    """Probability of accepting H0 when H1 holds."""
    model: str = "normalized"
    """``normalized`` (elo0/elo1 in nElo, fastchess's default) or ``logistic`` (Elo)."""

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError("SPRT: elo0 must be less than elo1")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise ValueError("SPRT: alpha and beta must be in (0, 1) with alpha + beta < 1")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"SPRT: unknown model {self.model!r} (normalized or logistic)")
        if self.model == "normalized" and max(abs(self.elo0), abs(self.elo1)) > MAX_SPRT_NELO:
            # The fit holds (mean - 1/2)/stdev at t = elo/NELO_SCALE (sqrt 2 times that
            # for pairs); near t = 1 it has no solution. Real bounds are a few nElo.
            raise ValueError(
                f"SPRT: normalized elo0/elo1 must be within ±{MAX_SPRT_NELO:g} nElo"
                " (use model = logistic for wider Elo bounds)"
            )

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1 - self.beta) / self.alpha)

    def _llr(self, scores: Sequence[float], counts: Sequence[int], penta: bool) -> float:
        values = [float(c) if c else REGULARIZE for c in counts]
        total = sum(values)
        probs = [v / total for v in values]
        if self.model == "normalized":
            factor = math.sqrt(2.0) if penta else 1.0
            p0 = _mle_with_t(scores, probs, factor * self.elo0 / NELO_SCALE)
            p1 = _mle_with_t(scores, probs, factor * self.elo1 / NELO_SCALE)
        else:
            p0 = _mle_with_mean(scores, probs, elo_to_score(self.elo0))
            p1 = _mle_with_mean(scores, probs, elo_to_score(self.elo1))
        return total * sum(
            q * (math.log(b) - math.log(a)) for q, a, b in zip(probs, p0, p1, strict=True)
        )

    def llr_wdl(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio of a trinomial (W/D/L) result."""
        return self._llr((0.0, 0.5, 1.0), (losses, draws, wins), penta=False)

    def llr_pentanomial(self, penta: Pentanomial) -> float:
        """The log-likelihood ratio of a pentanomial result."""
        merged = (penta.ll, penta.ld, penta.even, penta.wd, penta.ww)
        return self._llr(PAIR_SCORES, merged, penta=True)

    def decision(self, llr: float) -> str | None:
        """``"H1"`` (at or above ``upper``), ``"H0"`` (at or below ``lower``), else None."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


# --- Plackett–Luce -----------------------------------------------------------------------


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
    index = {name: i for i, name in enumerate(entrants)}
    n = len(entrants)
    counts = [0] * n
    wins = [prior / 2] * n
    # Stages aggregated by their set of unplaced entrants: the MM update and the
    # information only depend on the set, so thousands of games cost a few sets.
    sets: dict[tuple[int, ...], float] = {}
    seen: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {}
    for names, ranks in games:
        if len(names) < 2 or len(ranks) != len(names):
            continue
        for name in names:
            counts[index[name]] += 1
        key = (tuple(names), tuple(ranks))
        seen[key] = seen.get(key, 0) + 1
    for (names, ranks), times in seen.items():
        for ordering, weight in _orderings(names, ranks):
            ids = [index[name] for name in ordering]
            for i in range(len(ids) - 1):
                wins[ids[i]] += weight * times
                remaining = tuple(sorted(ids[i:]))
                sets[remaining] = sets.get(remaining, 0.0) + weight * times
    stages = list(sets.items())
    gamma = [1.0] * n
    # Hunter's MM iterations until close, then Newton steps on ln(gamma) with the
    # same information matrix as the error bars: MM alone converges linearly and
    # slowly when results are lopsided; both stop at the same maximum.
    for _ in range(max_iterations):
        new = _mm_step(stages, gamma, wins, prior)
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < NEWTON_FROM:
            break
    for _ in range(NEWTON_STEPS):
        step = _newton_step(stages, gamma, wins, prior)
        if step is None or max(abs(d) for d in step) < tolerance:
            break
        gamma = _damped(stages, gamma, wins, prior, step)
    theta = [math.log(g) for g in gamma]
    info = _information(stages, gamma, prior, n)
    covariance = _covariance(info, prior, n)
    mean = sum(theta) / n
    ratings = []
    for k, name in enumerate(entrants):
        variance = covariance[k][k] if covariance is not None else math.inf
        error = Z95 * math.sqrt(variance) * ELO_PER_NATURAL if variance >= 0 else math.inf
        ratings.append(Rating(name, (theta[k] - mean) * ELO_PER_NATURAL, error, counts[k]))
    return ratings


NEWTON_FROM = 1e-3
"""MM hands over to Newton once no ln(gamma) moves more than this per iteration."""
NEWTON_STEPS = 50


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
    # Centre: C Σ C with C = I - J/n.
    row_means = [sum(row) / n for row in inverse]
    col_means = [sum(inverse[i][j] for i in range(n)) / n for j in range(n)]
    grand = sum(row_means) / n
    return [
        [inverse[i][j] - row_means[i] - col_means[j] + grand for j in range(n)] for i in range(n)
    ]
