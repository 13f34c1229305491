"""``referee adjudicate --html`` of a file of any size: one page, or a first page and blocks.

The rule is the report's (``tournaments.html.paged.writer``): up to ``SINGLE_LIMIT``
games, the single self-contained page of ``tournaments.html.adjudicate``; above, a first
page (the summary and the searchable, paged list of verdicts, its size independent of the
file's) and the folder ``blocks_folder(out)`` of block files in the report's format: list
blocks of rows ``[game, seats, verdict, where, reason]`` and game blocks whose entries
are each game's view (a dispute's board and tags, a confirmed game's evaluations or one
line), opened with the report's own script (``tournaments.html.paged.script``).

Streaming: the verdicts come in file order; each block is written as soon as it is full,
so memory holds one list block and one game block of views, whatever the file's size.
The single page is spooled beside them until the count passes the limit (then dropped).
Files: as the report's, a temporary folder replaces the previous block folder only once
the first page is ready; a folder of that name we did not write stops the command.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import TracebackType

from referee.adjudicate import Verdict
from referee.record import GameRecord
from tournaments.html.adjudicate import (
    AdjudicationPage,
    dispute_section,
    evaluation_entry,
    has_scores,
    summary_top,
    title_of,
)
from tournaments.html.limits import SINGLE_LIMIT
from tournaments.html.page import esc, json_block, page
from tournaments.html.paged.blocks import GAME_BLOCK, LIST_BLOCK, block_name, list_block
from tournaments.html.paged.blocks import packed_call as _packed_call
from tournaments.html.paged.page import CSP_SCRIPTS, Column, games_section, paged_meta
from tournaments.html.paged.script import PAGED_SCRIPT
from tournaments.html.paged.writer import (
    blocks_folder,
    check_folder,
    install,
    remove_folder,
    start_folder,
    writing,
)
from tournaments.html.replay import Picture, svg_picture

COLUMNS = (
    Column("Game", search="#"),
    Column("Seats", True, ""),
    Column("Verdict", True, ""),
    Column("Where", True, ""),
    Column("Reason", True, ""),
)
"""The columns of the verdict list (each searched)."""


def game_entry(
    index: int, seats: str, verdict: Verdict, record: GameRecord | None, picture: Picture
) -> str:
    """A game's view in a block: a closed ``details.game`` the script opens."""
    if not verdict.confirmed:
        inner = dispute_section(index, seats, verdict, record, picture, anchor=False)
        summary = f'<span class="bad">{esc(verdict.verdict.value)}</span>'
    elif record is not None and has_scores(record):
        return evaluation_entry(index, seats, record, anchor=f"game-{index}")
    else:
        inner = "<p>Confirmed: every move is legal and the result is right.</p>"
        summary = "confirmed"
    return (
        f'<details class="game" id="game-{index}"><summary>Game {index}: {esc(seats)} · '
        f"{summary}</summary>{inner}</details>"
    )


class VerdictPages:
    """The page(s) of a file's verdicts, written as they come (see the module docstring).

    Use in a ``with`` block; ``finish`` puts the result in place, leaving without it
    leaves nothing behind.

    :raises ReportError: (constructor) the block folder's place is taken by something
        else, or the page's folder cannot be made (a file in its way); (every method) the
        page or its folder cannot be written (``writing``).
    """

    def __init__(
        self,
        source: str,
        out: Path,
        *,
        single_limit: int = SINGLE_LIMIT,
        picture: Picture | None = None,
    ) -> None:
        self.source = source
        self.out = out
        self.single_limit = single_limit
        self.count = 0
        self.disputed = 0
        self.folder = blocks_folder(out)
        check_folder(self.folder)
        self._picture = picture or svg_picture
        self._work: Path | None = None
        with writing(out):
            # A missing folder of the page is made, as ``referee report --out`` makes it
            # (``write_report``); the single page opens its file there first.
            out.parent.mkdir(parents=True, exist_ok=True)
            self._single: AdjudicationPage | None = AdjudicationPage(source, out, picture=picture)
            try:
                self._work = start_folder(self.folder)
            except BaseException:
                self.close()
                raise
        self._rows: list[list[object]] = []
        self._views: list[str] = []
        self.layout = "single"

    def add(self, verdict: Verdict, seats: str = "", record: GameRecord | None = None) -> None:
        """The next game's verdict; ``record`` when ``page_needs`` it (else None)."""
        with writing(self.out):
            self._add(verdict, seats, record)

    def _add(self, verdict: Verdict, seats: str, record: GameRecord | None) -> None:
        self.count += 1
        self.disputed += not verdict.confirmed
        if self._single is not None:
            self._single.add(verdict, seats, record)
            if self.count > self.single_limit:
                self._single.close()
                self._single = None
        where = "" if verdict.ply is None else f"ply {verdict.ply}"
        self._rows.append([self.count, seats, verdict.verdict.value, where, verdict.reason])
        self._views.append(game_entry(self.count, seats, verdict, record, self._picture))
        if len(self._rows) == LIST_BLOCK:
            self._write_list()
        if len(self._views) == GAME_BLOCK:
            self._write_games()

    def _write_list(self) -> None:
        assert self._work is not None
        k = (self.count - 1) // LIST_BLOCK
        (self._work / block_name("list", k)).write_text(list_block(k, self._rows))
        self._rows = []

    def _write_games(self) -> None:
        assert self._work is not None
        k = (self.count - 1) // GAME_BLOCK
        games = ",".join(f'{{"html":{_json_text(view)}}}' for view in self._views)
        text = _packed_call("games", k, f'{{"parts":{{}},"games":[{games}]}}')
        (self._work / block_name("games", k)).write_text(text, encoding="ascii")
        self._views = []

    def finish(self) -> None:
        """Write the single page, or the first page and the last blocks, and put them in
        place (a single page removes a block folder we wrote before)."""
        with writing(self.out):
            self._finish()

    def _finish(self) -> None:
        assert self._work is not None
        if self._single is not None:
            self._single.finish()
            self._single.close()
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None
            remove_folder(self.folder)
            return
        if self._rows:
            self._write_list()
        if self._views:
            self._write_games()
        note = (
            f"{self.count:,} games, {self.disputed:,} disputed. The list and each game's "
            f"view (a dispute's board) are read from the folder {self.folder.name} next to "
            "this page when needed: keep the two together. Search by any words of a "
            "game's line (illegal-move, a seat's name, #17 for game 17)."
        )
        body = (
            summary_top(self.source, self.count, self.disputed)
            + games_section(note, COLUMNS)
            + json_block("paged-data", paged_meta(self.count, self.folder.name, COLUMNS))
        )
        first = page(title_of(self.source), body, script=PAGED_SCRIPT, scripts=CSP_SCRIPTS)
        work, self._work = self._work, None
        install(work, self.folder, self.out, first)
        self.layout = "paged"

    def close(self) -> None:
        """Remove what ``finish`` did not put in place."""
        if self._single is not None:
            self._single.close()
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None

    def __enter__(self) -> VerdictPages:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _json_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
