"""Where the engines' transcripts of an event's games go: a few store files, not a file
per game.

Which games: ``transcripts = "failures"`` (the default) keeps the games that ended by a
failure (a forfeit: illegal move, time, crash, protocol error, resignation; a void game;
an adjudication), ``"all"`` every game, ``"none"`` none (``wanted``).

Where: each process that plays games appends them to its own store,
``logs/transcripts-<pid>.log``, one block per game that starts with the line
``# game N, round R: seat 1 NAME, …`` (``GAME_HEADER``); a block is written with one
``os.write`` on a file opened ``O_APPEND``, so slots of one process never interleave.
So the directory holds one file per process that ran (worker processes, times resumes),
however many games are played. With ``"all"`` a store is rotated at ``ROTATE_BYTES``:
the full file becomes ``transcripts-<pid>.old.log`` (replacing an older one), so an event
keeps at most the last 2 × 64 MiB of transcripts per process; failures alone are never
rotated away. ``read_transcript`` finds one game's blocks; ``blocks_after`` reads the
blocks appended since an offset (the cluster task sends each game's block home).
``game_block`` makes a block; ``store_of`` says where a slot appends it: its process's
store in the event directory, or the one named file of ``referee play``
(``NAME.transcripts.log``, which every slot and worker process appends to, a block per
``os.write`` on ``O_APPEND``, so blocks never interleave there either; it is never
rotated, since processes rotating one file could race).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from protocol.transcript import Transcript
from referee.core import Outcome, Termination
from referee.errors import path_error
from tournaments.store.journal import write_all

LOGS_DIR = "logs"
"""Subdirectory of the output directory with the transcript stores."""
ROTATE_BYTES = 64 * 1024 * 1024
"""Size at which a store of ``transcripts = "all"`` is rotated."""
GAME_HEADER = re.compile(r"^# game (\d+), round ", re.MULTILINE)
"""The first line of a game's block."""
MODES = ("all", "failures", "none")


def wanted(mode: str, termination: Termination) -> bool:
    """Whether a game that ended by ``termination`` keeps its transcript under ``mode``."""
    if mode == "all":
        return True
    if mode == "failures":
        return (
            termination.is_forfeit
            or termination is Termination.VOID
            or termination is Termination.ADJUDICATION
        )
    return False


def rotates(mode: str, file: str | None = None) -> bool:
    """Whether the stores of ``mode`` are rotated at ``ROTATE_BYTES``: only ``"all"``'s
    (failures alone are never rotated away), and never ``referee play``'s one ``file``,
    which several processes append to (two rotating it could race). The one rule for
    every run path: the slots that write a store and the cluster dispatcher that writes
    its tasks' blocks home."""
    return mode == "all" and file is None


def store_path(out: Path, pid: int | None = None) -> Path:
    """This process's store in event directory ``out``."""
    return out / LOGS_DIR / f"transcripts-{os.getpid() if pid is None else pid}.log"


def store_of(out: str | None, file: str | None) -> Path | None:
    """Where this process appends its games' blocks: ``file`` when given (``referee
    play``), else its store in event directory ``out``; None for neither (none kept)."""
    if file is not None:
        return Path(file)
    return store_path(Path(out)) if out is not None else None


_lock = threading.Lock()  # slots of one loop write from threads; rotation must not race


def seat_lines(
    ended: Sequence[Transcript], current: Transcript | None, old: Transcript | None, mark: int
) -> list[str]:
    """One seat's lines of one game: the transcripts of its processes that ended during
    the game (``ended``), then the running one's (``current``); of the process that was
    already running when the game began (``old``), only the lines from ``mark`` on."""
    pieces: list[str] = []
    for transcript in [*ended, *([current] if current is not None else [])]:
        pieces += transcript.lines_since(mark if transcript is old else 0)
    return pieces or ["(no engine transcript)"]


def game_block(
    number: int, round_no: int, names: Sequence[str], outcome: Outcome, seats: Sequence[list[str]]
) -> str:
    """A game's block: the ``GAME_HEADER`` line, the outcome, then each seat's lines."""
    table = ", ".join(f"seat {i + 1} {name}" for i, name in enumerate(names))
    lines = [
        f"# game {number}, round {round_no}: {table}",
        f"# {outcome.termination.value}: {outcome.reason or '-'}",
    ]
    for seat, (name, seat_text) in enumerate(zip(names, seats, strict=True)):
        lines.append(f"## seat {seat + 1}: {name}")
        lines += seat_text
    return "\n".join(lines) + "\n"


def append(out: Path, text: str, *, rotate: bool = False) -> None:
    """Append one game's block (``text``, starting with its header line) to this
    process's store, rotating it first when ``rotate`` and it has grown past
    ``ROTATE_BYTES``.

    :raises PathError: the store cannot be written (the caller decides what that means).
    """
    append_file(store_path(out), text, rotate=rotate)


def append_file(path: Path, text: str, *, rotate: bool = False) -> None:
    """``append`` to the store ``path`` (its folder made if missing).

    :raises PathError: it cannot be written (one line naming it: the store is in the
        folder the user named, so a file in the way or a full disk is the user's to fix).
    """
    try:
        _append_file(path, text, rotate)
    except OSError as exc:
        raise path_error(path, exc, "cannot write") from None


def _append_file(path: Path, text: str, rotate: bool) -> None:
    data = text.encode("utf-8", "replace")
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
    with _lock:
        if rotate:
            try:
                if path.stat().st_size >= ROTATE_BYTES:
                    path.replace(path.with_name(path.stem + ".old.log"))
            except FileNotFoundError:
                pass
        try:
            fd = os.open(path, flags, 0o644)
        except FileNotFoundError:  # the first transcript: make logs/ (once, not per game)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, flags, 0o644)
        try:
            write_all(fd, data)
        finally:
            os.close(fd)


def blocks(text: str) -> Iterator[tuple[int, str]]:
    """``(game number, block)`` of each game block in a store's ``text``, in order."""
    starts = list(GAME_HEADER.finditer(text))
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        yield int(match.group(1)), text[match.start() : end]


def blocks_after(path: Path, offset: int) -> tuple[list[tuple[int, str]], int]:
    """The complete game blocks appended to store ``path`` since ``offset``, and the
    offset after them (a store only ever grows by whole blocks)."""
    try:
        with path.open("rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    return list(blocks(data.decode("utf-8", "replace"))), offset + len(data)


def read_transcript(out: Path, number: int) -> str | None:
    """Game ``number``'s transcript blocks in event directory ``out`` (every attempt of a
    game played again, in store order), or None when none was kept."""
    found = [
        block
        for path in sorted((out / LOGS_DIR).glob("transcripts-*.log"))
        for game, block in blocks(path.read_text(encoding="utf-8", errors="replace"))
        if game == number
    ]
    return "".join(found) if found else None
