"""Worker processes: more event loops, so referee work is never charged to an engine.

One trio loop runs out of time at a few thousand engine round trips per second;
past that, a reply waits in the loop's queue while the clock of its engine runs
(cutechess's failure mode at high concurrency). So the runner can spread its game
slots over worker processes, each with its own loop: ``python -m tournaments.play.worker``.

The runner and a worker speak JSON lines over the worker's stdin and stdout:

* runner → worker, first line: a ``Hello`` (``{"setup": <SlotSetup>, "slots": K}``);
  then one ``Assignment`` (``{"slot": i, "job": <Job>}``) per game, only to a slot that
  is idle; both written and read by the one codec (``event.wire``);
* worker → runner: ``{"ready": true}`` once its slots are open; then one ``Played``
  (``{"slot": i, "report": <GameReport>}``) per game, the report timings and all; a
  ``Failed`` (``{"error": "...", "traceback": ...}``) before it exits on an error; last,
  ``{"cpu": [own, engines]}``: CPU seconds the worker and its (ended) engines used
  since it was ready, for benchmarks. ``Played`` and ``Failed`` are written and read
  by the codec too; which message a line is, its first key tells.

End of input means stop: once every game it was sent has ended (the runner's normal
end), its slots close as a match ends, so their engines get ``quit`` and exit by
themselves; a game still in play or queued (the runner was interrupted) is abandoned
at once, its engines get ``quit`` and then their process groups are killed. Then it
exits. So a worker never outlives the runner, even one killed with SIGKILL. Workers
run in their own process group: Ctrl+C reaches only the runner, which then closes
their input.

The runner is a child subreaper (``protocol.reaper``) while it has workers: when one
dies without stopping its engines (killed, crashed), they are reparented to the runner,
which kills and reaps them (``reaper.orphans_of``) as soon as it sees the worker gone,
so no engine of a dead worker outlives it, or stays a zombie while the runner lives.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import resource
import signal
import subprocess
import sys
import traceback
from collections import deque
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import trio

from protocol import reaper
from protocol.errors import ProtocolViolation
from protocol.lines import LineBuffer
from referee.errors import UserError
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.wire import from_json, to_json
from tournaments.play import prestart
from tournaments.play.errors import TournamentError
from tournaments.play.fdlimit import ensure_open_files, files_needed
from tournaments.play.prestart import worker_command
from tournaments.play.slot import Slot, default_cache_size
from tournaments.results.game import GameReport

MAX_MESSAGE_BYTES = 64 << 20
"""Longest JSON line accepted either way (a record with its transcript-free fields)."""
STOP_GRACE = 15.0
"""Seconds a worker gets to stop its engines after its input closes, before SIGTERM."""
ORPHAN_SWEEP = 5.0
"""Seconds the runner spends at most killing and reaping a dead worker's orphans."""
ORPHAN_POLL = 0.01
"""Seconds between two sweeps for them."""


class WorkerError(RuntimeError):
    """A worker process failed (a bug, or it was killed); one line, unless a bug.

    ``bug`` is the worker's traceback when it failed of an exception that is not a
    ``UserError`` (a bug), appended to the message; None when it was killed, or failed
    of a user error (a transcript that cannot be written), which the command line
    prints as one line."""

    def __init__(self, message: str, bug: str | None = None) -> None:
        super().__init__(message if bug is None else f"{message}\n{bug.rstrip()}")
        self.bug = bug

    def reported(self, advice: str = "") -> Exception:
        """What the command line raises for this failure: a ``TournamentError`` of one
        line ending with ``advice`` when the worker was killed (or failed of a user
        error); this error itself when a bug, so that its traceback shows."""
        return self if self.bug is not None else TournamentError(f"{self}{advice}")


@dataclass(frozen=True, slots=True)
class Hello:
    """The runner's first message to a worker: its slots' setup and how many slots."""

    setup: SlotSetup
    slots: int


@dataclass(frozen=True, slots=True)
class Assignment:
    """A game for one of the worker's slots (numbered from 0)."""

    slot: int
    job: Job


@dataclass(frozen=True, slots=True)
class Played:
    """A worker's message per finished game: the slot that played it and its report."""

    slot: int
    report: GameReport


@dataclass(frozen=True, slots=True)
class Failed:
    """A worker's last message when it stops on an error: the error's one line, and its
    traceback when it is a bug (not a ``UserError``)."""

    error: str
    traceback: str | None = None


class LineReader:
    """The lines of a byte stream, framed by ``protocol.lines.LineBuffer`` (the engine
    protocol's framing: ``\n`` ends a line, a ``\r`` before it is dropped, text is
    UTF-8) with ``MAX_MESSAGE_BYTES`` as its limit."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self._stream = stream
        self._buffer = LineBuffer(MAX_MESSAGE_BYTES)
        self._lines: deque[str] = deque()

    async def readline(self) -> str | None:
        """The next line, or None at the end of the stream (a torn last line is dropped).

        :raises WorkerError: a line longer than ``MAX_MESSAGE_BYTES``.
        """
        while not self._lines:
            chunk = await self._stream.receive_some(1 << 16)
            if not chunk:
                return None
            try:
                self._lines.extend(self._buffer.feed(bytes(chunk)))  # no copy of bytes
            except ProtocolViolation:
                raise WorkerError("worker message too long") from None
        return self._lines.popleft()


def _encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


# --- the worker process ------------------------------------------------------------------


async def play_jobs(
    setup: SlotSetup,
    jobs: AsyncIterable[Job],
    emit: Callable[[GameReport], Awaitable[None]],
    *,
    shared_loop: bool,
) -> None:
    """Play ``jobs`` in turn in one slot, handing each report to ``emit``.

    The one game-running loop away from the runner: a worker process's slot and a Dask
    task (``tournaments.cluster.task``) both call it. The slot's engines are started on
    first need, kept between games and closed when ``jobs`` ends.
    """
    async with Slot.open(setup, shared_loop=shared_loop) as slot:
        async for job in jobs:
            await emit(await slot.play(job))


async def serve(stdin: trio.abc.ReceiveStream, stdout: trio.abc.SendStream) -> None:
    """The worker: read the setup, open the slots, play jobs until the input ends."""
    reader = LineReader(stdin)
    first = await reader.readline()
    if first is None:
        return
    hello = from_json(Hello, json.loads(first))
    setup, count = hello.setup, hello.slots
    # The runner raised its open-file limit for the whole event before the games, but a
    # worker started early (``prestart``) was started before that: it asks for its share.
    ensure_open_files(files_needed(count, default_cache_size(setup)))
    write_lock = trio.Lock()

    async def emit(message: dict[str, Any]) -> None:
        async with write_lock:
            await stdout.send_all(_encode(message))

    channels = [trio.open_memory_channel[Job](math.inf) for _ in range(count)]
    unfinished = [0] * count  # per slot: jobs received whose game has not ended yet

    async def run_slot(index: int, jobs: trio.MemoryReceiveChannel[Job]) -> None:
        async def report(played: GameReport) -> None:
            unfinished[index] -= 1
            await emit(to_json(Played(index, played)))

        async with jobs:
            await play_jobs(setup, jobs, report, shared_loop=count > 1)

    async with trio.open_nursery() as nursery:
        for index, (_, receive) in enumerate(channels):
            nursery.start_soon(run_slot, index, receive)
        await emit({"ready": True})
        ready = cpu_times()
        while (line := await reader.readline()) is not None:
            assignment = from_json(Assignment, json.loads(line))
            unfinished[assignment.slot] += 1
            channels[assignment.slot][0].send_nowait(assignment.job)
        for send, _ in channels:
            send.close()
        if any(unfinished):  # the runner stopped early: abandon the games in play
            nursery.cancel_scope.cancel()
        # Else every slot is idle and ends as a match does: its engines get ``quit`` and
        # exit by themselves (cancelling would signal their process groups instead).
    end = cpu_times()
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await emit({"cpu": [end[0] - ready[0], end[1] - ready[1]]})


def cpu_times() -> tuple[float, float]:
    """CPU seconds (user + system) of this process, and of its children that ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


async def _worker_main() -> None:
    stdin = trio.lowlevel.FdStream(os.dup(0))
    stdout = trio.lowlevel.FdStream(os.dup(1))
    async with trio.open_nursery() as nursery:

        async def stop_on_signal() -> None:
            with trio.open_signal_receiver(signal.SIGTERM, signal.SIGHUP) as signals:
                async for _ in signals:
                    nursery.cancel_scope.cancel()

        nursery.start_soon(stop_on_signal)
        try:
            await serve(stdin, stdout)
        except Exception as exc:
            # The runner shows this as one line: the first real error, not its group.
            first: BaseException = exc
            while isinstance(first, BaseExceptionGroup) and first.exceptions:
                first = first.exceptions[0]
            line = "".join(traceback.format_exception_only(first)).strip()
            trace = None  # a user error: its line; a bug: the runner shows where it was
            if not isinstance(first, UserError):
                trace = "".join(traceback.format_exception(first))
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await stdout.send_all(_encode(to_json(Failed(line, trace))))
            raise
        finally:
            nursery.cancel_scope.cancel()


def main() -> int:
    """``python -m tournaments.play.worker``: serve the runner on stdin/stdout."""
    try:
        trio.run(_worker_main)
    except KeyboardInterrupt:
        return 130
    except Exception:
        # Already reported to the runner, which prints one line; a traceback on the
        # shared terminal only with --debug (which sets REFEREE_DEBUG=1 for us).
        if os.environ.get("REFEREE_DEBUG") == "1":
            raise
        return 1
    return 0


# --- the runner's side -------------------------------------------------------------------


class _Adopted:
    """A worker started early (``prestart``), as the runner uses a ``trio.Process``: its
    pid, our ends of its pipes as trio streams, its returncode, ``wait`` (on a pidfd, as
    trio waits), ``terminate`` and ``kill``."""

    def __init__(self, popen: subprocess.Popen[bytes]) -> None:
        assert popen.stdin is not None and popen.stdout is not None
        self._pidfd = os.pidfd_open(popen.pid)  # first: where it fails, nothing is taken
        self._popen = popen
        self._wait_lock = trio.Lock()
        self.pid = popen.pid
        self.stdin = trio.lowlevel.FdStream(os.dup(popen.stdin.fileno()))
        self.stdout = trio.lowlevel.FdStream(os.dup(popen.stdout.fileno()))
        popen.stdin.close()
        popen.stdout.close()

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    async def wait(self) -> int:
        # One waiter on the pidfd at a time (trio allows one reader per descriptor): the
        # worker's reader and its stop may both wait; the second finds it reaped.
        async with self._wait_lock:
            while self._popen.poll() is None:
                await trio.lowlevel.wait_readable(self._pidfd)
            if self._pidfd >= 0:
                trio.lowlevel.notify_closing(self._pidfd)
                os.close(self._pidfd)
                self._pidfd = -1
        code = self._popen.returncode
        assert code is not None
        return code

    def terminate(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._popen.terminate()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._popen.kill()


def _adopt(early: list[subprocess.Popen[bytes]]) -> _Adopted | None:
    """The oldest of the workers started early, adopted; None when there is none (or it
    cannot be waited for here: no pidfd, a kernel before 5.3: it is ended)."""
    while early:
        popen = early.pop(0)
        try:
            return _Adopted(popen)
        except OSError:
            popen.kill()
            popen.wait()
    return None


_Process = trio.Process | _Adopted


class _Worker:
    def __init__(self, number: int, process: _Process, slots: int) -> None:
        self.number = number
        self.process = process
        self.reader = LineReader(_stream(process.stdout))
        self.stdin = _stream(process.stdin)
        self.write_lock = trio.Lock()
        self.ready = trio.Event()
        self.done = trio.Event()
        self.slots = slots
        self.waiting: dict[int, trio.MemorySendChannel[GameReport | BaseException]] = {}
        """Who waits for the report of each game number sent to this worker."""
        self.failure: str | None = None
        self.trace: str | None = None
        """The worker's traceback when it failed of a bug (``WorkerError.bug``)."""
        self.dead: WorkerError | None = None
        self.cpu: tuple[float, float] = (0.0, 0.0)
        self.started = reaper.start_time(process.pid)
        """When the process started (``reaper.start_time``), to tell its orphans."""

    async def send(self, message: dict[str, Any]) -> None:
        async with self.write_lock:
            try:
                await self.stdin.send_all(_encode(message))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                raise self.failed() from None

    def failed(self) -> WorkerError:
        """The error of this worker's failure (with its traceback when a bug)."""
        return WorkerError(self.describe_failure(), self.trace)

    def describe_failure(self) -> str:
        code = self.process.returncode
        status = f"exit status {code}" if code is not None else "still running"
        detail = f": {self.failure}" if self.failure else ""
        return f"worker {self.number} stopped unexpectedly ({status}){detail}"

    async def pump(self) -> None:
        """Route the worker's messages to its slots until its output ends."""
        try:
            while (line := await self.reader.readline()) is not None:
                message = json.loads(line)
                if message.get("ready"):
                    self.ready.set()
                elif "report" in message:
                    report = from_json(Played, message).report
                    waiting = self.waiting.pop(report.number, None)
                    if waiting is not None:  # else its game was abandoned
                        waiting.send_nowait(report)
                elif "error" in message:
                    failed = from_json(Failed, message)
                    self.failure, self.trace = failed.error, failed.traceback
                elif "cpu" in message:
                    own, engines = message["cpu"]
                    self.cpu = (float(own), float(engines))
        finally:
            # Read to the end, or cancelled (the run is stopping): no more words will be
            # read, so nobody waits for them (a stop waited a second for a cancelled pump).
            self.done.set()
        with trio.move_on_after(1.0):
            await self.process.wait()
        if self.process.returncode is not None:  # its engines are ours now: end them
            await reap_orphans(self.process.pid, self.started)
        error = self.failed()
        self.ready.set()
        self.dead = error
        for send in self.waiting.values():
            with contextlib.suppress(trio.WouldBlock, trio.BrokenResourceError):
                send.send_nowait(error)
        self.waiting.clear()


def _stream(stream: object) -> Any:
    assert stream is not None  # opened with pipes
    return stream


class WorkerSlot:
    """A game slot inside a worker process, used like a ``Slot``: ``await play(job)``.

    ``depth`` callers may use one at once: the worker queues their jobs and plays them
    in turn, so it starts its next game without waiting for the runner to read the
    last report and send a new job (that round trip would leave it idle).
    """

    depth = 2

    def __init__(self, worker: _Worker, index: int) -> None:
        self._worker = worker
        self._index = index

    async def play(self, job: Job) -> GameReport:
        """Have the worker play ``job`` (its report is matched by the game number).

        :raises WorkerError: the worker died, or the game is already in play.
        """
        worker = self._worker
        if worker.dead is not None:
            raise worker.dead
        if job.number in worker.waiting:
            raise WorkerError(f"worker {worker.number}: game {job.number} is already in play")
        send, receive = trio.open_memory_channel[GameReport | BaseException](1)
        worker.waiting[job.number] = send
        try:
            await worker.send(to_json(Assignment(self._index, job)))
            result = await receive.receive()
        finally:
            worker.waiting.pop(job.number, None)
        if isinstance(result, BaseException):
            raise result
        return result


async def reap_orphans(pid: int, started: int | None) -> None:
    """Kill and reap what the dead worker ``pid`` left (``reaper.orphans_of``): sweep
    until none is left, for at most ``ORPHAN_SWEEP`` seconds."""
    strays = reaper.orphans_of(pid, started)
    with trio.CancelScope(shield=True):
        for _ in range(round(ORPHAN_SWEEP / ORPHAN_POLL)):
            if not strays.sweep():
                return
            await trio.sleep(ORPHAN_POLL)  # dying orphans: no event tells us, so poll


async def _stop(process: _Process, stdin: trio.abc.SendStream) -> None:
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        await stdin.aclose()
    with trio.move_on_after(STOP_GRACE):
        await process.wait()
    if process.returncode is None:
        process.terminate()
        with trio.move_on_after(2.0):
            await process.wait()
    if process.returncode is None:
        process.kill()
        await process.wait()


def split_slots(concurrency: int, workers: int) -> list[int]:
    """Slots per worker: ``concurrency`` spread as evenly as possible."""
    base, extra = divmod(concurrency, workers)
    return [base + (1 if i < extra else 0) for i in range(workers) if base or i < extra]


@contextlib.asynccontextmanager
async def open_workers(
    setup: SlotSetup, slots_per_worker: Sequence[int], cpu: list[float] | None = None
) -> AsyncIterator[list[WorkerSlot]]:
    """Start one worker per entry of ``slots_per_worker``; yield all their slots.

    Workers started early (``prestart.start_early``) are taken first, the others
    started here. Every worker is stopped when the block ends (its input closed, then
    SIGTERM and SIGKILL if it lingers). ``cpu``, if given, receives the workers' and their
    engines' CPU seconds since they were ready (two numbers, summed over workers).

    :raises WorkerError: a worker failed to start.
    """
    command, options = worker_command(), prestart.spawn_options()
    reaper.become_subreaper()  # a dead worker's engines come back to us, to be ended
    early = prestart.take(len(slots_per_worker))
    async with trio.open_nursery() as nursery:
        workers: list[_Worker] = []
        try:
            for number, count in enumerate(slots_per_worker, start=1):
                process: _Process | None = _adopt(early)
                if process is None:
                    process = await trio.lowlevel.open_process(command, **options)
                worker = _Worker(number, process, count)
                workers.append(worker)
                nursery.start_soon(worker.pump)
                await worker.send(to_json(Hello(setup, count)))
            for worker in workers:
                await worker.ready.wait()
                if worker.process.returncode is not None:
                    raise worker.failed()
            yield [WorkerSlot(w, i) for w in workers for i in range(w.slots)]
        finally:
            with trio.CancelScope(shield=True):
                async with trio.open_nursery() as stoppers:
                    for worker in workers:
                        stoppers.start_soon(_stop, worker.process, worker.stdin)
                for worker in workers:  # a worker killed at the end left its engines
                    await reap_orphans(worker.process.pid, worker.started)
                # Let the readers take the workers' last words (their CPU times).
                with trio.move_on_after(1.0):
                    for worker in workers:
                        await worker.done.wait()
            nursery.cancel_scope.cancel()
            if cpu is not None:
                cpu[:] = [sum(w.cpu[0] for w in workers), sum(w.cpu[1] for w in workers)]


def exit_now(code: int) -> NoReturn:
    """End the worker with ``code`` without the interpreter's teardown (about 50 ms of
    CPU spent freeing what the exit frees anyway, during which the runner waits for the
    worker at the end of every event). Safe here: everything the worker writes goes out
    unbuffered (its messages on a raw descriptor, transcripts through ``os.write``), its
    engines are ended, and the standard streams are flushed first."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    exit_now(main())
