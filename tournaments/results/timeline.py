"""The course of an event: what the tables showed after the first k games, for a sample of k.

Pure. The games are taken in journal order (the order they finished). Each sample
holds the numbers the charts plot, computed on that prefix by the very functions and
in the very game order ``tournaments.results.summary.summarize`` uses (``standings``,
``elo_wdl``, ``plackett_luce``; ``summarize`` itself for the SPRT), so every number on
a chart is the number the tables would have shown at that moment. Only those numbers
are computed: a whole summary per sample would fit Plackett–Luce ratings that a
two-seat chart never shows, most of the cost of a report's charts. Summaries cost
time in proportion to their games, so the number of prefixes summarized (evenly
spread, always including the last) is ``MAX_SAMPLES`` for events of up to
``WORK // MAX_SAMPLES`` games and shrinks beyond, down to ``MIN_SAMPLES``: a report
of 20,000 games spends seconds here, not minutes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.results.elo import elo_wdl
from tournaments.results.game import GameReport
from tournaments.results.plackett_luce import plackett_luce
from tournaments.results.standings import standings
from tournaments.results.summary import EventInfo, summarize

MAX_SAMPLES = 120
"""Most prefixes summarized."""
MIN_SAMPLES = 20
"""Fewest prefixes summarized (when there are that many games)."""
WORK = 250_000
"""Games summarized in all, at most, unless that leaves fewer than ``MIN_SAMPLES``."""


def sample_count(games: int) -> int:
    """How many prefixes of ``games`` games to summarize."""
    return max(MIN_SAMPLES, min(MAX_SAMPLES, WORK // max(1, games)))


@dataclass(frozen=True, slots=True)
class Sample:
    """The charted numbers after the first ``games`` finished games (void ones not
    counted)."""

    games: int
    points: tuple[tuple[str, float], ...]
    """Tournament points per entrant, in standings order."""
    ratings: tuple[tuple[str, float | None], ...]
    """The rating the tables show per entrant: Elo against the field (two seats; None
    while it is unbounded, as after a clean sweep) or the Plackett–Luce rating."""
    llr: float | None
    """The SPRT's log-likelihood ratio (None without an SPRT)."""


def sample_sizes(count: int, max_samples: int = MAX_SAMPLES) -> list[int]:
    """Prefix lengths 1..count, at most ``max_samples`` of them, evenly spread, with count."""
    if count <= 0:
        return []
    if count <= max_samples:
        return list(range(1, count + 1))
    return sorted({max(1, round(i * count / max_samples)) for i in range(1, max_samples + 1)})


def timeline(
    info: EventInfo, games: Sequence[GameReport], max_samples: int | None = None
) -> list[Sample]:
    """Samples of prefixes of the scored ``games`` (in the given order); at most
    ``max_samples`` of them (default: ``sample_count``)."""
    scored = [g for g in games if not g.void]
    count = sample_count(len(scored)) if max_samples is None else max_samples
    return [sample(info, scored[:k], k) for k in sample_sizes(len(scored), count)]


def sample(info: EventInfo, games: Sequence[GameReport], count: int) -> Sample:
    """The charted numbers of ``games`` (the first ``count`` scored ones), as
    ``summarize`` would compute them."""
    # summarize's own selection and order: sums and fits come out bit for bit the same
    scored = [g for g in games if not g.void and len(g.outcome.ranks) == len(g.seats)]
    scored.sort(key=lambda g: g.number)
    rows = standings(((g.seats, g.outcome) for g in scored), info.names, info.points_table)
    ratings: list[tuple[str, float | None]] = []
    if info.players == 2:
        for row in rows:
            elo = elo_wdl(row.wins, row.draws, row.losses)
            diff = elo.diff if elo is not None else None
            ratings.append((row.name, diff if diff is not None and math.isfinite(diff) else None))
    else:
        fitted = plackett_luce([(g.seats, g.outcome.ranks) for g in scored], info.names)
        ratings = [(r.name, r.rating) for r in fitted]
    llr = None
    if info.sprt is not None and len(info.names) == 2:
        status = summarize(info, scored).sprt  # rare, and its pentanomial logic is summarize's
        llr = status.llr if status is not None else None
    return Sample(count, tuple((row.name, row.points) for row in rows), tuple(ratings), llr)


def points_series(samples: Sequence[Sample]) -> dict[str, list[tuple[float, float | None]]]:
    """Each entrant's tournament points after each sample, by entrant name."""
    out: dict[str, list[tuple[float, float | None]]] = {}
    for s in samples:
        for name, points in s.points:
            out.setdefault(name, []).append((s.games, points))
    return out


def rating_series(samples: Sequence[Sample]) -> dict[str, list[tuple[float, float | None]]]:
    """The rating the tables show, per entrant (see ``Sample.ratings``)."""
    out: dict[str, list[tuple[float, float | None]]] = {}
    for s in samples:
        for name, rating in s.ratings:
            out.setdefault(name, []).append((s.games, rating))
    return out


def llr_series(samples: Sequence[Sample]) -> list[tuple[float, float | None]]:
    """The SPRT's log-likelihood ratio after each sample (empty without an SPRT)."""
    return [(s.games, s.llr) for s in samples if s.llr is not None]
