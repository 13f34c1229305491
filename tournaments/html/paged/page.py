"""The paged report's first page: the single page's tables and charts, then the game
list's frame that ``tournaments.html.paged.script`` fills from the block files.

Pure: its size depends on the entrants and the charts' samples, not on the number of
games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tournaments.html.page import esc, json_block, page
from tournaments.html.paged.blocks import GAME_BLOCK, LIST_BLOCK
from tournaments.html.paged.script import PAGED_SCRIPT
from tournaments.html.report import event_sections, json_safe
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, summarize, summary_json
from tournaments.results.tables import title

PAGE_SIZE = 50
"""Rows of the game list per page."""

CSP_SCRIPTS = "'unsafe-inline' 'self' file:"
"""Where the first page may load scripts from: itself and its block files (``file:``
for a page opened from the file system, ``'self'`` for one served)."""


@dataclass(frozen=True, slots=True)
class Column:
    """A column of the game list (the first is the game number, its link)."""

    title: str
    name: bool = False
    """A text column (left-aligned)."""
    search: str | None = None
    """The prefix of the column's value in a game's searched line; None: not searched."""


REPORT_COLUMNS = (
    Column("Game", search="#"),
    Column("Round", search="round "),
    Column("Seats", True, ""),
    Column("Result", True, ""),
    Column("Termination", True, ""),
    Column("Plies"),
)
"""The report's list: the columns of ``blocks.list_row``."""


@dataclass(frozen=True, slots=True)
class Drawn:
    """How much of the event the block files can replay."""

    games: int
    positions: int


def games_section(note: str, columns: Sequence[Column]) -> str:
    """The game list's frame (search box, pager, empty table, game view) under ``note``."""
    pager = (
        '<div class="pager">'
        '<button type="button" data-page="first" title="first page">|&lt;</button>'
        '<button type="button" data-page="prev" title="previous page">&lt;</button> '
        'page <input class="page" type="number" min="1" value="1" aria-label="page"> '
        '<span class="pages"></span> '
        '<button type="button" data-page="next" title="next page">&gt;</button>'
        '<button type="button" data-page="last" title="last page">&gt;|</button></div>'
    )
    finder = (
        '<p class="finder"><input type="search" id="game-search" size="48" '
        'placeholder="Search: words of a game\'s line, #17 for game 17" '
        'aria-label="search the games"> <span class="found"></span></p>'
    )
    head = (
        "<tr>"
        + "".join(
            f"<th class=name>{esc(c.title)}</th>" if c.name else f"<th>{esc(c.title)}</th>"
            for c in columns
        )
        + "</tr>"
    )
    return (
        '<section id="games"><h2>Games</h2>'
        f'<p class="note">{esc(note)}</p>{finder}{pager}'
        '<p class="problem bad"></p>'
        f'<table class="games"><thead>{head}</thead><tbody></tbody></table>'
        '<div id="game-view"></div></section>'
    )


def paged_meta(games: int, folder: str, columns: Sequence[Column]) -> dict[str, object]:
    """The ``paged-data`` block the script reads (``tournaments.html.paged.script``)."""
    return {
        "games": games,
        "folder": folder,
        "list_block": LIST_BLOCK,
        "game_block": GAME_BLOCK,
        "page_size": PAGE_SIZE,
        "columns": [{"title": c.title, "name": c.name, "search": c.search} for c in columns],
    }


def _games_note(count: int, folder: str, drawn: Drawn) -> str:
    return (
        f"{count:,} games, {drawn.games:,} of them replayable ({drawn.positions:,} positions "
        f"drawn). The list and each game are read from the folder {folder} next to this "
        "page when needed: keep the two together. Open a game, then step with the "
        "buttons, the left and right arrow keys, Home and End, or click a move."
    )


def build_first_page(
    info: EventInfo,
    games: Sequence[GameReport],
    directory: object,
    folder: str,
    drawn: Drawn,
    voids: tuple[int, int] = (0, 0),
) -> str:
    """The first page of the paged report of ``games`` (journal order, records not
    read), whose block files are in ``folder`` (relative to the page); ``voids``: the
    event's void games and, of them, those voided by the runner's own lateness (in the
    facts line and ``results-data``, as on a single page)."""
    summary = replace(summarize(info, games), voids=voids[0], runner_voids=voids[1])
    meta = paged_meta(len(games), folder, REPORT_COLUMNS)
    body = "".join(
        [
            event_sections(info, summary, games, directory),
            games_section(_games_note(len(games), folder, drawn), REPORT_COLUMNS),
            json_block("results-data", json_safe(summary_json(summary))),
            json_block("paged-data", meta),
        ]
    )
    return page(
        f"{title(summary)} - referee report", body, script=PAGED_SCRIPT, scripts=CSP_SCRIPTS
    )
