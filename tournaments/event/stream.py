"""The event stream: what happens in a tournament, one JSON object per event.

One vocabulary for every consumer: the live feed of a game in play
(``store.live_feed``, read by the live page and by ``--events``) writes its lines with
``game_started`` and ``move_line``, and ``referee tournament --events FILE|-``
(``runner.events``) writes every event with the builders here. Every object carries
``"v": VERSION`` and ``"type"``; the pydantic models of ``stream_models`` are the schema
(``Event``, ``schema()``), documented in ``tournaments/README.md`` ("Event stream"); the
builders here are plain dicts, so producing an event costs no validation (tests validate
against the models), and a process that writes events (a worker) never builds the models.

Versioning: adding an optional key keeps the version; removing or changing a key, or
changing what a key means, raises it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from referee.results import result_text

if TYPE_CHECKING:
    from referee.core import AnyGame
    from tournaments.results.game import GameReport
    from tournaments.results.summary import Summary

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
    from tournaments.results.summary import standing_json  # the runner's: not a worker's

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
