"""A tournament's output directory read as an event: its header and its finished games.

``referee standings`` and ``referee report`` both read a directory this way, so they
always agree on what the event is, and on every error a directory can cause.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.errors import RulesError
from tournaments.play.journal import JournalError, read_journal
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo


@dataclass(frozen=True, slots=True)
class Event:
    """A tournament directory as the tables and the report see it."""

    directory: Path
    info: EventInfo
    games: tuple[GameReport, ...]
    """The finished (scored) games in journal order."""


def read_event(directory: Path) -> Event:
    """The event in ``directory`` (a tournament's ``--out``), also while it runs.

    :raises JournalError: no journal, an unreadable one, or an unreadable header.
    """
    try:
        state = read_journal(directory)
    except OSError as exc:
        raise JournalError(f"cannot read {directory}: {exc.strerror or exc}") from None
    if state.info is None:
        raise JournalError(f"{directory} holds no tournament (no journal.jsonl)")
    try:
        info = EventInfo.from_json(state.info)
    except (KeyError, TypeError, ValueError, RulesError) as exc:
        raise JournalError(f"{directory}: unreadable tournament header: {exc}") from None
    return Event(directory, info, tuple(state.games.values()))
