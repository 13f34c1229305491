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

from tournaments.results.counts import Counts
from tournaments.store.numbers import GameNumbers

CHECKPOINT = "tally.json"
VERSION = 1


@dataclass
class Checkpoint:
    """What the first ``end`` bytes of a journal hold, counted."""

    counts: Counts
    end: int
    """Journal bytes covered (the end of a complete line)."""
    games_end: int = 0
    """Bytes of ``games.tgn`` holding exactly the records of the counted games."""
    voids: int = 0
    numbers: GameNumbers = field(default_factory=GameNumbers)
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness."""


def header_digest(header_line: bytes) -> str:
    """The digest that ties a checkpoint to its journal (of the header line, newline
    included: a new tournament in the same directory has another ``created`` time)."""
    return hashlib.sha256(header_line).hexdigest()[:32]


def write_checkpoint(directory: Path, checkpoint: Checkpoint, digest: str) -> None:
    """Replace ``tally.json``; a failure is ignored (readers fall back to the journal)."""
    data = {
        "version": VERSION,
        "journal": digest,
        "end": checkpoint.end,
        "games_end": checkpoint.games_end,
        "voids": checkpoint.voids,
        "runner_voids": checkpoint.runner_voids,
        "numbers": checkpoint.numbers.to_json(),
        "counts": checkpoint.counts.to_json(),
    }
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
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return None
        if data.get("journal") != digest:
            return None
        end = int(data["end"])
        if not 0 < end <= journal_size:
            return None
        numbers = GameNumbers.from_json(data["numbers"])
        counts = Counts.from_json(data["counts"])
        if counts.done > len(numbers):
            return None
        runner_voids = int(data.get("runner_voids", 0))  # absent from older checkpoints
        return Checkpoint(
            counts, end, int(data["games_end"]), int(data["voids"]), numbers, runner_voids
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
