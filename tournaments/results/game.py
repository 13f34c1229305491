"""A finished game as a tournament knows it: the ``GameReport``.

The one value that travels from where a game is played (a slot, a worker process, a
Dask worker) to the runner, the journal and every table and page built from it.
Pure data: no trio, no files, and no JSON of its own: it travels, and is journaled,
as the one generic codec writes it (``tournaments.event.wire``; the journal's line is
``tournaments.store.journal.game_line``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import mul, truediv
from typing import Annotated, Any

from referee.core import Outcome, Termination
from referee.results import runner_fault


class Microseconds:
    """The JSON form of a tuple of seconds: whole microseconds (a ``JsonForm`` of
    ``tournaments.event.wire``). JSON writes an int five times faster than a float and
    reads it back four times faster: a game's timings are one or two numbers per ply,
    and every report crosses from its worker process to the runner."""

    @staticmethod
    def write(value: tuple[float, ...]) -> list[int]:
        """Each number of seconds rounded to the microsecond (mapped in C)."""
        return list(map(round, map(mul, value, repeat(1e6))))

    @staticmethod
    def read(data: Any) -> tuple[float, ...]:
        """The seconds of ``write``'s list (a JSON number that is not whole reads too:
        the division, in C, is the only look at each item).

        :raises TypeError: ``data`` is not a list (or tuple) of numbers.
        """
        if type(data) is not list and type(data) is not tuple:
            raise TypeError("not a list")
        return tuple(map(truediv, data, repeat(1e6)))


MICROSECONDS = Microseconds()


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
    overheads: Annotated[tuple[float, ...], MICROSECONDS] = ()
    """Referee seconds between each reply and the next request (parse, check, clock);
    in JSON whole microseconds."""
    round_trips: Annotated[tuple[float, ...], MICROSECONDS] = ()
    """Seconds charged per move (request written to reply read); in JSON whole
    microseconds."""
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
