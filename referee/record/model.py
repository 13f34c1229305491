"""The data of ``.tgn`` game records: ``GameRecord``, ``MoveEntry``, their rules and errors.

The format is specified in ``protocol/RECORD.md``. This module is shared by the writer
(``referee.record``) and the reader (``referee.record.parse``) and imports neither.

A ``GameRecord`` is always well-formed: its constructor checks every tag rule (required
tags in order, the syntax of ``Players``, ``Result``, ``Score`` …) and ``MoveEntry``
checks its token, so the writer never fails and every record it writes reads back equal.
Whether the moves are legal and the result right is not checked here: that is
``referee.adjudicate``.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import overload

from referee.core import Seat, Termination
from referee.errors import UserError
from referee.record.comment import MoveComment, parse_move_comment
from referee.record.packed import Strings
from referee.results import RESULT_PART, UNFINISHED, parse_result

HEAD_TAGS = ("Game", "Options", "RulesVersion", "Players")
"""The required tags before ``Seat1`` … ``SeatN``."""
TAIL_TAGS = ("Result", "Termination")
"""The required tags after the seats."""
MAX_PLAYERS = 999
"""The largest ``Players`` value the format accepts (games set their own limits)."""
MAX_TAGS = 1000
"""The most tags a game may have (a record holds a few dozen; a reader of a hostile file
would otherwise hold a million)."""

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""A tag name."""
MOVE_TOKEN = re.compile(r"[!#-Z\\^-z|~]+")
"""A movetext token: printable ASCII other than ``"[]{}``."""
MOVE_NUMBER = re.compile(r"[0-9]+\.+")
"""A move number such as ``12.`` (ignored by readers); no move token looks like one."""
COMMENT_GAME_START = re.compile(r"\n[ \t\r]*\n\[")
"""What a comment must not hold: a blank line, then a line starting with ``[`` (in a
file that line starts a game, see ``referee.record.parse.GAME_START``)."""

_MOVE_TEXT = re.compile(r"(?![0-9]+\.+\Z)[!#-Z\\^-z|~]+")
_VALUE_BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_NUMBER = r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_SCORE_PART = re.compile(rf"-?{_NUMBER}")
_OPTION_ITEM = r"[^\s=,]+=[^\s=,]+"
_OPTIONS = re.compile(rf"(?:{_OPTION_ITEM}(?:,{_OPTION_ITEM})*)?")


def option_pairs(text: str) -> list[tuple[str, str]]:
    """The ``k=v`` items of an ``Options`` tag's text, in tag order (the one reader of
    that text; ``_OPTIONS`` checks its form)."""
    items = (item.partition("=") for item in text.split(",") if item)
    return [(key, value) for key, _, value in items]


_PLAYERS = re.compile(r"[1-9][0-9]{0,2}")
_START = re.compile(r"\S+")
_TERMINATIONS = {t.value: t for t in Termination}


class RecordSyntaxError(UserError):
    """Text that is not a well-formed record file. ``str()`` is ``source:line:column: message``.

    Raised by the reader, ``referee.record.parse``.
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


class TagError(UserError):
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


def _check_each_tag(tags: Sequence[tuple[str, str]]) -> None:
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


def check_tags(tags: Sequence[tuple[str, str]]) -> None:
    """Check the tag rules of protocol/RECORD.md.

    :raises TagError: the first broken rule, with the index of the tag at fault.
    """
    if len(tags) > MAX_TAGS:
        raise TagError(f"more than {MAX_TAGS} tags", MAX_TAGS)
    names = [name for name, _ in tags]
    if (  # all tags at once; tag by tag only to name the first bad one
        len(set(names)) != len(names)
        or not all(map(TAG_NAME.fullmatch, names))
        or _VALUE_BAD.search("".join(value for _, value in tags))
    ):
        _check_each_tag(tags)
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
    keys = [key for key, _ in option_pairs(values["Options"])]
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
    if _MOVE_TEXT.fullmatch(text):
        return
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
    """Free text without ``}`` (clock, time used, engine info), or None. It may span
    lines, but no line of it may start with ``[`` after a blank line: in a file, such a
    line starts the next game (``COMMENT_GAME_START``)."""

    def __post_init__(self) -> None:
        """:raises ValueError: the text is not a move token, or the comment holds ``}``
        or a line that would start a game."""
        check_move_text(self.text)
        if self.comment is not None:
            if "}" in self.comment:
                raise ValueError(f"comment {self.comment!r} contains '}}'")
            if "\n" in self.comment and COMMENT_GAME_START.search(self.comment):
                raise ValueError(f"comment {self.comment!r} has a '[' line after a blank line")

    @property
    def note(self) -> MoveComment:
        """What the comment says: time used and left, and ``d=``/``n=``/``s=`` search items."""
        return parse_move_comment(self.comment)


class MoveList(Sequence[MoveEntry]):
    """The moves of a parsed record, compact (``referee.record.packed``): the move tokens
    as ``Strings``, and the comments as ``Strings`` with, in ascending order, the index of
    the move each follows (most records comment every move; hostile ones may comment
    none, or one). A ``MoveEntry`` is made when one is read, so a game of millions of
    moves costs a few bytes a move, not a hundred. Equal to any sequence of the same
    entries (a tuple of ``MoveEntry`` in particular), with the same hash as that tuple.

    The reader builds it from tokens it has checked; the entries are checked again as
    they are made (``MoveEntry``).
    """

    __slots__ = ("_comment_at", "_comments", "texts")

    def __init__(self, texts: Strings, comment_at: array[int], comments: Strings) -> None:
        """:raises ValueError: ``comment_at`` and ``comments`` differ in length."""
        if len(comment_at) != len(comments):
            raise ValueError(f"{len(comment_at)} comment places for {len(comments)} comments")
        self.texts = texts
        """The move tokens, in order."""
        self._comment_at = comment_at
        self._comments = comments

    def __len__(self) -> int:
        return len(self.texts)

    def comment(self, index: int) -> str | None:
        """The comment after move ``index`` (0-based, non-negative), or None."""
        k = bisect_left(self._comment_at, index)
        if k < len(self._comment_at) and self._comment_at[k] == index:
            return self._comments[k]
        return None

    @overload
    def __getitem__(self, index: int) -> MoveEntry: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[MoveEntry, ...]: ...
    def __getitem__(self, index: int | slice) -> MoveEntry | tuple[MoveEntry, ...]:
        """One entry, or a slice as a tuple of entries.

        :raises IndexError: ``index`` out of range.
        """
        if isinstance(index, slice):
            return tuple(self[k] for k in range(*index.indices(len(self))))
        if index < 0:
            index += len(self)
        return MoveEntry(self.texts[index], self.comment(index))

    def __iter__(self) -> Iterator[MoveEntry]:
        at, comments = self._comment_at, iter(self._comments)
        k, following = 0, at[0] if at else -1
        for index, text in enumerate(self.texts):
            comment = None
            if index == following:
                comment = next(comments)
                k += 1
                following = at[k] if k < len(at) else -1
            yield MoveEntry(text, comment)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"MoveList({tuple(self)!r})"

    def __reduce__(self) -> tuple[type[MoveList], tuple[Strings, array[int], Strings]]:
        return MoveList, (self.texts, self._comment_at, self._comments)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its tags in file order and its moves. Always well-formed (see ``check_tags``).

    ``moves`` is a tuple for records built in code, a ``MoveList`` for records read
    (equal to the tuple of its entries)."""

    tags: tuple[tuple[str, str], ...]
    moves: Sequence[MoveEntry] = ()

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
        return dict(option_pairs(text))

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
    def move_texts(self) -> Sequence[str]:
        """The move tokens in order (a read record's without making its entries)."""
        if isinstance(self.moves, MoveList):
            return self.moves.texts
        return tuple(move.text for move in self.moves)
