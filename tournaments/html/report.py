"""``referee report``: one self-contained HTML page of a tournament directory.

The page holds, in order: the standings, forfeits by type, the pairwise crosstable,
the ratings (Elo against the field and per pair for two seats, Plackett–Luce for
more) and the SPRT line, charts of points and ratings over the course of the event
(and of the SPRT's log-likelihood ratio with its bounds), then every game with its
tags, termination and moves, replayable position by position (each laid out by
``tournaments.html.game_view``).

Every table is the one ``referee standings`` prints: the same
``tournaments.store.event_dir.read_event`` reads the directory, the same
``tournaments.results.summary.summarize`` computes it and the same row builders lay it out;
``summary_json`` (what ``results.json`` holds) is embedded as
``<script id="results-data" type="application/json">``.

Page size: at most ``max_positions`` positions are drawn (default
``DEFAULT_MAX_POSITIONS``): games are taken in journal order and each is drawn whole
if it still fits, else not at all (it still shows its tags and moves, with a note);
the pictures' shared parts are stored once (``html_replay.FramePool``). No picture
is in the HTML itself: they sit in one JSON block and the page's script puts the
current one in place, so the document the browser lays out stays small.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from referee.core import Termination
from tournaments.html.chart import Series, line_chart
from tournaments.html.game_view import GameViews, game_list, game_view, parse_game
from tournaments.html.limits import DEFAULT_MAX_POSITIONS
from tournaments.html.page import esc, json_block, page, table
from tournaments.html.replay import REPLAY_SCRIPT, FramePool, PicturePieces, svg_pieces
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, Summary, summarize, summary_json
from tournaments.results.tables import (
    crosstable_names,
    crosstable_rows,
    crosstable_title,
    elo_rows,
    pair_rows,
    rating_rows,
    sprt_line,
    standings_rows,
    title,
    unlisted,
)
from tournaments.results.timeline import llr_series, points_series, rating_series, timeline
from tournaments.store.event_dir import Event

FORFEITS = tuple(t.value for t in Termination if t.is_forfeit)
"""The forfeit types, in ``Termination`` order: the columns of "Forfeits by type"."""


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float replaced by None (JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


# --- tables ------------------------------------------------------------------------------


def _section(anchor: str, heading: str, content: str) -> str:
    return f'<section id="{esc(anchor)}"><h2>{esc(heading)}</h2>{content}</section>'


def _plain_table(rows: tuple[list[str], list[list[object]]], css_class: str) -> str:
    headers, cells = rows
    text = {i for i, h in enumerate(headers) if h in ("Entrant", "Pair", "Forfeits")}
    return table(headers, cells, css_class=css_class, text_columns=text)


def forfeit_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells: each entrant's forfeits per type (standings order), then totals."""
    headers = ["Entrant", *FORFEITS, "Total"]
    cells: list[list[object]] = []
    totals = [0] * len(FORFEITS)
    for row in summary.rows:
        counts = [row.forfeits.get(kind, 0) for kind in FORFEITS]
        totals = [t + c for t, c in zip(totals, counts, strict=True)]
        cells.append([row.name, *counts, sum(counts)])
    cells.append(["all", *totals, sum(totals)])
    return headers, cells


def _unlisted_note(summary: Summary) -> str:
    """A line on the entrants the tables leave out (a field over ``LIST_LIMIT``)."""
    left_out = unlisted(summary)
    return f"<p>{left_out} entrants without a game are not listed.</p>" if left_out else ""


def _crosstable(summary: Summary) -> str:
    headers, cells = crosstable_rows(summary)
    order = crosstable_names(summary)
    if order is None:  # a huge field: the heading says why there is no table
        return f"<p>{esc(crosstable_title(summary))}</p>"
    attrs: dict[tuple[int, int], str] = {}
    for r, a in enumerate(order):
        for c, b in enumerate(order):
            if a == b:
                attrs[(r, c + 2)] = 'class="self"'
                continue
            points, games = summary.cross.get((a, b), (0.0, 0))
            attrs[(r, c + 2)] = (
                f'data-entrant="{esc(a)}" data-opponent="{esc(b)}" '
                f'data-points="{points!r}" data-games="{games}"'
            )
    crosstable = table(headers, cells, css_class="crosstable", cell_attrs=attrs)
    if len(order) < len(summary.rows):  # a large field: say whom it shows
        return f"<p>{esc(crosstable_title(summary))}</p>{crosstable}"
    return crosstable


def _ratings(summary: Summary) -> str:
    parts: list[str] = []
    if summary.info.players == 2:
        parts.append("<h3>Elo against the field (95% error bars)</h3>")
        parts.append(_plain_table(elo_rows(summary), "elo"))
        if summary.pairs:
            parts.append("<h3>Pairs</h3>")
            parts.append(_plain_table(pair_rows(summary), "pairs"))
    else:
        parts.append("<h3>Plackett–Luce ratings (Elo scale, mean 0, 95% error bars)</h3>")
        parts.append(_plain_table(rating_rows(summary), "ratings"))
    line = sprt_line(summary)
    if line is not None:
        parts.append(f'<p class="sprt">{esc(line)}</p>')
    return "".join(parts)


def _charts(info: EventInfo, games: Sequence[GameReport], order: Sequence[str]) -> str:
    samples = timeline(info, games)
    if not samples:
        return '<p class="note">No finished game yet.</p>'

    def ordered(series: dict[str, list[tuple[float, float | None]]]) -> list[Series]:
        names = [n for n in order if n in series] + [n for n in series if n not in order]
        return [Series(name, tuple(series[name])) for name in names]

    x_label = "games finished (journal order)"
    parts = [
        line_chart(
            ordered(points_series(samples)),
            title="Tournament points",
            x_label=x_label,
            y_label="points",
        )
    ]
    if info.players == 2:
        rating_title, rating_axis = "Elo against the field (unbounded values left out)", "Elo"
    else:
        rating_title, rating_axis = "Plackett–Luce rating", "rating"
    parts.append(
        line_chart(
            ordered(rating_series(samples)),
            title=rating_title,
            x_label=x_label,
            y_label=rating_axis,
        )
    )
    llr = llr_series(samples)
    sprt = info.sprt
    if llr and sprt is not None:
        parts.append(
            line_chart(
                [Series("LLR", tuple(llr))],
                title="SPRT log-likelihood ratio",
                x_label=x_label,
                y_label="LLR",
                hlines=[("H1", sprt.upper), ("H0", sprt.lower)],
            )
        )
    note = (
        f'<p class="note">Each point is the tables after that many games ({len(samples)} '
        "points: long events are sampled evenly).</p>"
    )
    titles = ["Tournament points", rating_title, "SPRT log-likelihood ratio"]
    return note + "".join(
        f'<figure class="chart"><figcaption>{esc(name)}</figcaption>{chart}</figure>'
        for name, chart in zip(titles, parts, strict=False)
    )


# --- the page ----------------------------------------------------------------------------


def event_sections(
    info: EventInfo, summary: Summary, games: Sequence[GameReport], directory: object
) -> str:
    """Everything a report shows before its games: the title, the facts, the links, the
    tables and the charts (``games``: the finished games in journal order; their
    records are not read)."""
    order = [row.name for row in summary.rows]
    facts = (
        f"{esc(info.game)}, {info.players} seats, {summary.done} of {info.total} games "
        f"finished, entrants: {esc(', '.join(info.names))}. Directory: {esc(directory)}."
    )
    if summary.voids:
        facts += (
            f" {summary.voids} void game(s) played again, {summary.runner_voids} of them"
            " because the runner itself was late (no engine blamed)."
        )
    nav = "".join(
        f'<a href="#{anchor}">{label}</a>'
        for anchor, label in (
            ("standings", "Standings"),
            ("forfeits", "Forfeits"),
            ("crosstable", "Crosstable"),
            ("ratings", "Ratings"),
            ("course", "Course of the event"),
            ("games", "Games"),
        )
    )
    return "".join(
        [
            f"<h1>{esc(title(summary))}</h1><p>{facts}</p><nav>{nav}</nav>",
            _section(
                "standings",
                "Standings",
                _unlisted_note(summary) + _plain_table(standings_rows(summary), "standings"),
            ),
            _section(
                "forfeits", "Forfeits by type", _plain_table(forfeit_rows(summary), "forfeits")
            ),
            _section(
                "crosstable",
                "Crosstable (pairwise points: ahead 1, tied 1/2, behind 0)",
                _crosstable(summary),
            ),
            _section("ratings", "Ratings", _ratings(summary)),
            _section("course", "Course of the event", _charts(info, games, order)),
        ]
    )


def build_report(
    event: Event,
    *,
    max_positions: int = DEFAULT_MAX_POSITIONS,
    picture: PicturePieces | None = None,
) -> str:
    """The whole HTML page of ``event`` (see the module docstring).

    ``picture`` draws one position (default: ``referee.pictures.position_parts``).
    """
    summary = summarize(event.info, list(event.games))
    summary = replace(summary, voids=event.voids, runner_voids=event.runner_voids)
    games = GameViews(FramePool(), picture or svg_pieces, max(0, max_positions), [])
    records = [parse_game(report) for report in event.games]
    game_html = [
        game_view(report, record, i, games)
        for i, (report, record) in enumerate(zip(event.games, records, strict=True))
    ]
    drawn_note = (
        f"{games.drawn_games} of {len(event.games)} games replayable "
        f"({games.pool.pictures} positions drawn)."
    )
    body = "".join(
        [
            event_sections(event.info, summary, event.games, event.directory),
            _section(
                "games",
                "Games",
                f'<p class="note">{esc(drawn_note)} Open a game, then step with the buttons, '
                "the left and right arrow keys, Home and End, or click a move.</p>"
                + game_list(event.games, records)
                + "".join(game_html),
            ),
            json_block("results-data", json_safe(summary_json(summary))),
            json_block("replay-data", {"parts": games.pool.parts, "games": games.replays}),
        ]
    )
    return page(f"{title(summary)} - referee report", body, script=REPLAY_SCRIPT)
