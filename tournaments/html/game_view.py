"""One game as a report shows it, and the list of games.

``game_view`` is a game's ``<details class="game">``: its summary line, the board with
its stepping controls (when drawn), termination, notes, the moves (clickable while drawn)
and the tags; ``GameViews`` collects the replay data the page's script steps through
(``tournaments.html.replay``) within a budget of positions. The single page
(``tournaments.html.report``) holds every view; the paged report
(``tournaments.html.paged``) keeps each in a block file loaded when the game is opened:
both lay out a game with the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import RulesError
from referee.record import GameRecord, RecordSyntaxError, parse_records
from referee.record.comment import search_note
from tournaments.html.evaluation import evaluation_chart, movers_of
from tournaments.html.page import esc, table
from tournaments.html.replay import FramePool, PicturePieces, Replay, replay, replay_frames
from tournaments.results.game import GameReport


def moves_html(record: GameRecord, drawn: int) -> str:
    """The movetext; plies below ``drawn`` are clickable (``data-ply``)."""
    players = max(1, record.players)
    parts = ['<span data-ply="0">start</span>' if drawn else "start"]
    for ply, entry in enumerate(record.moves, start=1):
        if (ply - 1) % players == 0:
            parts.append(f"{(ply - 1) // players + 1}.")
        hint = f' title="{esc(entry.comment)}"' if entry.comment else ""
        note = search_note(entry.note.search)
        extra = f' <small class="search">{esc(note)}</small>' if note else ""
        if ply < drawn:
            parts.append(f'<span data-ply="{ply}"{hint}>{esc(entry.text)}</span>{extra}')
        else:
            parts.append((f"<b{hint}>{esc(entry.text)}</b>" if drawn else esc(entry.text)) + extra)
    return '<div class="moves">' + " ".join(parts) + "</div>"


def controls() -> str:
    buttons = (
        ("first", "|&lt;", "first position (Home)"),
        ("prev", "&lt;", "previous ply (left arrow)"),
        ("next", "&gt;", "next ply (right arrow)"),
        ("last", "&gt;|", "last position (End)"),
    )
    html = "".join(
        f'<button type="button" data-step="{step}" title="{hint}">{label}</button>'
        for step, label, hint in buttons
    )
    return f'<div class="controls">{html} <span class="ply"></span></div>'


@dataclass
class GameViews:
    """The games' HTML and the replay data the page's script reads."""

    pool: FramePool
    picture: PicturePieces
    budget: int
    replays: list[dict[str, Any] | None]
    drawn_games: int = 0
    draw: Callable[[GameRecord, Replay], Any] | None = None
    """Draws a game instead of ``replay_frames(replayed, pool, picture)``, its value
    going to ``replays`` as the game's ``frames`` (the paged report's worker: a pool
    shared by its blocks, a game drawn once however often it was played)."""


def parse_game(report: GameReport) -> GameRecord | str:
    """The game's record, or why it cannot be read."""
    try:
        records = parse_records(report.record, f"game {report.number}")
    except RecordSyntaxError as exc:
        return str(exc)
    return records[0] if len(records) == 1 else f"{len(records)} records instead of one"


def game_view(report: GameReport, record: GameRecord | str, index: int, games: GameViews) -> str:
    seats = " vs ".join(report.seats)
    if isinstance(record, str):
        games.replays.append(None)
        return (
            f'<details class="game" id="game-{report.number}"><summary>Game {report.number}: '
            f"{esc(seats)} (unreadable record)</summary><p class=bad>{esc(record)}</p>"
            f"<pre>{esc(report.record)}</pre></details>"
        )
    notes: list[str] = []
    drawn = 0
    movers: list[int | None] = []
    try:
        replayed = replay(record)
    except RulesError as exc:
        notes.append(f"The record cannot be set up: {exc}")
    else:
        movers = movers_of(replayed.states)
        if replayed.problem is not None:
            notes.append(f"Replay stopped at {replayed.problem}")
        if len(replayed.states) <= games.budget:
            frames = (
                games.draw(record, replayed)
                if games.draw is not None
                else replay_frames(replayed, games.pool, games.picture)
            )
            games.replays.append({"frames": frames})
            games.budget -= len(replayed.states)
            games.drawn_games += 1
            drawn = len(replayed.states)
        else:
            notes.append(
                "Not drawn: the report's budget of positions is spent "
                "(see --max-positions); the moves and tags are below."
            )
    if not drawn:
        games.replays.append(None)
    termination = record.termination.value
    reason = record.reason or report.outcome.reason
    summary = (
        f"Game {report.number} · round {report.round} · {esc(seats)} · "
        f"<b>{esc(record.result)}</b> · {esc(termination)} · {len(record.moves)} plies"
    )
    tags = table(["Tag", "Value"], record.tags, css_class="tags", text_columns=(0, 1))
    info = f"<p>Termination: <b>{esc(termination)}</b>{': ' + esc(reason) if reason else ''}</p>"
    chart = evaluation_chart(record, movers)
    board = (
        f'<div class="boardcol">{controls()}<div class="board"></div>{chart}</div>' if drawn else ""
    )
    note = "".join(f'<p class="note">{esc(n)}</p>' for n in notes) + ("" if drawn else chart)
    attrs = f' data-game="{index}"' if drawn else ""
    return (
        f'<details class="game" id="game-{report.number}"{attrs}><summary>{summary}</summary>'
        f'<div class="replay">{board}<div class="side">{info}{note}'
        f"{moves_html(record, drawn)}{tags}</div></div></details>"
    )


def game_list(reports: Sequence[GameReport], records: Sequence[GameRecord | str]) -> str:
    rows = []
    for report, record in zip(reports, records, strict=True):
        result = record.result if isinstance(record, GameRecord) else "?"
        rows.append(
            f'<tr><td><a href="#game-{report.number}">{report.number}</a></td>'
            f"<td>{report.round}</td><td class=name>{esc(' vs '.join(report.seats))}</td>"
            f"<td class=name>{esc(result)}</td>"
            f"<td class=name>{esc(report.outcome.termination.value)}</td>"
            f"<td>{report.plies}</td></tr>"
        )
    head = (
        "<tr><th>Game</th><th>Round</th><th class=name>Seats</th><th class=name>Result</th>"
        "<th class=name>Termination</th><th>Plies</th></tr>"
    )
    return f'<table class="games"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
