"""``referee check-engine``: compliance steps against real engine processes.

The nine basic steps run alone with ``--quick``; the coverage steps (10 to 18) and the
promise they make (an engine that passes does not forfeit for a protocol or notation
reason) are ``tests/test_check_coverage.py``'s.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.c_build import build_trike_engine

pytestmark = pytest.mark.processes


def check(
    *command: str, timeout: str = "2", flags: tuple[str, ...] = ("--quick",)
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "tournaments",
            "check-engine",
            "trike",
            "--timeout",
            timeout,
            *flags,
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


Check = tuple[tuple[str, ...], str, tuple[str, ...]]
"""A check's engine command, its ``--timeout`` and its other flags (``check``'s arguments)."""

FAULTS: list[tuple[tuple[str, ...], list[str], str]] = [
    (("--no-handshake",), ["FAIL"] + ["skip"] * 8, "handshake"),
    (("--error-on-newgame",), ["ok", "ok", "FAIL"] + ["skip"] * 6, "refused the game"),
    (("--illegal", "--at", "2"), ["ok"] * 4 + ["FAIL"] + ["ok"] * 4, "illegal move"),
    (("--crash", "--at", "0"), ["ok"] * 3 + ["FAIL"] + ["skip"] * 5, "exit"),
    (("--bad-pong",), ["ok", "FAIL", "ok", "ok", "ok", "ok", "FAIL", "skip", "ok"], "reply"),
    (("--garbage", "--at", "0"), ["ok"] * 3 + ["FAIL"] + ["skip"] * 4 + ["ok"], "hello there"),
]
"""(faulty bot flags, the mark of each basic step, words of the output)."""

BOT = (sys.executable, "-m", "bots")
CHECKS: dict[str, Check] = {
    "random": ((*BOT, "random"), "2", ("--games", "2")),
    "random-quick": ((*BOT, "random"), "2", ("--quick",)),
    "mcts-quick": ((*BOT, "mcts"), "10", ("--quick",)),
    "thinker-quick": (("tests/engines/trike_thinker.sh", "garbage"), "2", ("--quick",)),
    "limits-illegal": (
        (sys.executable, "tests/engines/scored_engine.py", "--limits-illegal"),
        "2",
        ("--quick",),
    ),
    "cannot-start": (("/nonexistent/engine",), "2", ("--quick",)),
    **{" ".join(flags): ((*BOT, "faulty", *flags), "3", ("--quick",)) for flags, _, _ in FAULTS},
}
"""Every check of this module but the C engine's (which needs a compiler), by name."""


@pytest.fixture(scope="module")
def checks() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every check of ``CHECKS``, four at a time.

    A check mostly waits: for the answers a faulty engine never gives (up to its 3 s
    timeout), for the mcts bot's searches on its 60 s clock, for fresh processes. Each
    step's verdict is about what the engine sent, with timeouts generous for a loaded
    machine, so running them side by side changes no verdict.
    """
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(
            lambda check_: check(*check_[0], timeout=check_[1], flags=check_[2]),
            CHECKS.values(),
        )
        return dict(zip(CHECKS, done, strict=True))


def test_random_bot_passes_every_step(checks: dict[str, subprocess.CompletedProcess[str]]) -> None:
    done = checks["random"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert steps(done) == ["ok"] * 18
    assert "18/18 steps passed" in done.stdout
    assert "6. ok   search limits and info: no search limits declared" in done.stdout
    assert (
        "18. ok   games against random: 2 games without a protocol or notation fault" in done.stdout
    )


def test_quick_runs_the_nine_basic_steps_only(
    checks: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    done = checks["random-quick"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert steps(done) == ["ok"] * 9
    assert "9/9 steps passed" in done.stdout


def test_c_engine_passes_every_step() -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    done = check("trike-c", flags=())
    assert done.returncode == 0, done.stdout + done.stderr
    assert steps(done) == ["ok"] * 18


def test_declared_search_limits_are_searched_and_info_reported(
    checks: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    done = checks["mcts-quick"]
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("6. "))
    assert "go nodes 500:" in line and "(nodes 500 reported" in line
    assert "info items depth seldepth nodes nps time score pv" in line
    assert "warning" not in line
    thinker = checks["thinker-quick"]
    assert thinker.returncode == 0, thinker.stdout + thinker.stderr  # a warning, no failure
    line = next(x for x in thinker.stdout.splitlines() if x.startswith("6. "))
    assert "go nodes 500 depth 2:" in line
    assert "warning: 12 malformed item(s) kept as text, the first 'depth deep'" in line


def test_a_search_limit_the_engine_gets_wrong_fails_the_step(
    checks: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    # Declares `feature nodes depth`, then answers the limited search with no move.
    done = checks["limits-illegal"]
    assert done.returncode == 1, done.stdout + done.stderr
    assert steps(done) == ["ok"] * 5 + ["FAIL"] + ["ok"] * 3
    line = next(x for x in done.stdout.splitlines() if x.startswith("6. "))
    assert "go nodes 500 depth 2: illegal move 'zz99'" in line


@pytest.mark.parametrize(("flags", "marks", "words"), FAULTS)
def test_faulty_engines_fail_the_right_steps(
    flags: tuple[str, ...],
    marks: list[str],
    words: str,
    checks: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    done = checks[" ".join(flags)]
    assert done.returncode == 1, done.stdout + done.stderr
    assert steps(done) == marks, done.stdout
    assert words in done.stdout


def test_a_command_that_cannot_start_is_a_one_line_error(
    checks: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    done = checks["cannot-start"]
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "referee: error: cannot run '/nonexistent/engine': not an executable file"
    )
