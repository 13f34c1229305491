"""``--sandbox`` on ``play``, ``check-engine`` and ``tournament``, and the refusal when
bubblewrap is missing (one line naming the package, exit status 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from protocol.sandbox import PACKAGE
from tests.clirun import cli
from tests.hostile import ENGINE, ROOT

ONLY_BOXED = f"{sys.executable} {ENGINE} sandboxed-only"



def referee(*args: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "tournaments", *args],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [
        ["play", "trike", "-e", "random", "-e", "random", "--sandbox", "bwrap"],
        ["check-engine", "trike", "--sandbox", "bwrap", "random"],
        ["tournament", "-g", "trike", "-e", "random", "-e", "random", "--sandbox", "bwrap",
         "--out", "OUT"],
    ],
)  # fmt: skip
def test_without_bwrap_each_command_refuses_in_one_line(tmp_path: Path, command: list[str]) -> None:
    args = [str(tmp_path / "out") if arg == "OUT" else arg for arg in command]
    done = referee(*args, path=str(tmp_path))  # a PATH without bwrap
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("referee: error: cannot use the bwrap sandbox: bwrap is not")
    assert PACKAGE in done.stderr and done.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()  # refused before anything was written


def test_a_bad_value_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "play", "trike", "-e", "random", "-e", "random", "--sandbox", "x")
    assert code == 2 and err == "referee: error: bad --sandbox 'x' (expected none or bwrap)\n"


def test_play_in_the_sandbox(bwrap: None, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "play", "trike", "-e", f"boxed={ONLY_BOXED}", "-e", "random",
                       "-n", "2", "--sandbox", "bwrap")  # fmt: skip
    assert code == 0
    assert out.count("(rules,") == 2  # both games played to their end, no forfeit
    code, out, _ = cli(capsys, "play", "trike", "-e", f"boxed={ONLY_BOXED}", "-e", "random")
    assert code == 2  # outside the sandbox it does not even start: the flag did it


def test_check_engine_runs_every_step_in_the_sandbox(
    bwrap: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "check-engine", "trike", "--sandbox", "bwrap", "--games", "1",
                       ONLY_BOXED)  # fmt: skip
    assert code == 0 and out.endswith("18/18 steps passed\n"), out  # basic and coverage steps
    code, out, _ = cli(capsys, "check-engine", "trike", "--quick", ONLY_BOXED)
    assert code == 1


def test_tournament_flag_wins_over_the_file_and_is_kept_for_resume(
    bwrap: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "event.toml"
    config.write_text(
        'game = "trike"\noptions = {size = 7}\n'
        f'[[entrants]]\nname = "boxed"\ncommand = "{ONLY_BOXED}"\nsandbox = "none"\n'
        '[[entrants]]\ncommand = "random"\n'
    )
    out = tmp_path / "out"
    code, _, err = cli(capsys, "tournament", str(config), "--out", str(out), "-q",
                       "--sandbox", "bwrap")  # fmt: skip
    assert code == 0, err
    header = json.loads((out / "journal.jsonl").read_text().splitlines()[0])
    stored = json.dumps(header)
    assert '"sandbox": "bwrap"' in stored
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "-q")
    assert code == 0, err


IDLE_THREAD_SECONDS = 1.0
"""How long trio's idle worker threads live in the slow-engine test (``IDLE_TIMEOUT``, 10 s
by default, shortened there so the test need not wait for it)."""
SLOW_START_MS = 4_000
"""Longer than trio's idle worker threads live (``IDLE_THREAD_SECONDS``): the thread that
started the sandbox is gone before the engine has even finished its handshake."""


def test_check_engine_in_the_sandbox_waits_for_a_slow_engine(
    bwrap: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trio._core._thread_cache, "IDLE_TIMEOUT", IDLE_THREAD_SECONDS)
    slow = f"{sys.executable} -m bots faulty --mode slow-handshake --slow {SLOW_START_MS}"
    code, out, _ = cli(capsys, "check-engine", "trike", "--sandbox", "bwrap", "--timeout", "30",
                       "--quick", slow)  # fmt: skip
    assert code == 0 and out.endswith("9/9 steps passed\n"), out


ENGINE_SCRIPT = f"""\
import runpy, sys
sys.argv = [{str(ENGINE)!r}, "sandboxed-only"]
runpy.run_path({str(ENGINE)!r}, run_name="__main__")
"""


def _engine_folder(tmp_path: Path) -> Path:
    """A folder with ``engine.py`` and the executable ``engine``, open to others (as
    root, the sandbox runs engines as nobody)."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "engine.py").write_text(ENGINE_SCRIPT)
    (folder / "engine").write_text(f"#!{sys.executable}\n{ENGINE_SCRIPT}")
    for path, mode in ((folder, 0o755), (folder / "engine.py", 0o644), (folder / "engine", 0o755)):
        path.chmod(mode)
    return folder


@pytest.mark.parametrize("command", ["./engine", f"{sys.executable} engine.py"])
def test_relative_engine_paths_play_in_the_sandbox(
    bwrap: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], command: str,
) -> None:  # fmt: skip
    monkeypatch.chdir(_engine_folder(tmp_path))
    code, out, err = cli(capsys, "play", "trike", "-e", f"boxed={command}", "-e", "random",
                         "-n", "2", "--sandbox", "bwrap", "--option", "size=7")  # fmt: skip
    assert code == 0, err
    assert out.count("(rules,") == 2  # both games played to their end, no forfeit


def test_a_relative_command_in_a_config_is_the_config_folder_s(
    bwrap: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _engine_folder(tmp_path)
    config = folder / "event.toml"
    config.write_text(
        'game = "trike"\noptions = {size = 7}\nsandbox = "bwrap"\n'
        '[[entrants]]\nname = "boxed"\ncommand = "./engine"\n'
        '[[entrants]]\ncommand = "random"\n'
    )
    code, _, err = cli(capsys, "tournament", str(config), "--out", str(tmp_path / "out"), "-q")
    assert code == 0, err
    assert '"termination": "rules"' in (tmp_path / "out" / "journal.jsonl").read_text()


@pytest.mark.skipif(os.geteuid() != 0, reason="as another user the sandbox runs as you")
def test_a_program_the_sandbox_user_cannot_read_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _engine_folder(tmp_path)
    (folder / "engine.py").chmod(0o600)
    monkeypatch.chdir(folder)
    code, out, err = cli(capsys, "play", "trike", "-e", f"{sys.executable} engine.py",
                         "-e", "random", "--sandbox", "bwrap")  # fmt: skip
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(folder / "engine.py") in err
    assert "make it readable by others" in err
    folder.chmod(0o700)
    code, _, err = cli(capsys, "play", "trike", "-e", "./engine", "-e", "random",
                       "--sandbox", "bwrap")  # fmt: skip
    assert code == 2 and "make it searchable by others" in err and str(folder) in err


@pytest.mark.parametrize("where", ["/tmp", "/dev/shm", "/"])
def test_an_engine_run_from_the_sandbox_s_own_scratch_is_refused_in_one_line(
    bwrap: None, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Shown read-only there, the host's folder would cover the sandbox's empty scratch:
    # every start then failed as "scratch limit (/tmp full)". Refused before any start.
    code, out, err = cli(capsys, "play", "trike", "-e", f"name=boxed cmd=random dir={where}",
                         "-e", "random", "--sandbox", "bwrap")  # fmt: skip
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and repr(where) in err and "folder of its own" in err
