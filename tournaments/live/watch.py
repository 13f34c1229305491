"""What the live page shows, read from an event directory: ``EventWatcher.poll``.

Each poll reads only what changed: the journal's size and time stamp decide whether the
tables (from the runner's counts: ``EventStream.counts``) and the list of finished games
(the journal's new lines; the newest ``FINISHED_SHOWN``) are recomputed (at most once per
``TABLES_INTERVAL`` seconds), and each game in play's live file is read from where the
last poll stopped (``store.live_feed.read_feed``). A poll returns ``Update``s, each one
Server-Sent Event: ``standings`` (the tables' HTML), ``finished`` (one line per newly
finished game), ``board`` (a game in play: its picture, moves, clocks and last
evaluation), ``gone`` (a game no longer in play) and ``status``.
Nothing here writes anywhere.
"""

from __future__ import annotations

import json
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core import Game, State
from referee.errors import RulesError
from referee.pictures import position_svg
from referee.registry import make_game
from tournaments.event import stream
from tournaments.event.wire import WireError
from tournaments.html.page import esc
from tournaments.results.game import GameReport
from tournaments.results.summary import summarize_counts
from tournaments.results.tables import render
from tournaments.runner.phases import event_knockout
from tournaments.store.event_dir import open_event
from tournaments.store.index import find_game_end, line_start
from tournaments.store.journal import JOURNAL, JournalError, report_of
from tournaments.store.live_feed import LIVE_DIR, read_feed

TABLES_INTERVAL = 1.0
"""Seconds between two recomputations of the tables while games keep finishing."""
MOVES_SHOWN = 12
"""Moves listed under a board in play (the last ones)."""
FINISHED_SHOWN = 2000
"""Finished games listed on the page (the newest); any other opens by its number."""
INITIAL_TAIL = 2 << 20
"""Bytes of the journal's end read for the list when the watcher starts."""
READ_LIMIT = 16 << 20
"""Bytes of new journal read per poll at most (a big backlog is caught up over polls)."""


@dataclass(frozen=True, slots=True)
class Update:
    """One Server-Sent Event: its ``event`` name and JSON ``data``."""

    event: str
    data: dict[str, Any]

    def encode(self) -> bytes:
        """The event as it goes on the wire (one ``data:`` line: JSON has no newline)."""
        text = json.dumps(self.data, separators=(",", ":"))
        return f"event: {self.event}\ndata: {text}\n\n".encode()


@dataclass
class _InPlay:
    path: Path
    header: dict[str, Any]
    offset: int
    game: Game[Any, Any] | None
    state: State[Any] | None
    moves: list[dict[str, Any]] = field(default_factory=list)
    problem: str = ""


class EventWatcher:
    """Follows one event directory (see the module doc)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.journal_stamp: tuple[int, int] | None = None
        self.tables_at = -float("inf")
        self.finished: OrderedDict[int, tuple[int, int]] = OrderedDict()
        """The listed finished games (the newest ``FINISHED_SHOWN``): their lines' byte spans."""
        self.journal_offset = 0
        self.in_play: dict[str, _InPlay] = {}
        self.snapshot: dict[str, Update] = {}
        """The latest update per key: what a newly connected page is sent first."""
        self.event_name = directory.name
        self.complete = False

    def poll(self) -> list[Update]:
        """The updates since the last poll (the first poll gives the whole picture)."""
        updates = self._poll_tables() + self._poll_boards()
        for update in updates:
            key = update.event
            if update.event in ("board", "gone"):
                key = f"board-{update.data['number']}"
            elif update.event == "finished":
                key = f"finished-{update.data['number']}"
            if update.event == "gone":
                self.snapshot.pop(key, None)
            else:
                self.snapshot[key] = update
        return updates

    def _poll_tables(self) -> list[Update]:
        path = self.directory / JOURNAL
        try:
            st = os.stat(path)
        except OSError:
            return self._status("waiting for the event to start")
        stamp = (st.st_size, st.st_mtime_ns)
        now = time.monotonic()
        if stamp == self.journal_stamp or now - self.tables_at < TABLES_INTERVAL:
            return []
        try:
            event = open_event(self.directory)
            summary = summarize_counts(event.info, event.counts())
            finished = self._read_finished(path, st.st_size)
        except (JournalError, OSError) as exc:
            return self._status(str(exc))
        self.journal_stamp, self.tables_at = stamp, now
        self.event_name = event.info.event
        updates = [Update("standings", {"html": render(summary, "html"), "done": summary.done})]
        for report, where in finished:
            if report.number in self.finished:
                continue
            self.finished[report.number] = where
            updates.append(Update("finished", _finished_line(event.info.game, report)))
            while len(self.finished) > FINISHED_SHOWN:  # the page lists the newest only
                old, _ = self.finished.popitem(last=False)
                self.snapshot.pop(f"finished-{old}", None)
        self.complete = (
            summary.sprt_decision is not None
            or summary.done >= event.info.total
            or _knockout_won(self.directory)  # its total is only the most it could take
        )
        state = "finished" if self.complete else "running"
        updates += self._status(
            f"{event.info.event}: {summary.done} of {event.info.total} games, {state}"
        )
        return updates

    def _read_finished(self, path: Path, size: int) -> list[tuple[GameReport, tuple[int, int]]]:
        """The games journaled since the last poll, with each line's byte span. The first
        poll (or one after the journal was cut by a resume) starts ``INITIAL_TAIL`` bytes
        before the end: the page lists the newest games, and a million-game journal is
        never read whole."""
        if self.journal_offset == 0 or size < self.journal_offset:
            self.journal_offset = max(0, size - INITIAL_TAIL)
            skip_partial = self.journal_offset > 0
        else:
            skip_partial = False
        found: list[tuple[GameReport, tuple[int, int]]] = []
        with path.open("rb") as journal:
            journal.seek(self.journal_offset)
            data = journal.read(min(size - self.journal_offset, READ_LIMIT))
        start = self.journal_offset
        lines = data.split(b"\n")
        for i, raw in enumerate(lines[:-1]):  # the last piece is torn or empty
            end = start + len(raw) + 1
            if not (skip_partial and i == 0):
                report = _game_of(raw)
                if report is not None:
                    found.append((report, (start, end)))
            start = end
        self.journal_offset = start
        return found

    def game(self, number: int) -> GameReport | None:
        """Finished game ``number`` with its record (for ``/game/N``): one of the listed
        games, or found through the index (``store.index``) and read from the journal."""
        path = self.directory / JOURNAL
        where = self.finished.get(number)
        try:
            if where is None:
                end = find_game_end(self.directory, number)
                if end is None:
                    return None
                where = (line_start(path, end), end)
            with path.open("rb") as journal:
                journal.seek(where[0])
                raw = journal.read(where[1] - where[0])
        except OSError:
            return None
        report = _game_of(raw)
        return report if report is not None and report.number == number else None

    def _status(self, text: str) -> list[Update]:
        update = Update("status", {"text": text, "complete": self.complete})
        if self.snapshot.get("status") == update:
            return []
        return [update]

    def _poll_boards(self) -> list[Update]:
        updates: list[Update] = []
        try:
            names = sorted(os.listdir(self.directory / LIVE_DIR))
        except OSError:
            names = []
        present = {name for name in names if name.endswith(".jsonl")}
        for name in list(self.in_play):
            if name not in present:
                updates.append(Update("gone", {"number": self.in_play.pop(name).header["number"]}))
        for name in sorted(present):
            playing = self.in_play.get(name)
            if playing is None:
                read = read_feed(self.directory / LIVE_DIR / name)
                if (
                    read is None
                    or read.header is None
                    or not isinstance(read.header.get("number"), int)
                ):
                    continue
                playing = _start(self.directory / LIVE_DIR / name, read.header, read.offset)
                self.in_play[name] = playing
                moves: tuple[dict[str, Any], ...] = read.moves
            else:
                more = read_feed(playing.path, playing.offset)
                if more is None:  # ended between the listing and the read
                    updates.append(Update("gone", {"number": playing.header["number"]}))
                    del self.in_play[name]
                    continue
                if not more.moves:
                    continue
                playing.offset = more.offset
                moves = more.moves
            _advance(playing, moves)
            updates.append(Update("board", _board(playing)))
        return updates


def _start(path: Path, header: dict[str, Any], offset: int) -> _InPlay:
    try:
        game = make_game(
            str(header["game"]), {str(k): str(v) for k, v in header["options"].items()}
        )
        start = header.get("start")
        state = game.decode(start) if start else game.initial_state(len(header["seats"]))
    except (RulesError, KeyError, TypeError, AttributeError, ValueError) as exc:
        return _InPlay(path, header, offset, None, None, problem=f"cannot set up the game: {exc}")
    return _InPlay(path, header, offset, game, state)


def _advance(playing: _InPlay, moves: tuple[dict[str, Any], ...]) -> None:
    playing.moves.extend(moves)
    game, state = playing.game, playing.state
    if game is None or state is None:
        return
    for item in moves:
        try:
            state = state.play(game.parse_move(state, str(item["move"])))
        except (RulesError, KeyError, ValueError) as exc:
            playing.problem = f"move {item.get('ply')}: {exc}"
            playing.game = None
            break
    playing.state = state


def _board(playing: _InPlay) -> dict[str, Any]:
    header = playing.header
    seats = [str(s) for s in header.get("seats", [])]
    last = playing.moves[-1] if playing.moves else None
    clocks: dict[int, float] = {}
    for item in playing.moves:
        if "clock" in item:
            clocks[int(item["seat"])] = float(item["clock"])
    seat_html = " · ".join(
        f"{i + 1}. {esc(name)}" + (f" ({clocks[i]:.1f}s)" if i in clocks else "")
        for i, name in enumerate(seats)
    )
    picture = ""
    if playing.game is not None and playing.state is not None:
        try:
            picture = position_svg(playing.game, playing.state, size=280, coordinates=False)
        except (RulesError, ValueError):
            picture = ""
    shown = playing.moves[-MOVES_SHOWN:]
    moves_html = " ".join(f"{int(m['ply'])}.&nbsp;{esc(m['move'])}" for m in shown)
    evaluation = ""
    searched = [m for m in playing.moves if "search" in m]
    if searched:
        items, ply = searched[-1]["search"], int(searched[-1]["ply"])
        parts = " ".join(
            f"{key}={esc(_item(items[key]))}" for key in ("d", "n", "s") if key in items
        )
        evaluation = f'<p class="eval">last evaluation (ply {ply}): {parts}</p>'
    problem = f'<p class="bad">{esc(playing.problem)}</p>' if playing.problem else ""
    html = (
        f"<h3>Game {int(header['number'])} · round {esc(header.get('round'))}</h3>"
        f'<p class="seats">{seat_html}</p>{picture}'
        f'<p class="moves">{len(playing.moves)} plies{": … " + moves_html if moves_html else ""}'
        "</p>"
        f"{evaluation}{problem}"
    )
    return {
        "number": int(header["number"]),
        "ply": len(playing.moves),
        "last": str(last["move"]) if last else None,
        "html": html,
    }


def _game_of(raw: bytes) -> GameReport | None:
    """The scored game of one journal line, or None (a header, a void, a bad line)."""
    try:
        entry = json.loads(raw)
        if not isinstance(entry, dict) or entry.pop("type", None) != "game":
            return None
        return report_of(entry)
    except (ValueError, KeyError, TypeError, WireError):
        return None


def _item(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else str(value)


def _finished_line(game_name: str, report: GameReport) -> dict[str, Any]:
    """A ``finished`` update: the ``game_finished`` event of ``--events``
    (``event.stream``) and the line the page shows, as ``html``."""
    try:
        data = stream.game_finished(make_game(game_name), report)
    except (RulesError, ValueError):
        data = {"number": report.number, "result": "?"}
    text = (
        f"Game {report.number} (round {report.round}): {' vs '.join(report.seats)}: "
        f"{data['result']} ({report.outcome.termination.value}, {report.plies} plies)"
    )
    return {"number": report.number, **data, "html": esc(text)}  # the number first, as before


def _knockout_won(directory: Path) -> bool:
    """Whether the event is a knockout whose winner is known."""
    try:
        found = event_knockout(directory)
    except JournalError:
        return False
    return found is not None and found[0].winner is not None
