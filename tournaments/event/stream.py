"""The event stream: what happens in a tournament, one JSON object per event.

One vocabulary for every consumer: the live feed of a game in play
(``store.live_feed``, read by the live page and by ``--events``) writes its lines with
``game_started`` and ``move_line``, and ``referee tournament --events FILE|-``
(``runner.events``) writes every event with the builders here. Every object carries
``"v": VERSION`` and ``"type"``; the pydantic models below are the schema (``Event``,
``schema()``), documented in ``tournaments/README.md`` ("Event stream"); the builders are
plain dicts, so producing an event costs no validation (tests validate against the
models).

Versioning: adding an optional key keeps the version; removing or changing a key, or
changing what a key means, raises it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from referee.core import AnyGame
from referee.results import result_text
from tournaments.results.game import GameReport
from tournaments.results.summary import Summary, standing_json

VERSION = 1
"""The version of the event objects (``"v"``)."""


def now() -> str:
    """The time of an event: ISO 8601, UTC, milliseconds (``2026-11-27T08:40:00.123Z``)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _event(kind: str, **items: Any) -> dict[str, Any]:
    return {"v": VERSION, "type": kind, "time": now(), **items}


def tournament_started(
    *,
    event: str,
    game: str,
    players: int,
    format: str,
    entrants: Sequence[str],
    total: int,
    done: int,
    resumed: bool,
) -> dict[str, Any]:
    """A run starts (``resumed``: it continues a journal holding ``done`` games)."""
    return _event(
        "tournament_started",
        event=event,
        game=game,
        players=players,
        format=format,
        entrants=list(entrants),
        total=total,
        done=done,
        resumed=resumed,
    )


def game_started(
    *,
    number: int,
    round_no: int,
    seats: Sequence[str],
    game: str,
    options: Sequence[tuple[str, str]],
    start: str | None,
    tc: str,
) -> dict[str, Any]:
    """A game starts (also the header line of its live feed)."""
    return _event(
        "game_started",
        number=number,
        round=round_no,
        seats=list(seats),
        game=game,
        options=dict(options),
        start=start,
        tc=tc,
    )


def move_line(
    number: int, ply: int, seat: int, move: str, clock: str, t: float, search: str
) -> str:
    """One ``move`` event as its JSON line, formatted by hand: it is written per ply
    (``store.live_feed``). ``move`` is JSON-safe text, ``clock`` and ``search`` are the
    ready ``,"clock":…`` and ``,"search":{…}`` parts, or empty. No ``time`` key: the
    game's own ``t`` (the move's time in seconds) says what a clock would."""
    return (
        f'{{"v":{VERSION},"type":"move","number":{number},"ply":{ply},"seat":{seat},'
        f'"move":"{move}"{clock},"t":{t:.3f}{search}}}\n'
    )


def game_finished(game: AnyGame, report: GameReport) -> dict[str, Any]:
    """A game ends: scored, or void (then played again under the same number)."""
    outcome = report.outcome
    return _event(
        "game_finished",
        number=report.number,
        round=report.round,
        seats=list(report.seats),
        result=result_text(game, outcome),
        ranks=list(outcome.ranks),
        scores=list(outcome.scores),
        termination=outcome.termination.value,
        reason=outcome.reason,
        plies=report.plies,
        void=report.void,
    )


def standings(summary: Summary) -> dict[str, Any]:
    """The standings after ``done`` games (the first table of ``referee standings``)."""
    return _event(
        "standings",
        done=summary.done,
        total=summary.info.total,
        rows=[standing_json(place, row) for place, row in enumerate(summary.rows, start=1)],
    )


def tournament_finished(
    *, done: int, total: int, complete: bool, sprt: str | None, winner: str | None
) -> dict[str, Any]:
    """A run ends: ``complete`` when every game is played or the SPRT decided, else it
    was stopped (``--resume`` goes on)."""
    return _event(
        "tournament_finished", done=done, total=total, complete=complete, sprt=sprt, winner=winner
    )


def encode(event: dict[str, Any]) -> str:
    """One event as its JSON line."""
    return json.dumps(event, separators=(",", ":")) + "\n"


# --- the schema ----------------------------------------------------------------------------


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
