"""SIGTERM stops ``perft``, ``adjudicate`` and ``bench`` as it stops ``play``: one line,
exit 130 (not the bare 143 of an unhandled SIGTERM), no process left behind."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import format_record
from tests.procs import left_after, live_with, wait_while_running
from tests.referee.test_adjudicate import finished, retag

pytestmark = pytest.mark.processes


def _stop(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """SIGTERM to ``proc``; its stdout and stderr once it ended."""
    try:
        proc.send_signal(signal.SIGTERM)
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_sigterm_stops_perft_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "perft.out"
    with out.open("w") as sink:
        # Depth 9 of Trike runs for minutes; the signal comes once depth 1 is printed.
        proc = subprocess.Popen(
            [sys.executable, "-m", "tournaments", "perft", "trike", "9"],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_while_running(proc, lambda: out.read_text().startswith("1 "), "no count", 60)
        _, stderr = _stop(proc)
    assert proc.returncode == 130, stderr
    assert stderr == "referee: interrupted (the counts above are complete)\n"
    assert "9 " not in out.read_text()  # stopped, not finished


def test_sigterm_stops_adjudicate_and_its_worker_processes(tmp_path: Path) -> None:
    # About 35 MB of games: many batches, seconds of work for two worker processes.
    path = tmp_path / "many.tgn"
    chunk = "".join(format_record(retag(finished(n % 40 + 1), Round=str(n))) for n in range(2000))
    path.write_text(chunk * 24)
    out = tmp_path / "verdicts.out"
    with out.open("w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tournaments", "adjudicate", str(path), "--jobs", "2"],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_while_running(
            proc,
            lambda: out.read_text().count("confirmed") >= 1000 and len(live_with(str(path))) > 1,
            "no verdict, or no worker process, in time",
            120,
        )
        _, stderr = _stop(proc)
    assert proc.returncode == 130, stderr
    assert stderr == "referee: interrupted (the verdicts above are complete)\n"
    assert "game(s)" not in out.read_text()  # stopped before the end
    assert left_after(str(path), 20) == []  # the worker processes (forked: same command line)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("background", [False, True], ids=["foreground", "sigint-ignored"])
def test_sigterm_stops_bench_and_its_engines(background: bool) -> None:
    # A background job of a script (``referee bench &``) starts with SIGINT ignored: the
    # stop must still go through trio's own handling (no "abandoned run" warning).
    marker = f"--seed {930017 + background}"
    engine = f"{sys.executable} -m bots faulty --slow 20 {marker}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments", "bench", "-c", "2", "--tournament-games", "100",
         "--engine", engine],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint if background else None,
    )  # fmt: skip
    try:
        wait_while_running(
            proc,
            lambda: [pid for pid in live_with(marker) if pid != proc.pid],
            "no engine started in time",
            60,
        )
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    stdout, stderr = _stop(proc)
    assert proc.returncode == 130, stderr
    assert stderr == "referee: interrupted (the figures above are complete)\n"
    assert stdout == ""  # no figure: the run was cut short
    assert left_after(marker, 20) == []
