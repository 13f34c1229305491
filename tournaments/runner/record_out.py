"""Where ``referee play`` writes its records (``--out``): a file, a device, a pipe, or the
standard output, each written off the event loop.

``open_record_out(path)`` tells the kinds apart by what ``path`` is when the match starts:

* **the standard output's own file** (``--out /dev/stdout``, or the file or pipe the
  standard output is redirected to): the records go through ``sys.stdout``, so they
  keep their order with what else is written there and never overwrite it (a second
  descriptor of a redirected file has an offset of its own, and wrote over the first
  records); ``referee play`` then prints its own lines on the standard error
  (``same_as_stdout``). A reader that closes the pipe early ends the command as for
  every command (``referee … | head``: no line, exit status 1).
* **a named pipe** (``mkfifo``): opened once, for writing only, when the match starts,
  waiting for a reader as a shell's ``>`` would (polled: the event loop is never held,
  and a stop signal ends the wait), then kept open to the end, so the reader sees one
  stream and one end of file, and a game written before the reader came is held in the
  pipe, not dropped. A reader that goes away stops the match with one line
  (``cannot write records to FIFO: Broken pipe``); every game reported before is written.
* **anything else** (a regular file, created if missing; ``/dev/null``, a terminal):
  each group of records appended in one write and synced (``referee.record.append_text``).

Every write runs in a thread, so a slow reader or disk never holds the event loop (its
games, its stop signal). A write to a regular file is shielded from cancellation: a
stopped match has on disk exactly the games it reported. A write into a pipe is not (a
reader that stopped reading must not keep Ctrl+C from working).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import trio

from referee.errors import path_error
from referee.record import append_text, sync_file

READER_POLL = 0.1
"""Seconds between two tries to open a named pipe that has no reader yet."""


def same_as_stdout(path: Path) -> bool:
    """Whether ``path`` is the file, pipe or device the standard output writes to."""
    try:
        return os.path.samestat(os.stat(path), os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError):  # no such file; a standard output without a descriptor
        return False


def is_named_pipe(path: Path) -> bool:
    """Whether ``path`` is a named pipe (FIFO)."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def open_pipe_writer(path: Path | str) -> int | None:
    """The named pipe at ``path`` opened for writing (blocking writes), or None while it
    has no reader: a non-blocking open fails with ENXIO then, where a blocking one would
    hold its thread until a reader comes.

    :raises OSError: any other failure of the open (no rights, no such file).
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            return None
        raise
    os.set_blocking(fd, True)
    return fd


class RecordOut:
    """An open ``--out``: ``write`` appends records (formatted text) to it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = -1
        """The named pipe's descriptor, when the target is one."""
        self._stdout = same_as_stdout(path)
        self._busy = False
        """A write into the pipe is under way (or was abandoned by a stop)."""

    async def open(self, on_wait: Callable[[str], None] | None) -> None:
        """Open a named pipe (waiting for its reader); nothing to do for other kinds.

        :raises PathError: the pipe cannot be opened (no rights).
        """
        if self._stdout or not is_named_pipe(self.path):
            return
        waited = False
        while (fd := self._try_open()) is None:
            if not waited and on_wait is not None:
                on_wait(f"waiting for a reader of the named pipe {self.path}")
            waited = True
            await trio.sleep(READER_POLL)
        self._fd = fd

    def _try_open(self) -> int | None:
        """``open_pipe_writer`` of the pipe (its writes run in a thread: blocking is what
        waits), a failure as one line naming it."""
        try:
            return open_pipe_writer(self.path)
        except OSError as exc:
            raise path_error(self.path, exc, "cannot write records to") from None

    async def write(self, text: str) -> None:
        """Append ``text`` (whole records) in one write, off the event loop.

        :raises PathError: the file cannot be written (a full disk), or the pipe's reader
            went away (one line naming it). ``BrokenPipeError`` for a standard output
            whose reader left (as every command's output).
        """
        if self._stdout:
            await trio.to_thread.run_sync(_to_stdout, text, abandon_on_cancel=True)
        elif self._fd >= 0:
            self._busy = True
            await trio.to_thread.run_sync(self._to_pipe, text, abandon_on_cancel=True)
            self._busy = False
        else:
            with trio.CancelScope(shield=_is_regular(self.path)):
                await trio.to_thread.run_sync(append_text, self.path, text)

    def _to_pipe(self, text: str) -> None:
        view = memoryview(text.encode("utf-8"))
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError as exc:
            raise path_error(self.path, exc, "cannot write records to") from None

    def close(self) -> None:
        """Close the pipe: its reader sees the end of the file. A write abandoned by a stop
        keeps it (the process's exit closes it)."""
        if self._fd >= 0 and not self._busy:
            os.close(self._fd)
        self._fd = -1


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # to be created by the append: a regular file


def _to_stdout(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
    sync_file(sys.stdout.fileno())


@contextlib.asynccontextmanager
async def open_record_out(
    path: Path, *, on_wait: Callable[[str], None] | None = None
) -> AsyncIterator[RecordOut]:
    """``path`` opened for records (see the module docstring); ``on_wait`` is told once
    when a named pipe has no reader yet.

    :raises PathError: a named pipe that cannot be opened.
    """
    out = RecordOut(path)
    try:
        await out.open(on_wait)
        yield out
    finally:
        out.close()
