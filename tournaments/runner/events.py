"""``--events FILE|-``: the run's event stream, one JSON line per event
(``event.stream`` has the vocabulary and the schema).

``EventLog`` is written by the runner's own loop only, so its lines never interleave:

* ``tournament_started`` when the run has its journal, ``standings`` every
  ``--rating-interval`` games and at the end, ``tournament_finished`` last (also when the
  run is stopped: ``complete`` is then false);
* ``game_started`` and ``move`` come from the games' live feeds (``store.live_feed``, the
  producer the live page reads too), wherever the slots run (here or in worker
  processes): ``follow`` reads the feed directory every ``FOLLOW_INTERVAL`` seconds, and
  a finished game's feed is left by its slot until ``finished`` has read its last lines
  and written its ``game_finished``, so no game is missed however fast it is, and a
  game's events come in order: started, its moves, finished;
* ``game_finished`` when the game is journaled (a void game too, with ``void`` true: it
  is played again under the same number, and its own ``game_started`` may be missing
  when it ended between two reads).

Without ``--events`` none of this exists and the slots write no feed (unless the live
page asks for one), so the per-ply path has no cost. On a Dask cluster the games play on
other machines: no ``game_started`` or ``move`` events there.

A stream that cannot be written (a closed pipe, a full disk) stops, and ``error`` says
why; the tournament goes on (its journal is what matters).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import trio

from referee.core import AnyGame
from tournaments.event import stream
from tournaments.results.game import GameReport
from tournaments.runner.record_out import is_named_pipe, open_pipe_writer
from tournaments.store.live_feed import LIVE_DIR, feed_number, read_feed

FOLLOW_INTERVAL = 0.1
"""Seconds between two reads of the live feeds."""


class EventLog:
    """The event stream of one run (see the module doc)."""

    def __init__(self, out: TextIO, *, moves: bool = False) -> None:
        self.out = out
        self.moves = moves
        """Write ``move`` events (``--events-moves``)."""
        self.error: str | None = None
        """Why the stream stopped, or None."""
        self.directory: Path | None = None
        self.game: AnyGame | None = None
        self._offsets: dict[str, int] = {}
        """Feeds being followed: name → bytes read."""

    def emit(self, event: dict[str, Any]) -> None:
        """Write one event (nothing once the stream has failed)."""
        self._write(stream.encode(event))

    def _write(self, text: str) -> None:
        """Write event lines and flush once (a game's moves go out as one write)."""
        if self.error is not None or not text:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError) as exc:  # ValueError: a closed file
            self.error = str(exc) or type(exc).__name__

    def start(self, directory: Path, game: AnyGame) -> None:
        """Follow the feeds of ``directory`` (the runner has removed any an earlier run
        left: ``live_feed.clear_feeds``)."""
        self.directory, self.game = directory, game

    def _names(self) -> list[str]:
        if self.directory is None:
            return []
        try:
            names = os.listdir(self.directory / LIVE_DIR)
        except OSError:
            return []
        return sorted(name for name in names if feed_number(name) is not None)

    def poll(self) -> None:
        """Write what the feeds gained since the last read."""
        names = self._names()
        for name in set(self._offsets) - set(names):  # ended (void) or read to the end
            del self._offsets[name]
        for name in names:
            self._read(name)

    def _read(self, name: str) -> None:
        assert self.directory is not None
        offset = self._offsets.get(name, 0)
        read = read_feed(self.directory / LIVE_DIR / name, offset)
        if read is None:
            return
        self._offsets[name] = read.offset
        if read.header is not None and read.header.get("type") == "game_started":
            self.emit(read.header)
        if self.moves:
            self._write("".join(map(stream.encode, read.moves)))

    async def follow(self) -> None:
        """Read the feeds every ``FOLLOW_INTERVAL`` seconds, until cancelled."""
        while True:
            self.poll()
            await trio.sleep(FOLLOW_INTERVAL)

    def finished(self, report: GameReport) -> None:
        """Game ``report.number`` is journaled: its feed's last lines, then its
        ``game_finished``; the feed is removed."""
        assert self.game is not None
        if not report.void:
            for name in self._names():
                if feed_number(name) == report.number:
                    self._read(name)
                    self._offsets.pop(name, None)
                    with contextlib.suppress(OSError):
                        assert self.directory is not None
                        os.unlink(self.directory / LIVE_DIR / name)
        self.emit(stream.game_finished(self.game, report))


def open_events(target: str, on_wait: Callable[[str], None] | None = None) -> TextIO:
    """The stream of ``--events``: ``-`` is standard output, else the file (appended to,
    so a resumed run goes on after the first run's lines). A named pipe is opened as a
    shell's ``>`` opens it, waiting for a reader: ``on_wait`` is told first when it has
    none yet (as ``referee play --out FIFO`` tells, ``tournaments.runner.record_out``),
    so the wait is not a silent hang.

    :raises OSError: the file cannot be opened.
    """
    if target == "-":
        return sys.stdout
    if on_wait is not None and is_named_pipe(Path(target)) and not _has_reader(target):
        on_wait(f"waiting for a reader of the named pipe {target}")
    return open(target, "a", encoding="utf-8")  # closed by the command


def _has_reader(fifo: str) -> bool:
    """Whether the named pipe ``fifo`` has a reader now (``open_pipe_writer``; any other
    failure is left to the real open)."""
    try:
        fd = open_pipe_writer(fifo)
    except OSError:
        return True
    if fd is None:
        return False
    os.close(fd)
    return True
