"""``--live`` and ``referee serve`` from the command line, when things go wrong."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.clirun import cli
from tournaments.store.journal import read_journal

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(rb"live view of .* at http://127\.0\.0\.1:(\d+)/")


def _tournament(out: Path, *extra: str) -> list[str]:
    return ["tournament", "--game", "trike", "-e", "random", "-e", "greedy", "-q",
            "--tc", "5+0.05", "--out", str(out), *extra]  # fmt: skip


# The refusals below need no child process of their own: the command runs in this process
# (``cli``), as the console script would run it.


@pytest.mark.parametrize("bad", ["x", "host:", "70000", "a:b:c"])
def test_a_bad_live_address_is_one_line(
    tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = cli(capsys, *_tournament(tmp_path / "ev", "--games", "2", "--live", bad))
    assert status == 2
    assert err.strip().splitlines() == [f"referee: error: bad --live {bad!r}: expected [HOST:]PORT"]


@pytest.mark.processes  # the live view's server process starts and fails
def test_a_port_in_use_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = _tournament(tmp_path / "ev", "--games", "2", "--live", str(port))
        status, _, err = cli(capsys, *args)
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0] == (
        "referee: error: --live: the live view could not start: "
        f"cannot listen on 127.0.0.1:{port}: Address already in use"
    )  # the server's own line once, not 'referee: error:' twice
    assert not (tmp_path / "ev" / "journal.jsonl").exists()


def test_serve_a_missing_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "serve", str(tmp_path / "nope"), "--port", "0")
    assert status == 2
    assert err.strip() == f"referee: error: {tmp_path / 'nope'}: no such directory"


def _serve(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tournaments", "serve", str(directory), "--port", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdout is not None
    found = URL.search(proc.stdout.readline())
    assert found is not None
    return proc, int(found.group(1))


@pytest.mark.processes  # a live server or tournament process
def test_an_empty_directory_is_served_while_it_waits(tmp_path: Path) -> None:
    proc, port = _serve(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while b"waiting for the event" not in data:
                chunk = s.recv(4096)
                assert chunk
                data += chunk
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
        assert proc.stdout is not None
        proc.stdout.close()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _server_of(pid: int) -> int:
    for child in _children(pid):
        try:
            if b"serve" in Path(f"/proc/{child}/cmdline").read_bytes():
                return child
        except OSError:
            continue
    raise AssertionError("no live server among the tournament's children")


def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def _slow_tournament(out: Path, *, games: int, slow_ms: int) -> list[str]:
    """A live tournament of two engines that take ``slow_ms`` per move."""
    slow = f"{sys.executable} -m bots faulty --slow {slow_ms}"
    return [sys.executable, "-m", "tournaments", "tournament", "--game", "trike", "-q",
            "-e", f"a={slow}", "-e", f"b={slow} --seed 2", "--games", str(games),
            "--tc", "30+0.1", "--out", str(out), "--live", "0"]  # fmt: skip


@pytest.mark.processes  # a live server or tournament process
def test_killing_the_view_leaves_the_event_running(tmp_path: Path) -> None:
    out = tmp_path / "ev"
    with subprocess.Popen(
        _slow_tournament(out, games=4, slow_ms=20),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    ) as p:
        assert p.stderr is not None
        assert URL.search(p.stderr.readline())
        os.kill(_server_of(p.pid), signal.SIGKILL)
        assert p.wait(timeout=180) == 0
    assert len(read_journal(out).games) == 4


@pytest.mark.processes  # a live server or tournament process
def test_the_view_ends_with_a_killed_tournament(tmp_path: Path) -> None:
    out = tmp_path / "ev"
    with subprocess.Popen(
        _slow_tournament(out, games=20, slow_ms=50),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    ) as p:
        assert p.stderr is not None
        assert URL.search(p.stderr.readline())
        server = _server_of(p.pid)
        p.kill()
        p.wait()
    # The server was in its own session, so the kill did not reach it: it notices alone.
    assert _gone(server, within=10)
