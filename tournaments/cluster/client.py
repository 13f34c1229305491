"""Playing a tournament's games on a Dask cluster (``[cluster]``, ``--cluster``).

``open_cluster(settings, plan, out)`` connects to the scheduler, waits for a worker,
runs the preflight (``tournaments.cluster.task.preflight``) on every worker through
``Client.run``, and yields a ``ClusterGames`` whose ``play_all(jobs, submit)`` takes
the place of the local slots in ``tournaments.runner.run``: the runner still journals
every report through its one code path; this module only moves jobs out and reports
back.

Contract of ``play_all``:

* the jobs go out in batches of ``settings.batch`` games, one Dask task each
  (``cluster_task.play_batch``); every report reaches ``submit`` exactly once per
  game, keyed by game number: a report arrives twice (streamed by the task soon after
  its game ends, then in the task's result; or from a task that Dask ran again after
  its worker died) and only the first copy counts;
* a worker that dies: Dask runs its task again elsewhere (the games already streamed
  are kept, their copies dropped); a task that kills ``allowed-failures`` workers
  (``KilledWorker``) has its unfinished games sent again one per task, and a game
  lost again stops the tournament (``ClusterError``);
* a void game is journaled and played again under the local runner's policy
  (``play.errors.VoidTally``: ``VOID_ATTEMPTS`` engine voids, ``RUNNER_VOID_ATTEMPTS``
  voids of the runner's own lateness);
* a lost scheduler raises ``ClusterError`` (one line, naming ``--resume``) once the
  games that did finish are submitted; the runner journals them before it stops.

Threads: the ``distributed.Client`` runs its own event loop thread; its completions
(``as_completed``, drained in a helper thread) and the tasks' streamed reports (an
event topic) come back into trio through ``TrioToken.run_sync_soon``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import math
import threading
import uuid
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from referee.errors import UserError
from tournaments.cluster.task import Finished, play_batch, preflight
from tournaments.event.cluster_settings import ClusterConfig
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.plan import Plan
from tournaments.event.wire import from_json, to_json
from tournaments.play.errors import VoidTally
from tournaments.results.game import GameReport
from tournaments.store import transcripts

if TYPE_CHECKING:
    from distributed import Client, Future, as_completed

LOST_ATTEMPTS = 2
"""Times a game may be lost with a task that Dask gave up on before the run stops."""
POLL_SECONDS = 0.02
"""How often the completion thread looks for finished tasks."""
WATCH_SECONDS = 0.5
"""How often ``play_all`` checks the scheduler connection while it waits."""
CLOSE_TIMEOUT = 5.0
"""Seconds to close the client at the end."""


class ClusterError(UserError):
    """The cluster cannot play the tournament (connection, preflight, a lost scheduler);
    one line."""


def remote_commands(plan: Plan) -> list[str]:
    """Each entrant's command as the workers get it: ``[cluster.engines]`` by entrant
    name, else the entrant's own ``command`` (built-ins are resolved on the worker).

    :raises ClusterError: an ``engines`` key that names no entrant.
    """
    engines = plan.config.cluster.engines
    names = plan.names
    for name in engines:
        if name not in names:
            raise ClusterError(f"cluster.engines: {name!r} is not an entrant")
    return [
        engines.get(name, entrant.command)
        for name, entrant in zip(names, plan.config.entrants, strict=True)
    ]


@dataclass
class _Phase:
    """The games of one ``play_all`` call and where each one stands."""

    pending: set[int]
    """Games not finished (scored) yet."""
    jobs: dict[int, Job]
    owner: dict[int, str] = field(default_factory=dict)
    """The tag of the task currently responsible for each game."""
    tasks: dict[str, list[int]] = field(default_factory=dict)
    """Tag → the games of that task."""
    seen: set[tuple[str, int]] = field(default_factory=set)
    """(tag, game) pairs already handled: a task's copies of its own reports."""
    voids: defaultdict[int, VoidTally] = field(default_factory=lambda: defaultdict(VoidTally))
    lost: Counter[int] = field(default_factory=Counter)


def settled_status(result: Any) -> str:
    """How a task ended ("finished", "cancelled" or "error"), read from the result that
    ``as_completed`` handed over with it, never from the future's ``status``.

    The status is read later, in another thread, and it moves on: a task that finished
    on a worker killed a moment after reads "lost" or "pending" while its result is
    already in hand (CI saw its reports taken for an error). A list is the task's
    reports; an error comes as distributed's ``(type, exception, traceback)`` and a
    cancellation as a ``CancelledError``.
    """
    if isinstance(result, list):
        return "finished"
    if isinstance(result, concurrent.futures.CancelledError):
        return "cancelled"
    return "error"


class ClusterGames:
    """Plays jobs on the cluster for ``tournaments.runner.run`` (see the module's docstring)."""

    def __init__(
        self,
        client: Client,
        settings: ClusterConfig,
        setup: SlotSetup,
        commands: list[str],
        out: Path | None,
        *,
        resumable: bool = True,
    ) -> None:
        from distributed import as_completed

        self._client = client
        self._address = settings.address
        self._batch = settings.batch
        self._setup_json = to_json(setup)
        """The setup as every task receives it (``event.wire``), written once."""
        self._commands = commands
        self._store = transcripts.store_of(
            str(out) if out is not None else None, setup.transcript_file
        )
        """Where the games' transcripts are kept here (the event's ``logs/`` store, or
        ``referee play``'s one file), or None."""
        self._rotate = transcripts.rotates(setup.transcripts, setup.transcript_file)
        self._resumable = resumable
        """The void policy's stop error says to resume (``VoidTally``)."""
        self._topic = f"referee-{uuid.uuid4().hex}"
        self._token = trio.lowlevel.current_trio_token()
        self._inbox_send, self._inbox = trio.open_memory_channel[tuple[str, str, Any]](math.inf)
        self._completed: as_completed = as_completed(
            [], loop=client.loop, with_results=True, raise_errors=False
        )
        self._futures: dict[str, Future[Any]] = {}
        self._closing = threading.Event()
        self._phase: _Phase | None = None

    # --- from other threads -----------------------------------------------------------

    def _post(self, message: tuple[str, str, Any]) -> None:
        """Hand a message to trio from any thread (dropped once the run has ended)."""

        def deliver() -> None:
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                self._inbox_send.send_nowait(message)

        with contextlib.suppress(trio.RunFinishedError):
            self._token.run_sync_soon(deliver)

    def _on_event(self, event: tuple[float, Any]) -> None:
        """Reports streamed by a task (runs in the client's event loop thread)."""
        message = event[1]
        # msgpack may hand arrays back as tuples.
        if isinstance(message, dict) and isinstance(message.get("reports"), list | tuple):
            self._post(("reports", str(message.get("tag")), message["reports"]))

    def _drain(self) -> None:
        """Post every finished, failed or cancelled task until closing (a helper thread)."""
        completed = self._completed
        while not self._closing.is_set():
            if not completed.has_ready():
                self._closing.wait(POLL_SECONDS)
                continue
            future, result = next(completed)
            self._post(("task", str(future.key), (settled_status(result), result)))

    # --- in trio ----------------------------------------------------------------------

    async def play_all(
        self,
        jobs: Iterable[Job],
        submit: Callable[[GameReport], None],
        ready: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Play ``jobs`` on the cluster; hand each game's report to ``submit`` once.

        The phase's jobs are all submitted to the scheduler at once, so they are held
        whole here (unlike the local slots, which take them one by one), and ``ready``
        (the recorder's backlog) is not waited for: the reports come as the cluster
        plays them.

        :raises ClusterError: the scheduler is lost, a task fails, or a game is lost twice.
        :raises tournaments.play.errors.TournamentError: a game stays void.
        """
        jobs = list(jobs)
        if not jobs:
            return
        phase = _Phase(
            pending={j.number for j in jobs},
            jobs={j.number: j for j in jobs},
            voids=defaultdict(lambda: VoidTally(resumable=self._resumable)),
        )
        self._phase = phase
        try:
            for start in range(0, len(jobs), self._batch):
                self._submit(jobs[start : start + self._batch])
            while phase.pending:
                with trio.move_on_after(WATCH_SECONDS):
                    kind, tag, payload = await self._inbox.receive()
                    if tag in phase.tasks:  # else a task of an earlier phase
                        self._handle(phase, kind, tag, payload, submit)
                    continue
                self._check_connection()
        finally:
            self._phase = None
            stale = [self._futures.pop(tag) for tag in phase.tasks if tag in self._futures]
            if stale:  # copies still running (or queued): their games are done
                with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                    await trio.to_thread.run_sync(self._cancel, stale, abandon_on_cancel=True)

    def _cancel(self, futures: list[Future[Any]]) -> None:
        with contextlib.suppress(Exception):  # a lost scheduler: nothing left to cancel
            self._client.cancel(futures)

    def _check_connection(self) -> None:
        if self._client.status not in ("running", "newly-created"):
            raise ClusterError(self._lost_scheduler())

    def _lost_scheduler(self) -> str:
        return (
            f"lost the Dask scheduler at {self._address}; finished games are in the "
            "journal: continue with --resume (locally, or on a cluster: --cluster ADDRESS)"
        )

    def _submit(self, jobs: Sequence[Job]) -> None:
        phase = self._phase
        assert phase is not None
        tag = f"referee-game-{jobs[0].number}-{uuid.uuid4().hex[:12]}"
        try:
            future = self._client.submit(
                play_batch,
                self._setup_json,
                self._commands,
                [to_json(job) for job in jobs],
                tag,
                self._topic,
                key=tag,
                pure=False,
            )
        except Exception:
            self._check_connection()  # a closed client: say so in one line
            raise
        phase.tasks[tag] = [job.number for job in jobs]
        for job in jobs:
            phase.owner[job.number] = tag
        self._futures[tag] = future
        self._completed.add(future)

    def _handle(
        self,
        phase: _Phase,
        kind: str,
        tag: str,
        payload: Any,
        submit: Callable[[GameReport], None],
    ) -> None:
        if kind == "reports":
            for data in payload:
                self._accept(phase, tag, data, submit)
            return
        self._futures.pop(tag, None)
        status, result = payload
        if status == "finished":
            for data in result:
                self._accept(phase, tag, data, submit)
            missing = [n for n in phase.tasks[tag] if (tag, n) not in phase.seen]
            self._resubmit_lost(phase, tag, missing, "a task ended without its report")
            return
        if status == "cancelled":
            if getattr(result, "reason", "") == "scheduler-connection-lost":
                raise ClusterError(self._lost_scheduler())
            self._resubmit_lost(phase, tag, phase.tasks[tag], "its task was cancelled")
            return
        error = result[1] if isinstance(result, tuple) and len(result) == 3 else result
        from distributed.scheduler import KilledWorker

        if isinstance(error, KilledWorker):
            self._resubmit_lost(phase, tag, phase.tasks[tag], "its task killed its workers")
            return
        detail = str(error).splitlines()[0] if str(error) else ""
        failed = f"a game task failed on the cluster ({type(error).__name__}: {detail})"
        if not isinstance(error, UserError):  # a bug in the task: its traceback, not one line
            trace = result[2] if isinstance(result, tuple) and len(result) == 3 else None
            if isinstance(error, BaseException):
                raise RuntimeError(failed) from error.with_traceback(trace)
            raise RuntimeError(failed)
        raise ClusterError(f"{failed}; continue with --resume")

    def _accept(
        self, phase: _Phase, tag: str, data: Any, submit: Callable[[GameReport], None]
    ) -> None:
        finished = from_json(Finished, data)
        report = finished.report
        number = report.number
        if (tag, number) in phase.seen:
            return
        phase.seen.add((tag, number))
        if number not in phase.pending:  # finished already: a second copy
            return
        transcript = finished.transcript_text
        if transcript is not None and self._store is not None:
            transcripts.append_file(self._store, transcript, rotate=self._rotate)
            # Kept here, not in the worker's scratch folder the report names.
            report = replace(report, transcript=str(self._store))
        else:
            report = replace(report, transcript="")
        submit(report)
        if not report.void:
            phase.pending.discard(number)
            return
        error = phase.voids[number].count(number, report)
        if phase.owner.get(number) != tag:  # a stale copy: the current owner plays it
            return
        if error is not None:
            raise error
        self._submit([phase.jobs[number]])

    def _resubmit_lost(self, phase: _Phase, tag: str, numbers: Sequence[int], why: str) -> None:
        """Send the unfinished games of a failed task again, one per task."""
        for number in numbers:
            if number not in phase.pending or phase.owner.get(number) != tag:
                continue
            phase.lost[number] += 1
            if phase.lost[number] >= LOST_ATTEMPTS:
                raise ClusterError(
                    f"game {number} was lost {LOST_ATTEMPTS} times ({why}); continue with --resume"
                )
            self._submit([phase.jobs[number]])


def _connect(address: str, timeout: float) -> Client:
    from distributed import Client
    from distributed.comm.addressing import get_address_host_port

    try:
        # Checked before a Client exists: one whose constructor fails on the address
        # is closed later by Dask's finaliser, which waits 20 s on a loop that never ran
        # and prints a traceback after the one-line error.
        get_address_host_port(address)
    except ValueError as exc:
        raise ClusterError(
            f"bad Dask scheduler address {address!r}: {exc}; expected tcp://HOST:PORT"
        ) from None
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # OSError, TimeoutError, ValueError (a bad address), …
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: {text}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception:
        _close(client)
        raise ClusterError(
            f"the Dask scheduler at {address} has no worker (waited {timeout:g} s)"
        ) from None
    return client


def _close(client: Client) -> None:
    with contextlib.suppress(Exception):  # a scheduler that is gone: nothing to tell it
        client.close(timeout=CLOSE_TIMEOUT)


def _preflight(client: Client, setup_json: dict[str, Any], commands: list[str]) -> None:
    """Check every entrant on every worker; raise on the first problem (sorted by worker)."""
    outcomes: dict[str, Any] = client.run(preflight, setup_json, commands, on_error="return")
    if not outcomes:
        raise ClusterError("cluster preflight: the scheduler has no worker")
    for worker, outcome in sorted(outcomes.items()):
        if isinstance(outcome, BaseException):
            text = str(outcome).splitlines()[0] if str(outcome) else ""
            raise ClusterError(
                f"cluster preflight: worker {worker} cannot run the referee "
                f"({type(outcome).__name__}: {text}); install this package there"
            )
        if outcome:
            raise ClusterError(f"cluster preflight: worker {worker}: {outcome[0]}")


@contextlib.contextmanager
def _quiet_logs() -> Any:
    """Keep Dask's log lines (reconnect attempts, a closing comm) off the console: a
    failure reaches the user as one line (``ClusterError``)."""
    # Dask gives some child loggers (``distributed.client``) levels and handlers of their own.
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] == "distributed"]
    loggers = [logging.getLogger(n) for n in ["distributed", *names]]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


@contextlib.asynccontextmanager
async def open_cluster(
    settings: ClusterConfig,
    plan: Plan,
    out: Path | None,
    *,
    transcript_file: Path | None = None,
    resumable: bool = True,
) -> AsyncIterator[ClusterGames]:
    """Connect, check every worker, and yield the games' dispatcher; close at the end.

    ``out`` is the output directory (transcripts are written there as reports arrive),
    ``transcript_file`` the one file they go to instead (``referee play``);
    ``resumable``: a game that stays void stops the run with a hint to resume.

    :raises ClusterError: no Dask installed, no connection, no worker, a failed preflight.
    """
    if settings.address is None:
        raise ClusterError("no cluster address: give --cluster tcp://HOST:PORT")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask's distributed: pip install 'referee[cluster]'"
        ) from None
    commands = remote_commands(plan)
    setup = plan.slot_setup(out, transcript_file=transcript_file)
    with _quiet_logs():
        client = await trio.to_thread.run_sync(
            _connect, settings.address, settings.connect_timeout, abandon_on_cancel=True
        )
        games: ClusterGames | None = None
        try:
            await trio.to_thread.run_sync(
                _preflight, client, to_json(setup), commands, abandon_on_cancel=True
            )
            games = ClusterGames(
                client, settings, setup, commands, out, resumable=resumable
            )
            client.subscribe_topic(games._topic, games._on_event)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_run_in_thread, games._drain)
                try:
                    yield games
                finally:
                    games._closing.set()
                    nursery.cancel_scope.cancel()
        finally:
            if games is not None:
                games._closing.set()
            with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT + 1):
                await trio.to_thread.run_sync(_close, client, abandon_on_cancel=True)


async def _run_in_thread(function: Callable[[], None]) -> None:
    await trio.to_thread.run_sync(function, abandon_on_cancel=True)
