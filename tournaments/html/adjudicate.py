"""The page of ``referee adjudicate FILE.tgn --html OUT.html``: one verdict per game.

Each disputed game shows the board where the dispute is:

* ``illegal-move``: the position before the bad move, with the move named and, when
  it parses in that position, drawn as the picture's highlighted move;
* ``wrong-result``: the final position, with the claimed and the correct result;
* ``invalid-record``: no position exists; the reason only.

* a game that does not read (a broken record): the reader's message only.

Confirmed games get a line each and no picture (nothing is in dispute), which keeps
the page small for large files. Every game whose moves carry the engines' scores
(``s=`` items) also gets its evaluation chart and its moves with ``d=``/``n=``/``s=``:
under the board for a dispute, in a closed "Evaluations" entry for a confirmed game.
The verdicts come from ``referee.adjudicate``; the positions are replayed here the
same way (``tournaments.html.replay.replay``). ``AdjudicationPage`` writes the page of a
file of any size as its verdicts come, in memory that does not grow with the file;
``build_adjudication_page`` is the same page as one string.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from referee.adjudicate import Verdict, VerdictKind
from referee.errors import RulesError
from referee.pictures import LastMove
from referee.record import GameRecord
from tournaments.html.evaluation import evaluation_chart, movers_of, moves_with_search
from tournaments.html.page import (
    TABLE_TAIL,
    esc,
    page,
    page_frame,
    table,
    table_head,
    table_row,
)
from tournaments.html.replay import Picture, replay, svg_picture


def _movers(record: GameRecord) -> list[int | None]:
    """The seat to move before each ply, as far as the record replays."""
    try:
        return movers_of(replay(record).states)
    except RulesError:
        return []


def has_scores(record: GameRecord) -> bool:
    """Whether a move of ``record`` carries the engine's score (``s=``)."""
    return any(move.note.score is not None for move in record.moves)


def page_needs(record: GameRecord, verdict: Verdict) -> bool:
    """Whether the page draws something of ``record`` beyond its table row: a dispute's
    board, or a game's evaluations. (Worker processes send back only those records.)"""
    return not verdict.confirmed or has_scores(record)


def _dispute_picture(record: GameRecord, verdict: Verdict, picture: Picture) -> str:
    """The picture at the dispute, with a caption, and the evaluation chart under it;
    empty when there is no position."""
    try:
        # Verdict plies count from the game's initial position: the movetext starts
        # after the Start position's plies (an opening's).
        first = replay(record, 0).states[0].ply
        upto = None if verdict.ply is None else verdict.ply - 1 - first
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
            f"The position before ply {verdict.ply} (move {(upto or 0) + 1} of the "
            "movetext); "
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
    chart = evaluation_chart(record, _movers(record)) if has_scores(record) else ""
    return (
        f'<figure><div class="board">{art}</div><figcaption>{caption}</figcaption></figure>{chart}'
    )


HEADERS = ("Game", "Seats", "Verdict", "Where", "Reason")
"""The columns of the page's table of verdicts."""
_TEXT_COLUMNS = (1, 2, 3, 4)


def seats_text(record: GameRecord) -> str:
    """The seats as the page shows them: ``alpha vs beta``."""
    return " vs ".join(record.seats)


def verdict_row(index: int, seats: str, verdict: Verdict) -> str:
    """The table row of game ``index``."""
    where = "" if verdict.ply is None else f"ply {verdict.ply}"
    cells = [index, seats, verdict.verdict.value, where, verdict.reason]
    return table_row(cells, text_columns=_TEXT_COLUMNS)


def dispute_section(
    index: int,
    seats: str,
    verdict: Verdict,
    record: GameRecord | None,
    picture: Picture,
    *,
    anchor: bool = True,
) -> str:
    """The section of a disputed game: the verdict, the board at the dispute and the tags
    (``record`` None: a game that does not read, shown by the reader's message alone);
    ``anchor``: with the id ``game-N`` (a paged view's wrapper has it instead)."""
    where = "" if verdict.ply is None else f"ply {verdict.ply}"
    seat = f", seat {verdict.seat}" if verdict.seat is not None else ""
    move = f", move {esc(verdict.move)}" if verdict.move is not None else ""
    board = tags = ""
    if record is not None:
        board = _dispute_picture(record, verdict, picture)
        if has_scores(record):
            board += moves_with_search(record)
        tags = table(["Tag", "Value"], record.tags, css_class="tags", text_columns=(0, 1))
    ident = f' id="game-{index}"' if anchor else ""
    return (
        f'<section class="verdict"{ident} '
        f'data-verdict="{verdict.verdict.value}">'
        f"<h3>Game {index}: {esc(seats)}: "
        f'<span class="bad">{esc(verdict.verdict.value)}</span>'
        f"{' at ' + esc(where) if where else ''}{seat}{move}</h3>"
        f"<p>{esc(verdict.reason)}</p>{board}{tags}"
        "</section>"
    )


def evaluation_entry(index: int, seats: str, record: GameRecord, anchor: str = "") -> str:
    """The closed "Evaluations" entry of a confirmed game whose moves carry scores (its
    id ``anchor``, by default ``eval-N``)."""
    return (
        f'<details class="game" id="{anchor or f"eval-{index}"}"><summary>Game {index}: '
        f"{esc(seats)} · <b>{esc(record.result)}</b> · "
        f"{esc(record.termination.value)}</summary>"
        f"{evaluation_chart(record, _movers(record))}"
        f"{moves_with_search(record)}</details>"
    )


def title_of(source: str) -> str:
    """The page's title."""
    return f"Adjudication of {source}"


def summary_top(source: str, count: int, disputed: int) -> str:
    """The page's heading and its count of games and disputes."""
    summary = f"{count} game(s), {disputed} disputed"
    klass = "good" if disputed == 0 else "bad"
    return f"<h1>{esc(title_of(source))}</h1><p class={klass}>{esc(summary)}</p>"


def build_adjudication_page(
    source: str,
    records: Sequence[GameRecord | None],
    verdicts: Sequence[Verdict],
    *,
    picture: Picture | None = None,
) -> str:
    """The HTML page of ``verdicts[i]`` for ``records[i]`` (same length, file order; None
    for a game that does not read).

    :raises ValueError: the sequences differ in length.
    """
    if len(records) != len(verdicts):
        raise ValueError(f"{len(records)} records but {len(verdicts)} verdicts")
    picture = picture or svg_picture
    rows: list[str] = []
    sections: list[str] = []
    evaluations: list[str] = []
    for index, (record, verdict) in enumerate(zip(records, verdicts, strict=True), start=1):
        seats = "" if record is None else seats_text(record)
        rows.append(verdict_row(index, seats, verdict))
        if not verdict.confirmed:
            sections.append(dispute_section(index, seats, verdict, record, picture))
        elif record is not None and has_scores(record):
            evaluations.append(evaluation_entry(index, seats, record))
    disputed = len(sections)
    body = (
        summary_top(source, len(verdicts), disputed)
        + table_head(HEADERS, text_columns=_TEXT_COLUMNS)
        + "".join(rows)
        + TABLE_TAIL
        + ("<h2>Disputes</h2>" + "".join(sections) if sections else "")
        + ("<h2>Evaluations</h2>" + "".join(evaluations) if evaluations else "")
    )
    return page(title_of(source), body)


class AdjudicationPage:
    """The page of a file of any size, written as its verdicts come.

    Rows, dispute sections and evaluations go to unnamed temporary files beside ``out`` as
    they come; ``finish`` writes the page (its summary first) to a temporary file and renames
    it to ``out``, so ``out`` is either the old file or the whole new page. Use it in a
    ``with`` block: leaving it without ``finish`` (an error) leaves nothing behind.
    Memory holds one game's section at a time.

    :raises OSError: (from the constructor) ``out``'s folder cannot be written.
    """

    def __init__(self, source: str, out: Path, *, picture: Picture | None = None) -> None:
        self.source = source
        self.out = out
        self.count = 0
        self.disputed = 0
        self.evaluated = 0
        self._picture = picture or svg_picture
        self._partial = out.with_name(f".{out.name}.tmp")
        self._files = contextlib.ExitStack()
        try:
            # The files live as long as the page; ``close`` closes them all.
            page_file = open(self._partial, "w", encoding="utf-8")  # noqa: SIM115
            self._page: IO[str] = self._files.enter_context(page_file)
            self._rows = self._spool()
            self._sections = self._spool()
            self._evaluations = self._spool()
        except BaseException:
            self.close()
            raise

    def _spool(self) -> IO[str]:
        spool = tempfile.TemporaryFile("w+", encoding="utf-8", dir=self.out.parent)  # noqa: SIM115
        return self._files.enter_context(spool)

    def add(self, verdict: Verdict, seats: str = "", record: GameRecord | None = None) -> None:
        """The next game's verdict; ``record`` when ``page_needs`` it (else None)."""
        self.count += 1
        self._rows.write(verdict_row(self.count, seats, verdict))
        if not verdict.confirmed:
            self.disputed += 1
            section = dispute_section(self.count, seats, verdict, record, self._picture)
            self._sections.write(section)
        elif record is not None and has_scores(record):
            self.evaluated += 1
            self._evaluations.write(evaluation_entry(self.count, seats, record))

    def finish(self) -> None:
        """Write the page and put it in place of ``out``."""
        before, after = page_frame(title_of(self.source))
        self._page.write(before + summary_top(self.source, self.count, self.disputed))
        self._page.write(table_head(HEADERS, text_columns=_TEXT_COLUMNS))
        self._copy(self._rows)
        self._page.write(TABLE_TAIL)
        if self.disputed:
            self._page.write("<h2>Disputes</h2>")
            self._copy(self._sections)
        if self.evaluated:
            self._page.write("<h2>Evaluations</h2>")
            self._copy(self._evaluations)
        self._page.write(after)
        self._page.close()
        os.replace(self._partial, self.out)

    def _copy(self, part: IO[str]) -> None:
        part.seek(0)
        shutil.copyfileobj(part, self._page)

    def close(self) -> None:
        """Close the files and remove the partial page (nothing, after ``finish``)."""
        self._files.close()
        with contextlib.suppress(FileNotFoundError):
            self._partial.unlink()

    def __enter__(self) -> AdjudicationPage:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
