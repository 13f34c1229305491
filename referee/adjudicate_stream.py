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
from collections.abc import Callable, Iterator
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
    """The game's record when the caller's ``keep`` wants it (say, to draw the position at
    a dispute); None otherwise, and always for a game that does not read."""
    game: bool = True
    """False for stray text (text where a game should start that is none)."""
    seats: tuple[str, ...] = ()
    """The entrant names of a well-formed game, in seat order."""


Keep = Callable[[GameRecord, Verdict], bool]
"""Which records an ``Adjudged`` keeps; a top-level function, so that it can be sent to
worker processes."""


def keep_disputed(record: GameRecord, verdict: Verdict) -> bool:
    """A ``Keep``: the records of disputed games."""
    return not verdict.confirmed


def adjudicate_entry(entry: Entry, keep: Keep | None = None) -> Adjudged:
    """The ``Adjudged`` of one entry, with its record if ``keep`` says so."""
    if isinstance(entry, RecordSyntaxError):
        verdict = Verdict(VerdictKind.INVALID_RECORD, str(entry))
        return Adjudged(verdict, game=not isinstance(entry, StrayTextError))
    verdict = adjudicate(entry)
    kept = entry if keep is not None and keep(entry, verdict) else None
    return Adjudged(verdict, kept, seats=entry.seats)


def adjudicate_batch(batch: RecordBatch, keep: Keep | None = None) -> list[Adjudged]:
    """The ``Adjudged`` of every entry of ``batch``, in order."""
    return [adjudicate_entry(entry, keep) for entry in parse_batch(batch)]


def iter_adjudged(
    path: str | os.PathLike[str], *, keep: Keep | None = None, batch_bytes: int | None = None
) -> Iterator[Adjudged]:
    """The ``Adjudged`` of every entry of the file at ``path``, in file order, each as soon
    as it is known (one batch of the file in memory at a time; see ``read_batches``).

    :raises PathError: the file cannot be opened or read.
    :raises NotTextError: the file is not text.
    """
    for batch in read_batches(path, batch_bytes=batch_bytes):
        yield from adjudicate_batch(batch, keep)


def adjudicate_file(path: str | os.PathLike[str]) -> list[Verdict]:
    """The verdict of every entry of the file at ``path``, in file order.

    :raises PathError: the file cannot be opened or read.
    :raises NotTextError: the file is not text.
    """
    return [adjudged.verdict for adjudged in iter_adjudged(path)]
