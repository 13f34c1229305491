"""Reading a ``.tgn`` file game by game, in memory that does not grow with the file.

``read_batches`` reads the file in blocks and cuts it at game starts (``GAME_START`` of
``referee.record.parse``) into ``RecordBatch``es: plain data (bytes and numbers), so a
batch can be parsed in another process. ``parse_batch`` turns a batch into its entries
(games, and the errors of broken games and stray text); ``iter_entries`` chains both.
Memory holds one batch, at most ``BATCH_BYTES`` plus one game; a game longer than
``MAX_GAME_BYTES`` is not held at all (its entry is an error, and reading goes on at the
next game).

Each piece is decoded on its own, so invalid UTF-8 breaks only the game it is in. A file
with a NUL byte in its first ``SNIFF_BYTES`` is not text (``NotTextError``).

Every entry is a game (a ``GameRecord``, or the ``RecordSyntaxError`` of a broken one) or
stray text (a ``StrayTextError``: a piece that does not open with a tag line, or the
text after a game's movetext in its piece).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from referee.errors import path_error
from referee.record.heap import fix_mmap_threshold
from referee.record.model import GameRecord, RecordSyntaxError
from referee.record.parse import GAME_START, StrayTextError, parse_piece

__all__ = [
    "BATCH_BYTES",
    "MAX_GAME_BYTES",
    "NotTextError",
    "RecordBatch",
    "iter_entries",
    "parse_batch",
    "read_batches",
    "read_records",
]

BATCH_BYTES = 256 * 1024
"""The size of a read, and about the size of a batch (whole games, so a little more)."""
MAX_GAME_BYTES = 16 * 1024 * 1024
"""The longest game read (a 20,000-ply game with comments is about 1.5 MB)."""
SNIFF_BYTES = 64 * 1024
"""The head of the file that decides whether it is text: no NUL byte in it."""
_SKIP_TAIL = 4096
"""While skipping an over-long game, the bytes kept between reads to see a game start
that straddles two reads (a blank line of more spaces than this before it goes unseen)."""

_GAME_START = re.compile(GAME_START.pattern.encode())

Entry = GameRecord | RecordSyntaxError
"""One entry of a file: a game, or the error of a broken game or of stray text."""


class NotTextError(RecordSyntaxError):
    """The file holds a NUL byte in its first ``SNIFF_BYTES``: it is not a text file."""


@dataclass(frozen=True, slots=True)
class RecordBatch:
    """Whole pieces of a file (the first starts at a game start or the file's start)."""

    source: str
    """The file's name, for error messages."""
    data: bytes
    """The pieces' bytes; empty for an over-long game."""
    first_line: int
    """The line of ``source`` that ``data`` starts on."""
    skipped: bool = False
    """A piece of more than ``MAX_GAME_BYTES`` starts at ``first_line`` and was skipped."""
    opens_game: bool = True
    """For a skipped piece: whether it opens with a tag line (else it is stray text)."""
    limit: int = 0
    """For a skipped piece: the size limit it broke."""


def _check_text(head: bytes, source: str) -> None:
    """:raises NotTextError: ``head``, the start of the file, holds a NUL byte; the error
    points at the first invalid UTF-8 sequence or NUL byte, whichever comes first."""
    nul = head.find(b"\0")
    if nul < 0:
        return
    at, message = nul, "a NUL byte"
    try:
        head[:nul].decode("utf-8")
    except UnicodeDecodeError as exc:
        at, message = exc.start, "invalid UTF-8"
    line = head.count(b"\n", 0, at) + 1
    column = len(head[head.rfind(b"\n", 0, at) + 1 : at].decode("utf-8", "replace")) + 1
    raise NotTextError(source, line, column, f"{message} (not a text file)")


def _opens_game(piece: bytes) -> bool:
    """Whether the piece's first non-blank line is a tag line (a game, maybe broken)."""
    return piece.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t\r\n").startswith(b"[")


def _last_start(buffer: bytes) -> int:
    """The offset of the last game start after offset 0 in ``buffer``, or 0 if none."""
    last = 0
    for match in _GAME_START.finditer(buffer):
        last = match.end()
    return last


def _skip(blocks: Iterator[bytes], buffer: bytes, line: int) -> tuple[bytes, int]:
    """Read past the over-long piece at the start of ``buffer`` to the next game start.

    :return: the bytes from that game start on (empty at the end of the file) and its line.
    """
    while True:
        match = _GAME_START.search(buffer)
        if match is not None:
            return buffer[match.end() :], line + buffer.count(b"\n", 0, match.end())
        keep = buffer[-_SKIP_TAIL:]
        line += buffer.count(b"\n") - keep.count(b"\n")
        data = next(blocks, b"")
        if not data:
            return b"", line
        buffer = keep + data


def read_batches(
    path: str | os.PathLike[str],
    *,
    batch_bytes: int | None = None,
    max_game_bytes: int | None = None,
) -> Iterator[RecordBatch]:
    """The batches of the file at ``path``, in file order (lazily: one read per batch).

    ``batch_bytes`` and ``max_game_bytes`` default to ``BATCH_BYTES`` and ``MAX_GAME_BYTES``.

    :raises PathError: the file cannot be opened or read (one line naming it).
    :raises NotTextError: the first ``SNIFF_BYTES`` hold a NUL byte (before any batch).
    """
    source = os.fspath(path)
    try:  # the path is the user's: a missing file or a directory is an input error
        yield from _batches(source, batch_bytes or BATCH_BYTES, max_game_bytes or MAX_GAME_BYTES)
    except OSError as exc:
        raise path_error(source, exc) from None


def _batches(source: str, batch_bytes: int, max_game_bytes: int) -> Iterator[RecordBatch]:
    """``read_batches`` without its translation of ``OSError``."""
    with open(source, "rb") as file:
        head = file.read(SNIFF_BYTES)
        _check_text(head, source)
        carry = b""
        line = 1
        blocks = _blocks(file, head, batch_bytes)
        for data in blocks:
            buffer = carry + data
            cut = _last_start(buffer)
            if cut:
                batch = buffer[:cut]
                yield RecordBatch(source, batch, line)
                line += batch.count(b"\n")
                carry = buffer[cut:]
            elif len(buffer) > max_game_bytes:
                opens = _opens_game(buffer)
                yield RecordBatch(source, b"", line, True, opens, max_game_bytes)
                carry, line = _skip(blocks, buffer, line)
            else:
                carry = buffer
        if carry:
            yield RecordBatch(source, carry, line)


def _blocks(file: BinaryIO, head: bytes, size: int) -> Iterator[bytes]:
    """``head`` (already read from ``file``), then the rest of ``file``, in ``size`` blocks."""
    for start in range(0, len(head), size):
        yield head[start : start + size]
    while block := file.read(size):
        yield block


def _decode(piece: bytes, source: str, line: int) -> str | RecordSyntaxError:
    try:
        return piece.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = piece.rfind(b"\n", 0, exc.start) + 1
        column = len(piece[line_start : exc.start].decode("utf-8", "replace")) + 1
        at = line + piece.count(b"\n", 0, exc.start)
        kind = RecordSyntaxError if _opens_game(piece) else StrayTextError
        return kind(source, at, column, "invalid UTF-8")


def parse_batch(batch: RecordBatch) -> list[Entry]:
    """The entries of ``batch`` in order (``referee.record.parse.parse_piece`` per piece)."""
    fix_mmap_threshold()  # a bounded peak wherever the batch is parsed (record.heap)
    if batch.skipped:
        size = f"{batch.limit:,} bytes"
        what = "a game" if batch.opens_game else "text"
        message = f"{what} of more than {size}: not read (reading goes on at the next game)"
        kind = RecordSyntaxError if batch.opens_game else StrayTextError
        return [kind(batch.source, batch.first_line, 1, message)]
    data = batch.data
    entries: list[Entry] = []
    line = batch.first_line
    start = 0
    ends = [match.end() for match in _GAME_START.finditer(data)]
    for end in [*ends, len(data)]:
        piece = data[start:end]
        text = _decode(piece, batch.source, line)
        if isinstance(text, RecordSyntaxError):
            entries.append(text)
        else:
            entries += parse_piece(text, batch.source, line)
        line += piece.count(b"\n")
        start = end
    return entries


def iter_entries(
    path: str | os.PathLike[str], *, batch_bytes: int | None = None
) -> Iterator[Entry]:
    """Every entry of the file at ``path`` in file order, one batch in memory at a time.

    :raises PathError: the file cannot be opened or read.
    :raises NotTextError: the file is not text.
    """
    for batch in read_batches(path, batch_bytes=batch_bytes):
        yield from parse_batch(batch)


def is_game(entry: Entry) -> bool:
    """Whether ``entry`` is a game, well-formed or broken (not stray text)."""
    return not isinstance(entry, StrayTextError)


def read_records(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Every game in the UTF-8 file at ``path`` (strict: all of them, or an error).

    :raises RecordSyntaxError: the first problem: a broken game, stray text, invalid
        UTF-8 or a file that is not text.
    :raises PathError: the file cannot be opened or read.
    """
    games: list[GameRecord] = []
    for entry in iter_entries(path):
        if isinstance(entry, RecordSyntaxError):
            raise entry
        games.append(entry)
    return games
