"""The strict reader of ``.tgn`` game records (format: ``protocol/RECORD.md``).

Contract: ``parse_records`` returns well-formed ``GameRecord`` objects or raises
``RecordSyntaxError`` carrying the source, line and column of the first problem; no
other exception escapes (fuzzed with hypothesis). It checks syntax and the tag rules
only: whether the moves are legal is ``referee.adjudicate``'s question.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from referee.record_types import (
    MOVE_NUMBER,
    GameRecord,
    MoveEntry,
    RecordSyntaxError,
    TagError,
    check_tags,
)

__all__ = ["RecordSyntaxError", "parse_records", "read_records"]

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_BLANK_LINE = re.compile(r"[ \t\r]*(?:\n|\Z)")
_MOVETEXT = re.compile(
    r"(?P<space>[ \t\r]+)|(?P<newline>\n)|(?P<comment>\{)|(?P<word>[!#-Z\\^-z|~]+)|(?P<bad>.)",
    re.DOTALL,
)


def _describe(char: str) -> str:
    if char.isprintable() and not char.isspace():
        return repr(char)
    return f"character U+{ord(char):04X}"


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.size = len(text)

    def error(self, pos: int, message: str) -> RecordSyntaxError:
        line = self.text.count("\n", 0, pos) + 1
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return RecordSyntaxError(self.source, line, column, message)

    def line_end(self, pos: int) -> int:
        end = self.text.find("\n", pos)
        return self.size if end < 0 else end

    def is_blank(self, pos: int) -> bool:
        return _BLANK_LINE.match(self.text, pos) is not None

    def skip_blank_lines(self, pos: int) -> int:
        while pos < self.size:
            match = _BLANK_LINE.match(self.text, pos)
            if match is None:
                break
            pos = match.end()
        return pos

    def parse(self) -> list[GameRecord]:
        games: list[GameRecord] = []
        pos = 1 if self.text.startswith("\ufeff") else 0
        while True:
            pos = self.skip_blank_lines(pos)
            if pos >= self.size:
                return games
            if self.text[pos] != "[":
                raise self.error(pos, 'expected a tag line such as [Game "trike"] to start a game')
            record, pos = self.parse_game(pos)
            games.append(record)

    def parse_game(self, start: int) -> tuple[GameRecord, int]:
        tags: list[tuple[str, str]] = []
        where: list[int] = []
        pos = start
        while pos < self.size and self.text[pos] == "[":
            name, value, following = self.parse_tag(pos)
            tags.append((name, value))
            where.append(pos)
            pos = following
        if pos < self.size and not self.is_blank(pos):
            raise self.error(pos, "missing blank line between the tags and the movetext")
        try:
            check_tags(tags)
        except TagError as exc:
            at = start if exc.index is None else where[exc.index]
            raise self.error(at, exc.message) from None
        pos = self.skip_blank_lines(pos)
        if pos >= self.size:
            raise self.error(pos, "missing movetext: the moves and the result token after the tags")
        moves, pos = self.parse_movetext(pos, dict(tags)["Result"])
        try:
            return GameRecord(tuple(tags), moves), pos
        except ValueError as exc:  # unreachable if the checks above mirror the model's
            raise self.error(start, str(exc)) from None

    def parse_tag(self, pos: int) -> tuple[str, str, int]:
        """Read ``[Name "value"]`` at ``pos``; return name, value and the next line's start."""
        text = self.text
        end = self.line_end(pos)
        following = min(end + 1, self.size)
        if end > pos and text[end - 1] == "\r":
            end -= 1
        name_match = _NAME.match(text, pos + 1, end)
        if name_match is None:
            raise self.error(pos + 1, "bad tag: expected a tag name after '['")
        i = name_match.end()
        j = i
        while j < end and text[j] in " \t":
            j += 1
        if j < end and text[j] == '"' and j == i:
            raise self.error(i, "bad tag: expected a space between the tag name and its value")
        if j >= end or text[j] != '"':
            raise self.error(j, 'bad tag: expected a quoted value "..." after the tag name')
        value, i = self.parse_string(j, end)
        if i >= end or text[i] != "]":
            raise self.error(i, "bad tag: expected ']' after the value")
        i += 1
        while i < end and text[i] in " \t":
            i += 1
        if i < end:
            raise self.error(i, f"unexpected {_describe(text[i])} after the tag")
        return name_match.group(), value, following

    def parse_string(self, quote: int, end: int) -> tuple[str, int]:
        text = self.text
        chars: list[str] = []
        i = quote + 1
        while i < end:
            char = text[i]
            if char == '"':
                return "".join(chars), i + 1
            if char == "\\":
                if i + 1 < end and text[i + 1] in '"\\':
                    chars.append(text[i + 1])
                    i += 2
                    continue
                raise self.error(i, 'bad escape in a tag value: only \\" and \\\\ are allowed')
            if (char < " " and char != "\t") or char == "\x7f":
                raise self.error(i, f"control {_describe(char)} in a tag value")
            chars.append(char)
            i += 1
        raise self.error(quote, "unterminated string: the tag value has no closing '\"'")

    def parse_movetext(self, start: int, result: str) -> tuple[tuple[MoveEntry, ...], int]:
        """Read movetext from ``start`` to a blank line or the end of the text."""
        text = self.text
        # (kind, text, position): kind is "move", "number" or "comment"
        items: list[tuple[str, str, int]] = []
        pos = start
        while pos < self.size:
            match = _MOVETEXT.match(text, pos)
            assert match is not None  # the last alternative matches any character
            kind = match.lastgroup
            if kind == "space":
                pos = match.end()
            elif kind == "newline":
                pos = match.end()
                if pos >= self.size or self.is_blank(pos):
                    break
            elif kind == "comment":
                close = text.find("}", pos + 1)
                if close < 0:
                    raise self.error(pos, "unterminated comment: '{' without a closing '}'")
                items.append(("comment", text[pos + 1 : close], pos))
                pos = close + 1
            elif kind == "word":
                word = match.group()
                items.append(("number" if MOVE_NUMBER.fullmatch(word) else "move", word, pos))
                pos = match.end()
            else:
                raise self.error(pos, self.unexpected(text[pos]))
        if not any(kind == "move" for kind, _, _ in items):
            raise self.error(start, f"missing result token: the movetext must end with {result!r}")
        kind, last, at = items[-1]
        if kind != "move":
            what = "a comment" if kind == "comment" else f"the move number {last!r}"
            raise self.error(at, f"the movetext must end with the result token, not {what}")
        if last != result:
            raise self.error(at, f"result token {last!r} does not match the Result tag {result!r}")
        texts: list[str] = []
        comments: list[str | None] = []
        for kind, value, _ in items[:-1]:
            if kind == "move":
                texts.append(value)
                comments.append(None)
            elif kind == "comment" and texts:  # a comment before the first move is dropped
                previous = comments[-1]
                comments[-1] = value if previous is None else f"{previous} {value}"
        return tuple(map(MoveEntry, texts, comments)), pos

    @staticmethod
    def unexpected(char: str) -> str:
        if char == "}":
            return "unexpected '}' outside a comment"
        if char == "[":
            return (
                "unexpected '[' in the movetext (a blank line must end a game's movetext "
                "before the next game's tags)"
            )
        if char in ']"':
            return f"unexpected {char!r} in the movetext"
        return f"unexpected {_describe(char)} in the movetext (moves are printable ASCII)"


def parse_records(text: str, source: str = "<string>") -> list[GameRecord]:
    """Every game in ``text``, in order (an empty or blank text has none).

    :raises RecordSyntaxError: the first syntax or tag-rule problem, located in ``source``.
    """
    return _Parser(text, source).parse()


def read_records(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Every game in the UTF-8 file at ``path``.

    :raises RecordSyntaxError: the file is not UTF-8 or not well-formed.
    :raises OSError: the file cannot be read.
    """
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordSyntaxError(str(path), line, column, "invalid UTF-8") from None
    return parse_records(text, str(path))
