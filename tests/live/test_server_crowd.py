"""The live server under a crowd: every client over the limit is answered 503 at once,
and clients that never read are cut without holding up anyone else.

The event is a synthetic one of a few thousand games, so the first picture each viewer
receives is a couple of hundred kilobytes (as on a big event's page): big enough that a
viewer that never reads fills its socket buffers, and that a server which rebuilt that
picture for each viewer would starve its own accept loop.
"""

from __future__ import annotations

import selectors
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.report.synth import synth_event
from tournaments.live import server as server_module
from tournaments.live.server import LiveServer

pytestmark = pytest.mark.processes

LIMIT = 256
"""Open connections the server takes in these tests (``MAX_CLIENTS``)."""
REQUEST = b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest.fixture(scope="module")
def big_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synth_event(tmp_path_factory.mktemp("crowd") / "event", 3000, pool=16)


@pytest.fixture
def crowded(big_event: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(server_module._Handler, "timeout", 1.0)
    monkeypatch.setattr(server_module, "MAX_CLIENTS", LIMIT)
    running = LiveServer(big_event, "127.0.0.1", 0)
    thread = threading.Thread(target=running.run)
    thread.start()
    yield running
    running.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()


def _never_reader(port: int) -> socket.socket:
    """A viewer that asks for the event stream and then never reads a byte."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(REQUEST)
    return s


PICTURE = (b"event: standings", b"event: status")
"""What a viewer let in must receive of its first picture (all the tests look at)."""


def _crowd(port: int, count: int, seconds: float) -> tuple[dict[int, bytes], float]:
    """``count`` viewers connecting at once (non-blocking, as a crowd of browsers would),
    each reading its whole answer for up to ``seconds``: what each received, and when the
    last one got its status line.

    The crowd leaves early once every viewer is through (its answer ended, or it holds the
    first picture's standings and status: all the tests look at, and what more it would
    read cannot take away); the wait is for a server that is slow or stuck.
    """
    sel = selectors.DefaultSelector()
    socks = []
    for index in range(count):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_WRITE, index)
        socks.append(s)
    received: dict[int, bytes] = {}
    last_status = 0.0
    through: set[int] = set()
    missing: dict[int, list[bytes]] = {}
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds and len(through) < count:
            for key, events in sel.select(0.05):
                index, s = key.data, socks[key.data]
                if events & selectors.EVENT_WRITE:
                    try:
                        s.send(REQUEST)
                    except OSError:
                        sel.unregister(s)
                        through.add(index)
                        continue
                    received[index] = b""
                    missing[index] = list(PICTURE)
                    sel.modify(s, selectors.EVENT_READ, index)
                    continue
                try:
                    chunk = s.recv(1 << 16)
                except OSError:
                    chunk = b""
                if len(received[index]) < 12 <= len(received[index] + chunk):
                    last_status = time.monotonic() - started
                # Only the new bytes are searched (the reader shares the server's GIL).
                tail = received[index][-16:] + chunk
                received[index] += chunk
                if not chunk:
                    sel.unregister(s)
                    through.add(index)
                else:
                    missing[index] = [part for part in missing[index] if part not in tail]
                    if not missing[index]:
                        through.add(index)
    finally:
        for s in socks:
            s.close()
    return received, last_status


def test_a_crowd_over_the_limit_is_answered_503_at_once(crowded: LiveServer) -> None:
    # The crowd, scaled to the limit: viewers that never read hold places, and
    # many more than the limit arrive at once, each a full page load of the first picture.
    stuck = [_never_reader(crowded.port) for _ in range(LIMIT // 4)]
    try:
        count = 3 * LIMIT
        received, last_status = _crowd(crowded.port, count, 6.0)
        print(f"the last status line came after {last_status:.2f} s")
    finally:
        for s in stuck:
            s.close()
    statuses = [data[9:12] for data in received.values()]
    unanswered = count - statuses.count(b"200") - statuses.count(b"503")
    assert unanswered == 0, f"{unanswered} of {count} got no status line in 6 s"
    assert 0 < statuses.count(b"200") <= LIMIT, statuses.count(b"200")
    # every viewer let in got the whole first picture, tables and status included
    for data in received.values():
        if data[9:12] == b"200":
            assert all(part in data for part in PICTURE), len(data)


def test_viewers_that_never_read_are_cut_and_free_their_places(crowded: LiveServer) -> None:
    stuck = [_never_reader(crowded.port) for _ in range(LIMIT // 2)]
    connected = time.monotonic()
    try:
        time.sleep(0.3)
        # the others are served while the stuck ones hold their places
        received, _ = _crowd(crowded.port, LIMIT // 4, 3.0)
        assert all(b"event: status" in data for data in received.values())
        # within the write timeout (1 s here) and a margin, every stuck viewer is cut:
        # its connection ends although it took almost nothing of its picture
        # (left unread for 3.3 s first, as when the crowd above took its whole 3 s: a
        # viewer that reads before the server's write timeout is no longer stuck)
        time.sleep(max(0.0, connected + 3.3 - time.monotonic()))
        deadline = time.monotonic() + 6.0
        for s in stuck:
            s.settimeout(max(0.1, deadline - time.monotonic()))
            with pytest.raises((ConnectionResetError, EOFError)):
                while True:
                    chunk = s.recv(1 << 16)
                    if not chunk:
                        raise EOFError
        # and their places are free again, as are those of the viewers that left: a
        # whole limit's worth of viewers gets in
        time.sleep(1.5)
        received, _ = _crowd(crowded.port, LIMIT, 4.0)
        assert [data[9:12] for data in received.values()].count(b"200") == LIMIT
    finally:
        for s in stuck:
            s.close()
