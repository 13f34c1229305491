"""``referee tournament --events FIFO``: the wait for the named pipe's reader is said once,
as ``play --out FIFO`` says it, and a pipe that has its reader is opened with no note."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.procs import wait_while_running
from tournaments.runner.events import open_events

pytestmark = pytest.mark.processes


def test_a_tournament_says_it_waits_for_the_reader_of_its_events_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "events.fifo"
    os.mkfifo(fifo)
    err = tmp_path / "err.txt"
    with err.open("w") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tournaments", "tournament", "-g", "trike", "-e", "random",
             "-e", "random", "--games", "2", "--out", str(tmp_path / "event"), "--events",
             str(fifo)],
            stdout=subprocess.DEVNULL,
            stderr=sink,
            text=True,
        )  # fmt: skip
        try:
            note = f"referee: waiting for a reader of the named pipe {fifo}\n"
            wait_while_running(proc, lambda: err.read_text() == note, "no note", 60)
            with fifo.open(encoding="utf-8") as reader:  # the reader comes: the run goes on
                lines = reader.read().splitlines()
            assert proc.wait(timeout=60) == 0, err.read_text()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert err.read_text() == note  # said once, nothing else on the standard error
    events = [json.loads(line)["type"] for line in lines]
    assert events.count("game_finished") == 2


def test_a_pipe_with_its_reader_is_opened_with_no_note(tmp_path: Path) -> None:
    fifo = tmp_path / "events.fifo"
    os.mkfifo(fifo)
    notes: list[str] = []
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with open_events(str(fifo), on_wait=notes.append) as out:
            out.write("x\n")
            out.flush()
        assert os.read(reader, 10) == b"x\n"
    finally:
        os.close(reader)
    assert notes == []


def test_sigterm_ends_the_wait_for_the_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "events.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments", "tournament", "-g", "trike", "-e", "random",
         "-e", "random", "--games", "2", "--out", str(tmp_path / "event"), "--events",
         str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        note = proc.stderr.readline()  # the wait has begun
        proc.send_signal(signal.SIGTERM)
        _, rest = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert note == f"referee: waiting for a reader of the named pipe {fifo}\n"
    assert proc.returncode == 130
    assert rest.startswith("referee: interrupted before the tournament started")
    assert not (tmp_path / "event").exists()
