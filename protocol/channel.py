"""The line channel to a running engine: ``EngineChannel``, the base of ``EngineSession``.

It owns the pipes' traffic, not its meaning: commands are formatted and written as one
block with a deadline (a ``position`` line built from the last one), replies are read,
framed, parsed and stamped, the transcript records both, and the first fatal failure
(EOF, exit, an overlong line) is kept and raised again by every later read. The
exchanges of the protocol (handshake, options, moves, pings) are ``protocol.session``'s.

Stdout is read by the task that waits for a reply, straight from the
non-blocking pipe, and framed by a ``LineBuffer`` that belongs to the channel:
``os.read`` either returns data or nothing, so a timed-out or cancelled wait
never loses half a line, and lines read ahead wait in the channel's queue. Each
line is stamped with ``trio.current_time()`` when read; a move's time runs from
just before the request is written to that stamp. (Not from after the write: the
write wakes the engine, and on a busy machine the kernel may run the engine before
the referee returns from the write, so a stamp taken after it can miss the engine's
whole thinking time.) (A separate reader task feeding
a memory channel costs one more scheduler pass per line: measured 78 against
29 microseconds per round trip with an instant C engine, so this path is direct.)
The process's exit wakes a pending read (``EngineProcess.on_exit``), so a crash is
seen even when a grandchild keeps stdout open and EOF never comes. A read's deadline
is kept by the run's ``DeadlineAlarm`` (one task), not by a cancel scope per wait,
which cost about a tenth of an instant engine's ply; the alarm and the exit both wake
the read through ``trio.lowlevel.notify_closing``, and the read then decides by the
clock and the exit, as a cancelled wait did.

The deadline holds against any output rate: a read takes at most ``CHUNK_BYTES``;
once a chunk has been read at or after the deadline no further chunk is read for
that request, and no ``info`` (nor blank line, nor stale ``pong``) is looked at
past the deadline (one clock read per such line), so an engine that floods
``info`` lines is stopped at its deadline, not when it pauses. An answer read
before the deadline is still taken, whenever it is looked at (past the deadline the
queued chatter is skipped unparsed, looking for it), and a wait that ends at the
deadline looks at the pipe once more before it calls the timeout (the referee may
have woken late: what it finds is judged by the clock and ``protocol.lag``). A timeout's message
counts from the request (``since``), not from the last line. A run of reads that
never waits yields to the scheduler once it has read ``EAGER_READS`` chunks and run
``CHATTER_SLICE`` without yielding, so a flood does not starve the other games of
the run (nor does an instant engine, whose answer is often read without a wait).

Lines the engine wrote while no request was outstanding (a ``move`` before ``go``, a
second answer to one ``go``) are not carried to the next request:
``_refuse_stale`` reads what is buffered just before a request is written and fails
on anything but ``info`` and ``pong`` (``ProtocolViolation``, the line quoted).
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import math
import os
import termios
from collections import deque
from collections.abc import Callable

import trio

from protocol.codec import format_command, format_reply, parse_reply
from protocol.errors import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.history import PositionText
from protocol.lines import LineBuffer
from protocol.messages import Command, Info, Pong, Position, Quit, Reply
from protocol.process import CHUNK_BYTES, DEFAULT_PIPE_BYTES, EngineProcess, describe_exit
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from protocol.words import BLANKS

EXIT_AFTER_EOF_GRACE = 0.1
"""After EOF on stdout, how long to wait for the exit status to put in the message."""
SANDBOX_EXIT_GRACE = 0.5
"""The same for a sandboxed engine (its status passes through the warden and bwrap)."""
WRITE_TIMEOUT = 10.0
"""How long ``send`` waits for room in a full input pipe unless given a deadline."""
DRAIN_CHUNKS = 16
"""At the end, at most this many chunks of unread stdout are copied to the transcript."""
STALE_CHUNKS = 4
"""Before a request, at most this many chunks written since the last one are checked."""
EAGER_READS = 2
"""Chunks read in a row without waiting before the reader yields to the scheduler, once
``CHATTER_SLICE`` has passed since it last did (an instant engine's answers, read one
per ply without a wait, cost a pass of the scheduler every second ply without it)."""
CHATTER_SLICE = 0.001
"""Seconds of ``info`` lines handled in a row before the reader yields (a flood must
not stall the run's other games, nor look like the referee's own lateness)."""


def pipe_empty(fd: int, count: array.array[int]) -> bool:
    """Whether the pipe ``fd`` holds no byte now (``FIONREAD``, into ``count``).

    One system call that fails with no exception: ``os.read`` of an empty non-blocking
    pipe raises ``BlockingIOError``, and making, raising and catching it costs more than
    the read (about 1.2 against 0.5 microseconds here). An empty pipe at its end of file
    counts as empty too: the caller reads it (``b""``) when it matters. False when the
    look fails (a closed descriptor): the read that follows reports it.
    """
    try:
        fcntl.ioctl(fd, termios.FIONREAD, count)
    except OSError:
        return False
    return count[0] == 0


class DeadlineAlarm:
    """Wakes the reads whose deadline passed: one system task per trio run.

    A read that waits on an engine's pipe needs a deadline. A ``trio.CancelScope``
    per wait costs about 6 microseconds of CPU (its creation, entry and exit, each
    registering and removing the deadline), and an instant engine makes the referee
    wait once a ply. Instead a waiting read ``arm``s this alarm with its deadline
    and ``disarm``s it when it wakes: a dictionary entry. The alarm's task sleeps
    until the earliest deadline it was armed with; when it wakes it wakes every
    read whose deadline has passed (``EngineChannel.wake_read``: the read sees its
    deadline passed, looks at the pipe once more and times out, as before) and
    sleeps until the next. A deadline earlier than the one it sleeps towards moves
    its wake-up forward, so no read waits past its deadline longer than it would
    with its own scope; reads that ended before their deadline only make it wake
    and find nothing to do (about once per deadline's length, not once per ply).
    """

    _run: trio.lowlevel.RunVar[DeadlineAlarm] = trio.lowlevel.RunVar("referee_deadline_alarm")

    def __init__(self) -> None:
        self._armed: dict[EngineChannel, float] = {}
        self._target = math.inf
        """The deadline the task sleeps towards (its scope's)."""
        self._sleep: trio.CancelScope | None = None

    @classmethod
    def of_run(cls) -> DeadlineAlarm:
        """The current run's alarm, its task started at the first call."""
        try:
            return cls._run.get()
        except LookupError:
            alarm = cls()
            cls._run.set(alarm)
            trio.lowlevel.spawn_system_task(alarm._ring, name="referee deadline alarm")
            return alarm

    def arm(self, channel: EngineChannel, deadline: float) -> None:
        """Wake ``channel``'s read once ``deadline`` (trio time) has passed."""
        self._armed[channel] = deadline
        if deadline < self._target:
            self._target = deadline
            if self._sleep is not None:
                self._sleep.deadline = deadline

    def disarm(self, channel: EngineChannel) -> None:
        """``channel``'s read woke: forget its deadline."""
        self._armed.pop(channel, None)

    async def _ring(self) -> None:
        armed = self._armed
        while True:
            with trio.CancelScope(deadline=self._target) as scope:
                self._sleep = scope
                await trio.sleep_forever()
            # From here to the next scope, no checkpoint: ``arm`` cannot interleave.
            self._sleep = None
            now = trio.current_time()
            target = math.inf
            for channel, deadline in list(armed.items()):
                if deadline <= now:
                    del armed[channel]
                    channel.wake_read()
                elif deadline < target:
                    target = deadline
            self._target = target


def shown_line(line: str, limit: int = 80) -> str:
    """``line`` as ``repr`` shows it, cut to ``limit`` characters (for messages)."""
    return repr(line if len(line) <= limit else line[: limit - 3] + "...")


class EngineChannel:
    """The pipes of one engine process, as lines of the protocol (module docstring).

    For one task at a time (the match loop); times are trio times, deadlines absolute.
    """

    def __init__(self, spec: EngineSpec, transcript: Transcript, *, max_line_bytes: int) -> None:
        self.spec = spec
        self.transcript = transcript
        self._buffer = LineBuffer(max_line_bytes)
        self._lines: deque[tuple[str, float]] = deque()
        self._process: EngineProcess | None = None
        # Until ``_attach``: no pipes, and an exit that never comes.
        self._stdin_fd = -1
        self._stdout_fd = -1
        self._exited = trio.Event()
        self._waiting: trio.CancelScope | None = None
        """The scope of a write waiting for room in the input pipe (the exit cancels it)."""
        self._reading = False
        """A read waits on stdout (``wake_read`` wakes it)."""
        self._alarm: DeadlineAlarm | None = None
        """The run's ``DeadlineAlarm``, found at the first wait."""
        self._fatal: EngineError | None = None
        self._pings: set[str] = set()
        """Tokens of the ``ping``s awaiting their ``pong`` (a stale ``pong`` is skipped)."""
        self._count = array.array("i", [0])
        """``pipe_empty``'s buffer (one per channel: no allocation per look)."""
        self._position_text = PositionText()
        """The last ``position`` line: the next one is built from it (linear games)."""
        self._last_read = -math.inf
        """Trio time of the last chunk read: once past a request's deadline, no more reads."""
        self._eager = 0
        """Chunks read in a row without waiting (see ``EAGER_READS``)."""
        self._yielded = -math.inf
        """When the reader last let the scheduler run (``CHATTER_SLICE``)."""
        self._now: Callable[[], float] = trio.current_time
        """``trio.current_time``; from ``open`` on, the run's clock read directly (the
        per-ply path reads it twice a move: a hop less through trio's dispatch each)."""

    # --- lifetime ----------------------------------------------------------------------

    def _attach(self, process: EngineProcess) -> None:
        """Talk through ``process`` from now on; its exit wakes a waiting read or write."""
        self._process = process
        # Copies of the process's pipe ends and exit event: the per-ply path
        # (``_write``, ``_read``) uses them without a hop through the process.
        self._stdin_fd = process.stdin_fd
        self._stdout_fd = process.stdout_fd
        self._exited = process.exited
        process.on_exit = self._wake_reader

    def _wake_reader(self) -> None:
        """``on_exit`` of the process: wake a read or write that waits on a pipe."""
        # The reader re-reads once (whatever the engine wrote before exiting is
        # already in the pipe) and then reports the exit.
        self.wake_read()
        if self._waiting is not None:
            self._waiting.cancel()

    def wake_read(self) -> None:
        """Wake the read waiting on stdout, if one is (``DeadlineAlarm``, the exit): it
        looks at the pipe again and decides by the clock and the exit. Never raises."""
        if self._reading and self._stdout_fd >= 0:
            with contextlib.suppress(Exception):
                trio.lowlevel.notify_closing(self._stdout_fd)

    async def _stop(self, quit_grace: float) -> None:
        """Send ``quit``, close stdin, wait for the exit; shielded, at most ``quit_grace``."""
        if isinstance(self._fatal, ProtocolViolation):
            # It broke the framing (e.g. a flood): it is writing, not reading. No grace.
            quit_grace = 0.0
        with trio.CancelScope(shield=True) as scope:
            scope.deadline = trio.current_time() + quit_grace
            if not self._exited.is_set():
                with contextlib.suppress(EngineError):
                    await self._write(self._encode((Quit(),)), math.inf, "quit")
                # EOF on stdin: engines that ignore ``quit`` still see the end of input.
                self._stdin_fd = -1
                assert self._process is not None
                await self._process.close_stdin()
                await self._exited.wait()
        if not self._exited.is_set():
            self._note(f"no exit within {quit_grace:g} s of quit: killing the process group")
        self._drain_stdout()

    def _drain_stdout(self) -> None:
        """Copy output nobody read (a late move, farewell lines) to the transcript."""
        if self._fatal is not None or self._stdout_fd < 0:
            return
        for _ in range(DRAIN_CHUNKS):
            try:
                chunk = os.read(self._stdout_fd, CHUNK_BYTES)
                lines = self._buffer.feed(chunk)
            except (OSError, ProtocolViolation):
                return
            now = trio.current_time()
            for line in lines:
                self.transcript.received(now, line)
            if not chunk:
                return

    # --- properties --------------------------------------------------------------------

    @property
    def pid(self) -> int:
        """The engine's process id, which is also its process group id."""
        assert self._process is not None
        return self._process.pid

    @property
    def alive(self) -> bool:
        """True while the process runs and no fatal error (EOF, exit, bad framing) was seen."""
        return (
            self._process is not None
            and self._fatal is None
            and not self._exited.is_set()
            and self._process.returncode is None
        )

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has exited (negative: killed by that signal)."""
        return None if self._process is None else self._process.returncode

    # --- writing -----------------------------------------------------------------------

    def _note(self, text: str) -> None:
        self.transcript.note(trio.current_time(), text)

    def _encode(self, commands: tuple[Command, ...]) -> bytes:
        """Format ``commands`` as one block of lines and record them in the transcript."""
        return self._encode_stamped(commands)[0]

    def _encode_stamped(self, commands: tuple[Command, ...]) -> tuple[bytes, float]:
        """``_encode``, and the time with which the lines were recorded (read last, so it
        can stand for the moment just before the write)."""
        position = self._position_text.format
        try:
            lines = [
                position(command) if type(command) is Position else format_command(command)
                for command in commands
            ]
        except ProtocolViolation as exc:
            raise ValueError(f"cannot send to engine {self.spec.name!r}: {exc}") from None
        data = ("\n".join(lines) + "\n").encode() if lines else b""
        now = self._now()
        self.transcript.sent_lines(now, lines)
        return data, now

    async def _write(self, data: bytes, deadline: float, what: str) -> None:
        """Write ``data``: one ``os.write`` when the pipe has room, else wait until ``deadline``."""
        fd = self._stdin_fd
        if len(data) > DEFAULT_PIPE_BYTES and self._process is not None:
            self._process.make_room(len(data))
        try:
            written = os.write(fd, data)
        except BlockingIOError:
            written = 0
        except OSError:  # EPIPE: the engine closed its stdin; EBADF: we closed it
            raise self._fail(self._terminated("closed its input")) from None
        if written == len(data):
            return
        # The pipe is full: the engine is not reading. Wait, but not past the deadline,
        # and not past the engine's exit (a grandchild may keep the pipe open).
        process = self._process
        assert process is not None
        with trio.move_on_at(deadline) as scope:
            self._waiting = scope
            try:
                await process.send_all(memoryview(data)[written:])
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                raise self._fail(self._terminated("closed its input")) from None
            finally:
                self._waiting = None
        if scope.cancelled_caught:
            if self._exited.is_set():
                raise self._fail(self._terminated("stopped reading its input"))
            raise EngineTimeoutError(
                f"engine {self.spec.name!r} did not read its input ({what})",
                overrun=max(0.0, trio.current_time() - deadline),
            )

    async def send(self, *commands: Command, deadline: float | None = None) -> None:
        """Write ``commands`` in one write, each on its own line.

        The write returns at once unless the engine stopped reading and its input
        pipe is full; then it waits until ``deadline`` (absolute trio time; default
        ``WRITE_TIMEOUT`` seconds from now).

        :raises EngineTerminatedError: the engine closed its stdin (it exited).
        :raises EngineTimeoutError: the pipe stayed full until the deadline.
        :raises ValueError: a command cannot be formatted (a bug of the caller,
            e.g. a move with a space): nothing is sent.
        """
        if deadline is None:
            deadline = trio.current_time() + WRITE_TIMEOUT
        await self._write(self._encode(commands), deadline, "send")
        await trio.lowlevel.checkpoint()

    # --- reading -----------------------------------------------------------------------

    async def receive(self, deadline: float, since: float | None = None) -> tuple[Reply, float]:
        """The next reply and the trio time its line was read.

        Blank lines are skipped; a ``pong`` that answers no outstanding ``ping`` is
        ignored (it answers one that already timed out). Returns without yielding
        when a line is already queued. ``since`` is when the request was made (the
        timeout's message counts from it; default: when this call began to wait).

        :raises EngineTimeoutError: no reply by ``deadline`` (absolute trio time), or
            the engine was still writing other lines when it passed.
        :raises EngineTerminatedError: the engine closed its stdout or exited.
        :raises ProtocolViolation: a line that is not a reply, or one over the length limit.
        """
        lines = self._lines
        while True:
            if not lines:
                if since is None:
                    since = self._now()
                await self._read(deadline, since)
                continue
            line, arrived = lines.popleft()
            if not line or line.isspace():
                reply = None
            else:
                reply = self._parse(line)
                if type(reply) is Pong and reply.token not in self._pings:
                    reply = None
                elif type(reply) is not Info:
                    return reply, arrived
            # Chatter (info, blank lines, stale pongs) is not parsed past the deadline,
            # however much of it was read (a chunk holds thousands of lines).
            now = self._now()
            if now > deadline:
                return self._past_deadline(deadline, arrived if since is None else since)
            if now - self._yielded > CHATTER_SLICE:
                self._yielded = now
                await trio.lowlevel.checkpoint()  # a cancellation here loses chatter only
            if reply is not None:
                return reply, arrived

    def _past_deadline(self, deadline: float, since: float) -> tuple[Reply, float]:
        """The deadline passed while lines were queued: the first queued line that is not
        chatter (an answer read before the deadline still counts: the clock judges it),
        the chatter skipped unparsed; none: the timeout.

        :raises EngineTimeoutError: only chatter was queued.
        """
        lines = self._lines
        while lines:
            line, arrived = lines.popleft()
            head = line.lstrip(BLANKS)
            if not head or head.startswith(("info", "pong")):
                continue
            reply = self._parse(line)
            if type(reply) is not Info and type(reply) is not Pong:
                return reply, arrived
        raise self._timeout(deadline, since, "kept writing")

    def _parse(self, line: str) -> Reply:
        """``parse_reply``, its error naming the engine and quoting the line."""
        try:
            return parse_reply(line)
        except ProtocolViolation as exc:
            message = str(exc)
            text = shown_line(line)
            if text not in message:
                message = f"{message} in line {text}"
            raise ProtocolViolation(f"engine {self.spec.name!r}: {message}") from None

    def _refuse_stale(self, request: str) -> None:
        """Before ``request`` is written: take every line written since the last answer.

        Reads what the pipe holds without waiting (at most ``STALE_CHUNKS`` chunks;
        when it is empty, as it is when the engine keeps the protocol, one ``pipe_empty``
        look and no read)
        and drops ``info`` and ``pong`` lines (legal at any time; they stay in the
        transcript). Fatal failures (EOF, an exit) are left for the request's read.

        :raises ProtocolViolation: any other line: a reply to no request (a ``move``
            written before ``go``, a second answer to one ``go``), quoted.
        """
        fd = self._stdout_fd
        if self._fatal is None and fd >= 0:
            for _ in range(STALE_CHUNKS):
                if pipe_empty(fd, self._count):
                    break  # nothing written since (or EOF, which the request's read reports)
                try:
                    chunk = os.read(fd, CHUNK_BYTES)
                except OSError:  # BlockingIOError: nothing written since; else the read reports
                    break
                if not chunk:
                    break  # EOF stays EOF: the request's read reports it with the exit
                self._queue(chunk, self._now())
        lines = self._lines
        while lines:
            line, _ = lines.popleft()
            if not line or line.isspace():
                continue
            reply = self._parse(line)
            if type(reply) is not Info and type(reply) is not Pong:
                what = self._unexpected(reply, "with no request outstanding")
                raise ProtocolViolation(
                    f"engine {self.spec.name!r}: {what} (written before {request})"
                )

    async def _read(self, deadline: float, since: float) -> None:
        """Read one chunk of stdout into the line queue, waiting up to ``deadline``.

        No chunk is read once one was read at or after ``deadline``: a flood of lines
        meets the deadline like silence does.
        """
        if self._fatal is not None:
            raise self._fatal
        if self._last_read >= deadline:
            raise self._timeout(deadline, since, "kept writing")
        fd = self._stdout_fd
        waited_out = False  # the wait reached the deadline: one last look, then the timeout
        # The first look asks whether the pipe is empty (``pipe_empty``) before reading:
        # after a request it usually is (the engine has not answered yet). Every later
        # look, after a wait, reads: a wake-up may be the end of file, which only a read
        # tells from an empty pipe.
        look = True
        while True:
            if self._eager >= EAGER_READS and self._now() - self._yielded > CHATTER_SLICE:
                # A run of reads that never waits (a flood): let the other tasks run.
                # (Before the read: a cancellation here loses no data.)
                self._eager = 0
                await trio.lowlevel.checkpoint()
            if look and pipe_empty(fd, self._count):
                look = False
                self._eager = 0
                if self._exited.is_set():
                    continue  # a read tells the exit's end of file from a grandchild's pipe
            else:
                look = False
                try:
                    chunk = os.read(fd, CHUNK_BYTES)
                    self._eager += 1
                    break
                except BlockingIOError:
                    self._eager = 0
                except OSError:
                    raise self._fail(self._terminated("closed its output")) from None
            if self._exited.is_set():
                # Exited, and the pipe is empty but open: a grandchild holds it.
                raise self._fail(
                    EngineTerminatedError(f"engine {self.spec.name!r} {self._exit_text()}")
                )
            if waited_out:
                # Looked at after the deadline and still empty: the engine's own lateness,
                # however late the referee woke (it had that much more time).
                raise self._timeout(deadline, since, "sent nothing more")
            if self._now() >= deadline:
                waited_out = True  # no wait left: the last look, after a pass of the loop
                await trio.lowlevel.checkpoint()
                continue
            # No cancel scope per wait: the run's ``DeadlineAlarm`` wakes this wait at the
            # deadline (as the exit does), through ``notify_closing``.
            alarm = self._alarm
            if alarm is None:
                alarm = self._alarm = DeadlineAlarm.of_run()
            alarm.arm(self, deadline)
            self._reading = True
            try:
                await trio.lowlevel.wait_readable(fd)
            except trio.ClosedResourceError:
                pass  # the alarm, the exit, or the pipe closed: the loop looks again
            finally:
                self._reading = False
                alarm.disarm(self)
            waited_out = self._now() >= deadline and not self._exited.is_set()
        if not chunk:
            # EOF. The exit status makes a better message; it normally follows at once.
            # In the sandbox the status comes through the warden and bwrap: a bit later.
            grace = EXIT_AFTER_EOF_GRACE if self.spec.sandbox is None else SANDBOX_EXIT_GRACE
            with trio.move_on_after(grace):
                await self._exited.wait()
            what = "closed its output" if self.returncode is None else self._exit_text()
            raise self._fail(EngineTerminatedError(f"engine {self.spec.name!r} {what}"))
        now = self._now()
        self._last_read = now
        if self._eager == 1:  # the first read after a wait or a checkpoint: it yielded
            self._yielded = now
        self._queue(chunk, now)

    def _queue(self, chunk: bytes, now: float) -> None:
        """Frame ``chunk`` into the line queue, each line stamped ``now``."""
        try:
            lines = self._buffer.feed(chunk)
        except ProtocolViolation as exc:
            self._note(f"stdout: {exc}")
            raise self._fail(ProtocolViolation(f"engine {self.spec.name!r}: {exc}")) from None
        received = self.transcript.received
        queue = self._lines
        for line in lines:
            received(now, line)
            queue.append((line, now))

    def _timeout(self, deadline: float, since: float, what: str) -> EngineTimeoutError:
        """The timeout of a request made at ``since``; ``what`` the engine did meanwhile."""
        now = self._now()
        overrun = max(0.0, now - deadline)
        return EngineTimeoutError(
            f"engine {self.spec.name!r} sent no reply within {now - since:.3f} s ({what};"
            f" {overrun * 1000:.0f} ms over the deadline)",
            overrun=overrun,
        )

    def _fail(self, error: EngineError) -> EngineError:
        """Make ``error`` the session's fatal error (later reads raise it again)."""
        if self._fatal is None:
            self._fatal = error
            self._note(str(error))
        return self._fatal

    def _terminated(self, what: str) -> EngineTerminatedError:
        return EngineTerminatedError(
            f"engine {self.spec.name!r} {what} (process {self._exit_text()})"
        )

    def _exit_text(self) -> str:
        """How the process ended (``describe_exit``, plus the sandbox's limit, if one)."""
        if self._process is None:
            return describe_exit(None)
        return self._process.exit_description()

    @staticmethod
    def _unexpected(reply: Reply, during: str) -> str:
        try:
            text = format_reply(reply)
        except ProtocolViolation:
            text = repr(reply)
        return f"unexpected reply {shown_line(text)} {during}"

    async def wait_exit(self, timeout: float) -> int | None:  # noqa: ASYNC109
        """Wait up to ``timeout`` seconds for the process to exit; its return code, or None."""
        with trio.move_on_after(timeout):
            await self._exited.wait()
        return self.returncode
