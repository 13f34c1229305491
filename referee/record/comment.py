"""The per-move comment of a record: the referee's timing and the engine's search.

``{0.412s 9.588s d=7 n=20450 s=700,300}``: seconds used for the move, seconds left
on the mover's clock (clock time controls only), then the engine's last reported
``depth`` (``d=``), ``nodes`` (``n=``) and ``score`` (``s=``: the shares as sent,
or ``win5`` for ``score win 5``). Each part is optional; the format is in
``protocol/RECORD.md``. Pure: ``format_move_comment`` writes, ``parse_move_comment``
reads and never raises (a record's comments are free text: words it does not
know are ignored, so old records and other tools' comments read as before).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from protocol.search_info import NO_SEARCH, ForcedWin, Score, SearchInfo, parse_score

# The time left may be negative: a move within the margin leaves the clock below 0.
_SECONDS = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+s")
_TIMES_ONLY = re.compile(r"((?:0|[1-9][0-9]*)\.[0-9]+)s(?: (-?(?:0|[1-9][0-9]*)\.[0-9]+)s)?")
"""The comment the referee writes when the engine reported no search items."""


@dataclass(frozen=True, slots=True)
class MoveComment:
    """What a move's comment says; None for what it does not say."""

    used: float | None = None
    """Seconds the engine used for the move."""
    remaining: float | None = None
    """Seconds left on its clock after the move."""
    depth: int | None = None
    nodes: int | None = None
    score: Score | None = None

    @property
    def search(self) -> SearchInfo:
        """The search items as a ``SearchInfo`` (``depth``, ``nodes``, ``score``)."""
        if self.depth is None and self.nodes is None and self.score is None:
            return NO_SEARCH
        return SearchInfo(depth=self.depth, nodes=self.nodes, score=self.score)


def score_text(score: Score) -> str:
    """The ``s=`` value: ``700,300`` or ``win5``."""
    return f"win{score.plies}" if isinstance(score, ForcedWin) else str(score)


def format_move_comment(
    used: float, remaining: float | None = None, search: SearchInfo = NO_SEARCH
) -> str:
    """``0.412s 9.588s d=7 n=20450 s=700,300``: timing, then the search items reported.

    ``format_move_comment(1.2344, 58.7656) == "1.234s 58.766s"``.
    """
    if search is NO_SEARCH:  # the usual case, without the list
        return f"{used:.3f}s" if remaining is None else f"{used:.3f}s {remaining:.3f}s"
    parts = [f"{used:.3f}s"]
    if remaining is not None:
        parts.append(f"{remaining:.3f}s")
    note = search_note(search)
    if note:
        parts.append(note)
    return " ".join(parts)


def search_note(search: SearchInfo) -> str:
    """``d=7 n=20450 s=700,300``: the search items a record keeps (those present), or ``""``."""
    parts = []
    if search.depth is not None:
        parts.append(f"d={search.depth}")
    if search.nodes is not None:
        parts.append(f"n={search.nodes}")
    if search.score is not None:
        parts.append(f"s={score_text(search.score)}")
    return " ".join(parts)


def _count(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 16 else None


def parse_move_comment(comment: str | None) -> MoveComment:
    """Read a move's comment (None: no comment). Never raises.

    The leading ``<seconds>s`` words are the time used and left; ``d=``, ``n=`` and
    ``s=`` words after them are the search items (the first well-formed one of each
    counts); every other word is ignored.
    """
    if not comment:
        return MoveComment()
    timing = _TIMES_ONLY.fullmatch(comment)
    if timing is not None:  # the common case, read at once (what ``read_words`` reads)
        used, left = timing.groups()
        return MoveComment(used=float(used), remaining=None if left is None else float(left))
    return read_words(comment)


def read_words(comment: str) -> MoveComment:
    """``parse_move_comment`` word by word, for any comment."""
    times: list[float] = []
    depth: int | None = None
    nodes: int | None = None
    score: Score | None = None
    leading = True
    for word in comment.split():
        if leading and len(times) < 2 and _SECONDS.fullmatch(word):
            times.append(float(word[:-1]))
            continue
        leading = False
        key, eq, value = word.partition("=")
        if key == "d" and depth is None:
            depth = _count(value)
        elif key == "n" and nodes is None:
            nodes = _count(value)
        elif key == "s" and eq and score is None:
            parsed = parse_score(["win", value[3:]] if value.startswith("win") else [value])
            score = None if isinstance(parsed, str) else parsed
    return MoveComment(
        used=times[0] if times else None,
        remaining=times[1] if len(times) > 1 else None,
        depth=depth,
        nodes=nodes,
        score=score,
    )
