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
sends nothing for ``CLIENT_TIMEOUT`` seconds is closed, and so is an event stream that
does not take its events: its socket's send buffer is kept to ``STREAM_BUFFER`` bytes, a
write that cannot finish within ``CLIENT_TIMEOUT`` cuts it, and its queue holds
``QUEUE_LIMIT`` events, then it is dropped (its own thread waits, never the others or
the polling thread). At most ``MAX_CLIENTS`` connections are open at once; further ones
are answered ``503`` at once by the accepting thread, which does no other work per
connection (the first picture is encoded once per change, not per viewer), and are
closed gracefully (what they sent is read and dropped for up to ``REFUSED_LINGER``
seconds, so the 503 is not destroyed by a reset). One thread polls the directory every
``POLL_INTERVAL`` seconds for all viewers (and not at all when nobody watches), so a
hundred open pages cost the event nothing more than one. SIGTERM sends the last picture,
then stops.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import select
import signal
import socket
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import Any

from referee.errors import UserError
from tournaments.html.game_page import game_page
from tournaments.live.page import live_page
from tournaments.live.watch import EventWatcher, Update

POLL_INTERVAL = 0.25
KEEPALIVE = 15.0
GONE_CHECK = 0.5
"""Seconds between two checks that an idle event stream's viewer is still there."""
CLIENT_TIMEOUT = 10.0
QUEUE_LIMIT = 1000
MAX_CLIENTS = 256
STREAM_BUFFER = 64 << 10
"""Send buffer of an event stream's socket: what a viewer that stops reading can hold up."""
REFUSED_LINGER = 2.0
"""Seconds a refused connection is drained before it is closed."""
REFUSED_LIMIT = 4096
"""Refused connections drained at once; beyond that they are closed at once."""
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
        self.picture: bytes | None = None
        """The snapshot as sent to a new viewer; None when it changed since encoded."""

    def poll(self) -> None:
        # Polling and publishing hold one lock, as does a join: a viewer gets each update
        # exactly once, either in its first picture or in its queue.
        with self.polling:
            updates = self.watcher.poll()
            if updates:
                self.picture = None
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
        """A new viewer's queue and the whole current picture (brought up to date first
        when nobody watched: then the directory was not polled). The picture is encoded
        once per change and shared, so a crowd joining costs one encoding."""
        client: queue.Queue[bytes | None] = queue.Queue(QUEUE_LIMIT)
        if not self.clients:
            self.poll()
        with self.polling:
            if self.picture is None:
                self.picture = b"".join(u.encode() for u in self.watcher.snapshot.values())
            with self.lock:
                self.clients.add(client)
            return client, self.picture

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
    request_queue_size = 1024  # a crowd arriving at once waits in the backlog, not in SYN retries

    def __init__(self, address: tuple[str, int], hub: _Hub) -> None:
        self.hub = hub
        self.slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self.refused: dict[socket.socket, float] = {}
        """Refused connections being drained, and when each is closed at the latest."""
        self.drained_at = 0.0
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            self._refuse(request)
            return
        super().process_request(request, client_address)

    def _refuse(self, request: socket.socket) -> None:
        """Answer 503 without blocking and close gracefully: the connection is shut for
        writing and drained (``service_actions``) until the client closes, so that the
        request it sent does not turn the close into a reset that would destroy the 503."""
        try:
            request.setblocking(False)
            request.send(
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                b"Connection: close\r\n\r\n"
            )
            request.shutdown(socket.SHUT_WR)
        except OSError:
            request.close()
            return
        if len(self.refused) >= REFUSED_LIMIT:
            request.close()
            return
        self.refused[request] = time.monotonic() + REFUSED_LINGER

    def service_actions(self) -> None:
        """Between two accepts (and at least every poll interval): drain the refused."""
        super().service_actions()
        now = time.monotonic()
        if now < self.drained_at + 0.05:  # not after every accept of a crowd: n² calls
            return
        self.drained_at = now
        for request, until in list(self.refused.items()):
            try:
                while chunk := request.recv(4096):
                    del chunk
                done = True  # the client closed its side
            except BlockingIOError:
                done = now >= until
            except OSError:
                done = True
            if done:
                del self.refused[request]
                request.close()

    def server_close(self) -> None:
        super().server_close()
        for request in self.refused:
            request.close()
        self.refused.clear()

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
        # A small send buffer: a viewer that stops reading blocks its own writes soon, and
        # the socket timeout then cuts it, instead of the kernel queueing megabytes for it.
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_BUFFER)
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
            quiet = 0.0
            while True:
                try:
                    payload = client.get(timeout=GONE_CHECK)
                except queue.Empty:
                    # A viewer that left frees its place now, not at the next keepalive.
                    if _closed_by_peer(self.connection):
                        break
                    quiet += GONE_CHECK
                    if quiet < KEEPALIVE:
                        continue
                    payload = b": keepalive\n\n"
                if payload is None:
                    break
                quiet = 0.0
                self.wfile.write(payload)  # a socket timeout here drops a stalled reader
                self.wfile.flush()
        except OSError:
            pass
        finally:
            hub.leave(client)
            with hub.lock:
                hub.streams -= 1


def _closed_by_peer(connection: socket.socket) -> bool:
    """Whether the viewer closed its side (or the connection broke); never blocks. An
    event stream's viewer sends nothing after its request, so any readable end is that.

    ``poll``, not ``select``: a big crowd holds descriptors past 1,024, which ``select``
    cannot watch (a ValueError in the viewer's thread). The readiness is asked first
    because the connection has a timeout, and a timed socket's ``recv`` waits for it."""
    try:
        poller = select.poll()
        poller.register(connection, select.POLLIN)  # a hang-up or error comes anyway
        if not poller.poll(0):
            return False
        return connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class LiveServer:
    """The server of one event directory: bound at construction, served by ``run``
    (blocking) until ``stop`` (any thread) or until process ``parent`` is gone.

    :raises UserError: the address cannot be bound (in use, not this host's).
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
        try:
            self.server = _Server((host, port), self.hub)
        except OSError as exc:  # the address is the user's (--host, --port, --live)
            where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            raise UserError(f"cannot listen on {where}: {exc.strerror or exc}") from None
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

    :raises UserError: the address cannot be bound (in use, not this host's).
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
