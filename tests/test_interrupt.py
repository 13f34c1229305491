"""Stopping ``referee play`` with a signal: no traceback, no lost games, no leftover engines."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.record.stream import read_records
from tests.procs import live_with

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
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_text().count("[Game ") >= 1):
            assert time.monotonic() < deadline, "no game finished in time"
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.05)
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
