"""The words of protocol lines: tokens, texts, integers, and their checks (pure).

Shared by ``protocol.codec`` (messages) and kept apart from it so that each stays
one screenful of grammar. Every check raises ``ProtocolViolation`` with a one-line
message; ``parse_*`` read a word from a line, ``check_*`` validate a value about
to be formatted.
"""

from __future__ import annotations

import re

from protocol.errors import ProtocolViolation

MAX_MS = 2**53
"""Largest time accepted in ms: beyond any real clock, small enough for JSON consumers."""


def is_token(word: str) -> bool:
    """True if ``word`` is a protocol token: printable ASCII, no space, not empty."""
    return bool(word) and word.isascii() and word.isprintable() and " " not in word


def as_token(word: str, what: str) -> str:
    """``word`` if it is a token; ``what`` names it in the error."""
    if not is_token(word):
        raise ProtocolViolation(f"bad {what} {word!r}: expected printable ASCII without spaces")
    return word


def as_text(text: str, what: str) -> str:
    """``text`` if it has no line break (a *text* runs to the end of the line)."""
    if "\n" in text or "\r" in text:
        raise ProtocolViolation(f"{what} contains a line break")
    return text


def parse_int(word: str, what: str, *, minimum: int = 0) -> int:
    """An *int* word: at most 16 ASCII digits, ``minimum`` to ``MAX_MS``."""
    if not (word.isascii() and word.isdigit()) or len(word) > 16:
        raise ProtocolViolation(f"bad {what} {word!r}: expected a non-negative integer")
    value = int(word)
    if value < minimum or value > MAX_MS:
        raise ProtocolViolation(f"bad {what} {word!r}: out of range")
    return value


def signed_int(word: str, what: str) -> int:
    """An *int* word with an optional leading ``-`` (option bounds)."""
    return -parse_int(word[1:], what) if word.startswith("-") else parse_int(word, what)


def int_list(word: str, what: str) -> tuple[int, ...]:
    """A *list* word: *ints* joined by ``,``."""
    return tuple(parse_int(part, what) for part in word.split(","))


def check_int(value: int, what: str, *, minimum: int = 0) -> int:
    """Validate an integer about to be formatted (the referee's side of ``parse_int``)."""
    if not minimum <= value <= MAX_MS:
        raise ProtocolViolation(f"bad {what} {value}: out of range")
    return value


def ints(values: tuple[int, ...], what: str) -> str:
    """A non-empty tuple of in-range integers formatted as a *list* word."""
    if not values:
        raise ProtocolViolation(f"empty {what} list")
    if min(values) < 0 or max(values) > MAX_MS:
        bad = next(v for v in values if not 0 <= v <= MAX_MS)
        raise ProtocolViolation(f"bad {what} {bad}: out of range")
    return ",".join(map(str, values))


BLANKS = " \t"
"""The only characters that separate words: ASCII space and tab (SPEC.md §2). Any
other character, whatever Unicode calls it (U+00A0, U+0085, U+3000, U+001C ...),
belongs to the word it touches, and is not printable ASCII, so that word is no token."""

_AFTER_WORDS = [re.compile(rf"[ \t]*(?:[^ \t]+(?:[ \t]+|$)){{{n}}}") for n in range(8)]


def words_of(line: str) -> list[str]:
    """The words of ``line``: its runs of characters other than space and tab (``BLANKS``)."""
    if "\t" in line:
        line = line.replace("\t", " ")
    words = line.split(" ")
    if "" in words:
        words = [word for word in words if word]
    return words


def text_after(line: str, count: int) -> str:
    """The text of ``line`` after its first ``count`` words (< 8), without surrounding
    blanks; empty if it has no more words."""
    match = _AFTER_WORDS[count].match(line)
    return line[match.end() :].rstrip(BLANKS) if match else ""


def split_words(line: str) -> list[str]:
    """The words of one line (``words_of``); a line break inside it is a violation."""
    if "\n" in line or "\r" in line:
        raise ProtocolViolation("a line may not contain a line break")
    return words_of(line)


def expect_keys(words: list[str], keys: tuple[str, ...], what: str) -> list[str]:
    """Check ``key value key value ...`` in exactly this order; return the values."""
    if len(words) != 2 * len(keys) or any(words[2 * i] != k for i, k in enumerate(keys)):
        expected = " ".join(f"{k} <{k}>" for k in keys)
        raise ProtocolViolation(f"malformed {what}: expected '{what} {expected}'")
    return words[1::2]
