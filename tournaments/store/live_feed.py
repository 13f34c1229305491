"""The live feed: what a game in play publishes for ``referee serve`` to read.

With the live view on (``referee tournament --live``) or an event stream asked for
(``--events``), each game in play has one file, ``live/game-NNNNNN-PID-K.jsonl`` in the
event directory (a name per attempt: a void game played again gets a new one): a
``game_started`` event (game number, round, seats, game, options, start position, time
control), then a ``move`` event per move (ply, seat, move, the seat's clock after it,
the engine's last search items): the objects of ``event.stream``, the one vocabulary of
the live page and ``--events``. The file is removed when the game ends (the finished
game is in the journal); with ``--events`` a finished game's file is left for the
runner, which reads its last lines and removes it (``runner.events``). So the directory
holds about one file per game in play, and a reader that finds a file gone knows the
game is over.

The writer's cost is a few string operations per ply and one ``os.write`` per group of
moves (``LiveGame``; no fsync: the view is best effort and a crash loses nothing that
matters). With the view off no file is opened and the match loop gets no hook. The
reader (``read_feed``) tolerates a torn last line and a file that vanishes under it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.search_info import ForcedWin, SearchInfo, Shares
from referee.match import PlayedMove
from tournaments.event.stream import move_line

LIVE_DIR = "live"
"""Subdirectory of the event directory with the files of the games in play."""


_ATTEMPTS = itertools.count(1)


def feed_path(out: Path, number: int) -> Path:
    """Where this attempt at game ``number`` puts its live file: a name of its own per
    attempt (``game-NNNNNN-PID-K.jsonl``), so a void game played again never writes into
    the file a reader is still following."""
    return out / LIVE_DIR / f"game-{number:06d}-{os.getpid()}-{next(_ATTEMPTS)}.jsonl"


def clear_feeds(out: Path) -> None:
    """Remove the feeds an earlier run left in ``out`` (killed with games in play, or
    before its event stream read a finished game's feed): no game of theirs is in play.
    Called by the runner holding the directory's lock, before its first game."""
    try:
        names = os.listdir(out / LIVE_DIR)
    except OSError:
        return
    for name in names:
        if feed_number(name) is not None:
            with contextlib.suppress(OSError):
                os.unlink(out / LIVE_DIR / name)


def feed_number(name: str) -> int | None:
    """The game number of a live file's name, or None for another file."""
    if not (name.startswith("game-") and name.endswith(".jsonl")):
        return None
    digits = name[5:].split("-", 1)[0].removesuffix(".jsonl")
    return int(digits) if digits.isdigit() else None


def _search(search: SearchInfo) -> dict[str, Any]:
    """The items the view shows (depth, nodes, score), as JSON."""
    data: dict[str, Any] = {}
    if search.depth is not None:
        data["d"] = search.depth
    if search.nodes is not None:
        data["n"] = search.nodes
    score = search.score
    if isinstance(score, Shares):
        data["s"] = list(score.values)
    elif isinstance(score, ForcedWin):
        data["s"] = f"win{score.plies}"
    return data


FLUSH_INTERVAL = 0.05
"""Seconds a fast game's moves may wait to be written together (the server polls every
0.25 s, so nobody sees the wait); a move that took this long is written at once."""


class LiveGame:
    """The live file of one game in play (see the module doc). Never raises for I/O:
    a feed that cannot be written stops feeding, and the game goes on.

    Moves of a fast game are written in groups (at most every ``FLUSH_INTERVAL``
    seconds; a slow move at once): one ``os.write`` per group, a few string operations
    per move.
    """

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.number = int(header["number"])
        self.kept = False
        """Leave the file when the feed ends (``keep``)."""
        self.fd: int | None = None
        self.pending: list[str] = []
        self.flushed = time.monotonic()
        try:
            path.parent.mkdir(exist_ok=True)
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        except OSError:
            return
        self.pending.append(json.dumps(header, separators=(",", ":")) + "\n")
        self.flush()

    def flush(self) -> None:
        """Write the pending lines."""
        fd, lines = self.fd, self.pending
        self.flushed = time.monotonic()
        if fd is None or not lines:
            return
        self.pending = []
        try:
            os.write(fd, "".join(lines).encode())
        except OSError:
            self.close()

    def on_move(self, ply: int, move: PlayedMove) -> None:
        """``referee.match.MoveHook``: the line of the move just played."""
        if self.fd is None:
            return
        text = move.text
        if '"' in text or "\\" in text:  # canonical moves never do; stay valid JSON anyway
            text = json.dumps(text)[1:-1]
        remaining = move.remaining
        clock = "" if remaining is None else f',"clock":{remaining:.3f}'
        search = move.search
        found = ""
        if search.depth is not None or search.nodes is not None or search.score is not None:
            found = ',"search":' + json.dumps(_search(search), separators=(",", ":"))
        self.pending.append(
            move_line(self.number, ply, move.seat, text, clock, move.elapsed, found)
        )
        if move.elapsed >= FLUSH_INTERVAL or time.monotonic() - self.flushed >= FLUSH_INTERVAL:
            self.flush()

    def keep(self) -> None:
        """Leave the file, whole, when the feed ends: the game finished, and the runner's
        event stream (``runner.events``) reads its last lines and removes it."""
        self.kept = True

    def close(self) -> None:
        """End the feed: the file is removed (the game is over or abandoned), unless
        ``keep`` was called (then its pending lines are written first)."""
        if self.kept:
            self.flush()
        fd, self.fd = self.fd, None
        self.pending = []
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        if not self.kept:
            with contextlib.suppress(OSError):
                self.path.unlink()


@contextlib.contextmanager
def live_game(out: Path | None, header: dict[str, Any]) -> Iterator[LiveGame | None]:
    """The feed of one game while it is played, or None when there is no ``out``;
    ``header``, the game's ``game_started`` event (``event.stream``), is its first line."""
    if out is None:
        yield None
        return
    feed = LiveGame(feed_path(out, header["number"]), header)
    try:
        yield feed
    finally:
        feed.close()


@dataclass(frozen=True, slots=True)
class FeedRead:
    """What ``read_feed`` found after ``offset``."""

    header: dict[str, Any] | None
    """The header, when the read started at offset 0."""
    moves: tuple[dict[str, Any], ...]
    offset: int
    """Where the next read starts (after the last complete line)."""


def read_feed(path: Path, offset: int = 0, *, limit: int = 1 << 20) -> FeedRead | None:
    """The complete lines of ``path`` after ``offset`` (at most ``limit`` bytes), or None
    when the file is gone. Malformed lines are skipped."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            data = f.read(limit)
    except OSError:
        return None
    end = data.rfind(b"\n") + 1
    header: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = []
    for i, raw in enumerate(data[:end].splitlines()):
        try:
            item = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(item, dict):
            continue
        if offset == 0 and i == 0:
            header = item
        elif "move" in item:
            moves.append(item)
    return FeedRead(header, tuple(moves), offset + end)
