"""The open-file budget: the soft limit is raised for a big event, or it does not start."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.play.fdlimit import OpenFilesError, ensure_open_files, files_needed


def test_files_needed_grows_with_slots_and_cached_engines() -> None:
    assert files_needed(1, 2) < files_needed(2, 2) < files_needed(2, 8)
    assert files_needed(250, 8) > 1024  # fastchess's case: past the common soft limit


def test_the_soft_limit_is_raised_up_to_the_hard_limit() -> None:
    # In a child, so this test process keeps its own limit.
    code = (
        "import resource\n"
        "from tournaments.play.fdlimit import ensure_open_files\n"
        "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))\n"
        "print(ensure_open_files(900), resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n"
    )
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 900:
        pytest.skip(f"the hard limit here ({hard}) is below the test's need")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["900", "900"]


def test_a_need_above_the_hard_limit_is_one_line_before_anything_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (1024, 4096))

    def refuse(*_args: object) -> None:
        raise AssertionError("must not change the limit when it cannot suffice")

    monkeypatch.setattr(resource, "setrlimit", refuse)
    with pytest.raises(OpenFilesError) as info:
        ensure_open_files(files_needed(250, 8))
    message = str(info.value)
    assert "\n" not in message and "4096" in message and "ulimit -Hn" in message


def test_a_sufficient_soft_limit_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _which: (65536, 65536))
    monkeypatch.setattr(resource, "setrlimit", lambda *_a: pytest.fail("changed"))
    assert ensure_open_files(1000) == 65536


@pytest.mark.processes
def test_a_tournament_too_big_for_the_hard_limit_stops_before_any_game(tmp_path: Path) -> None:
    out = tmp_path / "event"
    code = (
        "import os, resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))\n"
        "from tournaments.cli.app import main\n"
        "sys.argv = ['referee'] + sys.argv[1:]\n"
        "main()\n"
    )
    args = ["tournament", "--game", "trike", "-e", "random", "-e", "random"]
    args += ["--concurrency", "64", "--workers", "0", "--games", "64", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "open files" in lines[0] and "200" in lines[0], done.stderr
    assert not (out / "games.tgn").exists() or not (out / "games.tgn").read_text().strip()
    assert not (out / "journal.jsonl").exists()  # so the same command may be run again


def test_a_worker_started_before_the_runner_raised_the_limit_raises_its_own(
    tmp_path: Path,
) -> None:
    """A worker started early (``prestart``) inherits the limit from before the runner
    raised it: it asks for its own share when its setup comes."""
    import json

    from tests.tournaments.local import bots_plan
    from tournaments.event.wire import to_json
    from tournaments.play.prestart import worker_command, worker_environment
    from tournaments.play.slot import default_cache_size
    from tournaments.play.worker import Hello

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    slots = 60
    setup = bots_plan(1).slot_setup(None)
    needed = files_needed(slots, default_cache_size(setup))
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the hard limit ({hard}) is below {needed}")
    with subprocess.Popen(
        worker_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        env=worker_environment(),
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)),
    ) as worker:  # fmt: skip
        assert worker.stdin is not None and worker.stdout is not None
        worker.stdin.write((json.dumps(to_json(Hello(setup, slots))) + "\n").encode())
        worker.stdin.flush()
        assert json.loads(worker.stdout.readline()) == {"ready": True}
        limits = Path(f"/proc/{worker.pid}/limits").read_text().splitlines()
        soft = next(line.split()[3] for line in limits if line.startswith("Max open files"))
        worker.stdin.close()
        assert worker.wait(timeout=60) == 0
    assert needed > 256 and int(soft) >= needed
