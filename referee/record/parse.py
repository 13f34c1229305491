"""The strict reader of ``.tgn`` game records (format: ``protocol/RECORD.md``).

A file is read piece by piece. A *game start* is a line that begins with ``[`` right
after a blank line (``GAME_START``), or the first line of the file; a *piece* is the text
from one game start to the next. ``parse_piece`` reads one piece into its entries: the
game (a ``GameRecord``, or the ``RecordSyntaxError`` that keeps it from being one) and,
when text follows the game's movetext in the same piece, a ``StrayTextError`` for that
text. A broken game never spoils the next: it ends where the next piece begins. Files are
read in bounded memory by ``referee.record.stream``.

Contract: every problem is a ``RecordSyntaxError`` carrying the source, line and column
(the first problem of its piece); no other exception escapes (fuzzed with hypothesis).
Syntax and the tag rules only: whether the moves are legal is ``referee.adjudicate``'s
question.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator

from referee.record.model import (
    MAX_TAGS,
    MOVE_NUMBER,
    GameRecord,
    MoveList,
    RecordSyntaxError,
    TagError,
    check_tags,
)
from referee.record.packed import Joiner, StringsBuilder

__all__ = [
    "GAME_START",
    "RecordSyntaxError",
    "StrayTextError",
    "parse_piece",
    "parse_records",
    "split_pieces",
]

GAME_START = re.compile(r"\n[ \t\r]*\n(?=\[)")
"""Where a piece ends: its ``end()`` is the ``[`` of the next game's first tag line."""

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_BLANK_LINE = re.compile(r"[ \t\r]*(?:\n|\Z)")
_BLANK_AFTER = re.compile(r"\n[ \t\r]*(?:\n|\Z)")
_MOVETEXT = re.compile(
    r"(?P<space>[ \t\r]+)|(?P<newline>\n)|(?P<comment>\{)|(?P<word>[!#-Z\\^-z|~]+)|(?P<bad>.)",
    re.DOTALL,
)
# Fast paths for the common case; anything they do not match goes the slow, exact way.
_TAG_LINE = re.compile(
    r'\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\x00-\x08\x0a-\x1f\x7f]|\\["\\])*+)"\]'
    r"[ \t]*\r?(?:\n|\Z)"
)
_MOVETEXT_OK = re.compile(r"(?>[ \t\r\n]*+(?:\{[^}]*+\}|[!#-Z\\^-z|~]++))*+[ \t\r\n]*+")
_ITEMS = re.compile(r"\{([^}]*)\}|([0-9]+\.+)(?![!#-Z\\^-z|~])|([!#-Z\\^-z|~]+)")


class StrayTextError(RecordSyntaxError):
    """Text where a game should start but no tag line opens it (it is not a game)."""


class _Moves:
    """A movetext's moves and comments as they are read, in little memory (a
    ``MoveList``). The latest move is held back: at the end it is the result token."""

    def __init__(self) -> None:
        self.texts = StringsBuilder()
        self.comments = StringsBuilder()
        self.comment_at = array("I")
        self.last: str | None = None
        """The latest move token, not yet among ``texts``."""
        self.comment = Joiner()
        """The comments after ``last`` (joined by a space, as the format says)."""

    def move(self, text: str) -> None:
        if self.last is not None:
            index = len(self.texts)
            self.texts.add(self.last)
            if self.comment:
                self.comment_at.append(index)
                self.comments.add(self.comment.text())
        self.last = text

    def add_comment(self, text: str) -> None:
        if self.last is not None:  # a comment before the first move is dropped
            self.comment.add(text)

    def build(self) -> MoveList:
        """The moves before ``last`` (the result token, which has no comment)."""
        return MoveList(self.texts.build(), self.comment_at, self.comments.build())


def _describe(char: str) -> str:
    if char.isprintable() and not char.isspace():
        return repr(char)
    return f"character U+{ord(char):04X}"


class _Parser:
    def __init__(self, text: str, source: str, first_line: int) -> None:
        self.text = text
        self.source = source
        self.first_line = first_line
        self.size = len(text)

    def error(
        self, pos: int, message: str, kind: type[RecordSyntaxError] = RecordSyntaxError
    ) -> RecordSyntaxError:
        line = self.first_line + self.text.count("\n", 0, pos)
        column = pos - (self.text.rfind("\n", 0, pos) + 1) + 1
        return kind(self.source, line, column, message)

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

    def parse(self) -> list[GameRecord | RecordSyntaxError]:
        """The entries of the piece: nothing, a game or its error, and stray text after it."""
        bom = self.first_line == 1 and self.text.startswith("\ufeff")
        pos = self.skip_blank_lines(1 if bom else 0)
        if pos >= self.size:
            return []
        if self.text[pos] != "[":
            return [self.stray(pos)]
        try:
            record, pos = self.parse_game(pos)
        except RecordSyntaxError as error:
            return [error]
        pos = self.skip_blank_lines(pos)
        return [record] if pos >= self.size else [record, self.stray(pos)]

    def stray(self, pos: int) -> RecordSyntaxError:
        message = 'expected a tag line such as [Game "trike"] to start a game'
        return self.error(pos, message, StrayTextError)

    def parse_game(self, start: int) -> tuple[GameRecord, int]:
        tags: list[tuple[str, str]] = []
        where: list[int] = []
        pos = start
        text = self.text
        while pos < self.size and text[pos] == "[":
            if len(tags) == MAX_TAGS:
                raise self.error(pos, f"more than {MAX_TAGS} tags")
            match = _TAG_LINE.match(text, pos)
            if match is not None:
                name, value = match.groups()
                if "\\" in value:  # only escape pairs (the regex); NUL, a control, cannot occur
                    value = value.replace("\\\\", "\0").replace('\\"', '"').replace("\0", "\\")
                following = match.end()
            else:
                name, value, following = self.parse_tag(pos)
            tags.append((name, value))
            where.append(pos)
            pos = following
        if pos < self.size and not self.is_blank(pos):
            raise self.error(pos, "missing blank line between the tags and the movetext")
        pos = self.skip_blank_lines(pos)
        result = dict(tags).get("Result")
        fast = None if pos >= self.size or result is None else self.fast_movetext(pos, result)
        if fast is None:  # the slow way, and the tag rules first, as the errors go
            self.check_tags(tags, where, start)
            if pos >= self.size:
                message = "missing movetext: the moves and the result token after the tags"
                raise self.error(pos, message)
            fast = self.parse_movetext(pos, dict(tags)["Result"])
        moves, pos = fast
        try:  # checks the tag rules (once, on the fast path)
            return GameRecord(tuple(tags), moves), pos
        except TagError as exc:
            raise self.tag_error(exc, where, start) from None
        except ValueError as exc:  # unreachable if the checks above mirror the model's
            raise self.error(start, str(exc)) from None

    def check_tags(self, tags: list[tuple[str, str]], where: list[int], start: int) -> None:
        try:
            check_tags(tags)
        except TagError as exc:
            raise self.tag_error(exc, where, start) from None

    def tag_error(self, exc: TagError, where: list[int], start: int) -> RecordSyntaxError:
        return self.error(start if exc.index is None else where[exc.index], exc.message)

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

    def fast_movetext(self, start: int, result: str) -> tuple[MoveList, int] | None:
        """``parse_movetext`` for movetext that is well-formed up to its first blank line
        and ends with ``result``; None for anything else (the slow path then says why)."""
        blank = _BLANK_AFTER.search(self.text, start)
        end = self.size if blank is None else blank.start() + 1
        if _MOVETEXT_OK.fullmatch(self.text, start, end) is None:
            return None
        moves = _Moves()
        last_is_word = False
        for match in _ITEMS.finditer(self.text, start, end):
            kind = match.lastindex  # 1: a comment, 2: a move number, 3: a move
            last_is_word = kind == 3
            if kind == 3:
                moves.move(match.group(3))
            elif kind == 1:
                moves.add_comment(match.group(1))
        if not last_is_word or moves.last != result:
            return None
        return moves.build(), end

    def parse_movetext(self, start: int, result: str) -> tuple[MoveList, int]:
        """Read movetext from ``start`` to a blank line or the end of the text."""
        text = self.text
        moves = _Moves()
        # the latest item, (kind, text, position): kind is "move", "number" or "comment"
        last_item: tuple[str, str, int] | None = None
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
                last_item = ("comment", text[pos + 1 : close], pos)
                moves.add_comment(last_item[1])
                pos = close + 1
            elif kind == "word":
                word = match.group()
                number = MOVE_NUMBER.fullmatch(word) is not None
                last_item = ("number" if number else "move", word, pos)
                if not number:
                    moves.move(word)
                pos = match.end()
            else:
                raise self.error(pos, self.unexpected(text[pos]))
        if moves.last is None or last_item is None:
            raise self.error(start, f"missing result token: the movetext must end with {result!r}")
        kind, last, at = last_item
        if kind != "move":
            what = "a comment" if kind == "comment" else f"the move number {last!r}"
            raise self.error(at, f"the movetext must end with the result token, not {what}")
        if last != result:
            raise self.error(at, f"result token {last!r} does not match the Result tag {result!r}")
        return moves.build(), pos

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


def parse_piece(
    text: str, source: str = "<string>", first_line: int = 1
) -> list[GameRecord | RecordSyntaxError]:
    """The entries of one piece (see the module docstring), in order; never raises.

    ``first_line`` is the piece's line number in ``source``. A piece of blank lines has
    no entry; a piece whose first non-blank line is no tag line is one ``StrayTextError``;
    otherwise the first entry is the game or its error, followed by a ``StrayTextError``
    if anything but blank lines follows a well-formed game. A byte order mark at the
    very start of line 1 is skipped.
    """
    return _Parser(text, source, first_line).parse()


def split_pieces(text: str) -> Iterator[tuple[int, str]]:
    """The pieces of ``text`` with the line number each starts on (the first is line 1)."""
    line = 1
    start = 0
    for match in GAME_START.finditer(text):
        piece = text[start : match.end()]
        yield line, piece
        line += piece.count("\n")
        start = match.end()
    yield line, text[start:]


def parse_records(text: str, source: str = "<string>") -> list[GameRecord]:
    """Every game in ``text``, in order (an empty or blank text has none).

    :raises RecordSyntaxError: the first syntax or tag-rule problem, located in ``source``.
    """
    games: list[GameRecord] = []
    for line, piece in split_pieces(text):
        for entry in parse_piece(piece, source, line):
            if isinstance(entry, RecordSyntaxError):
                raise entry
            games.append(entry)
    return games
