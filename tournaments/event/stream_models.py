"""The event stream's schema: one pydantic model per event type of ``stream`` (version
``stream.VERSION``), ``parse_event`` to validate a line and ``schema()`` for
``docs/events.schema.json``.

Apart from the builders (``stream``), so the processes that write events (the runner, a
worker's live feed) never build these models; the tests and a consumer validate with them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Model(BaseModel):
    # Extra keys are allowed: a consumer of version 1 must accept optional keys added later.
    model_config = ConfigDict(extra="allow", strict=True)

    v: Literal[1]
    time: str | None = None


class TournamentStarted(_Model):
    type: Literal["tournament_started"]
    event: str
    game: str
    players: int
    format: str
    entrants: list[str]
    total: int
    """Games scheduled (a knockout: the most it can take)."""
    done: int
    """Games finished by earlier runs."""
    resumed: bool


class GameStarted(_Model):
    type: Literal["game_started"]
    number: int
    round: int
    seats: list[str]
    game: str
    options: dict[str, str]
    start: str | None
    """The start position's token (an opening), or None for the game's start."""
    tc: str


class SearchItems(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)

    d: int | None = None
    n: int | None = None
    s: list[int] | str | None = None
    """Each seat's share in thousandths, or ``winK`` (a forced win in K plies)."""


class Move(_Model):
    type: Literal["move"]
    number: int
    ply: int
    """Plies from the game's start, an opening's included; 1 is the first."""
    seat: int
    """0-based seat that moved."""
    move: str
    clock: float | None = None
    """The seat's time left after the move, seconds (none when untimed)."""
    t: float
    """Seconds the move took."""
    search: SearchItems | None = None


class GameFinished(_Model):
    type: Literal["game_finished"]
    number: int
    round: int
    seats: list[str]
    result: str
    ranks: list[int]
    scores: list[float]
    termination: str
    reason: str
    plies: int
    void: bool


class StandingsRow(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)

    rank: int
    name: str
    games: int
    points: float
    score: float
    wins: int
    draws: int
    losses: int


class Standings(_Model):
    type: Literal["standings"]
    done: int
    total: int
    rows: list[StandingsRow]


class TournamentFinished(_Model):
    type: Literal["tournament_finished"]
    done: int
    total: int
    complete: bool
    sprt: Literal["H0", "H1"] | None
    winner: str | None
    """A knockout's winner, else None."""


Event = Annotated[
    TournamentStarted | GameStarted | Move | GameFinished | Standings | TournamentFinished,
    Field(discriminator="type"),
]
"""Any event of version 1."""

EVENT = TypeAdapter[Event](Event)


def parse_event(line: str) -> Event:
    """Validate one line of the stream.

    :raises pydantic.ValidationError: not an event of this version.
    """
    return EVENT.validate_json(line)


def schema() -> dict[str, Any]:
    """The JSON schema of an event (``docs/events.schema.json`` holds it)."""
    return EVENT.json_schema()
