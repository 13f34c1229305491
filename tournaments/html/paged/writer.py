"""Writing ``referee report``: the event streamed from its directory into one page, or a
first page and its block files (the one module of ``tournaments.html`` that writes).

Which one (``layout``): ``single`` is the self-contained page of
``tournaments.html.report``; ``paged`` the first page and block files of this package;
``auto`` is single for events of up to ``SINGLE_LIMIT`` games, else paged.

Memory: the journal is read one line at a time (``open_event``). A paged report keeps,
per game, what the tables and charts need (``GameResults``, about 40 bytes a game) plus
one list block and one game block of records; worker processes draw the game blocks
(``--jobs``), at most ``IN_FLIGHT_PER_JOB`` blocks per worker waiting. At the end the
tables and charts are computed from the kept results (``summarize`` and ``timeline``
take the games as a list: about 200 bytes a game while they run). Time: each game is
parsed, replayed and drawn once, in parallel; a game played again move for move is
drawn once per worker.

Files: the blocks are written into a temporary folder next to the page, which replaces
the previous folder only once the first page is ready, and the page is replaced
atomically, so a report that fails half-way leaves the previous one whole. A folder of
that name that this command did not write (no ``MARK`` file in it) is never touched: the
report stops with an error instead. A single page removes a stale block folder of the
same name.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import Literal

from referee.errors import RulesError, UserError
from referee.registry import make_game
from referee.results import result_text
from tournaments.html.limits import DEFAULT_MAX_POSITIONS, SINGLE_LIMIT
from tournaments.html.paged.blocks import (
    GAME_BLOCK,
    LIST_BLOCK,
    BlockBuilder,
    BlockStats,
    block_name,
    list_block,
    list_row,
)
from tournaments.html.paged.page import Drawn, build_first_page
from tournaments.html.paged.results import GameResults
from tournaments.html.report import build_report
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo
from tournaments.store.event_dir import Event, open_event
from tournaments.store.journal import write_atomic

Layout = Literal["auto", "single", "paged"]

IN_FLIGHT_PER_JOB = 2
"""Game blocks per worker process handed out and not yet written."""
MARK = "README.txt"
MARK_TEXT = (
    "The game list and the games of a referee report (the page next to this folder).\n"
    "Keep the folder next to the page; `referee report` replaces it as a whole.\n"
)
"""The file that says a folder holds a report's blocks (and may be replaced)."""


class ReportError(UserError):
    """A report that cannot be written where asked; one line."""


@contextlib.contextmanager
def writing(out: Path) -> Iterator[None]:
    """Around the writing of the page ``out`` (the user's path) and its block folder: an
    ``OSError`` (no such folder, a file in the way, no rights, a full disk) becomes a
    ``ReportError`` of one line naming ``out`` and, when another, the file it failed on."""
    try:
        yield
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename not in (None, str(out)) else ""
        raise ReportError(f"cannot write {out}: {where}{exc.strerror or exc}") from None


@dataclass(frozen=True, slots=True)
class Written:
    """What ``write_report`` wrote."""

    page: Path
    layout: Literal["single", "paged"]
    games: int
    folder: Path | None = None
    """The block folder of a paged report."""
    files: int = 1
    """Files written, the page included."""


def blocks_folder(page: Path) -> Path:
    """The block folder of the page ``page``: ``report.html`` → ``report-games``."""
    return page.with_name(f"{page.stem}-games")


def _ours(folder: Path) -> bool:
    return (folder / MARK).is_file()


def check_folder(folder: Path) -> None:
    """:raises ReportError: ``folder`` exists and is not a block folder we wrote."""
    _check_folder(folder)


def start_folder(folder: Path) -> Path:
    """A new, empty work folder (with its ``MARK``) beside ``folder``, where blocks are
    written before ``install`` puts them in its place."""
    work = folder.with_name(f".{folder.name}.tmp-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    (work / MARK).write_text(MARK_TEXT, encoding="utf-8")
    return work


def install(work: Path, folder: Path, out: Path, first: str) -> None:
    """Put the blocks of ``work`` in place of ``folder``, then the page ``first`` in place
    of ``out``; if that fails, the previous folder goes back (and ``work`` is removed).

    :raises OSError: the folder or the page cannot be written.
    """
    old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    shutil.rmtree(old, ignore_errors=True)
    swapped = False
    try:
        if folder.exists():
            os.replace(folder, old)
        os.replace(work, folder)
        swapped = True
        write_atomic(out, first)
    except BaseException:
        if swapped:  # the page was not replaced: the previous blocks go back under it
            shutil.rmtree(folder, ignore_errors=True)
        if old.exists():
            os.replace(old, folder)
        shutil.rmtree(work, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)


def remove_folder(folder: Path) -> None:
    """Remove ``folder`` if it is a block folder we wrote (a single page replaced it)."""
    if folder.is_dir() and _ours(folder):
        with contextlib.suppress(OSError):
            shutil.rmtree(folder)


def _check_folder(folder: Path) -> None:
    if (folder.exists() or folder.is_symlink()) and not (folder.is_dir() and _ours(folder)):
        raise ReportError(
            f"{folder} is in the way of the report's block folder and was not written by "
            "referee report: move it, or choose another --out"
        )


# --- drawing game blocks, here or in worker processes --------------------------------------

_BUILDER: BlockBuilder | None = None
"""This process's builder (one per worker process, or for ``jobs`` 1)."""


def _builder() -> BlockBuilder:
    global _BUILDER  # one per process, by design (see blocks)
    if _BUILDER is None:
        _BUILDER = BlockBuilder()
    return _BUILDER


def _start_worker() -> None:
    """Ctrl+C is the main process's to handle: a worker ignores it (no traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def write_game_block(
    path: str, index: int, reports: Sequence[GameReport], budget: int
) -> BlockStats:
    """Build game block ``index`` and write it to ``path`` (runs in a worker process)."""
    text, stats = _builder().build(index, reports, budget)
    Path(path).write_text(text, encoding="ascii")
    return stats


@dataclass
class _Drawer:
    """Hands game blocks to ``jobs`` worker processes (started with the first block), or
    builds them here for ``jobs`` 1; sums what they drew."""

    jobs: int
    games: int = 0
    drawn_games: int = 0
    positions: int = 0
    _pool: ProcessPoolExecutor | None = None
    _pending: deque[Future[BlockStats]] = field(default_factory=deque)

    def _count(self, stats: BlockStats) -> None:
        self.games += stats.games
        self.drawn_games += stats.drawn_games
        self.positions += stats.positions

    def submit(self, path: Path, index: int, reports: list[GameReport], budget: int) -> None:
        if self.jobs <= 1:
            self._count(write_game_block(str(path), index, reports, budget))
            return
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=_start_worker
            )
        self._pending.append(self._pool.submit(write_game_block, str(path), index, reports, budget))
        while len(self._pending) >= self.jobs * IN_FLIGHT_PER_JOB:
            self._count(self._pending.popleft().result())

    def finish(self) -> None:
        while self._pending:
            self._count(self._pending.popleft().result())

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


# --- the report ------------------------------------------------------------------------------


def _blocks(games: Iterable[GameReport], size: int) -> Iterator[list[GameReport]]:
    games = iter(games)
    while block := list(islice(games, size)):
        yield block


def _results(info: EventInfo) -> Callable[[GameReport], str]:
    """The ``Result`` text of a game from its outcome (``?`` if the game is unknown here)."""
    try:
        rules = make_game(info.game)
    except (RulesError, ValueError, KeyError):
        return lambda report: "?"

    def result(report: GameReport) -> str:
        try:
            return result_text(rules, report.outcome)
        except ValueError:
            return "?"

    return result


def _write_paged(
    directory: Path,
    info: EventInfo,
    games: Iterable[GameReport],
    out: Path,
    max_positions: int | None,
    jobs: int,
    voids: tuple[int, int] = (0, 0),
) -> Written:
    """``voids``: the event's void games and, of them, the runner's (``Tally``)."""
    folder = blocks_folder(out)
    work = start_folder(folder)
    drawer = _Drawer(jobs)
    try:
        results, result = GameResults(), _results(info)
        rows: list[list[object]] = []
        budget = max_positions if max_positions is not None else -1
        lists = 0
        for index, block in enumerate(_blocks(games, GAME_BLOCK)):
            for report in block:
                results.add(report)
                rows.append(list_row(report, result(report)))
                if len(rows) == LIST_BLOCK:
                    (work / block_name("list", lists)).write_text(list_block(lists, rows))
                    lists, rows = lists + 1, []
            wanted = sum(report.plies + 1 for report in block)
            given = wanted if budget < 0 else min(budget, wanted)
            budget = budget if budget < 0 else budget - given
            drawer.submit(work / block_name("games", index), index, block, given)
        if rows:
            (work / block_name("list", lists)).write_text(list_block(lists, rows))
            lists += 1
        drawer.finish()
        drawn = Drawn(drawer.drawn_games, drawer.positions)
        first = build_first_page(info, list(results), directory, folder.name, drawn, voids)
    except BaseException:
        drawer.close()
        shutil.rmtree(work, ignore_errors=True)
        raise
    drawer.close()
    install(work, folder, out, first)
    files = 2 + lists + -(-len(results) // GAME_BLOCK)  # the page, the mark, the blocks
    return Written(out, "paged", len(results), folder, files)


def write_report(
    directory: Path,
    out: Path,
    *,
    layout: Layout = "auto",
    max_positions: int | None = None,
    jobs: int = 1,
) -> Written:
    """Write the report of the event in ``directory`` to the page ``out`` (and, paged,
    its block folder ``blocks_folder(out)``); missing folders on the way are made.

    ``max_positions``: board positions drawn, games taken whole in journal order while
    they last; None is ``DEFAULT_MAX_POSITIONS`` for a single page and every position
    for a paged report. ``jobs``: processes drawing a paged report's games.

    :raises JournalError: no event, or an unreadable journal.
    :raises ReportError: the block folder's place is taken by something else, or the
        page or the folder cannot be written (``writing``).
    """
    with writing(out):
        return _write_report(directory, out, layout, max_positions, jobs)


def _write_report(
    directory: Path, out: Path, layout: Layout, max_positions: int | None, jobs: int
) -> Written:
    stream = open_event(directory)
    folder = blocks_folder(out)
    _check_folder(folder)
    tally = stream.tally()  # the void games, which the game list does not hold
    voids = (tally.voids, tally.runner_voids)
    games = stream.games()
    head: list[GameReport] = []
    if layout != "paged":
        limit = None if layout == "single" else SINGLE_LIMIT + 1
        head = list(islice(games, limit))
        if layout == "single" or len(head) <= SINGLE_LIMIT:
            event = Event(directory, stream.info, tuple(head), *voids)
            positions = DEFAULT_MAX_POSITIONS if max_positions is None else max_positions
            page = build_report(event, max_positions=positions)
            out.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(out, page)
            remove_folder(folder)  # a paged report's blocks, now unused
            return Written(out, "single", len(head))
    return _write_paged(
        directory, stream.info, chain(head, games), out, max_positions, jobs, voids
    )
