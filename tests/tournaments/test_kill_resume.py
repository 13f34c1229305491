"""SIGKILL the tournament runner over and over, resuming each time: the finished
tournament is exactly the uninterrupted one.

One tournament (two instant C engines, concurrency 2) is killed at least ``KILLS``
times at seeded random moments: some during start-up (while the journal is read,
``games.tgn`` rewritten, workers start), most just after the journal has grown by a
game or more, so the kill lands between games, mid-game or mid-write. After some
kills the last lines of ``journal.jsonl`` and ``games.tgn`` are torn on purpose, as
a kill inside a long write would leave them. Runs alternate between worker processes
and one event loop. Then it is resumed to the end and compared with an uninterrupted
run of the same config: per game number the same seats, result and moves; no game
lost or twice in ``journal.jsonl`` or ``games.tgn``; every file parses; and no worker
or engine process of any killed run is left.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from referee.record.model import GameRecord
from referee.record.stream import read_records
from tests.c_build import build_trike_engine
from tests.procs import processes
from tests.tournaments.local import bot_factory
from tournaments.event.config import load_config, parse_config
from tournaments.event.plan import Plan
from tournaments.runner.run import run_tournament
from tournaments.store.journal import JOURNAL, JournalError, read_journal

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]
KILLS = 20
GAMES = 1000
"""Enough for ``KILLS`` kills on an idle machine: the journal is synced in groups (at most
every 50 ms), so a kill waiting for one to three more games may see a group of twenty."""
CONFIG = f"""
event = "kill test"
game = "trike"
options = {{ size = 7 }}
games = {GAMES}
tc = "30+0.3"
concurrency = 2
seed = 5
[openings]
plies = 2
[[entrants]]
name = "c1"
command = "trike-c"
[[entrants]]
name = "c2"
command = "trike-c"
"""


def _key(record: GameRecord) -> tuple[object, ...]:
    """Seats, result and moves (all tags but the date, and the move texts)."""
    return tuple((k, v) for k, v in record.tags if k != "Date"), record.move_texts


def _game_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b'"type": "game"')
    except FileNotFoundError:
        return 0


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


def _tree(root: int) -> dict[int, str]:
    """``root``'s descendants (pid → start time): its workers and their engines."""
    parents: dict[int, list[int]] = {}
    for proc in processes():
        parents.setdefault(proc.ppid, []).append(proc.pid)
    found: dict[int, str] = {}
    todo = list(parents.get(root, []))
    while todo:
        pid = todo.pop()
        start = _start_time(pid)
        if start is not None:
            found[pid] = start
        todo += parents.get(pid, [])
    return found


def _alive(pid: int, start: str) -> bool:
    """The same process (same start time) still runs (zombies count as gone)."""
    if _start_time(pid) != start:
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


# A pre-imported Python that forks one runner per line of arguments (the child runs
# the console script's ``main``), prints the child's pid, then its wait status. Under
# load an interpreter takes seconds to import the CLI; a fork takes milliseconds, so
# twenty kills fit in the test's time. Single-threaded when it forks: a safe fork.
ZYGOTE = r"""
import json, os, sys
from tournaments.cli.app import main
import tournaments.runner.run, tournaments.play.worker

for line in sys.stdin:
    argv, err = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(os.devnull, os.O_RDWR), 0)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
        sys.argv = ["referee", *argv]
        try:
            main()
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        sys.stderr.flush()
        os._exit(code)
    print(pid, flush=True)
    print(os.waitpid(pid, 0)[1], flush=True)
"""


class Zygote:
    """Starts runners (``referee tournament ...`` in a forked child) and reports on them."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, cwd=ROOT,
        )  # fmt: skip

    def start(self, args: list[str], err: Path) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([args, str(err)]) + "\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def wait(self) -> int:
        """The runner's exit: its status, or minus the signal that killed it."""
        assert self.proc.stdout is not None
        status = int(self.proc.stdout.readline())
        return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _running(pid: int) -> bool:
    """Not exited yet (a zombie waiting for the zygote counts as exited)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def test_twenty_sigkills_and_resumes_give_the_uninterrupted_tournament(tmp_path: Path) -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    config = tmp_path / "kill.toml"
    config.write_text(CONFIG)
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    plan = Plan.from_config(load_config(config), "kill.toml")
    trio.run(lambda: run_tournament(plan, whole, workers=0))
    expected = {int(r.tag("GameNumber") or 0): _key(r) for r in read_records(whole / "games.tgn")}
    assert sorted(expected) == list(range(1, GAMES + 1))

    rng = random.Random(20261122)
    journal = killed / JOURNAL
    seen: dict[int, str] = {}
    kills = 0
    zygote = Zygote()
    try:
        while kills < KILLS:
            before = _game_lines(journal)
            args = ["tournament", "-q", "--out", str(killed)]
            # Killed before the journal's header was complete, there is nothing to resume.
            args += ["--resume"] if read_journal(killed).config else [str(config)]
            args += [] if kills % 4 == 0 else ["--workers", "0"]  # worker processes, or not
            pid = zygote.start(args, tmp_path / "stderr.txt")
            deadline = time.monotonic() + 60
            if rng.random() < 0.25:  # somewhere in start-up
                time.sleep(rng.uniform(0.0, 0.15))
            else:  # after one to three more games, plus a little
                wanted = before + rng.randint(1, 3)
                while _game_lines(journal) < wanted and _running(pid):
                    assert time.monotonic() < deadline, "no progress"
                    time.sleep(0.002)
                time.sleep(rng.uniform(0.0, 0.02))
            seen.update(_tree(pid))
            if not _running(pid):
                status = zygote.wait()
                assert status == 0, (tmp_path / "stderr.txt").read_text()
                break  # finished before the kill
            os.kill(pid, signal.SIGKILL)
            status = zygote.wait()
            if status == 0:
                break  # it finished just before the kill
            assert status == -signal.SIGKILL, (tmp_path / "stderr.txt").read_text()
            kills += 1
            if rng.random() < 0.3 and read_journal(killed).config:
                # As a kill inside a long write() would leave them: torn last lines.
                with journal.open("ab") as f:
                    f.write(b'{"type": "game", "number": 7, "round": 1, "rec')
                with (killed / "games.tgn").open("a") as f:
                    f.write('[Event "kill test"]\n[Round "1"]\n[GameNum')
    finally:
        zygote.close()
    assert kills >= KILLS, f"the tournament ended after {kills} kills: make it longer"
    assert _game_lines(journal) < GAMES

    done = subprocess.run(
        [sys.executable, "-m", "tournaments", "tournament", "--resume", "--out", str(killed),
         "-q"], capture_output=True, text=True, timeout=120, cwd=ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr

    # Every file parses; no game lost or recorded twice; the games are the same.
    lines = journal.read_text().splitlines()
    entries = [json.loads(line) for line in lines]
    numbers = [e["number"] for e in entries[1:] if e["type"] == "game"]
    assert sorted(numbers) == list(range(1, GAMES + 1))
    assert len(read_journal(killed).games) == GAMES
    records = read_records(killed / "games.tgn")
    got = {int(r.tag("GameNumber") or 0): _key(r) for r in records}
    assert len(records) == GAMES and got == expected
    results = json.loads((killed / "results.json").read_text())
    assert results["games"] == GAMES
    # Workers see their input close and stop their engines: nothing of a killed run lingers.
    deadline = time.monotonic() + 30
    while left := [pid for pid, start in seen.items() if _alive(pid, start)]:
        assert time.monotonic() < deadline, f"left running: {left}"
        time.sleep(0.1)
    assert seen, "the runs had no workers or engines to check"


def test_a_journal_killed_in_its_header_holds_no_tournament(tmp_path: Path) -> None:
    """Killed while the header line was written: nothing to resume, a fresh start works."""
    out = tmp_path / "t"
    out.mkdir()
    (out / JOURNAL).write_bytes(b'{"type": "tournament", "version": 1, "conf')
    data = {"game": "trike", "options": {"size": 7}, "games": 4, "entrants": [
        {"command": "random --seed 1"}, {"command": "greedy --seed 2"}]}  # fmt: skip
    plan = Plan.from_config(parse_config(data, "test"), "test")
    with pytest.raises(JournalError, match="nothing to resume"):
        trio.run(lambda: run_tournament(plan, out, resume=True, factory=bot_factory()))
    result = trio.run(lambda: run_tournament(plan, out, factory=bot_factory()))
    assert result.complete and len(read_journal(out).games) == 4
    assert len(read_records(out / "games.tgn")) == 4
