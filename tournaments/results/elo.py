"""Two-player Elo from game results: the estimates cutechess and fastchess print.

Pure functions of the counts; nothing here reads games or prints.

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

A perfect or null score gives an infinite Elo; an interval that reaches a score of
0 or 1 gives an infinite (never nan) error bar. Both return None without games.
The SPRT on the same counts is ``tournaments.results.sprt``; three or more seats are
``tournaments.results.plackett_luce``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.959964…"""
NELO_SCALE = 800 / math.log(10)
"""nElo per standard deviation of the score."""


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
