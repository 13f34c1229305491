"""Building a game's record and writing it (``.tgn`` format, ``protocol/RECORD.md``)."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from referee.core import AnyGame, Outcome, Termination
from referee.errors import path_error
from referee.record.comment import format_move_comment
from referee.record.model import GameRecord, MoveEntry, check_tags
from referee.results import format_number, result_text
from referee.version import VERSION

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


timing_comment = format_move_comment
"""The writer's per-move comment (``referee.record.comment.format_move_comment``)."""


def _clean(value: str) -> str:
    return _CONTROL.sub(" ", value)


def build_record(
    game: AnyGame,
    seat_names: Sequence[str],
    moves: Iterable[MoveEntry | str],
    outcome: Outcome | None,
    extra_tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    start: str | None = None,
) -> GameRecord:
    """The record of a game of ``game`` played by ``seat_names`` (seat order).

    Tags: the required ones (``Result`` from ``result_text``; ``Termination`` ``void`` when
    ``outcome`` is None, i.e. unfinished), then ``extra_tags`` in their order (``Event``,
    ``Round``, ``Date``, ``TimeControl``, ``Seed`` …), then ``Referee`` (the version that
    judged the game, unless ``extra_tags`` give one), then ``Start`` if given, ``Score``
    (if the outcome has scores), ``Reason`` (if not empty) and ``Culprit`` (1-based).
    Control characters in seat names and the reason become spaces.

    :raises InvalidOptionError: the game is not played by ``len(seat_names)`` seats.
    :raises ValueError: a move is not a token, or a tag repeats a computed one or is malformed.
    """
    tags = _record_tags(game, seat_names, outcome, extra_tags, start)
    entries = tuple(m if isinstance(m, MoveEntry) else MoveEntry(m) for m in moves)
    return GameRecord(tuple(tags), entries)


def _record_tags(
    game: AnyGame,
    seat_names: Sequence[str],
    outcome: Outcome | None,
    extra_tags: Mapping[str, str] | Iterable[tuple[str, str]],
    start: str | None,
) -> list[tuple[str, str]]:
    """The tags of ``build_record``, in their order (not checked)."""
    game.check_players(len(seat_names))
    termination = Termination.VOID if outcome is None else outcome.termination
    tags: list[tuple[str, str]] = [
        ("Game", game.name),
        ("Options", game.options_text()),
        ("RulesVersion", game.version),
        ("Players", str(len(seat_names))),
    ]
    tags += [(f"Seat{n}", _clean(name)) for n, name in enumerate(seat_names, 1)]
    tags += [("Result", result_text(game, outcome)), ("Termination", termination.value)]
    extra = list(extra_tags.items() if isinstance(extra_tags, Mapping) else extra_tags)
    tags += [(name, _clean(value)) for name, value in extra]
    if all(name != "Referee" for name, _ in extra):
        tags.append(("Referee", VERSION))
    if start is not None:
        tags.append(("Start", start))
    if outcome is not None:
        if outcome.scores:
            tags.append(("Score", ",".join(format_number(s) for s in outcome.scores)))
        if outcome.reason:
            tags.append(("Reason", _clean(outcome.reason)))
        if outcome.culprit is not None:
            tags.append(("Culprit", str(outcome.culprit + 1)))
    return tags


def record_text(
    game: AnyGame,
    seat_names: Sequence[str],
    moves: Sequence[str],
    comments: Sequence[str],
    outcome: Outcome | None,
    extra_tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    start: str | None = None,
) -> str:
    """``format_record(build_record(...))`` of the moves ``moves`` with ``comments[i]``
    after ``moves[i]``: the same text, checked the same, made faster (a tournament
    writes one per game). The tags are checked as ``GameRecord`` checks them; the moves
    and comments in one pass over their joined text instead of an entry each, and
    only when that pass finds something wrong are entries made, to raise the error
    ``MoveEntry`` raises.

    :raises InvalidOptionError, ValueError, TagError: as ``build_record``.
    """
    if len(comments) != len(moves):
        raise ValueError(f"{len(comments)} comments for {len(moves)} moves")
    tags = _record_tags(game, seat_names, outcome, extra_tags, start)
    check_tags(tags)
    joined = " ".join(moves)
    notes = "".join(comments)
    if (
        (moves and not _MOVE_TOKENS.fullmatch(joined))
        or joined.count(" ") != len(moves) - 1
        or "" in moves
        or _NUMBER_WORD.search(joined)
        or "}" in notes
        or "\n" in notes
    ):
        for move, comment in zip(moves, comments, strict=True):
            MoveEntry(move, comment)  # raises the first entry's error
    values = dict(tags)
    return _text(tags, moves, comments, int(values["Players"]), values["Result"])


_MOVE_TOKENS = re.compile(r"[!#-Z\\^-z|~ ]+")
"""Move tokens (``model.MOVE_TOKEN``) joined by spaces, or some spaces too many."""
_NUMBER_WORD = re.compile(r"(?:^| )[0-9]+\.+(?= |$)")
"""A word of joined moves that would read as a move number (``model.MOVE_NUMBER``)."""


LINE_WIDTH = 79
"""The writer wraps movetext lines at this width, never inside a number-move-comment unit."""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_record(record: GameRecord) -> str:
    """The text of one game: tag lines, a blank line, movetext, a blank line.

    The movetext numbers rounds: ``k.`` stands before moves 1, N+1, 2N+1 … of the record
    (N = ``Players``), counted from its first move whoever makes it. Each comment follows
    its move in braces; the result token ends the movetext.
    """
    moves = record.moves
    return _text(
        record.tags,
        [move.text for move in moves],
        [move.comment for move in moves],
        record.players,
        record.result,
    )


def _text(
    tags: Sequence[tuple[str, str]],
    texts: Sequence[str],
    comments: Sequence[str | None],
    players: int,
    result: str,
) -> str:
    """``format_record``'s text of checked tags, moves and comments."""
    head = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in tags)
    words: list[str] = []  # units kept on one line: [number] move [comment]
    for i, (text, comment) in enumerate(zip(texts, comments, strict=True)):
        word = f"{i // players + 1}. {text}" if i % players == 0 else text
        words.append(word if comment is None else f"{word} {{{comment}}}")
    words.append(result)
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > LINE_WIDTH:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return head + "\n" + "\n".join(lines) + "\n\n"


def sync_file(fd: int) -> None:
    """``fsync`` ``fd`` when it is a regular file. A device or pipe (``/dev/null``, a
    terminal, ``/dev/stdout`` into a pipe) has nothing to sync, and ``fsync`` refuses it.

    :raises OSError: a regular file's sync fails (a full or broken disk).
    """
    if stat.S_ISREG(os.fstat(fd).st_mode):
        os.fsync(fd)


def append_record(path: str | os.PathLike[str], record: GameRecord, *, fsync: bool = True) -> None:
    """Append one game to the file at ``path`` (created if missing) in a single write.

    The file is opened in append mode; if it does not end with a blank line, line
    breaks are written first so the game starts on its own. With ``fsync`` the data
    reaches the disk before returning, so a crash later never loses or damages it.
    Any writable file will do: to a device or a pipe (``/dev/null``) the game is
    written as it is, without looking back at the file's end or syncing.
    Blocking: async callers run it in a worker thread.

    :raises PathError: the file cannot be opened or written (one line naming it: a
        record file is the user's, so a missing folder or a full disk is theirs to fix).
    """
    append_text(path, format_record(record), fsync=fsync)


def append_text(path: str | os.PathLike[str], text: str, *, fsync: bool = True) -> None:
    """``append_record`` of records already formatted (``format_record``: one or more
    games' text, each ending with its blank line), in one write.

    :raises PathError: the file cannot be opened or written (one line naming it).
    """
    try:
        _append(Path(path), text.encode("utf-8"), fsync)
    except OSError as exc:
        raise path_error(path, exc, "cannot write records to") from None


def _append(path: Path, data: bytes, fsync: bool) -> None:
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o644)
    try:
        info = os.fstat(fd)
        size = info.st_size if stat.S_ISREG(info.st_mode) else 0
        if size:
            os.lseek(fd, max(0, size - 2), os.SEEK_SET)
            tail = os.read(fd, 2)
            if not tail.endswith(b"\n"):
                data = b"\n\n" + data
            elif size >= 2 and tail != b"\n\n":
                data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if fsync:
            sync_file(fd)
    finally:
        os.close(fd)
