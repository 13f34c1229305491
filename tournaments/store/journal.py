"""The output directory of a tournament: its files, and the journal's format and readers
(the writer is ``tournaments.store.writer``).

Layout of ``DIR``:

``journal.jsonl``
    The source of truth, append-only, one JSON object per line, written and
    ``fsync``-ed per game before the game counts as finished:

    * line 1, ``{"type": "tournament", "version": 1, "config": {...}, "info": {...},
      "created": ...}``: the validated configuration the tournament was started with,
      and what the tables need (entrant names, seats, games scheduled, points table,
      SPRT: ``tournaments.results.summary.EventInfo``);
    * ``{"type": "game", "number": 17, "round": 2, "block": 8, "table": [0, 3],
      "seats": ["greedy-1", "random-2"], "outcome": {...}, "plies": 27,
      "record": "<the game's .tgn text>", "transcript": "<its transcript store, or
      empty>"}`` for each finished (scored) game: the ``GameReport`` as the one codec
      writes it (``tournaments.event.wire``), with ``"type"`` first and its timings left
      out (``game_line``);
    * ``{"type": "void", ...}`` (same fields) for a void game: information only,
      the game is played again.

    Lines written by earlier versions (before the codec) name the transcript store
    ``transcript_path``, left out when none was kept, where these write ``transcript``
    always; they are read as they were (``report_of``), and a resumed journal may hold
    both forms.

    A crash can leave at most a torn last line; readers ignore it and a resuming
    runner cuts it off before appending.
``games.tgn``
    Every finished game's record in finishing order (``protocol/RECORD.md``),
    appended per game. On ``--resume`` it is mended from the journal
    (``tournaments.store.writer``), so it never holds a game twice or one the journal
    does not.
``logs/transcripts-PID.log``
    Engine transcripts, a block per game (``tournaments.store.transcripts``).
``live/game-NNNNNN-PID-K.jsonl``
    The moves of each game in play, one file per attempt, removed when the game ends
    (``tournaments.store.live_feed``; only with ``--live`` or ``--events``).
``index.jsonl``
    The journal's games without records (``tournaments.store.index``): continued when a
    runner opens the directory, never trusted past the journal.
``tally.json``
    The tables' counts of the games up to a journal offset (``tournaments.store.checkpoint``).
``results.json``
    Standings, crosstable and ratings, rewritten (atomically) while the tournament
    runs and at its end.
``lock``
    Held (``flock``) by the running runner, with its pid inside; a second runner on
    the same directory stops with an error.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import UserError
from referee.results import RUNNER_LATE
from tournaments.event.wire import WireError, from_json, writer_without
from tournaments.results.game import GameReport

JOURNAL = "journal.jsonl"
GAMES = "games.tgn"
RESULTS = "results.json"
LOCK = "lock"
JOURNAL_VERSION = 1


class JournalError(UserError):
    """An unusable output directory or journal; one line."""


class OutputError(JournalError):
    """The output directory cannot be written (missing rights, a file in the way, a full
    disk); one line. Raised before the first game, or as a clean stop during the event:
    every game journaled before it is kept, and ``--resume`` continues."""


PROBE = ".write-probe"
"""File written, synced and removed in the output directory before the first game."""


def check_writable(directory: Path) -> None:
    """Create ``directory`` (and its parents) and prove that a file in it can be
    written, ``fsync``-ed and removed, so a bad ``--out`` fails before any game.

    :raises OutputError: one line naming the directory and the reason.
    """
    try:
        if directory.exists() and not directory.is_dir():
            raise OutputError(f"cannot use {directory} as the output directory: not a directory")
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f"{PROBE}-{os.getpid()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            write_all(fd, b"referee write probe\n" * 205)  # a 4 KiB block, not just an inode
            os.fsync(fd)
        finally:
            os.close(fd)
            with contextlib.suppress(OSError):
                probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OutputError(f"cannot write to the output directory {directory}: {reason}") from None


def read_failed(directory: Path, exc: OSError) -> JournalError:
    """The one-line error of an event directory (or a file of it) that cannot be read."""
    return JournalError(f"cannot read {directory}: {exc.strerror or exc}")


def write_failed(path: Path, exc: OSError) -> OutputError:
    """The clean-stop error of a failed write during the event."""
    return OutputError(
        f"cannot write {path}: {exc.strerror or exc}; every finished game is kept in the "
        f"journal: fix that, then continue with --resume"
    )


@dataclass
class JournalState:
    """What a journal says."""

    config: dict[str, Any] | None = None
    """The configuration of the header line (None for an empty journal)."""
    info: dict[str, Any] | None = None
    """The header's event info (``tournaments.results.summary.EventInfo`` as JSON)."""
    games: dict[int, GameReport] = field(default_factory=dict)
    """Finished games by number, in journal order."""
    voids: int = 0
    """Void games recorded (each was, or will be, played again)."""
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness (``GameReport.runner_fault``)."""


def game_line(report: GameReport) -> bytes:
    """The journal line of a played game: ``{"type": "game"}`` (``"void"`` for a void
    game) followed by the report as ``to_json`` writes it, less its ``UNJOURNALED``
    fields."""
    entry = {"type": "void" if report.void else "game", **_write_report(report)}
    return (json.dumps(entry) + "\n").encode()


UNJOURNALED = ("overheads", "round_trips")
"""``GameReport`` fields the journal leaves out: the run's own timings, a number or two
per ply, of use to a benchmark only (a journal's report reads them as empty)."""
_write_report = writer_without(GameReport, UNJOURNALED)


_OLD_TRANSCRIPT_KEY = "transcript_path"
"""The transcript store's key in lines written before the codec (``GameReport.transcript``)."""


def report_of(entry: dict[str, Any]) -> GameReport:
    """The ``GameReport`` of a game or void line's object, its ``"type"`` taken out;
    a line of either form (``game_line``'s, or the one before it) reads.

    :raises WireError: a field missing, unknown or of the wrong type (the message names it).
    :raises ValueError: a value the report's own types refuse.
    """
    if _OLD_TRANSCRIPT_KEY in entry:
        entry = {**entry, "transcript": entry[_OLD_TRANSCRIPT_KEY]}
        del entry[_OLD_TRANSCRIPT_KEY]
    return from_json(GameReport, entry)


def _decode(raw: bytes, number: int, source: str) -> tuple[str, Any]:
    """One journal line: ``("tournament", header)``, ``("game", GameReport)`` or
    ``("void", runner_void(entry))``.

    :raises JournalError: line 1 is not a version-``JOURNAL_VERSION`` header.
    :raises ValueError, KeyError, TypeError, WireError: the line is unreadable.
    """
    entry = json.loads(raw)
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    kind = entry.pop("type", None)
    if number == 1:
        if kind != "tournament" or entry.get("version") != JOURNAL_VERSION:
            raise JournalError(f"{source}:1: not a version-{JOURNAL_VERSION} journal")
        return "tournament", {"config": dict(entry["config"]), "info": dict(entry["info"])}
    if kind == "game":
        return "game", report_of(entry)
    if kind == "void":
        return "void", runner_void(entry)
    raise ValueError(f"unknown entry type {kind!r}")


def runner_void(entry: dict[str, Any]) -> bool:
    """Whether a journal ``void`` entry is a game voided by the referee's own lateness."""
    outcome = entry.get("outcome")
    reason = outcome.get("reason") if isinstance(outcome, dict) else None
    return isinstance(reason, str) and reason.startswith(RUNNER_LATE)


def _unreadable(source: str, number: int, exc: Exception) -> JournalError:
    return JournalError(f"{source}:{number}: unreadable journal line: {exc}")


def iter_journal(path: Path, *, start: int = 0) -> Iterator[tuple[str, Any]]:
    """The entries of the journal at ``path`` as ``_decode`` gives them, one line at a
    time (memory does not grow with the journal). A torn or unreadable *last* line is
    ignored (a crash can leave one); every reader of the journal reads it here. Games
    are not deduplicated here. ``start``: a byte offset at the start of a line after the
    header (``store.index``).

    :raises JournalError: an unreadable line before the last (raised when reached, after
        the entries before it), or a bad header; OSError: unreadable.
    """
    for kind, value, _end in iter_entries(path, start=start):
        yield kind, value


def iter_entries(path: Path, *, start: int = 0) -> Iterator[tuple[str, Any, int]]:
    """``iter_journal`` with, for each entry, the byte offset just past its line."""
    source = str(path)
    with path.open("rb") as lines:
        failed: tuple[int, Exception] | None = None
        if start:
            lines.seek(start)
        end = start
        for number, raw in enumerate(lines, start=1 if not start else 2):
            if failed is not None:  # a line follows the unreadable one: it was not the last
                raise _unreadable(source, *failed) from None
            if not raw.endswith(b"\n"):
                return  # a torn last line
            end += len(raw)
            try:
                decoded = _decode(raw, number, source)
            except JournalError:
                raise
            except (ValueError, KeyError, TypeError, WireError) as exc:
                failed = (number, exc)
                continue
            yield (*decoded, end)


def read_header(path: Path) -> tuple[dict[str, Any], dict[str, Any], bytes] | None:
    """The config, event info and raw first line of the journal at ``path``, reading
    only that line; None when the journal is missing or its first line is not whole.

    :raises JournalError: a first line that is not a version-``JOURNAL_VERSION`` header;
        OSError: unreadable.
    """
    try:
        with path.open("rb") as lines:
            raw = lines.readline()
            more = bool(lines.read(1))
    except FileNotFoundError:
        return None
    if not raw.endswith(b"\n"):
        return None
    try:
        _kind, value = _decode(raw, 1, str(path))
    except JournalError:
        raise
    except (ValueError, KeyError, TypeError, WireError) as exc:
        if not more:  # an unreadable last line is ignored, as ``iter_entries`` does
            return None
        raise _unreadable(str(path), 1, exc) from None
    return value["config"], value["info"], raw


def read_journal(directory: Path) -> JournalState:
    """The journal of ``directory`` (empty state if there is none); never modifies it.

    :raises JournalError: see ``iter_journal``; OSError: unreadable.
    """
    state = JournalState()
    path = directory / JOURNAL
    if not path.exists():
        return state
    for kind, value in iter_journal(path):
        if kind == "tournament":
            state.config, state.info = value["config"], value["info"]
        elif kind == "game":
            state.games.setdefault(value.number, value)
        else:
            state.voids += 1
            state.runner_voids += bool(value)
    return state


@contextlib.contextmanager
def hold_lock(directory: Path) -> Iterator[None]:
    """Hold ``directory/lock`` for the block (released by the kernel if we die).

    :raises JournalError: another process holds it.
    """
    path = directory / LOCK
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise JournalError(
                f"{directory} is in use by another runner (pid {other}); "
                "wait for it to finish or stop it"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd``."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` through a temporary file and a rename."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


IGNORED_KEYS = frozenset({"concurrency", "workers", "out", "cluster"})
"""Config keys that may change between a run and its resume: they do not change games."""


def config_difference(old: Mapping[str, Any], new: Mapping[str, Any]) -> str | None:
    """The first key whose value differs (ignoring ``IGNORED_KEYS``), or None."""
    for key in sorted(set(old) | set(new)):
        if key in IGNORED_KEYS:
            continue
        if old.get(key) != new.get(key):
            return key
    return None
