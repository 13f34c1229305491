"""``referee serve DIR`` and the server that ``referee tournament --live`` starts beside
the runner, as a separate process (``tournaments.live.server``): a crash of the view
leaves the event running, and the event never waits for a viewer."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

READY_TIMEOUT = 20.0
"""Seconds the tournament waits for its live server to listen."""


def serve_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A tournament's --out.")],
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (another host: ask for it).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="0: any free port.")] = 8000,
    exit_with: Annotated[int | None, typer.Option("--exit-with", hidden=True)] = None,
) -> None:
    """Serve a live page of a tournament (running or finished) until Ctrl+C."""
    from tournaments.event.config import ConfigError
    from tournaments.live.server import serve

    if not directory.is_dir():
        raise ConfigError(f"{directory}: no such directory")

    def ready(bound: int) -> None:
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"referee: live view of {directory} at http://{shown}:{bound}/")
        sys.stdout.flush()

    serve(directory, host, port, ready=ready, parent=exit_with)


def parse_live(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as ``(host, port)``; the host defaults to 127.0.0.1.

    :raises ConfigError: not a port number from 0 to 65535.
    """
    from tournaments.event.config import ConfigError

    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"bad --live {text!r}: expected [HOST:]PORT")
    return host, int(port)


@contextlib.contextmanager
def live_server(directory: Path, address: tuple[str, int]) -> Iterator[str]:
    """Run ``referee serve`` on ``directory`` beside this process; yield its first line.

    The server exits with this process (it watches its parent), and on leaving the block
    it is sent SIGTERM: it pushes the last picture (the final tables) to open pages, then
    stops.

    :raises ConfigError: it did not start listening (its own one-line reason).
    """
    from protocol import reaper
    from tournaments.event.config import ConfigError
    from tournaments.play.prestart import worker_environment

    host, port = address
    directory.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "tournaments", "serve", str(directory)]
    command += ["--host", host, "--port", str(port), "--exit-with", str(os.getpid())]
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=worker_environment(),
        start_new_session=True,  # Ctrl+C stops the runner first; it then stops the view
    )
    # Ours, waited for below: no sweep for an engine's or a worker's strays may take it
    # (a child in a session of its own, born after a worker started, looks like one).
    reaper.watch(process.pid)
    try:
        assert process.stdout is not None and process.stderr is not None
        readable, _, _ = select.select([process.stdout], [], [], READY_TIMEOUT)
        line = process.stdout.readline().decode(errors="replace").strip() if readable else ""
        if not line:
            process.kill()
            reason = process.stderr.read().decode(errors="replace").strip().splitlines()
            why = reason[-1] if reason else "it did not start"
            why = why.removeprefix("referee: error: ")  # the server's own line, not ours
            raise ConfigError(f"--live: the live view could not start: {why}")
        yield line
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reaper.unwatch(process.pid)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
