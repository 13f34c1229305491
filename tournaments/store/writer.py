"""``Journal``: an open output directory that a runner appends finished games to.

The format of the files is ``tournaments.store.journal``'s. Here they are written:
each batch of games goes to ``journal.jsonl`` in one write and one ``fsync`` (then the
games count as finished), then their records to ``games.tgn`` and their lines to
``index.jsonl``. The journal keeps what the runner needs of its games in memory that
does not grow with them (``numbers``: which games are finished; ``counts``: the
tables' counts, ``tournaments.results.counts``) and writes them every
``CHECKPOINT_INTERVAL`` seconds and on close as the checkpoint ``tally.json``
(``tournaments.store.checkpoint``).

Resuming (``Journal.open(resume=True)``) reads the header line, the checkpoint and the
index's last line, and then only the journal after what they cover: from the
checkpoint's ``end`` the games are counted and their records appended to ``games.tgn``
(cut first to the checkpoint's ``games_end``: a killed run may have appended part of a
record, or records of games it had not checkpointed yet); from the index's last trusted
line the games are indexed again. Without a usable checkpoint (none, stale, another
journal's, or ``games.tgn`` shorter than it says) the whole journal is read that way, one
line at a time, and ``games.tgn`` rewritten from it. Either way ``games.tgn`` ends up
holding each finished game's record once, in journal order, and nothing else.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.store.checkpoint import (
    Checkpoint,
    header_digest,
    read_checkpoint,
    remove_checkpoint,
    write_checkpoint,
)
from tournaments.store.index import INDEX, append_index, index_line, index_tail, write_index
from tournaments.store.journal import (
    GAMES,
    JOURNAL,
    JOURNAL_VERSION,
    JournalError,
    check_writable,
    config_difference,
    game_line,
    hold_lock,
    iter_entries,
    read_header,
    write_all,
    write_failed,
)

CHECKPOINT_INTERVAL = 2.0
"""Seconds between checkpoints while games are journaled."""
CHUNK = 1 << 20
"""Bytes of records or index lines gathered before a write while resuming."""
FLAGS = os.O_WRONLY | os.O_CREAT | os.O_APPEND
"""How the journal, ``games.tgn`` and ``index.jsonl`` are opened: appended to."""


class Journal:
    """An open output directory: appends games to ``journal.jsonl`` and ``games.tgn``.

    Use ``with Journal.open(directory, config, info, resume=...) as journal``; the lock
    is held for the block.
    """

    def __init__(self, directory: Path, checkpoint: Checkpoint) -> None:
        self.directory = directory
        self.digest = ""
        """The header's digest (``header_digest``), once begun."""
        self.counts = checkpoint.counts
        """The tables' counts of the finished games (updated by ``note``)."""
        self.numbers = checkpoint.numbers
        """Numbers of the finished games (``in`` and ``len``)."""
        self.voids = checkpoint.voids
        """Void games journaled (each was, or will be, played again)."""
        self.runner_voids = checkpoint.runner_voids
        """Of ``voids``, those voided by the referee's own lateness (``runner_fault``)."""
        self._journal_fd = self._games_fd = self._index_fd = -1
        self._size = checkpoint.end
        """The journal's length (the ``end`` of the next index line is past it)."""
        self._games_size = checkpoint.games_end
        self._noted = (checkpoint.end, checkpoint.games_end)
        """(journal end, games.tgn end) after the last game counted by ``note``."""
        self._pending: deque[tuple[int, int, bool]] = deque()
        """Per written, not yet noted report: its ends and whether it is new."""
        self._checkpointed = time.monotonic()
        self._start: tuple[dict[str, Any], dict[str, Any]] | None = None
        """The config and info of a new journal's header, until ``begin`` writes it."""

    @property
    def begun(self) -> bool:
        """Whether the journal's header is on disk (a resumed one's always is)."""
        return self._start is None

    @classmethod
    @contextlib.contextmanager
    def open(
        cls,
        directory: Path,
        config: Mapping[str, Any],
        info: Mapping[str, Any],
        *,
        resume: bool,
        begin: bool = True,
    ) -> Iterator[Journal]:
        """Start (``resume=False``) or continue a tournament in ``directory``.

        Starting needs a directory without a journal; resuming needs one whose
        header holds ``config`` (compared as JSON, ignoring ``concurrency``,
        ``workers``, ``out`` and ``cluster``), and mends the directory at once. The
        checkpoint is written on close.

        ``begin=False`` defers a new journal's header (and its empty ``games.tgn``,
        ``index.jsonl`` and checkpoint) to ``begin()``: until then the directory holds
        only its lock, so a run that cannot start its games (a cluster out of reach, a
        worker that does not start) leaves nothing that a fresh run would refuse.

        :raises JournalError: a started tournament without ``resume``, a different
            config, a missing journal on resume, an unreadable journal line before
            the last, or the lock held elsewhere; ``OutputError`` for a file of the
            directory that cannot be opened or mended.
        """
        check_writable(directory)
        with hold_lock(directory):
            path = directory / JOURNAL
            # A journal without a complete header line (killed while writing it) holds
            # no game: it counts as absent, and a fresh start replaces it.
            header = read_header(path)
            if header is not None and not resume:
                raise JournalError(
                    f"{directory} already holds a tournament: use --resume to continue it, "
                    "or choose another --out"
                )
            if resume and header is None:
                raise JournalError(f"nothing to resume: {directory} has no {JOURNAL}")
            if header is not None:
                differs = config_difference(header[0], config)
                if differs:
                    raise JournalError(
                        f"the configuration differs from the one {directory} was started "
                        f"with ({differs}); resume with the same settings"
                    )
            counts = Counts(tuple(info["names"]), bool(info.get("paired", False)))
            journal = cls(directory, Checkpoint(counts, 0))
            try:
                if header is not None:
                    journal._resume(header[2])
                else:
                    journal._start = (dict(config), dict(info))
                    if begin:
                        journal.begin()
                yield journal
                if journal.begun:
                    journal.checkpoint()
            finally:
                journal._close()

    def begin(self) -> None:
        """Write a new journal's header (replacing a torn one), empty ``games.tgn`` and
        ``index.jsonl``, and the first checkpoint; nothing if already begun.

        :raises OutputError: a file of the directory cannot be written (one line).
        """
        if self._start is None:
            return
        config, info = self._start
        path = self.directory / JOURNAL
        entry = {
            "type": "tournament",
            "version": JOURNAL_VERSION,
            "config": config,
            "info": info,
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        first = (json.dumps(entry) + "\n").encode()
        try:
            self._journal_fd = os.open(path, FLAGS, 0o644)
            os.ftruncate(self._journal_fd, 0)  # an empty journal or a torn header
            remove_checkpoint(self.directory)
            write_all(self._journal_fd, first)
            os.fsync(self._journal_fd)
            (self.directory / GAMES).write_bytes(b"")
            write_index(self.directory, [])
            self._open_appends()
        except OSError as exc:
            # A file of the user's folder in the way (``games.tgn`` a directory), a
            # full disk: one line naming the file, as for a write during the event.
            raise write_failed(Path(exc.filename or path), exc) from None
        self._start = None
        self.digest = header_digest(first)
        self._size = len(first)
        self._noted = (len(first), 0)
        self.checkpoint()

    def _resume(self, header: bytes) -> None:
        """Open an existing journal and mend its directory (``_recover``).

        :raises OutputError: a file of the directory cannot be opened or mended.
        """
        path = self.directory / JOURNAL
        try:
            self._journal_fd = os.open(path, FLAGS, 0o644)
            state = _recover(self.directory, self._journal_fd, header, self.counts)
            self._open_appends()
        except OSError as exc:
            raise write_failed(Path(exc.filename or path), exc) from None
        self.digest = header_digest(header)
        self.counts, self.numbers = state.counts, state.numbers
        self.voids, self.runner_voids = state.voids, state.runner_voids
        self._size, self._games_size = state.end, state.games_end
        self._noted = (state.end, state.games_end)
        self.checkpoint()

    def _open_appends(self) -> None:
        self._games_fd = os.open(self.directory / GAMES, FLAGS, 0o644)
        self._index_fd = os.open(self.directory / INDEX, FLAGS, 0o644)

    def _close(self) -> None:
        for fd in (self._journal_fd, self._games_fd, self._index_fd):
            if fd >= 0:
                os.close(fd)
        self._journal_fd = self._games_fd = self._index_fd = -1

    @property
    def done(self) -> int:
        """Finished games (those read at start and those noted since)."""
        return len(self.numbers)

    def add(self, report: GameReport) -> None:
        """Journal one played game: ``write_batch`` then ``note``."""
        self.write_batch([report])
        self.note([report])

    def write_batch(self, reports: Sequence[GameReport]) -> None:
        """Append the reports to the journal in one write and ``fsync`` it once, then
        append the new scored games' records to ``games.tgn`` and their index lines.
        Only I/O: may run in a worker thread (one call at a time); ``note`` must count
        these reports before the next call.

        A void game is journaled as ``void`` and its record not appended; a game whose
        number is already finished is journaled (readers keep its first entry) but
        neither appended nor counted again. A journal not yet begun is begun first.
        A failed write or sync (a full disk) raises ``OutputError``: games journaled
        before are kept; a torn line is cut off, and ``games.tgn`` mended, on resume.
        """
        self.begin()
        lines = []
        indexed = []
        records = []
        ends = []
        end = self._size
        games_end = self._games_size
        batch: set[int] = set()
        for report in reports:
            lines.append(game_line(report))
            end += len(lines[-1])
            new = not report.void and report.number not in self.numbers
            new = new and report.number not in batch
            if not report.void:
                batch.add(report.number)
                indexed.append(index_line(report, end))
            if new:
                records.append(report.record.encode())
                games_end += len(records[-1])
            ends.append((end, games_end, new))
        try:
            write_all(self._journal_fd, b"".join(lines))
            os.fsync(self._journal_fd)
        except OSError as exc:
            raise write_failed(self.directory / JOURNAL, exc) from None
        self._size = end
        if records:
            try:
                write_all(self._games_fd, b"".join(records))
            except OSError as exc:
                raise write_failed(self.directory / GAMES, exc) from None
        self._games_size = games_end
        append_index(self._index_fd, indexed)
        self._pending.extend(ends)

    def note(self, reports: Sequence[GameReport]) -> None:
        """Count written reports, in the order written: scored games are now finished."""
        for report in reports:
            end, games_end, new = self._pending.popleft()
            if report.void:
                self.voids += 1
                self.runner_voids += report.runner_fault
            elif new:
                self.numbers.add(report.number)
                self.counts.add(report)
            self._noted = (end, games_end)
        if time.monotonic() - self._checkpointed >= CHECKPOINT_INTERVAL:
            self.checkpoint()

    def checkpoint(self) -> None:
        """Write ``tally.json`` for the games noted so far (``store.checkpoint``)."""
        end, games_end = self._noted
        state = Checkpoint(
            self.counts, end, games_end, self.voids, self.numbers, self.runner_voids
        )
        write_checkpoint(self.directory, state, self.digest)
        self._checkpointed = time.monotonic()


def _recover(directory: Path, journal_fd: int, header: bytes, counts: Counts) -> Checkpoint:
    """Mend the directory of a journal being resumed (see the module docstring) and
    return the counts of all its games. ``journal_fd``: the journal, open for appending."""
    path = directory / JOURNAL
    size = os.fstat(journal_fd).st_size
    digest = header_digest(header)
    state = read_checkpoint(directory, digest, size)
    games = directory / GAMES
    try:
        games_size = games.stat().st_size
    except FileNotFoundError:
        games_size = -1
    if state is None or games_size < state.games_end or state.counts.names != counts.names:
        state = Checkpoint(counts, len(header))
    indexed, index_length = index_tail(directory, size)
    if indexed < len(header):
        indexed, index_length = len(header), 0
    start = min(state.end, indexed)
    valid = start
    with (
        open(games, "r+b" if games_size >= 0 else "wb") as records,
        open(directory / INDEX, "r+b" if index_length else "wb") as index,
    ):
        records.truncate(state.games_end)
        records.seek(state.games_end)
        index.truncate(index_length)
        index.seek(index_length)
        out_records: list[bytes] = []
        out_index: list[str] = []
        held = 0
        for kind, value, end in iter_entries(path, start=start):
            valid = end
            if kind == "void" and end > state.end:
                state.voids += 1
                state.runner_voids += bool(value)
            if kind != "game":
                continue
            if end > indexed:
                out_index.append(index_line(value, end))
                held += 80
            if state.numbers.add(value.number):
                state.counts.add(value)
                out_records.append(value.record.encode())
                held += len(out_records[-1])
            if held >= CHUNK:
                records.write(b"".join(out_records))
                index.write("".join(line + "\n" for line in out_index).encode())
                out_records, out_index, held = [], [], 0
        records.write(b"".join(out_records))
        index.write("".join(line + "\n" for line in out_index).encode())
        state.games_end = records.tell()
    state.end = max(valid, state.end)
    os.ftruncate(journal_fd, state.end)  # cut a torn last line
    return state
