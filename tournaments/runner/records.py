"""Recording finished games: the journal in synced groups (``Recorder``),
``results.json`` (``ResultsFile``), and what a run played (``GamesPlayed``: counted alike by
a tournament's run and a match)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import trio

from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, summarize_counts
from tournaments.results.tables import render
from tournaments.store.journal import write_atomic, write_failed
from tournaments.store.writer import Journal

if TYPE_CHECKING:  # slots open the games; records only hands their reports on
    from tournaments.event.jobs import Job
    from tournaments.runner.slots import PlayAll


@dataclass(kw_only=True)
class GamesPlayed:
    """What a run played, counted the same way by a tournament's run
    (``runner.run.RunResult``) and a match (``runner.match.MatchResult``)."""

    played: list[GameReport] = field(default_factory=list)
    """Games finished by this run, in finishing order (empty unless kept: ``count``)."""
    played_count: int = 0
    """Games finished by this run."""
    voids: int = 0
    """Void games in this run (each was played again)."""
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness (no engine blamed)."""
    startup: float = 0.0
    """Seconds to open the slots (start workers)."""
    wall: float = 0.0
    """Seconds from the slots being ready to the last game."""

    def count(self, report: GameReport, *, keep: bool) -> bool:
        """Count a finished game, or a void attempt; ``keep``: keep a finished game's
        report in ``played``. Whether the game counted as finished (not void)."""
        if report.void:
            self.voids += 1
            self.runner_voids += report.runner_fault
            return False
        self.played_count += 1
        if keep:
            self.played.append(report)
        return True


class ResultsFile:
    """``results.json``: rewritten from a copy of the journal's counts (``Journal.counts``:
    a cost that does not grow with the games).

    The tables are computed and the file written in a thread, never in the event loop:
    a field of 10,000 entrants takes seconds to lay out, and a loop busy that long
    would hold up the games' replies and a stop signal. A cancelled write abandons its
    thread (the file is replaced whole by a rename, or not at all).
    """

    def __init__(self, path: Path, info: EventInfo, journal: Journal) -> None:
        self.path = path
        self.info = info
        self.journal = journal
        self.cost = 0.0
        """Seconds the last rewrite took."""
        self.written = -1
        """Games counted at the last rewrite."""
        self.lock = trio.Lock()
        self.file_lock = threading.Lock()
        """Held by the thread that writes: a cancelled write's thread runs on, abandoned,
        and the next write must not share its temporary file."""

    async def write(self) -> None:
        """Rewrite the file from the counts as they are now.

        :raises OutputError: the file cannot be written (a full disk: the journal holds
            the games).
        """
        counts = self.journal.counts.copy()  # the loop goes on adding games to its own
        async with self.lock:
            start = time.monotonic()
            voids = (self.journal.voids, self.journal.runner_voids)
            await trio.to_thread.run_sync(self._write, counts, voids, abandon_on_cancel=True)
            self.cost = time.monotonic() - start
            self.written = counts.done

    def _write(self, counts: Counts, voids: tuple[int, int] = (0, 0)) -> None:
        summary = summarize_counts(self.info, counts)
        summary = replace(summary, voids=voids[0], runner_voids=voids[1])
        text = render(summary, "json")
        with self.file_lock:
            try:
                write_atomic(self.path, text)
            except OSError as exc:  # a full disk: stop cleanly, the journal holds the games
                raise write_failed(self.path, exc) from None

    async def run(self, every: float) -> None:
        """Rewrite the file whenever games were journaled, at most every ``every``
        seconds and ten times what the last rewrite took (a huge event is not slowed);
        runs until cancelled."""
        while True:
            await trio.sleep(max(every, 10 * self.cost))
            if self.journal.counts.done != self.written:
                await self.write()


BACKLOG = 64
"""Reports submitted but not yet recorded before the slots wait (``Recorder.ready``)."""
SYNC_INTERVAL = 0.05
"""Least seconds from the start of one group's write to the next (``Recorder.run``)."""


class Recorder:
    """Records game reports off the game slots' path, in groups: a tournament's in its
    journal (``journal_recorder``), a match's in its record file (``runner.match``).

    ``submit`` never blocks a slot: reports queue up, and one task hands whatever has
    queued to ``write`` at once (for the journal: one ``fsync``, a group commit), then
    calls ``after`` for each, in the order they came. A game is finished once its group
    is synced, exactly as when each game is synced alone; at high game rates the disk's
    sync latency is paid once per group instead of per game.

    ``write`` runs the write and its sync in a thread: a sync takes milliseconds (4 ms typical,
    15 ms at worst on a shared 2-core VM), longer than a fast game, and this loop also
    hands the next jobs to the worker processes; blocked in the sync, it left them idle
    (25% fewer plies per second at concurrency 2 with instant engines).

    Groups start at most every ``SYNC_INTERVAL`` seconds: when games end faster than
    that, the reports of the interval wait and go in one group. Each group costs a
    thread hop, a write per file and a sync, whatever its size: with instant engines
    (hundreds of games a second) groups of one or two games cost the runner more CPU
    per ply than all of its other work (measured: 330–700 µs of CPU a game in groups
    of one, 100 µs in groups of ten). A report waits at most the interval; slower games
    never wait, nor does ``flush`` (the end of a run or of a Swiss round) or a full
    backlog. Durability is unchanged: a game counts as finished once its group is
    synced, and until then it is a game in flight (an interrupted run plays it again).
    """

    def __init__(
        self,
        write: Callable[[list[GameReport]], Awaitable[None]],
        after: Callable[[GameReport], None],
    ) -> None:
        self.write = write
        self.after = after
        self.send, self.receive = trio.open_memory_channel[GameReport](math.inf)
        self.submitted = 0
        self.recorded = 0
        self.progress = trio.Event()
        self._pause: trio.CancelScope | None = None
        """The wait for the interval to pass, while one runs (``flush`` ends it)."""
        self._hurry = False
        """Set by ``flush``: write what is queued without waiting for the interval."""

    async def ready(self) -> None:
        """Return once fewer than ``BACKLOG`` submitted reports wait to be recorded.

        The game slots wait here before each new game: with games faster than the
        disk's syncs (or in-process players that keep this thread busy) the queue would
        otherwise grow without bound, and an SPRT would decide hundreds of games late.
        """
        while self.submitted - self.recorded >= BACKLOG:
            if self._pause is not None:
                self._pause.cancel()  # a full group: write it now
            await self.progress.wait()

    def submit(self, report: GameReport) -> None:
        self.submitted += 1
        self.send.send_nowait(report)

    async def run(self) -> None:
        last = -math.inf  # when the last group's write began
        async with self.receive:
            async for report in self.receive:
                pause = last + SYNC_INTERVAL - trio.current_time()
                if pause > 0 and not self._hurry:
                    # Games end fast: gather what ends meanwhile into this group.
                    with trio.CancelScope(deadline=trio.current_time() + pause) as self._pause:
                        await trio.sleep_forever()
                    self._pause = None
                last = trio.current_time()
                batch = [report]
                while True:
                    try:
                        batch.append(self.receive.receive_nowait())
                    except trio.WouldBlock:
                        break
                await self.write(batch)
                for item in batch:
                    self.recorded += 1
                    self.after(item)
                self.progress.set()
                self.progress = trio.Event()

    async def record(self, play_all: PlayAll, jobs: Iterable[Job]) -> None:
        """Play ``jobs`` through ``play_all`` (``runner.slots.open_games``), every report
        submitted here, and wait until they are all recorded; when the play fails, the
        games that did finish are recorded before the error goes on (the journal, or a
        match's record file, keeps every game that finished)."""
        try:
            await play_all(jobs, self.submit, self.ready)
        except Exception:
            await self.flush()
            raise
        await self.flush()

    async def flush(self) -> None:
        """Wait until every submitted report is recorded (without the interval's wait)."""
        self._hurry = True
        try:
            if self._pause is not None:
                self._pause.cancel()
            while self.recorded < self.submitted:
                await self.progress.wait()
        finally:
            self._hurry = False

    async def close(self) -> None:
        """Record what is queued, then end ``run``."""
        await self.flush()
        self.send.close()


def journal_recorder(journal: Journal, after: Callable[[GameReport], None]) -> Recorder:
    """The recorder of a tournament: each group written to ``journal`` and synced in a
    thread (``Journal.write_batch``), then each game counted (``Journal.note``) before
    ``after`` is called with it."""

    async def write(batch: list[GameReport]) -> None:
        await trio.to_thread.run_sync(journal.write_batch, batch)

    def noted(report: GameReport) -> None:
        journal.note([report])
        after(report)

    return Recorder(write, noted)
