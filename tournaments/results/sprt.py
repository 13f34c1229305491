"""The generalised SPRT of a two-player match, on W/D/L or pentanomial counts.

The method is Michel Van den Bergh's ("Comments on Normalized Elo",
https://www.cantate.be/Fishtest/normalized_elo_practical.pdf): the log-likelihood
ratio of the maximum-likelihood result distributions with the expected score
(``logistic``) or the normalised Elo (``normalized``) fixed at ``elo0`` and
``elo1``; bounds ``ln(β/(1-α))`` and ``ln((1-β)/α)``. Empty categories count as
0.001 (as fastchess does), so the first games give finite values.

``Sprt`` validates its bounds on construction (``ValueError``) and is otherwise a
pure function of the counts: it neither stores results nor decides when to stop
a tournament (``tournaments.runner.run`` does, with ``Sprt.decision``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.results.elo import NELO_SCALE, PAIR_SCORES, Pentanomial, elo_to_score

REGULARIZE = 1e-3
"""The count an empty result category gets in the SPRT (fastchess's value)."""


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
