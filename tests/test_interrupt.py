"""Stopping ``referee play`` with a signal: no traceback, no lost games, no leftover engines."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record.stream import read_records
from tests.procs import live_with, wait_while_running

pytestmark = pytest.mark.processes


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_play_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    out = tmp_path / "games.tgn"
    marker = f"--seed {900000 + signum}"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tournaments",
            "play",
            "trike",
            "-e",
            "random",
            "-e",
            f"{sys.executable} -m bots faulty --slow 20 {marker}",
            "--games",
            "100",
            "--tc",
            "60+1",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_while_running(
            proc,
            lambda: out.exists() and out.read_text().count("[Game ") >= 1,
            "no game finished in time",
            60,
        )
        assert live_with(marker)
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr
    records = read_records(out)  # every game on disk is complete and readable
    assert len(records) >= 1
    assert stderr.strip() == (
        f"referee: interrupted after {len(records)} finished game(s); they are in {out}"
    )
    assert f"Game {len(records)}/100" in stdout
    assert live_with(marker) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_the_engines_are_checked_exits_130(
    tmp_path: Path, signum: signal.Signals
) -> None:
    # --nodes starts each engine once to see its features, before the first game: the
    # faulty engine sleeps 60 s before its handshake, so the signal comes during that.
    out = tmp_path / "games.tgn"
    marker = f"--seed {910000 + signum}"
    engine = f"{sys.executable} -m bots faulty --mode slow-handshake --slow 60000 {marker}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments", "play", "trike", "-e", engine, "-e", "random",
         "--nodes", "100", "--games", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        wait_while_running(
            proc,
            lambda: [pid for pid in live_with(marker) if pid != proc.pid],  # the probe runs
            "the engine was not started in time",
            60,
        )
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, stderr  # not 143, the bare death of an unhandled SIGTERM
    assert stderr.strip() == (
        "referee: interrupted before the first game (nothing written): run the same command"
        " again"
    )
    assert "Game 1/2" not in stdout
    assert out.read_text() == ""  # only made to see it can be appended to
    assert live_with(marker) == []  # the probed engine stopped with the referee
