"""A tournament's output directory read as an event: its header and its finished games.

``referee standings`` and ``referee report`` both read a directory this way, so they
always agree on what the event is, and on every error a directory can cause.
``read_event`` holds every game in memory; ``open_event`` reads the header and then
streams the games one at a time (for events too big to hold, such as a big report).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from referee.errors import RulesError
from tournaments.event.wire import WireError, from_json
from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, Summary, summarize_counts
from tournaments.store.checkpoint import Checkpoint, header_digest, read_checkpoint
from tournaments.store.index import read_index
from tournaments.store.journal import (
    JOURNAL,
    JournalError,
    iter_journal,
    read_failed,
    read_header,
    read_journal,
)
from tournaments.store.numbers import GameNumbers


@dataclass(frozen=True, slots=True)
class Event:
    """A tournament directory as the tables and the report see it."""

    directory: Path
    info: EventInfo
    games: tuple[GameReport, ...]
    """The finished (scored) games in journal order."""
    voids: int = 0
    """Void games journaled (each played again)."""
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness."""


def read_event(directory: Path) -> Event:
    """The event in ``directory`` (a tournament's ``--out``), also while it runs.

    :raises JournalError: no journal, an unreadable one, or an unreadable header.
    """
    try:
        state = read_journal(directory)
    except OSError as exc:
        raise read_failed(directory, exc) from None
    info = _info(directory, state.info)
    games = tuple(state.games.values())
    checked = _seat_check(directory, info)
    for report in games:
        checked(report)
    return Event(directory, info, games, state.voids, state.runner_voids)


def _info(directory: Path, header: dict[str, object] | None) -> EventInfo:
    if header is None:
        # A journal whose first line is not whole (killed as it began) holds no game.
        why = "no readable first line in" if (directory / JOURNAL).exists() else "no"
        raise JournalError(f"{directory} holds no tournament ({why} {JOURNAL})")
    try:
        return from_json(EventInfo, header)
    except (KeyError, TypeError, ValueError, RulesError, WireError) as exc:
        raise JournalError(f"{directory}: unreadable tournament header: {exc}") from None


def _seat_check(directory: Path, info: EventInfo) -> Callable[[GameReport], GameReport]:
    """A check that returns a report if every seat of it is an entrant of the header
    (the tables have a row and a column for each entrant only: a journal edited by hand,
    or pieced together from two events, made them fail with a ``KeyError``).

    The check raises ``JournalError`` for a seat that is not an entrant.
    """
    names = frozenset(info.names)

    def checked(report: GameReport) -> GameReport:
        for seat in report.seats:
            if seat not in names:
                raise JournalError(
                    f"{directory / JOURNAL}: game {report.number} seats {seat!r}, who is not"
                    " an entrant of the journal's header: the journal is damaged"
                )
        return report

    return checked


@dataclass(frozen=True, slots=True)
class EventStream:
    """A tournament directory whose games are read one at a time (``open_event``)."""

    directory: Path
    info: EventInfo

    def games(self) -> Iterator[GameReport]:
        """The finished (scored) games in journal order, each number once (its first
        entry, as ``read_event``), read line by line: memory does not grow with the
        journal. May be called again (it reads the journal again, games added since
        included).

        :raises JournalError: an unreadable journal line (when reached) or a journal
            gone; games before it have been yielded.
        """
        seen = GameNumbers()
        checked = _seat_check(self.directory, self.info)
        try:
            for kind, value in iter_journal(self.directory / JOURNAL):
                if kind == "game" and seen.add(value.number):
                    yield checked(value)
        except OSError as exc:
            raise read_failed(self.directory, exc) from None

    def results(self) -> Iterator[GameReport]:
        """The finished games as ``games`` gives them, but without records or reasons,
        and fast: from the index (``store.index``) as far as it covers the journal, then
        from the journal's tail. What the tables need, for any size of event.

        :raises JournalError: as ``games``.
        """
        path = self.directory / JOURNAL
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise read_failed(self.directory, exc) from None
        seen = GameNumbers()
        checked = _seat_check(self.directory, self.info)
        covered = 0
        for item in read_index(self.directory, self.info.names, size):
            if isinstance(item, int):
                covered = item
            elif seen.add(item.number):
                yield checked(item)
        if covered == 0:
            for report in self.games():  # no usable index: the whole journal
                yield without_record(report)
            return
        try:
            for kind, value in iter_journal(path, start=covered):
                if kind == "game" and seen.add(value.number):
                    yield without_record(checked(value))
        except OSError as exc:
            raise read_failed(self.directory, exc) from None

    def counts(self) -> Counts:
        """The tables' counts of the finished games (``tournaments.results.counts``): from
        the runner's checkpoint (``store.checkpoint``) and the journal after it, or, without
        a usable checkpoint, from ``results``. Memory and time grow with the games the
        checkpoint does not cover, not with the event (a finished event: neither).

        :raises JournalError: as ``games``.
        """
        return self.tally().counts

    def tally(self) -> Tally:
        """``counts`` and the void games journaled (each played again), those the
        referee's own lateness voided among them: the checkpoint's and the journal's
        after it; without a usable checkpoint, the voids are counted over the whole
        journal (read once more, line by line).

        :raises JournalError: as ``games``.
        """
        path = self.directory / JOURNAL
        try:
            header = read_header(path)
            size = path.stat().st_size
        except OSError as exc:
            raise read_failed(self.directory, exc) from None
        state = None
        if header is not None:
            state = read_checkpoint(self.directory, header_digest(header[2]), size)
        if state is None or state.counts.names != self.info.names:
            counts = Counts(self.info.names, self.info.paired)
            for report in self.results():
                counts.add(report)
            return Tally(counts, *self._voids(0))
        voids, runner_voids = self._voids(state.end, state)
        return Tally(state.counts, state.voids + voids, state.runner_voids + runner_voids)

    def summary(self) -> Summary:
        """The event's tables (``summarize_counts`` of ``tally``) with its void counts.

        :raises JournalError: as ``games``.
        """
        tally = self.tally()
        summary = summarize_counts(self.info, tally.counts)
        return replace(summary, voids=tally.voids, runner_voids=tally.runner_voids)

    def _voids(self, start: int, games: Checkpoint | None = None) -> tuple[int, int]:
        """Void entries of the journal from byte ``start``, and those of the runner; with
        ``games`` (a checkpoint ending at ``start``), its counts take the games found
        there too, each number once.

        :raises JournalError: as ``games``.
        """
        voids = runner_voids = 0
        checked = _seat_check(self.directory, self.info)
        try:
            for kind, value in iter_journal(self.directory / JOURNAL, start=start):
                if kind == "void":
                    voids += 1
                    runner_voids += bool(value)
                elif kind == "game" and games is not None and games.numbers.add(value.number):
                    games.counts.add(checked(value))
        except OSError as exc:
            raise read_failed(self.directory, exc) from None
        return voids, runner_voids


@dataclass(frozen=True, slots=True)
class Tally:
    """What the tables of an event need: the counts of its finished games and its voids."""

    counts: Counts
    voids: int = 0
    """Void games journaled (each played again)."""
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness."""


def without_record(report: GameReport) -> GameReport:
    """``report`` without its record and reason (what the tables do not read)."""
    return replace(report, record="", outcome=replace(report.outcome, reason=""))


def open_event(directory: Path) -> EventStream:
    """The event in ``directory`` with its header read and its games not yet.

    :raises JournalError: as ``read_event``.
    """
    header: dict[str, object] | None = None
    try:
        for kind, value in iter_journal(directory / JOURNAL):
            if kind == "tournament":
                header = value["info"]
            break
    except FileNotFoundError:
        header = None
    except OSError as exc:
        raise read_failed(directory, exc) from None
    return EventStream(directory, _info(directory, header))
