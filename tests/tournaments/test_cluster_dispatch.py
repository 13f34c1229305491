"""``ClusterGames``' bookkeeping without a cluster: a fake client records submissions, the
test plays the messages a cluster would send (streamed reports, task results, a dead
task), and checks what reaches the journal's ``submit`` and what is sent again. No Dask
scheduler or worker runs: these are fast-tier tests (``tests/cluster/`` holds those of a
real cluster)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import Outcome, Termination
from referee.errors import PathError, UserError
from referee.results import RUNNER_LATE
from tournaments.event.cluster_settings import ClusterConfig
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.wire import to_json
from tournaments.play.errors import RUNNER_VOID_ATTEMPTS, VOID_ATTEMPTS, TournamentError
from tournaments.results.game import GameReport

pytest.importorskip("distributed")

from distributed.scheduler import KilledWorker

from tournaments.cluster.client import LOST_ATTEMPTS, ClusterError, ClusterGames
from tournaments.cluster.task import Finished


class FakeClient:
    """Records ``submit`` calls: (key, game numbers)."""

    loop = object()
    status = "running"

    def __init__(self) -> None:
        self.submitted: list[tuple[str, list[int]]] = []

    def submit(
        self,
        function: Any,
        setup: Any,
        commands: Any,
        jobs: Any,
        tag: str,
        topic: Any,
        *,
        key: str,
        pure: bool,
    ) -> str:
        self.submitted.append((key, [int(job["number"]) for job in jobs]))
        return key

    def cancel(self, futures: Any) -> None:
        pass


class FakeCompleted:
    def add(self, future: Any) -> None:
        pass


def report(number: int, *, void: bool = False, reason: str = "no handshake") -> dict[str, Any]:
    outcome = (
        Outcome(Termination.VOID, (), reason=reason) if void else Outcome(Termination.RULES, (1, 2))
    )
    played = GameReport(number, 1, 0, (0, 1), ("a", "b"), outcome, 10, "")
    data: dict[str, Any] = to_json(Finished(played))
    return data


SETUP = SlotSetup(
    game="trike", options=(), players=2,
    entrants=(EngineSpec("a", ("a",)), EngineSpec("b", ("b",))),
    tc=TimeControl(base=1), max_plies=10, adjudication=None, start_timeout=1.0, event="e",
    out=None, transcripts="none",
)  # fmt: skip
"""What the fake cluster's tasks would be given (they are never run)."""

Messages = Callable[[str, list[int]], list[tuple[str, str, Any]]]
"""What the cluster answers to one submitted task (its key, its games)."""


async def run_with(
    messages: Messages, games: int, batch: int
) -> tuple[list[GameReport], FakeClient]:
    """Play ``games`` jobs, answering each submitted task with ``messages``; raise the
    one error of the run bare."""
    client = FakeClient()
    dispatcher = ClusterGames(
        client,  # type: ignore[arg-type]
        ClusterConfig(address="tcp://fake:1", batch=batch),
        SETUP,
        [],
        None,
    )
    dispatcher._completed = FakeCompleted()  # type: ignore[assignment]
    jobs = [Job(n, 1, 0, (0, 1), seed=n) for n in range(1, games + 1)]
    got: list[GameReport] = []

    async def feed() -> None:
        answered = 0
        while True:
            await trio.sleep(0.01)
            for key, numbers in client.submitted[answered:]:
                for message in messages(key, numbers):
                    dispatcher._inbox_send.send_nowait(message)
            answered = len(client.submitted)

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(feed)
            await dispatcher.play_all(jobs, got.append)
            nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        (error,) = group.exceptions
        raise error from error.__cause__  # a bug's chain to the task's error kept
    return got, client


async def test_copies_count_once_and_a_void_is_played_again() -> None:
    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        if numbers == [1, 2]:  # game 2 comes out void, and game 1 arrives three times
            one, two = report(1), report(2, void=True)
            return [
                ("reports", key, [one]),
                ("reports", key, [one, two]),
                ("task", key, ("finished", [one, two])),
            ]
        return [("task", key, ("finished", [report(2)]))]

    got, client = await run_with(messages, games=2, batch=2)
    assert [(r.number, r.void) for r in got] == [(1, False), (2, True), (2, False)]
    assert [numbers for _, numbers in client.submitted] == [[1, 2], [2]]


async def test_a_game_void_every_time_stops_the_run() -> None:
    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        return [("task", key, ("finished", [report(n, void=True) for n in numbers]))]

    with pytest.raises(TournamentError, match=f"void {VOID_ATTEMPTS} times"):
        await run_with(messages, games=1, batch=1)


async def test_runner_late_voids_are_replayed_on_their_own_budget_as_in_the_local_runner() -> None:
    late = f"{RUNNER_LATE}: seat 1 (a) went 90 ms over its time"

    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        voids = [report(n, void=True, reason=late) for n in numbers]
        return [("task", key, ("finished", voids))]

    with pytest.raises(TournamentError, match="runner itself was late") as stopped:
        await run_with(messages, games=1, batch=1)
    assert f"void {RUNNER_VOID_ATTEMPTS} times" in str(stopped.value)
    assert RUNNER_VOID_ATTEMPTS > VOID_ATTEMPTS  # so engine voids alone would have stopped it


async def test_a_task_that_kills_workers_is_split_then_given_up() -> None:
    killed = KilledWorker.__new__(KilledWorker)
    dead = ("error", (KilledWorker, killed, None))

    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        if numbers == [1, 2, 3]:  # game 1 streamed, then the task kills its workers
            return [("reports", key, [report(1)]), ("task", key, dead)]
        if numbers == [2]:  # sent again alone: it plays
            return [("task", key, ("finished", [report(2)]))]
        return [("task", key, dead)]  # game 3 kills workers again

    with pytest.raises(ClusterError, match=f"game 3 was lost {LOST_ATTEMPTS} times"):
        await run_with(messages, games=3, batch=3)


async def test_a_lost_scheduler_is_one_line() -> None:
    from distributed.client import FutureCancelledError

    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        lost = FutureCancelledError(key, "scheduler-connection-lost")
        return [("reports", key, [report(1)]), ("task", key, ("cancelled", lost))]

    with pytest.raises(ClusterError, match=r"^lost the Dask scheduler at tcp://fake:1; "):
        await run_with(messages, games=2, batch=2)


async def test_a_task_failing_of_a_user_error_is_one_line() -> None:
    full = PathError("cannot write out/logs/transcripts-1.log: No space left on device\nmore")

    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        return [("task", key, ("error", (PathError, full, None)))]

    with pytest.raises(
        ClusterError,
        match=r"^a game task failed on the cluster \(PathError: cannot write out/logs/"
        r"transcripts-1.log: No space left on device\); continue with --resume$",
    ):
        await run_with(messages, games=1, batch=1)


async def test_a_task_failing_of_a_bug_is_no_user_error() -> None:
    """Any other exception (an ``OSError`` too) is a bug in the task: not a
    ``ClusterError`` of one line but an error chained to the task's own, whose
    traceback the command line shows with the report line."""
    try:
        raise KeyError("seat")
    except KeyError as exc:
        bug = exc

    def messages(key: str, numbers: list[int]) -> list[tuple[str, str, Any]]:
        return [("task", key, ("error", (KeyError, bug, bug.__traceback__)))]

    with pytest.raises(
        RuntimeError, match=r"^a game task failed on the cluster \(KeyError: 'seat'\)$"
    ) as info:
        await run_with(messages, games=1, batch=1)
    assert not isinstance(info.value, UserError)
    assert info.value.__cause__ is bug and bug.__traceback__ is not None
