"""``tally.json``: the counts of a journal's games up to a point, so that no reader has
to read a million games to show the tables.

The runner keeps, as it journals games, their ``tournaments.results.counts.Counts``
(a few hundred outcome keys, whatever the number of games), the set of their numbers
(``store.numbers``) and how far they reach: ``end``, the journal's length after the
last counted game, and ``games_end``, the length of ``games.tgn`` once its records were
appended. It writes them here (atomically, through a rename) every couple of seconds and
at the end. A reader takes the checkpoint and reads only the journal after ``end``
(``event_dir.EventStream.counts``; the runner's resume, ``play.recover``).

The journal stays the source of truth. The checkpoint is written after the games it
counts are synced, is not synced itself, and names its journal by a digest of the
journal's header line; it is used only when that digest matches, ``end`` lies within the
journal and the file is whole. Otherwise the reader counts from the journal (or its
index) as if there were no checkpoint: a lost, stale or foreign checkpoint costs time,
never a wrong table.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from tournaments.event.wire import WireError, from_json, to_json
from tournaments.results.counts import Counts
from tournaments.store.numbers import GameNumbers

CHECKPOINT = "tally.json"
VERSION = 1


class Packed:
    """The JSON form of a value that packs itself (``to_json``, ``from_json``): the counts
    by outcome key, the game numbers as a compressed bitmap (a ``JsonForm`` of
    ``tournaments.event.wire``)."""

    def __init__(self, kind: Any) -> None:
        self.kind = kind
        self.name = f"a packed {kind.__name__}"

    def write(self, value: Any) -> Any:
        return value.to_json()

    def read(self, data: Any) -> Any:
        """:raises ValueError, TypeError: not such a value's packed form."""
        try:
            return self.kind.from_json(data)
        except KeyError as exc:
            raise ValueError(f"no {exc}") from None


@dataclass
class Checkpoint:
    """What the first ``end`` bytes of a journal hold, counted; ``tally.json`` holds it
    as the one codec writes it, after its ``version`` and ``journal`` digest."""

    counts: Annotated[Counts, Packed(Counts)]
    end: int
    """Journal bytes covered (the end of a complete line)."""
    games_end: int = 0
    """Bytes of ``games.tgn`` holding exactly the records of the counted games."""
    voids: int = 0
    numbers: Annotated[GameNumbers, Packed(GameNumbers)] = field(default_factory=GameNumbers)
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness (absent from older
    checkpoints: read as 0)."""


def header_digest(header_line: bytes) -> str:
    """The digest that ties a checkpoint to its journal (of the header line, newline
    included: a new tournament in the same directory has another ``created`` time)."""
    return hashlib.sha256(header_line).hexdigest()[:32]


def write_checkpoint(directory: Path, checkpoint: Checkpoint, digest: str) -> None:
    """Replace ``tally.json``; a failure is ignored (readers fall back to the journal)."""
    data = {"version": VERSION, "journal": digest, **to_json(checkpoint)}
    path = directory / CHECKPOINT
    temporary = path.with_name(f".{CHECKPOINT}.tmp")
    with contextlib.suppress(OSError):
        temporary.write_text(json.dumps(data, separators=(",", ":")))
        os.replace(temporary, path)


def remove_checkpoint(directory: Path) -> None:
    """Remove ``tally.json`` (a new journal starts: an old checkpoint is not its own)."""
    with contextlib.suppress(FileNotFoundError):
        (directory / CHECKPOINT).unlink()


def read_checkpoint(directory: Path, digest: str, journal_size: int) -> Checkpoint | None:
    """The checkpoint of the journal whose header has ``digest`` and whose length is
    ``journal_size``, or None when there is none usable (see the module docstring)."""
    try:
        data = json.loads((directory / CHECKPOINT).read_bytes())
        if not isinstance(data, dict) or data.pop("version", None) != VERSION:
            return None
        if data.pop("journal", None) != digest:
            return None
        checkpoint = from_json(Checkpoint, data)
    except (OSError, ValueError, KeyError, TypeError, WireError):
        return None
    if not 0 < checkpoint.end <= journal_size:
        return None
    if checkpoint.counts.done > len(checkpoint.numbers):
        return None
    return checkpoint
