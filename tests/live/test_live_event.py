"""``referee tournament --live`` for real: a hundred viewers over Server-Sent Events, and
the page in headless chromium while the event runs and after it ends."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.webdriver import Browser
from tournaments.store.journal import read_journal

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(rb"live view of .* at (http://127\.0\.0\.1:(\d+)/)")


@contextlib.contextmanager
def _tournament(out: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes], str, int]]:
    """A tournament with --live on a free port, with its URL and port once it serves;
    killed if still running at the end of the block."""
    command = [sys.executable, "-m", "tournaments", "tournament", "--game", "trike", "-q"]
    command += [*args, "--out", str(out), "--live", "0"]
    with subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    ) as proc:
        try:
            assert proc.stderr is not None
            line = proc.stderr.readline()
            found = URL.search(line)
            if found is None:
                pytest.fail(f"no live view line: {line!r} {proc.stderr.read()!r}")
            yield proc, found.group(1).decode(), int(found.group(2))
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def _finished_numbers(stream: bytes) -> set[int]:
    return {int(n) for n in re.findall(rb'event: finished\ndata: \{"number":(\d+)', stream)}


@pytest.mark.processes
def test_a_hundred_viewers_each_see_every_finished_game(tmp_path: Path) -> None:
    out = tmp_path / "event"
    streams: list[bytes] = [b""] * 100
    connected = threading.Semaphore(0)
    # The random entrant waits for this file before it starts, so the event cannot end
    # before every viewer is connected (on a loaded machine 40 fast games could).
    go = tmp_path / "go"
    gated = tmp_path / "gated-random.sh"
    gated.write_text(
        f'#!/bin/sh\nwhile [ ! -e "{go}" ]; do sleep 0.02; done\n'
        f'exec "{sys.executable}" -m bots random\n'
    )
    gated.chmod(0o755)

    def viewer(i: int) -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            data = s.recv(65536)  # the response's head: the server has taken this viewer
            connected.release()
            while chunk := s.recv(65536):  # the server closes the stream when it stops
                data += chunk
            streams[i] = data

    threads = [threading.Thread(target=viewer, args=(i,)) for i in range(100)]
    args = ("-e", f"random={gated}", "-e", "greedy", "--games", "40", "--tc", "5+0.05")
    with _tournament(out, *args, "--concurrency", "2") as (proc, _, port):
        try:
            for thread in threads:
                thread.start()
            for _ in threads:
                assert connected.acquire(timeout=60), "a viewer could not connect"
            go.touch()
            assert proc.wait(timeout=240) == 0
        finally:
            go.touch()
            for thread in threads:
                thread.join(timeout=30)
    games = set(read_journal(out).games)
    assert len(games) == 40
    for data in streams:
        assert _finished_numbers(data) == games
        assert b'"complete":true' in data  # the last picture: the event is over
    assert not any(thread.is_alive() for thread in threads)


def test_the_page_follows_the_event_in_chromium(browser: Browser, tmp_path: Path) -> None:
    slow = f"{sys.executable} -m bots faulty --slow 60"
    out = tmp_path / "event"
    args = ("-e", f"a={slow} --seed 1", "-e", f"b={slow} --seed 2", "--games", "6")
    with _tournament(out, *args, "--tc", "30+0.1", "--concurrency", "2") as (proc, url, _):
        browser.get(url)
        browser.execute("window.notReloaded = true;")
        # A board of a game in play appears and advances, with no reload.
        browser.wait_for("document.querySelector('#boards .live') !== null")
        first = browser.execute(
            "var b = document.querySelector('#boards .live'); return [b.id, Number(b.dataset.ply)];"
        )
        browser.wait_for(
            f"(function () {{ var b = document.getElementById('{first[0]}');"
            f" return b === null || Number(b.dataset.ply) > {first[1]} + 2; }})()"
        )
        assert "<svg" in browser.execute("return document.getElementById('boards').innerHTML;")
        # The standings change as games finish.
        browser.wait_for("Number(document.getElementById('done').textContent) >= 1")
        assert browser.execute("return window.notReloaded === true;")
        tables = browser.execute("return document.getElementById('standings').innerHTML;")
        assert "<table" in tables
        link = browser.execute("return document.querySelector('#finished a').href;")
        # A finished game opens in the replay view and steps.
        browser.get(link)
        browser.wait_for("document.querySelector('details.game[open] .board svg') !== null")
        before = browser.execute("return document.querySelector('details.game .ply').textContent;")
        browser.click("details.game button[data-step='next']")
        after = browser.execute("return document.querySelector('details.game .ply').textContent;")
        assert before != after
        # Back to the live page: when the event ends it shows the final tables.
        browser.get(url)
        browser.wait_for("document.body.dataset.complete === 'yes'")
        assert browser.execute("return document.getElementById('done').textContent;") == "6"
        assert proc.wait(timeout=120) == 0
        final = browser.execute("return document.getElementById('standings').innerHTML;")
        assert "6/6 games" in final
        errors = [e for e in browser.console() if e.get("level") == "SEVERE"]
        assert all("events" in str(e.get("message")) for e in errors), errors  # reconnects only
        browser.get("about:blank")  # the page would go on retrying its stream: leave it
        browser.console()  # and leave the next test (the browser is shared) a clean log
