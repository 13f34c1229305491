"""The engines' evaluations of a recorded game, for the HTML pages (pure).

Each move's comment may carry the mover's last reported search items (``d=``, ``n=``,
``s=``, ``protocol/RECORD.md`` §3.1). ``evaluation_chart`` draws the score over the
plies, one line per seat: the share of the points (0–1000 thousandths) the engine to
move gave that seat, with a dashed line at the even split; a ply without a score leaves
a gap. A game without any score gets no chart (an empty string). Next to a move the page shows
``referee.record.comment.search_note``, the record's own d/n/s text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from protocol.search_info import ForcedWin
from referee.record import GameRecord
from referee.record.comment import search_note
from referee.score_rules import shares_of
from tournaments.html.chart import Series, line_chart
from tournaments.html.page import esc

Movers = Sequence[int | None]
"""The 0-based seat to move before each ply (None where the replay could not tell)."""


def movers_of(states: Sequence[Any]) -> list[int | None]:
    """The seat to move in each replayed position but the last (one per replayed ply)."""
    return [state.to_move for state in states[:-1]]


def seat_shares(record: GameRecord, movers: Movers) -> list[tuple[int, ...] | None]:
    """Each ply's shares per seat (None without a usable score)."""
    players = record.players
    shares: list[tuple[int, ...] | None] = []
    for ply, move in enumerate(record.moves):
        score = move.note.score
        mover = movers[ply] if ply < len(movers) else None
        if isinstance(score, ForcedWin) and mover is None:
            shares.append(None)  # a forced win, but for whom the replay cannot say
        else:
            shares.append(shares_of(score, mover if mover is not None else 0, players))
    return shares


def evaluation_chart(record: GameRecord, movers: Movers) -> str:
    """A ``<figure class="chart evaluation">`` of the game's scores, or ``""`` if it has none."""
    if not any(move.comment and "s=" in move.comment for move in record.moves):
        return ""  # no score can be read without an ``s=`` word: no chart, at once
    shares = seat_shares(record, movers)
    if all(s is None for s in shares):
        return ""
    names = record.seats
    series = [
        Series(
            f"seat {seat + 1} {names[seat]}" if seat < len(names) else f"seat {seat + 1}",
            tuple(
                (float(ply), None if s is None else float(s[seat]))
                for ply, s in enumerate(shares, start=1)
            ),
        )
        for seat in range(record.players)
    ]
    even = 1000 / record.players
    chart = line_chart(
        series,
        title="Evaluation: each seat's share of the points, by the engine to move",
        x_label="ply",
        y_label="share (‰)",
        hlines=[("even", even)],
        y_range=(0.0, 1000.0),
    )
    scored = sum(1 for s in shares if s is not None)
    caption = f"Evaluation ({scored} of {len(shares)} plies with a score)"
    head = f'<figure class="chart evaluation"><figcaption>{esc(caption)}</figcaption>'
    return f"{head}{chart}</figure>"


def moves_with_search(record: GameRecord) -> str:
    """The movetext as a ``<div class="moves">`` with each move's d/n/s beside it."""
    players = max(1, record.players)
    parts: list[str] = []
    for ply, entry in enumerate(record.moves, start=1):
        if (ply - 1) % players == 0:
            parts.append(f"{(ply - 1) // players + 1}.")
        note = search_note(entry.note.search)
        extra = f' <small class="search">{esc(note)}</small>' if note else ""
        parts.append(f"<b>{esc(entry.text)}</b>{extra}")
    return '<div class="moves">' + " ".join(parts) + "</div>"
