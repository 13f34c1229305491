"""The live server over a finished event: its routes, and what it refuses.

Requests go over raw sockets, so the paths reach the server exactly as written
(``/../``, encoded dots) and the misbehaving clients (huge headers, silence) are real.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.events import MATCH, play
from tournaments.live import server as server_module
from tournaments.live.server import LiveServer


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(MATCH, tmp_path_factory.mktemp("serve") / "event")


@pytest.fixture
def live(event: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(server_module._Handler, "timeout", 1.0)
    monkeypatch.setattr(server_module, "MAX_CLIENTS", 8)
    running = LiveServer(event, "127.0.0.1", 0)
    thread = threading.Thread(target=running.run)
    thread.start()
    yield running
    running.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()


def _raw(port: int, request: bytes, *, wait: float = 5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(request)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def _get(port: int, path: str, method: str = "GET") -> tuple[int, bytes]:
    reply = _raw(port, f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    status = int(reply.split(b" ", 2)[1])
    return status, reply.partition(b"\r\n\r\n")[2]


def test_the_page_and_a_finished_game(live: LiveServer) -> None:
    status, body = _get(live.port, "/")
    assert (
        status == 200
        and b'EventSource("events")' in body
        and b"connect-src &#x27;self&#x27;" in body
    )
    status, body = _get(live.port, "/game/1")
    assert status == 200 and b'id="game-1"' in body and b"replay-data" in body
    assert _get(live.port, "/game/999")[0] == 404


@pytest.mark.parametrize(
    "path",
    [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc%2fpasswd",
        "/journal.jsonl",
        "/games.tgn",
        "//etc/passwd",
        "/game/../journal.jsonl",
        "/game/1/../../results.json",
    ],
)
def test_no_path_reaches_a_file(live: LiveServer, path: str) -> None:
    status, body = _get(live.port, path)
    assert status == 404
    assert b"root:" not in body and b"referee" not in body.lower()


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(live: LiveServer, method: str) -> None:
    assert _get(live.port, "/", method)[0] == 405


def test_huge_headers_are_refused(live: LiveServer) -> None:
    long_line = b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n"
    assert _raw(live.port, long_line).split(b" ", 2)[1] in (b"400", b"431")
    many = b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n"
    assert _raw(live.port, many).split(b" ", 2)[1] == b"431"


def test_a_silent_client_is_cut_and_the_server_goes_on(live: LiveServer) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\n")  # and then nothing
        assert s.recv(100) == b""  # closed by the server
    assert time.monotonic() - started < 8
    assert _get(live.port, "/")[0] == 200


def test_too_many_connections_get_503(live: LiveServer) -> None:
    idle = [socket.create_connection(("127.0.0.1", live.port)) for _ in range(8)]
    try:
        time.sleep(0.2)
        assert _get(live.port, "/")[0] == 503
    finally:
        for s in idle:
            s.close()
    time.sleep(1.5)  # their handlers time out and free the slots
    assert _get(live.port, "/")[0] == 200


def test_the_event_stream_starts_with_the_whole_picture(live: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=5) as s:
        s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while data.count(b"event: finished") < 4:
            chunk = s.recv(65536)
            assert chunk, data
            data += chunk
    assert b"text/event-stream" in data
    assert b"event: standings" in data and b"event: status" in data
