"""Game records in the ``.tgn`` text format: the model, building one from a game, writing.

The format is specified in ``protocol/RECORD.md``; parsing is ``referee.record_parse``.

A ``GameRecord`` is always well-formed: its constructor checks every tag rule (required
tags in order, the syntax of ``Players``, ``Result``, ``Score`` …) and ``MoveEntry``
checks its token, so ``format_record`` never fails and
``parse_records(format_record(r)) == [r]`` for every record. Whether the moves are
legal and the result right is not checked here: that is ``referee.adjudicate``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from referee.core import Game, Outcome, Seat, Termination
from referee.results import RESULT_PART, UNFINISHED, format_number, parse_result, result_text

AnyGame = Game[Any, Any]

HEAD_TAGS = ("Game", "Options", "RulesVersion", "Players")
"""The required tags before ``Seat1`` … ``SeatN``."""
TAIL_TAGS = ("Result", "Termination")
"""The required tags after the seats."""
MAX_PLAYERS = 999
"""The largest ``Players`` value the format accepts (games set their own limits)."""

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""A tag name."""
MOVE_TOKEN = re.compile(r"[!#-Z\\^-z|~]+")
"""A movetext token: printable ASCII other than ``"[]{}``."""
MOVE_NUMBER = re.compile(r"[0-9]+\.+")
"""A move number such as ``12.`` (ignored by readers); no move token looks like one."""

_VALUE_BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NUMBER = r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_SCORE_PART = re.compile(rf"-?{_NUMBER}")
_OPTION_ITEM = r"[^\s=,]+=[^\s=,]+"
_OPTIONS = re.compile(rf"(?:{_OPTION_ITEM}(?:,{_OPTION_ITEM})*)?")
_PLAYERS = re.compile(r"[1-9][0-9]{0,2}")
_START = re.compile(r"\S+")
_TERMINATIONS = {t.value: t for t in Termination}


class RecordSyntaxError(ValueError):
    """Text that is not a well-formed record file. ``str()`` is ``source:line:column: message``.

    Raised by ``parse_records`` and ``read_records`` (``referee.record_parse``).
    """

    def __init__(self, source: str, line: int, column: int, message: str) -> None:
        super().__init__(f"{source}:{line}:{column}: {message}")
        self.source = source
        self.line = line
        """1-based line of the problem."""
        self.column = column
        """1-based column (in characters) of the problem."""
        self.message = message
        """The message without the location."""


class TagError(ValueError):
    """A tag list that breaks a rule of the format.

    ``index`` is the position of the offending tag in the list, or None when the
    problem is a tag that is missing altogether (readers point at the game's start).
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def _required(players: int) -> tuple[str, ...]:
    seats = tuple(f"Seat{n}" for n in range(1, players + 1))
    return HEAD_TAGS + seats + TAIL_TAGS


def _check_order(names: Sequence[str], wanted: Sequence[str], start: int) -> None:
    for k, want in enumerate(wanted, start):
        if k < len(names) and names[k] == want:
            continue
        where = k if k < len(names) else None
        if want in names:
            raise TagError(
                f"tag {want!r} must be tag number {k + 1}: the required tags come first, in "
                "the order Game, Options, RulesVersion, Players, Seat1..SeatN, Result, Termination",
                names.index(want),
            )
        raise TagError(f"missing required tag {want!r}", where)


def check_tags(tags: Sequence[tuple[str, str]]) -> None:
    """Check the tag rules of protocol/RECORD.md.

    :raises TagError: the first broken rule, with the index of the tag at fault.
    """
    names = [name for name, _ in tags]
    seen: set[str] = set()
    for i, (name, value) in enumerate(tags):
        if not TAG_NAME.fullmatch(name):
            raise TagError(f"bad tag name {name!r}: a letter, then letters, digits or '_'", i)
        if name in seen:
            raise TagError(f"duplicate tag {name!r}", i)
        seen.add(name)
        bad = _VALUE_BAD.search(value)
        if bad:
            code = ord(bad.group())
            raise TagError(f"control character U+{code:04X} in the value of tag {name!r}", i)
    _check_order(names, HEAD_TAGS, 0)
    values = dict(tags)
    players_text = values["Players"]
    if not _PLAYERS.fullmatch(players_text):
        raise TagError(
            f"Players must be a number of seats from 1 to {MAX_PLAYERS}, not {players_text!r}",
            names.index("Players"),
        )
    players = int(players_text)
    _check_order(names, _required(players)[len(HEAD_TAGS) :], len(HEAD_TAGS))

    def fail(name: str, message: str) -> TagError:
        return TagError(message, names.index(name))

    if not values["Game"] or values["Game"] != values["Game"].strip():
        raise fail("Game", f"Game must be a game id, not {values['Game']!r}")
    if not _OPTIONS.fullmatch(values["Options"]):
        raise fail("Options", f"Options must be k=v items joined by ',', not {values['Options']!r}")
    keys = [item.split("=", 1)[0] for item in values["Options"].split(",") if item]
    if len(set(keys)) != len(keys):
        raise fail("Options", f"an option is given twice in {values['Options']!r}")
    if not values["RulesVersion"]:
        raise fail("RulesVersion", "RulesVersion must not be empty")
    result = values["Result"]
    if result != UNFINISHED:
        parts = result.split("-")
        if not all(RESULT_PART.fullmatch(part) for part in parts):
            raise fail("Result", f"Result {result!r} is not '*' nor per-seat points joined by '-'")
        if len(parts) != players:
            raise fail("Result", f"Result {result!r} has {len(parts)} parts for {players} players")
    if values["Termination"] not in _TERMINATIONS:
        known = ", ".join(_TERMINATIONS)
        raise fail("Termination", f"unknown Termination {values['Termination']!r} ({known})")
    score = values.get("Score")
    if score is not None:
        parts = score.split(",")
        if not all(_SCORE_PART.fullmatch(part) for part in parts):
            raise fail("Score", f"Score {score!r} is not numbers joined by ','")
        if len(parts) != players:
            raise fail("Score", f"Score {score!r} has {len(parts)} numbers for {players} players")
    culprit = values.get("Culprit")
    if culprit is not None and not (_PLAYERS.fullmatch(culprit) and 1 <= int(culprit) <= players):
        raise fail("Culprit", f"Culprit must be a seat number from 1 to {players}, not {culprit!r}")
    start = values.get("Start")
    if start is not None and not _START.fullmatch(start):
        raise fail("Start", f"Start must be one position token, not {start!r}")


def check_move_text(text: str) -> None:
    """:raises ValueError: ``text`` cannot stand in movetext as one move token."""
    if not MOVE_TOKEN.fullmatch(text):
        raise ValueError(f"move {text!r} is not a token of printable ASCII without '\"[]{{}}'")
    if MOVE_NUMBER.fullmatch(text):
        raise ValueError(f"move {text!r} would read as a move number")


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """One move of the movetext and the comment written after it."""

    text: str
    """The canonical move token."""
    comment: str | None = None
    """Free text without ``}`` (clock, time used, engine info), or None."""

    def __post_init__(self) -> None:
        """:raises ValueError: the text is not a move token or the comment holds ``}``."""
        check_move_text(self.text)
        if self.comment is not None and "}" in self.comment:
            raise ValueError(f"comment {self.comment!r} contains '}}'")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its tags in file order and its moves. Always well-formed (see ``check_tags``)."""

    tags: tuple[tuple[str, str], ...]
    moves: tuple[MoveEntry, ...] = ()

    def __post_init__(self) -> None:
        """:raises TagError: the tags break a rule of the format."""
        check_tags(self.tags)

    def tag(self, name: str) -> str | None:
        """The value of tag ``name``, or None if the record has no such tag."""
        for key, value in self.tags:
            if key == name:
                return value
        return None

    def _get(self, name: str) -> str:
        value = self.tag(name)
        assert value is not None  # required tags exist: checked by __post_init__
        return value

    @property
    def game(self) -> str:
        """The game id (``Game``)."""
        return self._get("Game")

    @property
    def options(self) -> dict[str, str]:
        """The rule options of ``Options`` as a dict, in tag order."""
        text = self._get("Options")
        return dict(item.split("=", 1) for item in text.split(",")) if text else {}

    @property
    def rules_version(self) -> str:
        """``RulesVersion``."""
        return self._get("RulesVersion")

    @property
    def players(self) -> int:
        """The number of seats (``Players``)."""
        return int(self._get("Players"))

    @property
    def seats(self) -> tuple[str, ...]:
        """The entrant names ``Seat1`` … ``SeatN`` in seat order."""
        return tuple(self._get(f"Seat{n}") for n in range(1, self.players + 1))

    @property
    def result(self) -> str:
        """The ``Result`` text, e.g. ``1-0``, ``1/2-0-1/2``, ``3-1-0`` or ``*``."""
        return self._get("Result")

    @property
    def result_points(self) -> tuple[Fraction, ...] | None:
        """The ``Result`` per seat as exact numbers, or None for ``*``."""
        return parse_result(self.result)

    @property
    def termination(self) -> Termination:
        """``Termination``."""
        return _TERMINATIONS[self._get("Termination")]

    @property
    def score(self) -> tuple[float, ...] | None:
        """The in-game points of ``Score`` per seat, or None without that tag."""
        text = self.tag("Score")
        return None if text is None else tuple(float(part) for part in text.split(","))

    @property
    def reason(self) -> str | None:
        """``Reason``: the outcome's human text, or None."""
        return self.tag("Reason")

    @property
    def culprit_seat(self) -> Seat | None:
        """The 0-based seat of ``Culprit`` (the tag itself counts from 1), or None."""
        text = self.tag("Culprit")
        return None if text is None else int(text) - 1

    @property
    def start(self) -> str | None:
        """``Start``: the encoded start position, or None for the game's initial one."""
        return self.tag("Start")

    @property
    def move_texts(self) -> tuple[str, ...]:
        """The move tokens in order."""
        return tuple(move.text for move in self.moves)


def timing_comment(used: float, remaining: float | None = None) -> str:
    """The writer's per-move comment: seconds used for the move, then the clock left.

    ``timing_comment(1.2344, 58.7656) == "1.234s 58.766s"``.
    """
    text = f"{used:.3f}s"
    return text if remaining is None else f"{text} {remaining:.3f}s"


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
    ``Round``, ``Date``, ``TimeControl``, ``Seed`` …), then ``Start`` if given, ``Score``
    (if the outcome has scores), ``Reason`` (if not empty) and ``Culprit`` (1-based).
    Control characters in seat names and the reason become spaces.

    :raises InvalidOptionError: the game is not played by ``len(seat_names)`` seats.
    :raises ValueError: a move is not a token, or a tag repeats a computed one or is malformed.
    """
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
    extra = extra_tags.items() if isinstance(extra_tags, Mapping) else extra_tags
    tags += [(name, _clean(value)) for name, value in extra]
    if start is not None:
        tags.append(("Start", start))
    if outcome is not None:
        if outcome.scores:
            tags.append(("Score", ",".join(format_number(s) for s in outcome.scores)))
        if outcome.reason:
            tags.append(("Reason", _clean(outcome.reason)))
        if outcome.culprit is not None:
            tags.append(("Culprit", str(outcome.culprit + 1)))
    entries = tuple(m if isinstance(m, MoveEntry) else MoveEntry(m) for m in moves)
    return GameRecord(tuple(tags), entries)


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
    head = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in record.tags)
    players = record.players
    words: list[str] = []  # units kept on one line: [number] move [comment]
    for i, move in enumerate(record.moves):
        word = f"{i // players + 1}. {move.text}" if i % players == 0 else move.text
        words.append(word if move.comment is None else f"{word} {{{move.comment}}}")
    words.append(record.result)
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


def append_record(path: str | os.PathLike[str], record: GameRecord, *, fsync: bool = True) -> None:
    """Append one game to the file at ``path`` (created if missing) in a single write.

    The file is opened in append mode; if it does not end with a blank line, line
    breaks are written first so the game starts on its own. With ``fsync`` the data
    reaches the disk before returning, so a crash later never loses or damages it.
    Blocking: async callers run it in a worker thread.

    :raises OSError: the file cannot be opened or written.
    """
    data = format_record(record).encode("utf-8")
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    fd = os.open(Path(path), flags, 0o644)
    try:
        size = os.fstat(fd).st_size
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
            os.fsync(fd)
    finally:
        os.close(fd)


def parse_records(text: str, source: str = "<string>") -> list[GameRecord]:
    """Every game in ``text``, in order; see ``referee.record_parse.parse_records``.

    :raises RecordSyntaxError: the first syntax or tag-rule problem, located in ``source``.
    """
    from referee.record_parse import parse_records as parse  # the parser imports this module

    return parse(text, source)


def read_records(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Every game in the UTF-8 file at ``path``; see ``referee.record_parse.read_records``.

    :raises RecordSyntaxError: the file is not UTF-8 or not well-formed.
    :raises OSError: the file cannot be read.
    """
    from referee.record_parse import read_records as read

    return read(path)
