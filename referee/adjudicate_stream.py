"""Adjudicating a whole ``.tgn`` file, entry by entry, in memory that does not grow with it.

A file's entries come from ``referee.record.stream``: games, broken games and stray text.
Each gets an ``Adjudged``: a game its ``referee.adjudicate`` verdict; a broken game, or
stray text, ``invalid-record`` with the reader's ``file:line:column: message``.

``adjudicate_batch`` is a pure function of a ``RecordBatch`` (plain bytes and numbers),
so callers can run it in other processes and put the results back in file order;
``iter_adjudged`` does it all in this process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from referee.adjudicate import Verdict, VerdictKind, adjudicate
from referee.record.model import GameRecord, RecordSyntaxError
from referee.record.parse import StrayTextError
from referee.record.stream import Entry, RecordBatch, parse_batch, read_batches


@dataclass(frozen=True, slots=True)
class Adjudged:
    """The verdict of one entry of a file."""

    verdict: Verdict
    record: GameRecord | None = None
    """The game's record, only for a disputed well-formed game and when asked for (to draw
    the position at the dispute); None otherwise."""
    game: bool = True
    """False for stray text (text where a game should start that is none)."""


def adjudicate_entry(entry: Entry, *, keep_disputed: bool = False) -> Adjudged:
    """The ``Adjudged`` of one entry; with ``keep_disputed`` a disputed game keeps its record."""
    if isinstance(entry, RecordSyntaxError):
        verdict = Verdict(VerdictKind.INVALID_RECORD, str(entry))
        return Adjudged(verdict, game=not isinstance(entry, StrayTextError))
    verdict = adjudicate(entry)
    keep = keep_disputed and not verdict.confirmed
    return Adjudged(verdict, entry if keep else None)


def adjudicate_batch(batch: RecordBatch, keep_disputed: bool = False) -> list[Adjudged]:
    """The ``Adjudged`` of every entry of ``batch``, in order."""
    return [adjudicate_entry(e, keep_disputed=keep_disputed) for e in parse_batch(batch)]


def iter_adjudged(
    path: str | os.PathLike[str], *, keep_disputed: bool = False, batch_bytes: int | None = None
) -> Iterator[Adjudged]:
    """The ``Adjudged`` of every entry of the file at ``path``, in file order, each as soon
    as it is known (one batch of the file in memory at a time; see ``read_batches``).

    :raises OSError: the file cannot be opened or read.
    :raises NotTextError: the file is not text.
    """
    for batch in read_batches(path, batch_bytes=batch_bytes):
        yield from adjudicate_batch(batch, keep_disputed)


def adjudicate_file(path: str | os.PathLike[str]) -> list[Verdict]:
    """The verdict of every entry of the file at ``path``, in file order.

    :raises OSError: the file cannot be opened or read.
    :raises NotTextError: the file is not text.
    """
    return [adjudged.verdict for adjudged in iter_adjudged(path)]
