"""What a game slot needs, as small JSON-able values: ``SlotSetup`` once, a ``Job`` per game.

Plain frozen dataclasses of plain values: they travel to worker processes and Dask
tasks through the one generic codec (``event.wire``: ``to_json(setup)``,
``from_json(SlotSetup, data)``), so a field added here, or to ``EngineSpec``,
``TimeControl`` or ``SandboxSettings``, needs no serialisation code. Kept free of
pydantic and of the schedule so a worker process imports little.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import AnyGame
from referee.registry import make_game
from referee.score_rules import ScoreRules


@dataclass(frozen=True, slots=True)
class Job:
    """One game for a slot to play."""

    number: int
    round: int
    block: int
    table: tuple[int, ...]
    """Entrant index per seat."""
    seed: int
    """The game seed sent to the engines."""
    opening: tuple[str, ...] = ()
    """Opening moves (already in ``start``)."""
    start: str | None = None
    """Encoded start position, None for the initial one."""


@dataclass(frozen=True, slots=True)
class SlotSetup:
    """Everything a game slot needs, in any process."""

    game: str
    options: tuple[tuple[str, str], ...]
    players: int
    entrants: tuple[EngineSpec, ...]
    tc: TimeControl
    max_plies: int
    adjudication: ScoreRules | None
    """Score adjudication (``referee.score_rules``), or None."""
    start_timeout: float
    event: str
    out: str | None
    """Output directory for transcripts (``logs/``), or None for none."""
    transcripts: str
    """``all``, ``failures`` or ``none``."""
    live: bool = False
    """Publish each game in play for ``referee serve`` (``store.live_feed``)."""
    wait: float = 0.0
    """Seconds a slot waits between two of its games (``--wait``; cutechess's ``-wait``)."""
    tcs: tuple[TimeControl, ...] = ()
    """Each entrant's own time control (time odds), in entrant order; empty when every
    entrant plays ``tc``."""
    feed_moves: bool = True
    """With ``live``: the feed carries the moves (not only the ``game_started`` line)."""
    keep_feed: bool = False
    """With ``live``: a finished game's feed is left for the runner's event stream
    (``--events``: ``runner.events`` reads and removes it)."""
    transcript_file: str | None = None
    """The one file every slot appends its transcripts to instead of ``out``'s ``logs/``
    (``referee play``'s ``NAME.transcripts.log``), or None."""

    def seat_controls(self, table: tuple[int, ...]) -> tuple[TimeControl, ...]:
        """The time control of each seat of a game whose seats hold ``table``'s entrants."""
        return tuple(self.tcs[i] if self.tcs else self.tc for i in table)

    def make_game(self) -> AnyGame:
        """The rules object."""
        return make_game(self.game, dict(self.options))
