"""How a worker process stops its engines when the runner closes its input."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

import tournaments.play.worker as worker_module
from protocol.reaper import children
from protocol.spec import EngineSpec
from tests.procs import live_with
from tournaments.event.config import parse_config
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.plan import Plan
from tournaments.event.wire import to_json
from tournaments.play.prestart import worker_command, worker_environment
from tournaments.play.worker import (
    MAX_MESSAGE_BYTES,
    Hello,
    LineReader,
    WorkerError,
    _Worker,
    open_workers,
)

pytestmark = pytest.mark.processes

FAREWELL = Path(__file__).resolve().parents[1] / "engines" / "farewell_engine.py"


def _setup(logs: list[Path]) -> SlotSetup:
    entrants = [
        {"name": f"farewell-{i}", "command": f"{sys.executable} {FAREWELL} {log}"}
        for i, log in enumerate(logs)
    ]
    config = parse_config(
        {"game": "trike", "games": 1, "tc": "10+0.1", "start_timeout": 30, "entrants": entrants},
        "test",
    )
    return Plan.from_config(config, "test").slot_setup(None)


def test_a_first_message_the_worker_cannot_read_is_one_error_line(tmp_path: Path) -> None:
    setup = to_json(_setup([tmp_path / "a.log", tmp_path / "b.log"]))
    setup["entrants"][1]["nodes"] = "many"
    hello = json.dumps({"setup": setup, "slots": 1}) + "\n"
    done = subprocess.run(
        worker_command(), input=hello, capture_output=True, text=True, timeout=120,
        env={**worker_environment(), "REFEREE_DEBUG": "0"},
    )  # fmt: skip
    assert done.returncode == 1
    [message] = [json.loads(line) for line in done.stdout.splitlines()]
    assert message["error"] == (
        "tournaments.event.wire.WireError: "
        "Hello.setup.entrants[1].nodes: expected int, not 'many'"
    )
    # Not a user error (the runner wrote that message): the runner shows where it failed.
    trace = message["traceback"]
    assert trace.startswith("Traceback (most recent call last):") and "WireError" in trace
    assert set(message) == {"error", "traceback"}
    assert done.stderr == ""


def test_a_worker_that_fails_of_a_bug_hands_its_traceback_to_the_runner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that fails of an exception that is not a user error (here: a first
    message the runner got wrong) is a bug: the runner's ``WorkerError`` carries the
    worker's traceback, for the command line to show with the report line."""
    def corrupted(value: object) -> Any:
        data = to_json(value)  # the codec the worker module writes with
        if isinstance(value, Hello):
            data["setup"]["entrants"][1]["nodes"] = "many"
        return data

    monkeypatch.setattr(worker_module, "to_json", corrupted)

    async def main() -> None:
        async with open_workers(_setup([tmp_path / "a.log", tmp_path / "b.log"]), [1]):
            pass

    error: BaseException | None = None
    try:
        trio.run(main)
    except BaseException as exc:
        error = exc
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    assert isinstance(error, WorkerError), error
    assert error.bug is not None and error.bug.startswith("Traceback (most recent call last)")
    lines = str(error).splitlines()
    assert lines[0] == (
        "worker 1 stopped unexpectedly (exit status 1): tournaments.event.wire.WireError: "
        "Hello.setup.entrants[1].nodes: expected int, not 'many'"
    )
    assert lines[-1] == "tournaments.event.wire.WireError: " + lines[0].rsplit("WireError: ")[1]


def test_engines_of_a_finished_run_end_on_quit_not_by_signal(tmp_path: Path) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]

    async def main() -> None:
        async with open_workers(_setup(logs), [1]) as slots:
            report = await slots[0].play(Job(number=1, round=1, block=0, table=(0, 1), seed=7))
            assert report.plies > 0 and not report.void
        # The block has ended: the worker has exited, and so have its engines.

    trio.run(main)
    for log in logs:
        assert log.read_text().splitlines() == ["quit"], log.name


def test_a_game_in_play_is_abandoned_when_the_input_ends(tmp_path: Path) -> None:
    marker = "--seed 870017"  # finds the slow engine's process, dead or alive
    slow = EngineSpec(
        name="slow", argv=(sys.executable, "-m", "bots", "faulty", "--slow", "200", *marker.split())
    )
    base = _setup([tmp_path / "a.log", tmp_path / "b.log"])
    setup = replace(base, entrants=(base.entrants[0], slow))
    seen: list[bool] = []

    async def main() -> None:
        async with open_workers(setup, [1]) as slots:
            with trio.move_on_after(3.0):  # the game takes at least 13 s of slow moves
                await slots[0].play(Job(number=1, round=1, block=0, table=(0, 1), seed=7))
            seen.append(bool(live_with(marker)))
        # Input closed with the game in play: the worker abandons it and stops.

    trio.run(main)
    assert seen == [True]
    assert not live_with(marker)


def test_a_cancelled_reader_of_a_worker_is_done() -> None:
    # A stopping run cancels the readers of its workers' output; the runner then waits
    # for each reader to be done (to take a worker's last words). A cancelled reader
    # must say it is done, or every stop waited a second for it (issue 22).
    async def main() -> None:
        process = await trio.lowlevel.open_process(
            [sys.executable, "-c", "import time; time.sleep(30)"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        try:
            worker = _Worker(1, process, 1)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(worker.pump)
                await trio.sleep(0.2)
                assert not worker.done.is_set()  # still reading: the worker said nothing
                nursery.cancel_scope.cancel()
            assert worker.done.is_set()
        finally:
            process.kill()
            await process.wait()

    trio.run(main)


class _Chunks(trio.abc.ReceiveStream):
    """A receive stream that hands out the given chunks, then the end of the stream."""

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = list(chunks)

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""

    async def aclose(self) -> None:
        pass


def test_line_reader_frames_split_joined_and_crlf_lines_and_drops_a_torn_tail() -> None:
    async def main() -> list[str | None]:
        reader = LineReader(_Chunks(b'{"a":', b'1}\n{"b":2}\r\n{"c"', b":3}\n{torn"))
        return [await reader.readline() for _ in range(4)]

    assert trio.run(main) == ['{"a":1}', '{"b":2}', '{"c":3}', None]


def test_line_reader_refuses_a_line_over_the_message_limit() -> None:
    async def main() -> None:
        chunk = b"x" * (1 << 16)
        reader = LineReader(_Chunks(*[chunk] * (MAX_MESSAGE_BYTES // len(chunk) + 1)))
        await reader.readline()

    with pytest.raises(WorkerError, match="worker message too long"):
        trio.run(main)


def test_the_engines_of_a_killed_worker_are_killed_and_reaped(tmp_path: Path) -> None:
    # An engine that ignores end of input, quit and SIGTERM, thinking in the middle of
    # a game when its worker is killed: reparented to the runner (a subreaper), which
    # kills it and reaps it and its partner, so neither survives nor stays a zombie.
    hang = f"{sys.executable} -m bots faulty --mode ignore-quit --slow 600000 --at 0"
    config = parse_config(
        {"game": "trike", "games": 1, "tc": "600+1", "start_timeout": 30,
         "entrants": [{"name": "hang", "command": hang}, {"command": "random"}]},
        "test",
    )  # fmt: skip
    setup = Plan.from_config(config, "test").slot_setup(None)
    engines: list[int] = []

    async def main() -> None:
        async with open_workers(setup, [1]) as slots:
            worker = slots[0]._worker.process
            async with trio.open_nursery() as nursery:

                async def play() -> None:
                    with pytest.raises(WorkerError, match="stopped unexpectedly"):
                        await slots[0].play(Job(number=1, round=1, block=0, table=(0, 1), seed=7))

                nursery.start_soon(play)
                for _ in range(1200):  # at most 60 s for both engines of the game
                    if len(children(worker.pid)) >= 2:
                        break
                    await trio.sleep(0.05)
                engines.extend(children(worker.pid))
                os.kill(worker.pid, signal.SIGKILL)

    try:
        trio.run(main)
        # Gone from /proc: killed, and reaped by us (this process ran the worker).
        assert [pid for pid in engines if os.path.exists(f"/proc/{pid}")] == []
    finally:
        for pid in engines:  # never leave a hanging engine behind a failed test
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
