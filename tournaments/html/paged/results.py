"""The finished games as the tables and the charts need them, kept in little memory while
a big event streams past (pure).

``GameResults`` keeps per game only what ``summarize`` and ``timeline`` read (number,
round, block, seats and table, and the outcome without its reason) in arrays of
machine integers, the seats and outcomes once each: about 40 bytes a game, where a
``GameReport`` object with its numbers takes about 200 and, kept among the parsed
journal lines that come and go, pins several times that in fragmented heap. The
reports are made again, record- and reason-less, when the tables are computed.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from tournaments.results.game import GameReport

LIMIT = 1 << 16
"""Distinct seatings and outcomes kept once; a rarer one beyond is kept per game."""


class _Values:
    """Values numbered in order of first sight (up to ``LIMIT`` shared)."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._index: dict[Any, int] = {}

    def number(self, value: Any) -> int:
        index = self._index.get(value)
        if index is None:
            index = len(self.values)
            self.values.append(value)
            if len(self._index) < LIMIT:
                self._index[value] = index
        return index


class GameResults:
    """Games added in journal order, given back as record- and reason-less reports."""

    def __init__(self) -> None:
        self._numbers = array("q")
        self._rounds = array("q")
        self._blocks = array("q")
        self._plies = array("q")
        self._seatings = array("l")
        self._outcomes = array("l")
        self._seating = _Values()
        self._outcome = _Values()

    def add(self, report: GameReport) -> None:
        """Keep what the tables need of ``report``."""
        self._numbers.append(report.number)
        self._rounds.append(report.round)
        self._blocks.append(report.block)
        self._plies.append(report.plies)
        self._seatings.append(self._seating.number((report.table, report.seats)))
        self._outcomes.append(self._outcome.number(replace(report.outcome, reason="")))

    def __len__(self) -> int:
        return len(self._numbers)

    def __iter__(self) -> Iterator[GameReport]:
        seatings, outcomes = self._seating.values, self._outcome.values
        for number, round_, block, plies, seating, outcome in zip(
            self._numbers,
            self._rounds,
            self._blocks,
            self._plies,
            self._seatings,
            self._outcomes,
            strict=True,
        ):
            table, seats = seatings[seating]
            yield GameReport(number, round_, block, table, seats, outcomes[outcome], plies, "")
