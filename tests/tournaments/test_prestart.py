"""Workers started early (``tournaments.play.prestart``): a run adopts them as its own
workers, those no run takes are ended, and the flags decide how many start."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from tests.clirun import referee_here
from tests.tournaments.local import bots_plan
from tournaments.event.jobs import Job
from tournaments.play import prestart
from tournaments.play.worker import open_workers

pytestmark = pytest.mark.processes


@pytest.fixture(autouse=True)
def no_early_left() -> Iterator[None]:
    """Each test starts and ends with no early worker (and ends those it left)."""
    assert prestart._early == []
    yield
    prestart.discard()


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_flags_decide_how_many_start_early(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    monkeypatch.setattr(prestart, "start_early", asked.append)
    cores = os.cpu_count() or 1
    prestart.start_for_flags(None, None, elsewhere=False)  # a config file's, unknown here
    prestart.start_for_flags(1, None, elsewhere=False)  # one game: no workers
    prestart.start_for_flags(4, 0, elsewhere=False)  # --workers 0
    prestart.start_for_flags(4, None, elsewhere=True)  # a cluster, or --resume
    prestart.start_for_flags(4, None, elsewhere=False)
    prestart.start_for_flags(8, 3, elsewhere=False)
    prestart.start_for_flags(2, 5, elsewhere=False)  # no more workers than games
    assert asked == [min(4, cores), 3, 2]


def test_a_run_adopts_the_workers_started_early_and_plays_in_them() -> None:
    prestart.start_early(2)
    early = [process.pid for process in prestart._early]
    plan = bots_plan(2)
    jobs = [Job(number=n, round=1, block=0, table=(0, 1), seed=n) for n in (1, 2)]

    async def run() -> list[int]:
        async with open_workers(plan.slot_setup(None), [1, 1]) as slots:
            pids = sorted({slot._worker.process.pid for slot in slots})
            reports = [await slot.play(job) for slot, job in zip(slots, jobs, strict=True)]
            assert all(r.outcome.culprit is None for r in reports), reports
            return pids

    assert trio.run(run) == sorted(early)
    assert prestart._early == [] and not any(alive(pid) for pid in early)


def test_early_workers_no_run_takes_are_ended() -> None:
    prestart.start_early(3)
    pids = [process.pid for process in prestart._early]
    taken = prestart.take(1)
    assert [p.pid for p in taken] == pids[:1] and prestart._early == []
    assert not any(alive(pid) for pid in pids[1:])
    prestart.discard()  # idempotent
    prestart._end(taken[0])


def test_a_command_that_fails_ends_the_workers_it_started_early(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[int] = []
    start_early = prestart.start_early

    def recorded(count: int) -> None:
        start_early(count)
        started.extend(process.pid for process in prestart._early)

    monkeypatch.setattr(prestart, "start_early", recorded)
    done = referee_here(
        capsys, "tournament", "-g", "nosuch", "-e", "random", "-e", "greedy", "-c", "2",
        "-o", str(tmp_path / "out"),
    )  # fmt: skip
    assert done.returncode == 2 and "nosuch" in done.stderr
    assert len(started) == min(2, os.cpu_count() or 1) and prestart._early == []
    assert not any(alive(pid) for pid in started)
