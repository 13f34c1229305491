"""Structured ``info`` items: ``SearchInfo`` and its pure codec (both directions).

An ``info`` line's text is either **structured** or **free text**. It is structured
when its first word is one of the item keys (``KEYS``); then it is a sequence of
items, each a key and the words up to the next key::

    depth 7 seldepth 12 nodes 20450 nps 41000 time 499 score 700,300 pv e3 d4 string hi

``string`` takes the rest of the text (keys included) and ends the items. Any
other first word makes the whole text free text, as in protocol version 1 before
these items existed: ``parse_info`` returns it as the ``string``.

Contract: ``parse_info`` never raises. An item whose value does not parse (``depth
x``, ``score 700,200`` whose shares do not sum to 1000, a repeated key, ``pv`` with
no move) is not a protocol violation: it is kept as text in ``rejected``, with the
reason, for the caller to note in the transcript. ``format_info`` raises
``ProtocolViolation`` for a value it could not send (a negative count, a pv move
that is a key or not a token). ``parse_info(format_info(i)) == i`` for every
``SearchInfo`` ``i`` that ``format_info`` accepts and whose ``string`` has no
surrounding blanks, and ``parse_info`` of the
formatted result of any parse is that parse again (hypothesis-tested).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

from protocol.errors import ProtocolViolation

MAX_COUNT = 2**53
"""Largest number accepted in an item (as for times in ``protocol.codec``)."""
SHARE_TOTAL = 1000
"""The shares of a ``score`` are thousandths of the game's points: they sum to this."""

SCALAR_KEYS = ("depth", "seldepth", "nodes", "nps", "time")
"""Items with one non-negative integer value, in their canonical order."""
KEYS = frozenset({*SCALAR_KEYS, "score", "pv", "string"})
"""Every item key of protocol version 1. A pv move may not be one of them."""


@dataclass(frozen=True, slots=True)
class Shares:
    """``score s1,s2,…,sN``: each seat's expected share of the points, in thousandths.

    In seat order; the values sum to ``SHARE_TOTAL``.
    """

    values: tuple[int, ...]

    def __str__(self) -> str:
        return ",".join(map(str, self.values))


@dataclass(frozen=True, slots=True)
class ForcedWin:
    """``score win K``: the side to move wins by force within ``plies`` plies (K ≥ 1)."""

    plies: int

    def __str__(self) -> str:
        return f"win {self.plies}"


Score = Shares | ForcedWin


@dataclass(frozen=True, slots=True)
class RejectedItem:
    """A structured item that did not parse: its words as sent, and why."""

    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """What one ``info`` line (or a search's ``info`` lines, ``merge``d) reported.

    None (or ``()`` for ``rejected``) means not reported. ``time`` is in ms.
    """

    depth: int | None = None
    seldepth: int | None = None
    nodes: int | None = None
    nps: int | None = None
    time: int | None = None
    score: Score | None = None
    pv: tuple[str, ...] | None = None
    """The principal variation, move tokens from the position searched (at least one)."""
    string: str | None = None
    """The free-text tail (after ``string``), or the whole text of a free-text info."""
    rejected: tuple[RejectedItem, ...] = ()
    """Structured items that did not parse, kept as text, in the order sent."""

    @property
    def empty(self) -> bool:
        """True when nothing at all was reported."""
        return self == NO_SEARCH


NO_SEARCH = SearchInfo()
"""Nothing reported (the default of every search field)."""
_WORD = re.compile(r"[^ \t]+")  # only space and tab separate words


def _count(word: str) -> int | None:
    """A non-negative integer of at most 16 digits and at most ``MAX_COUNT``, or None."""
    if not (word.isascii() and word.isdigit()) or len(word) > 16:
        return None
    value = int(word)
    return value if value <= MAX_COUNT else None


def _is_token(word: str) -> bool:
    return word.isascii() and word.isprintable() and " " not in word


def parse_score(words: list[str]) -> Score | str:
    """The score of ``score <words>``, or the reason it is malformed (never raises)."""
    if len(words) == 2 and words[0] == "win":
        plies = _count(words[1])
        return ForcedWin(plies) if plies else "'win' needs a number of plies, at least 1"
    if len(words) != 1:
        return "expected 'score s1,…,sN' or 'score win K'"
    values = tuple(_count(part) for part in words[0].split(","))
    if any(value is None for value in values):
        return "shares must be non-negative integers joined by ','"
    shares = tuple(value for value in values if value is not None)
    if sum(shares) != SHARE_TOTAL:
        return f"shares sum to {sum(shares)}, not {SHARE_TOTAL}"
    return Shares(shares)


def _item(info: dict[str, object], key: str, words: list[str]) -> str | None:
    """Parse one item into ``info``; return why it is rejected, or None.

    The value is checked before the repetition, so that a rejected item keeps its
    reason wherever ``format_info`` puts it.
    """
    value: object
    if key == "pv":
        if not words:
            return "'pv' needs at least one move"
        if not all(_is_token(word) for word in words):
            return "pv moves must be printable ASCII"
        value = tuple(words)
    elif key == "score":
        value = parse_score(words)
        if isinstance(value, str):
            return value
    else:
        if len(words) != 1:
            return f"'{key}' takes one number"
        value = _count(words[0])
        if value is None:
            return f"'{key}' takes a non-negative integer"
    if key in info:
        return f"repeated '{key}'"
    info[key] = value
    return None


def parse_info(text: str) -> SearchInfo:
    """The ``SearchInfo`` of an ``info`` line's text (the part after ``info``). Never raises."""
    matches = list(_WORD.finditer(text))
    if not matches:
        return NO_SEARCH
    if matches[0].group() not in KEYS:
        return SearchInfo(string=text.strip(" \t"))
    info: dict[str, object] = {}
    rejected: list[RejectedItem] = []
    i = 0
    while i < len(matches):
        key = matches[i].group()
        if key == "string":
            info["string"] = text[matches[i].end() :].strip(" \t")
            break
        j = i + 1
        while j < len(matches) and matches[j].group() not in KEYS:
            j += 1
        words = [match.group() for match in matches[i + 1 : j]]
        reason = _item(info, key, words)
        if reason is not None:
            rejected.append(RejectedItem(" ".join([key, *words]), reason))
        i = j
    return SearchInfo(**info, rejected=tuple(rejected))  # type: ignore[arg-type]


def format_score(score: Score) -> str:
    """``700,300`` or ``win 5`` (the value of a ``score`` item).

    :raises ProtocolViolation: the shares do not sum to ``SHARE_TOTAL``, or a value is out of range.
    """
    if isinstance(score, ForcedWin):
        if not 1 <= score.plies <= MAX_COUNT:
            raise ProtocolViolation(f"bad score win {score.plies}: expected 1 or more plies")
        return f"win {score.plies}"
    values = score.values
    if not values or min(values) < 0 or sum(values) != SHARE_TOTAL:
        raise ProtocolViolation(
            f"bad score {values}: shares are non-negative and sum to {SHARE_TOTAL}"
        )
    return ",".join(map(str, values))


def format_info(info: SearchInfo) -> str:
    """The text of an ``info`` line for ``info`` (without the leading ``info``).

    Items in the canonical order: ``depth seldepth nodes nps time score pv``, the
    rejected items as they were sent, then ``string``. An empty ``SearchInfo`` gives ``""``.

    :raises ProtocolViolation: a value that cannot be sent (see the module contract).
    """
    parts: list[str] = []
    for key in SCALAR_KEYS:
        value = getattr(info, key)
        if value is not None:
            if not 0 <= value <= MAX_COUNT:
                raise ProtocolViolation(f"bad {key} {value}: out of range")
            parts.append(f"{key} {value}")
    if info.score is not None:
        parts.append(f"score {format_score(info.score)}")
    if info.pv is not None:
        if not info.pv:
            raise ProtocolViolation("an empty pv cannot be sent")
        for move in info.pv:
            if not move or not _is_token(move) or move in KEYS:
                raise ProtocolViolation(f"bad pv move {move!r}: a token that is not an item key")
        parts.append("pv " + " ".join(info.pv))
    parts.extend(item.text for item in info.rejected)
    if info.string is not None:
        if "\n" in info.string or "\r" in info.string:
            raise ProtocolViolation("info string contains a line break")
        parts.append(f"string {info.string}".rstrip(" \t"))
    return " ".join(parts)


def format_info_line(info: SearchInfo) -> str:
    """The whole wire line, ``info …`` (for engines); as ``format_info``."""
    return f"info {format_info(info)}".rstrip(" \t")


def merge(earlier: SearchInfo, later: SearchInfo) -> SearchInfo:
    """What a search reported so far: each item's latest value (``rejected`` is dropped).

    A search's ``info`` lines often carry different items (``depth`` on one line,
    ``string`` on the next); the last value of each item is what the search ended with.
    """
    if later.empty:
        return replace(earlier, rejected=())
    values = {
        field.name: getattr(later, field.name)
        if getattr(later, field.name) is not None
        else getattr(earlier, field.name)
        for field in fields(SearchInfo)
        if field.name != "rejected"
    }
    return SearchInfo(**values)
