"""``index.jsonl``: the journal's games without their records, for the tables.

The journal holds each game's whole record (about a kilobyte); the tables need a few
numbers. So beside it the runner keeps an index, one short JSON array per scored game,
``[end, number, round, block, table, termination, ranks, scores, culprit, plies]``, where
``end`` is the journal's length just after that game's line. The journal stays the
source of truth: the index is written after the journal is synced, is not synced
itself, and is rebuilt from the journal whenever a runner opens the directory; a reader
trusts an index line only while its ``end`` lies within the journal, and reads the
journal itself from the last trusted ``end`` on (``read_results``). So a torn, stale or
missing index costs time, never a wrong table. Seats' names come from the header's
entrant names (``table`` holds entrant indexes); reasons are not kept.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from referee.core import Outcome, Termination
from tournaments.results.game import GameReport

INDEX = "index.jsonl"


def index_line(report: GameReport, end: int) -> str:
    """The index line of scored game ``report`` whose journal line ends at ``end``."""
    outcome = report.outcome
    return json.dumps(
        [
            end,
            report.number,
            report.round,
            report.block,
            list(report.table),
            outcome.termination.value,
            list(outcome.ranks),
            list(outcome.scores),
            outcome.culprit,
            report.plies,
        ],
        separators=(",", ":"),
    )


def write_index(directory: Path, lines: Sequence[str]) -> None:
    """Replace the index with ``lines`` (a runner opening the directory)."""
    path = directory / INDEX
    temporary = path.with_name(INDEX + ".tmp")
    temporary.write_text("".join(line + "\n" for line in lines))
    temporary.replace(path)


def append_index(fd: int, lines: Sequence[str]) -> None:
    """Append index lines; a failure is ignored (the reader falls back to the journal)."""
    if not lines:
        return
    data = ("\n".join(lines) + "\n").encode()
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        pass


def _report(item: list[Any], names: Sequence[str]) -> GameReport:
    _end, number, round_, block, table, termination, ranks, scores, culprit, plies = item
    table_t = tuple(int(i) for i in table)
    outcome = Outcome(
        Termination(termination),
        tuple(int(r) for r in ranks),
        tuple(float(s) for s in scores),
        None if culprit is None else int(culprit),
        "",
    )
    return GameReport(
        int(number),
        int(round_),
        int(block),
        table_t,
        tuple(names[i] for i in table_t),
        outcome,
        int(plies),
        "",
    )


def read_index(
    directory: Path, names: Sequence[str], journal_size: int
) -> Iterator[GameReport | int]:
    """The games of the index that lie within the journal's first ``journal_size`` bytes,
    then, last, the journal offset they cover (an ``int``; 0 without a usable index)."""
    covered = 0
    try:
        with (directory / INDEX).open("rb") as lines:
            for raw in lines:
                if not raw.endswith(b"\n"):
                    break
                try:
                    item = json.loads(raw)
                    end = int(item[0])
                    if end > journal_size or end < covered:
                        break
                    report = _report(item, names)
                except (ValueError, TypeError, IndexError, KeyError):
                    break
                covered = end
                yield report
    except OSError:
        pass
    yield covered


def index_tail(directory: Path, journal_size: int) -> tuple[int, int]:
    """Where the index can be continued: (the journal offset its last trusted line
    covers, the index's length through that line), reading only the index's end. A
    resuming runner cuts the index there and indexes the journal from that offset on
    (the last batch of a killed run may be journaled but not indexed). (0, 0) when no
    line near the end is usable: the whole index is then rebuilt."""
    try:
        with (directory / INDEX).open("rb") as index:
            size = index.seek(0, os.SEEK_END)
            start = max(0, size - TAIL_BYTES)
            index.seek(start)
            chunk = index.read()
    except OSError:
        return 0, 0
    lines = chunk.split(b"\n")
    length = start + len(chunk) - len(lines[-1])  # the end of the last complete line
    for raw in reversed(lines[:-1]):
        if start > 0 and length - len(raw) - 1 < start:
            break  # the chunk's first line may be cut
        try:
            end = int(json.loads(raw)[0])
        except (ValueError, TypeError, IndexError, KeyError):
            end = -1
        if 0 < end <= journal_size:
            return end, length
        length -= len(raw) + 1
    return 0, 0


TAIL_BYTES = 1 << 16
"""How much of the index's end ``index_tail`` reads."""


def find_game_end(directory: Path, number: int) -> int | None:
    """The journal offset just after game ``number``'s line, from the index (its first
    entry), or None. Reads the index line by line (a rare look-up: the live view's
    ``/game/N`` for a game no longer listed)."""
    comma = b","
    try:
        with (directory / INDEX).open("rb") as lines:
            for raw in lines:
                # ``[end,number,…``: the two numbers before the second comma, not the
                # whole line through json (a million lines would take seconds).
                head = raw[1 : raw.find(comma, raw.find(comma) + 1)]
                try:
                    end, found = (int(x) for x in head.split(b","))
                except ValueError:
                    continue
                if found == number:
                    return end
    except OSError:
        return None
    return None


def line_start(path: Path, end: int, *, limit: int = 64 << 20) -> int:
    """Where the journal line that ends at ``end`` (just after its newline) starts.

    :raises OSError: unreadable, or no line start within ``limit`` bytes.
    """
    position = end - 1  # the line's own newline
    with path.open("rb") as journal:
        while position > 0:
            step = min(1 << 16, position)
            journal.seek(position - step)
            chunk = journal.read(step)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                return position - step + newline + 1
            position -= step
            if end - position > limit:
                raise OSError(f"no line start within {limit} bytes before {end}")
    return 0
