"""The course of an event: the tables after the first k games, for a sample of k.

Pure. The games are taken in journal order (the order they finished) and each
sample is ``tournaments.report.summarize`` of that prefix, so every number on a
chart is the number the tables would have shown at that moment, computed the same
way. Summaries cost time in proportion to their games, so the number of prefixes
summarized (evenly spread, always including the last) is ``MAX_SAMPLES`` for events
of up to ``WORK // MAX_SAMPLES`` games and shrinks beyond, down to ``MIN_SAMPLES``:
a report of 20,000 games spends seconds here, not minutes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.report import EventInfo, Summary, summarize
from tournaments.slot import GameReport

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
    """The tables after the first ``games`` finished games (void ones not counted)."""

    games: int
    summary: Summary


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
    """Summaries of prefixes of the scored ``games`` (in the given order); at most
    ``max_samples`` of them (default: ``sample_count``)."""
    scored = [g for g in games if not g.void]
    count = sample_count(len(scored)) if max_samples is None else max_samples
    return [Sample(k, summarize(info, scored[:k])) for k in sample_sizes(len(scored), count)]


def points_series(samples: Sequence[Sample]) -> dict[str, list[tuple[float, float | None]]]:
    """Each entrant's tournament points after each sample, by entrant name."""
    out: dict[str, list[tuple[float, float | None]]] = {}
    for sample in samples:
        for row in sample.summary.rows:
            out.setdefault(row.name, []).append((sample.games, row.points))
    return out


def rating_series(samples: Sequence[Sample]) -> dict[str, list[tuple[float, float | None]]]:
    """The rating the tables show, per entrant: Elo against the field (two seats; None
    while it is unbounded, as after a clean sweep) or the Plackett–Luce rating."""
    out: dict[str, list[tuple[float, float | None]]] = {}
    for sample in samples:
        summary = sample.summary
        if summary.info.players == 2:
            for entry in summary.entrant_elo:
                elo = entry.elo.diff if entry.elo is not None else None
                finite = elo is not None and math.isfinite(elo)
                out.setdefault(entry.name, []).append((sample.games, elo if finite else None))
        else:
            for rating in summary.ratings:
                out.setdefault(rating.name, []).append((sample.games, rating.rating))
    return out


def llr_series(samples: Sequence[Sample]) -> list[tuple[float, float | None]]:
    """The SPRT's log-likelihood ratio after each sample (empty without an SPRT)."""
    return [(s.games, s.summary.sprt.llr) for s in samples if s.summary.sprt is not None]
