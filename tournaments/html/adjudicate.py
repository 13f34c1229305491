"""The page of ``referee adjudicate FILE.tgn --html OUT.html``: one verdict per game.

Each disputed game shows the board where the dispute is:

* ``illegal-move``: the position before the bad move, with the move named and, when
  it parses in that position, drawn as the picture's highlighted move;
* ``wrong-result``: the final position, with the claimed and the correct result;
* ``invalid-record``: no position exists; the reason only.

Confirmed games get a line each and no picture (nothing is in dispute), which keeps
the page small for large files. Every game whose moves carry the engines' scores
(``s=`` items) also gets its evaluation chart and its moves with ``d=``/``n=``/``s=``:
under the board for a dispute, in a closed "Evaluations" entry for a confirmed game.
The verdicts come from ``referee.adjudicate``; the positions are replayed here the
same way (``tournaments.html.replay.replay``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from referee.adjudicate import Verdict, VerdictKind
from referee.errors import RulesError
from referee.pictures import LastMove
from referee.record import GameRecord
from tournaments.html.evaluation import evaluation_chart, movers_of, moves_with_search
from tournaments.html.page import esc, page, table
from tournaments.html.replay import Picture, replay, svg_picture


def _movers(record: GameRecord) -> list[int | None]:
    """The seat to move before each ply, as far as the record replays."""
    try:
        return movers_of(replay(record).states)
    except RulesError:
        return []


def _has_scores(record: GameRecord) -> bool:
    return any(move.note.score is not None for move in record.moves)


def _dispute_picture(record: GameRecord, verdict: Verdict, picture: Picture) -> str:
    """The picture at the dispute, with a caption, and the evaluation chart under it;
    empty when there is no position."""
    upto = None if verdict.ply is None else verdict.ply - 1
    try:
        replayed = replay(record, upto)
    except RulesError:
        return ""
    game, state = replayed.game, replayed.states[-1]
    if verdict.verdict is VerdictKind.ILLEGAL_MOVE:
        move: Any = None
        with contextlib.suppress(RulesError):
            move = game.parse_move(state, verdict.move or "")
        drawn = None
        if move is not None:
            try:
                drawn = picture(game, state, move)
            except (RulesError, ValueError, KeyError, IndexError):
                drawn = None  # a move the picture cannot place: draw the position alone
        art = drawn if drawn is not None else picture(game, state, None)
        if drawn is not None:
            shown = "drawn as the picture's last move"
        elif move is None:
            shown = "not drawn: it does not parse in this position"
        else:
            shown = "not drawn: the picture cannot show it"
        caption = (
            f"The position before move {verdict.ply} of the movetext; "
            f"the move <b>{esc(verdict.move)}</b> ({shown})."
        )
    else:
        states, moves = replayed.states, replayed.moves
        last = LastMove(states[-2], moves[-1]) if moves else None
        art = picture(game, state, last)
        caption = (
            f"The final position. Claimed result <b>{esc(verdict.claimed)}</b>, "
            f"correct result <b>{esc(verdict.correct)}</b>."
        )
    chart = evaluation_chart(record, _movers(record)) if _has_scores(record) else ""
    return (
        f'<figure><div class="board">{art}</div><figcaption>{caption}</figcaption></figure>{chart}'
    )


def build_adjudication_page(
    source: str,
    records: Sequence[GameRecord],
    verdicts: Sequence[Verdict],
    *,
    picture: Picture | None = None,
) -> str:
    """The HTML page of ``verdicts[i]`` for ``records[i]`` (same length, file order).

    :raises ValueError: the sequences differ in length.
    """
    if len(records) != len(verdicts):
        raise ValueError(f"{len(records)} records but {len(verdicts)} verdicts")
    picture = picture or svg_picture
    disputed = sum(1 for v in verdicts if not v.confirmed)
    rows: list[list[object]] = []
    sections: list[str] = []
    evaluations: list[str] = []
    for index, (record, verdict) in enumerate(zip(records, verdicts, strict=True), start=1):
        seats = " vs ".join(record.seats)
        where = "" if verdict.ply is None else f"ply {verdict.ply}"
        rows.append([index, seats, verdict.verdict.value, where, verdict.reason])
        scored = _has_scores(record)
        if verdict.confirmed:
            if scored:
                evaluations.append(
                    f'<details class="game" id="eval-{index}"><summary>Game {index}: '
                    f"{esc(seats)} · <b>{esc(record.result)}</b> · "
                    f"{esc(record.termination.value)}</summary>"
                    f"{evaluation_chart(record, _movers(record))}"
                    f"{moves_with_search(record)}</details>"
                )
            continue
        tags = table(["Tag", "Value"], record.tags, css_class="tags", text_columns=(0, 1))
        seat = f", seat {verdict.seat}" if verdict.seat is not None else ""
        move = f", move {esc(verdict.move)}" if verdict.move is not None else ""
        sections.append(
            f'<section class="verdict" id="game-{index}" data-verdict="{verdict.verdict.value}">'
            f"<h3>Game {index}: {esc(seats)}: "
            f'<span class="bad">{esc(verdict.verdict.value)}</span>'
            f"{' at ' + esc(where) if where else ''}{seat}{move}</h3>"
            f"<p>{esc(verdict.reason)}</p>{_dispute_picture(record, verdict, picture)}"
            f"{moves_with_search(record) if scored else ''}{tags}"
            "</section>"
        )
    summary = f"{len(verdicts)} game(s), {disputed} disputed"
    klass = "good" if disputed == 0 else "bad"
    body = (
        f"<h1>Adjudication of {esc(source)}</h1><p class={klass}>{esc(summary)}</p>"
        + table(["Game", "Seats", "Verdict", "Where", "Reason"], rows, text_columns=(1, 2, 3, 4))
        + ("<h2>Disputes</h2>" + "".join(sections) if sections else "")
        + ("<h2>Evaluations</h2>" + "".join(evaluations) if evaluations else "")
    )
    return page(f"Adjudication of {source}", body)
