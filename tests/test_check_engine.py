"""``referee check-engine``: compliance steps against real engine processes."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.c_build import build_trike_engine


def check(*command: str, timeout: str = "2") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments",
            "check-engine",
            "trike",
            "--timeout",
            timeout,
            "--",
            *command,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def steps(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The mark of each numbered step line: ok, FAIL or skip."""
    return [line.split()[1] for line in done.stdout.splitlines() if re.match(r"\d+\. ", line)]


def test_random_bot_passes_every_step() -> None:
    done = check(sys.executable, "-m", "bots", "random")
    assert done.returncode == 0, done.stdout + done.stderr
    assert steps(done) == ["ok"] * 8
    assert "8/8 steps passed" in done.stdout


def test_c_engine_passes_every_step() -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    done = check("trike-c")
    assert done.returncode == 0, done.stdout + done.stderr
    assert steps(done) == ["ok"] * 8


@pytest.mark.parametrize(
    ("flags", "marks", "words"),
    [
        (("--no-handshake",), ["FAIL"] + ["skip"] * 7, "handshake"),
        (("--error-on-newgame",), ["ok", "ok", "FAIL"] + ["skip"] * 5, "refused the game"),
        (("--illegal", "--at", "2"), ["ok"] * 4 + ["FAIL"] + ["ok"] * 3, "illegal move"),
        (("--crash", "--at", "0"), ["ok"] * 3 + ["FAIL"] + ["skip"] * 4, "exit"),
        (("--bad-pong",), ["ok", "FAIL", "ok", "ok", "ok", "FAIL", "skip", "ok"], "reply"),
        (("--garbage", "--at", "0"), ["ok"] * 3 + ["FAIL"] + ["skip"] * 3 + ["ok"], "hello there"),
    ],
)
def test_faulty_engines_fail_the_right_steps(
    flags: tuple[str, ...], marks: list[str], words: str
) -> None:
    done = check(sys.executable, "-m", "bots", "faulty", *flags, timeout="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert steps(done) == marks, done.stdout
    assert words in done.stdout


def test_a_command_that_cannot_start_is_a_one_line_error() -> None:
    done = check("/nonexistent/engine")
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "referee: error: cannot run '/nonexistent/engine': not an executable file"
    )
