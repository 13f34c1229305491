"""The live view's HTTP server: read-only, standard library, in its own process.

``serve(directory, host, port)`` answers:

* ``GET /``: the page (``live.page``);
* ``GET /events``: Server-Sent Events: first the current picture (``EventWatcher.snapshot``),
  then every update as the watcher finds it, and a comment line every ``KEEPALIVE``
  seconds;
* ``GET /game/N``: finished game N in the report's replay view (``html.game_page``);
* anything else ``404``, any other method ``405``.

Hardening, because anyone who can reach the port can send anything: no request names a
file (there is no static file route, so no path can leave the event directory); request
lines and headers are limited by ``http.server`` (``414``/``431``); a connection that
sends nothing for ``CLIENT_TIMEOUT`` seconds, or does not take its events, is closed
(a slow reader's queue holds ``QUEUE_LIMIT`` events, then it is dropped); at most
``MAX_CLIENTS`` connections are open at once, further ones get ``503``. One thread polls
the directory every ``POLL_INTERVAL`` seconds for all viewers (and not at all when nobody
watches), so a hundred open pages cost the event nothing more than one. SIGTERM sends
the last picture, then stops.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import Any

from tournaments.html.game_page import game_page
from tournaments.live.page import live_page
from tournaments.live.watch import EventWatcher, Update

POLL_INTERVAL = 0.25
KEEPALIVE = 15.0
CLIENT_TIMEOUT = 10.0
QUEUE_LIMIT = 1000
MAX_CLIENTS = 256
_GAME = re.compile(r"/game/([0-9]{1,9})")
_POLICY = "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
"""The page's own inline style and script, its own event stream, nothing from elsewhere."""


class _Hub:
    """The watcher and the viewers' queues; ``publish`` runs in the polling thread."""

    def __init__(self, directory: Path) -> None:
        self.watcher = EventWatcher(directory)
        self.lock = threading.Lock()
        self.clients: set[queue.Queue[bytes | None]] = set()
        self.stopping = threading.Event()
        self.polling = threading.Lock()
        """One poll at a time (the polling thread, or a viewer joining an idle server)."""
        self.streams = 0
        """Event streams still being written (the last picture is sent before exit)."""

    def poll(self) -> None:
        with self.polling:
            updates = self.watcher.poll()
        if updates:
            self.publish(updates)

    def publish(self, updates: list[Update]) -> None:
        payload = b"".join(update.encode() for update in updates)
        with self.lock:
            for client in list(self.clients):
                try:
                    client.put_nowait(payload)
                except queue.Full:  # a reader that does not keep up is dropped
                    self.clients.discard(client)
                    with contextlib.suppress(queue.Full):
                        client.put_nowait(None)

    def join(self) -> tuple[queue.Queue[bytes | None], bytes]:
        """A new viewer's queue and the whole current picture (brought up to date first:
        with no viewer the directory is not polled)."""
        client: queue.Queue[bytes | None] = queue.Queue(QUEUE_LIMIT)
        self.poll()  # what the others have not seen yet goes to them too
        with self.lock:
            self.clients.add(client)
            first = b"".join(u.encode() for u in self.watcher.snapshot.values())
        return client, first

    def leave(self, client: queue.Queue[bytes | None]) -> None:
        with self.lock:
            self.clients.discard(client)

    def close_all(self) -> None:
        with self.lock:
            for client in self.clients:
                with contextlib.suppress(queue.Full):
                    client.put_nowait(None)
            self.clients.clear()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], hub: _Hub) -> None:
        self.hub = hub
        self.slots = threading.BoundedSemaphore(MAX_CLIENTS)
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    timeout = CLIENT_TIMEOUT
    protocol_version = "HTTP/1.1"
    server_version = "referee-live"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the event's terminal is not the place for access logs

    def _send(self, status: HTTPStatus, body: bytes, kind: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", _POLICY)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(HTTPStatus.OK, live_page().encode(), "text/html")
        elif path == "/events":
            self._events()
        elif (match := _GAME.fullmatch(path)) is not None:
            report = self.server.hub.watcher.game(int(match.group(1)))
            if report is None:
                self._send(HTTPStatus.NOT_FOUND, b"no such finished game\n")
            else:
                self._send(HTTPStatus.OK, game_page(report).encode(), "text/html")
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n")

    def do_HEAD(self) -> None:
        if self.path.split("?", 1)[0] == "/events":
            self._send(HTTPStatus.OK, b"", "text/event-stream")
        else:
            self.do_GET()

    def _refuse(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def _events(self) -> None:
        hub = self.server.hub
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        client, first = hub.join()
        with hub.lock:
            hub.streams += 1
        try:
            self.wfile.write(b"retry: 2000\n\n" + first)
            self.wfile.flush()
            while True:
                try:
                    payload = client.get(timeout=KEEPALIVE)
                except queue.Empty:
                    payload = b": keepalive\n\n"
                if payload is None:
                    break
                self.wfile.write(payload)  # a socket timeout here drops a stalled reader
                self.wfile.flush()
        except OSError:
            pass
        finally:
            hub.leave(client)
            with hub.lock:
                hub.streams -= 1


class LiveServer:
    """The server of one event directory: bound at construction, served by ``run``
    (blocking) until ``stop`` (any thread) or until process ``parent`` is gone.

    :raises OSError: the address cannot be bound.
    """

    def __init__(
        self,
        directory: Path,
        host: str = "127.0.0.1",
        port: int = 8000,
        *,
        parent: int | None = None,
    ) -> None:
        self.hub = _Hub(directory)
        self.server = _Server((host, port), self.hub)
        self.parent = parent
        self.port: int = self.server.server_address[1]

    def stop(self) -> None:
        """End ``run``: the last picture is sent to open pages, then they are closed."""
        self.hub.stopping.set()
        threading.Thread(target=self.server.shutdown, daemon=True).start()

    def _poll_forever(self) -> None:
        hub = self.hub
        while not hub.stopping.wait(POLL_INTERVAL):
            if self.parent is not None and os.getppid() != self.parent:  # the runner is gone
                self.stop()
                return
            if not hub.clients:  # nobody watches: nothing to read (a viewer's join polls)
                continue
            try:
                hub.poll()
            except Exception:  # a bad read must not stop the view
                continue

    def run(self) -> None:
        """Serve until ``stop``."""
        hub = self.hub
        hub.poll()
        thread = threading.Thread(target=self._poll_forever, daemon=True)
        thread.start()
        try:
            self.server.serve_forever(poll_interval=0.2)
        finally:
            hub.stopping.set()
            thread.join(timeout=2)
            with contextlib.suppress(Exception):
                hub.watcher.tables_at = -float("inf")
                hub.poll()  # the last picture: the final tables
            hub.close_all()
            deadline = time.monotonic() + 2.0
            while hub.streams and time.monotonic() < deadline:
                time.sleep(0.02)
            self.server.server_close()


def serve(
    directory: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    ready: Any = None,
    parent: int | None = None,
) -> None:
    """Serve the live view of ``directory`` until SIGTERM or SIGINT (blocking), or until
    process ``parent`` is gone (the tournament that started it).

    ``ready(port)`` is called once listening (the port is the real one when ``port`` is 0).

    :raises OSError: the address cannot be bound.
    """
    live = LiveServer(directory, host, port, parent=parent)

    def stop(signum: int, frame: FrameType | None) -> None:
        live.stop()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        if ready is not None:
            ready(live.port)
        live.run()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
