"""Hostile engines in a tournament, with ``sandbox = "bwrap"`` and without (issue 17).

Each hostile engine (``tests/hostile/engine.py``) is a real process that plays legal
moves and attacks once, at its first ``go``, writing what it tried and what came of it
to stderr, which the game's transcript (``logs/``) keeps. Every test runs the same
event twice: in the sandbox the attack fails or is stopped at a limit; without it the
referee behaves as it always has (the attacks that could hurt this machine, the fork
bomb and ``kill -9 -1``, are only made inside a sandbox, by the engine's own choice).
"""

from __future__ import annotations

import shlex
import socket
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

from protocol.sandbox.host import SandboxUnavailable, probe
from referee.core import Termination
from referee.record import read_records
from tests.hostile import ENGINE, ROOT, processes_mentioning
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.results.game import GameReport
from tournaments.runner.run import run_tournament

pytestmark = pytest.mark.sandbox

MODES = ["bwrap", "none"]


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    if request.param == "bwrap":
        try:
            probe()
        except SandboxUnavailable as exc:
            pytest.skip(str(exc))
    return str(request.param)


def public(path: Path) -> Path:
    """Make ``path`` and its parents up to /tmp reachable by others (root mode runs
    engines as nobody; pytest makes its directories private)."""
    path.mkdir(parents=True, exist_ok=True)
    for part in [path, *path.parents]:
        if part == Path("/tmp") or part == part.parent:
            break
        part.chmod(0o755)
    return path


def hostile(name: str, attack: str, *args: str, **keys: Any) -> dict[str, Any]:
    command = shlex.join([sys.executable, str(ENGINE), attack, *args])
    return {"name": name, "command": command, "env": {"PYTHONPATH": str(ROOT)}, **keys}


def play(
    tmp_path: Path, mode: str, entrants: list[dict[str, Any]], *, workers: int = 0,
    **keys: Any,
) -> tuple[list[GameReport], Path, str]:  # fmt: skip
    """Run the event; its games in order, its output directory, every transcript."""
    data = {"game": "trike", "options": {"size": 7}, "tc": "30+0.5", "games_per_encounter": 2,
            "sandbox": mode, "entrants": entrants, "transcripts": "all", **keys}  # fmt: skip
    plan = Plan.from_config(parse_config(data, "test"), "test")
    out = tmp_path / "out"
    result = trio.run(lambda: run_tournament(plan, out, workers=workers))
    games = sorted(result.finished.values(), key=lambda g: g.number)
    logs = "\n".join(p.read_text() for p in sorted((out / "logs").glob("*.log")))
    return games, out, logs


@pytest.fixture
def home_secret() -> Iterator[tuple[Path, str]]:
    """A secret file planted in the referee user's home (removed afterwards)."""
    secret = f"home-secret-{uuid.uuid4().hex}"
    path = Path.home() / f".referee-test-{uuid.uuid4().hex}"
    path.write_text(secret + "\n")
    try:
        yield path, secret
    finally:
        path.unlink()


def test_secrets_of_the_home_and_of_other_entrants(
    tmp_path: Path, mode: str, home_secret: tuple[Path, str]
) -> None:
    home_file, home_text = home_secret
    event = public(tmp_path / "event")
    spy_dir = public(event / "spy")
    (spy_dir / "notes.txt").write_text("my own notes\n")
    # The other entrant's directory lies inside the spy's: it must be covered.
    victim = public(spy_dir / "victim")
    (victim / "secret.txt").write_text("victim-secret-42\n")
    targets = [str(home_file), str(victim / "secret.txt"), str(spy_dir / "notes.txt")]
    entrants = [hostile("spy", "read", *targets, cwd=str(spy_dir)),
                {"name": "victim", "command": "random", "cwd": str(victim)}]  # fmt: skip
    games, out, logs = play(tmp_path, mode, entrants)
    assert len(games) == 2 and all(g.outcome.culprit is None for g in games)
    assert f"hostile: read {spy_dir}/notes.txt: OK my own notes" in logs
    for path, text in [(home_file, home_text), (victim / "secret.txt", "victim-secret-42")]:
        if mode == "bwrap":
            assert f"hostile: read {path}: failed (No such file or directory)" in logs
            assert text not in logs and text not in (out / "games.tgn").read_text()
        else:
            assert f"hostile: read {path}: OK {text}" in logs


class Listener:
    """A TCP listener on 127.0.0.1 that notes every connection it gets."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.received: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.socket.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(2)
                self.received.append(conn.recv(100))

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.socket.close()


def test_no_connection_and_no_name_lookup(tmp_path: Path, mode: str) -> None:
    listener = Listener()
    try:
        target = f"127.0.0.1:{listener.port}"
        entrants = [hostile("caller", "connect", target, "example.com"),
                    {"name": "fair", "command": "random"}]  # fmt: skip
        games, _, logs = play(tmp_path, mode, entrants)
    finally:
        listener.close()
    assert len(games) == 2 and all(g.outcome.culprit is None for g in games)
    if mode == "bwrap":
        assert listener.received == []
        assert f"hostile: connect {target}: failed (Connection refused)" in logs
        assert "hostile: resolve example.com: failed" in logs
    else:
        assert listener.received == [b"hostile was here\n"]  # one process for both games
        assert f"hostile: connect {target}: OK" in logs


def test_no_write_outside_the_scratch(tmp_path: Path, mode: str) -> None:
    out = tmp_path / "out"
    host_tmp = Path("/tmp") / f"referee-hostile-{uuid.uuid4().hex}"
    targets = [str(out / "games.tgn"), str(out / "planted.txt"), str(host_tmp), "/scratch/mine"]
    entrants = [hostile("scribbler", "write", *targets), {"name": "fair", "command": "random"}]
    try:
        games, out, logs = play(tmp_path, mode, entrants)
        assert len(games) == 2
        records = (out / "games.tgn").read_text()
        if mode == "bwrap":
            assert all(g.outcome.culprit is None for g in games)
            assert "hostile was here" not in records
            assert len(read_records(out / "games.tgn")) == 2
            assert not (out / "planted.txt").exists() and not host_tmp.exists()
            for path in targets[:2]:
                assert f"hostile: write {path}: failed (No such file or directory)" in logs
            # The sandbox's own /tmp and scratch are writable, and gone with the game.
            assert f"hostile: write {host_tmp}: OK" in logs
            assert "hostile: write /scratch/mine: OK" in logs
        else:
            assert "hostile was here" in records
            assert (out / "planted.txt").exists() and host_tmp.exists()
    finally:
        host_tmp.unlink(missing_ok=True)


def test_fork_bomb_and_memory_hog_forfeit_and_the_event_goes_on(tmp_path: Path, mode: str) -> None:
    marker = str(tmp_path)  # in every hostile process's command line
    limits = {"max_processes": 32} if mode == "bwrap" else {}
    entrants = [
        hostile("bomb", "forkbomb", marker, **limits),
        hostile("hog", "hog", marker, max_memory_mb=200),
        {"name": "fair", "command": "random"},
    ]
    lags: list[float] = []

    async def heartbeat() -> None:
        while True:
            before = trio.current_time()
            await trio.sleep(0.05)
            lags.append(trio.current_time() - before - 0.05)

    async def main() -> list[GameReport]:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(heartbeat)
            data = {"game": "trike", "options": {"size": 7}, "tc": "30+0.5",
                    "games_per_encounter": 2, "sandbox": mode, "entrants": entrants}  # fmt: skip
            plan = Plan.from_config(parse_config(data, "test"), "test")
            # A worker process: the sandbox settings travel in its setup message.
            result = await run_tournament(plan, tmp_path / "out", workers=1)
            nursery.cancel_scope.cancel()
        return sorted(result.finished.values(), key=lambda g: g.number)

    games = trio.run(main)
    assert len(games) == 6  # every game was played and recorded
    by_culprit: dict[str, list[str]] = {}
    for game in games:
        outcome = game.outcome
        if outcome.culprit is not None:
            assert outcome.termination is Termination.CRASH, outcome
            by_culprit.setdefault(game.seats[outcome.culprit], []).append(outcome.reason)
    if mode == "bwrap":
        # Each plays 4 games, and loses each by its limit (bomb v hog: the first to move).
        assert sum(len(r) for r in by_culprit.values()) == 6
        assert all("process limit (32 processes and threads)" in r for r in by_culprit["bomb"])
        assert all("memory limit (resident" in r for r in by_culprit["hog"])
    else:
        # The address-space limit (the default's) stops the hog; the bomb, outside a
        # sandbox, chose not to attack this machine.
        assert set(by_culprit) == {"hog"} and len(by_culprit["hog"]) == 4
        assert all("exited with code 1" in r for r in by_culprit["hog"])
    assert processes_mentioning(marker) == []
    assert max(lags) < 5.0  # the referee's own loop never stalled


def test_kill_minus_one_kills_only_the_engine_s_own_processes(tmp_path: Path, mode: str) -> None:
    neighbour = subprocess.Popen(["sleep", "60"])
    try:
        entrants = [hostile("killer", "kill"), {"name": "fair", "command": "random"}]
        games, _, logs = play(tmp_path, mode, entrants)
        assert neighbour.poll() is None  # the host's processes live on
    finally:
        neighbour.kill()
        neighbour.wait()
    assert len(games) == 2
    assert all(g.outcome.culprit is None for g in games)  # nobody crashed: games ended by rules
    if mode == "bwrap":
        line = "hostile: kill -9 -1 done; my child was killed: True; I am alive"
        assert logs.count(line) == 2  # one per game: a sandboxed engine plays one game
    else:
        assert "hostile: kill: not in a sandbox, so not attacking" in logs
