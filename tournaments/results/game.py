"""A finished game as a tournament knows it: the ``GameReport`` and its JSON form.

The one value that travels from where a game is played (a slot, a worker process, a
Dask worker) to the runner, the journal and every table and page built from it.
Pure data: no trio, no files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import repeat
from operator import mul, truediv
from typing import Any

from referee.core import Outcome, Termination
from referee.results import runner_fault


@dataclass(frozen=True, slots=True)
class GameReport:
    """One played game as the runner sees it."""

    number: int
    round: int
    block: int
    table: tuple[int, ...]
    """Entrant index per seat."""
    seats: tuple[str, ...]
    """Entrant name per seat."""
    outcome: Outcome
    plies: int
    record: str
    """The game's ``.tgn`` text."""
    overheads: tuple[float, ...] = ()
    """Referee seconds between each reply and the next request (parse, check, clock)."""
    round_trips: tuple[float, ...] = ()
    """Seconds charged per move (request written to reply read)."""
    transcript: str = ""
    """The store that holds the game's transcript block, or empty when none was kept."""

    @property
    def void(self) -> bool:
        """True when the game is not to be scored."""
        return self.outcome.termination is Termination.VOID

    @property
    def runner_fault(self) -> bool:
        """True when the game is void because the referee itself was late
        (``referee.results.RUNNER_LATE``), not because of an engine."""
        return runner_fault(self.outcome)

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """A JSON-able dict (times in whole microseconds; left out without ``timings``)."""
        data = {
            "number": self.number,
            "round": self.round,
            "block": self.block,
            "table": list(self.table),
            "seats": list(self.seats),
            "outcome": outcome_to_json(self.outcome),
            "plies": self.plies,
            "record": self.record,
        }
        if self.transcript:
            data["transcript_path"] = self.transcript
        if timings:
            # map in C: a game's timings are one or two numbers per ply
            data["overheads_us"] = list(map(round, map(mul, self.overheads, repeat(1e6))))
            data["round_trips_us"] = list(map(round, map(mul, self.round_trips, repeat(1e6))))
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameReport:
        """The inverse of ``to_json``."""
        return cls(
            number=int(data["number"]),
            round=int(data["round"]),
            block=int(data["block"]),
            table=tuple(int(i) for i in data["table"]),
            seats=tuple(str(s) for s in data["seats"]),
            outcome=outcome_from_json(data["outcome"]),
            plies=int(data["plies"]),
            record=str(data["record"]),
            overheads=tuple(map(truediv, data.get("overheads_us", ()), repeat(1e6))),
            round_trips=tuple(map(truediv, data.get("round_trips_us", ()), repeat(1e6))),
            transcript=str(data.get("transcript_path", "")),
        )


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """An outcome as a JSON-able dict."""
    return {
        "termination": outcome.termination.value,
        "ranks": list(outcome.ranks),
        "scores": list(outcome.scores),
        "culprit": outcome.culprit,
        "reason": outcome.reason,
    }


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    """The inverse of ``outcome_to_json``.

    :raises ValueError: an unknown termination.
    """
    culprit = data.get("culprit")
    return Outcome(
        termination=Termination(data["termination"]),
        ranks=tuple(int(r) for r in data["ranks"]),
        scores=tuple(float(s) for s in data.get("scores", ())),
        culprit=int(culprit) if culprit is not None else None,
        reason=str(data.get("reason", "")),
    )
