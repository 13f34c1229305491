"""``--sandbox-memory``, ``--sandbox-cpu`` and ``--sandbox-procs``: the sandbox's limits
from the command line of ``play``, ``check-engine`` and ``tournament`` (read once,
``tournaments.cli.sandbox.SandboxLimits``), refused without a sandbox, and enforced by
the warden in a real sandbox (``bwrap`` tier)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from protocol.sandbox import SandboxSettings
from protocol.spec import EngineSpec
from tests.clirun import cli, run_referee
from tournaments.cli.sandbox import SandboxLimits, confine, with_limits
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan

RANDOM = EngineSpec(name="random", argv=(sys.executable, "-m", "bots", "random"))


def test_confine_gives_every_sandboxed_engine_the_limits() -> None:
    limits = SandboxLimits(memory_mb=300, cpu_seconds=20, processes=5)
    [spec] = confine([RANDOM], "bwrap", (), limits)
    assert spec.sandbox is not None and spec.sandbox.max_processes == 5
    assert (spec.max_memory_mb, spec.max_cpu_seconds) == (300, 20)
    # A limit not given keeps the engine's own and the sandbox's default.
    [spec] = confine([RANDOM], "bwrap", (), SandboxLimits(cpu_seconds=7))
    assert spec.sandbox is not None
    assert spec.sandbox.max_processes == SandboxSettings().max_processes
    assert (spec.max_memory_mb, spec.max_cpu_seconds) == (None, 7)


def test_limits_without_a_sandbox_are_refused() -> None:
    with pytest.raises(ValueError, match="--sandbox-memory, --sandbox-procs: a limit of the"):
        confine([RANDOM], None, (), SandboxLimits(memory_mb=100, processes=2))
    assert confine([RANDOM], "none", (), SandboxLimits()) == [RANDOM]


@pytest.mark.parametrize(
    "command",
    [
        ["play", "trike", "-e", "random", "-e", "random", "--sandbox-memory", "100"],
        ["check-engine", "trike", "--sandbox-procs", "2", "--", "random"],
        ["tournament", "-g", "trike", "-e", "random", "-e", "random", "--sandbox-cpu", "9",
         "--out", "OUT"],
    ],
)  # fmt: skip
def test_each_command_refuses_limits_without_the_sandbox_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    args = [str(tmp_path / "out") if arg == "OUT" else arg for arg in command]
    code, out, err = cli(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("referee: error: --sandbox-") and err.count("\n") == 1
    assert "add --sandbox bwrap" in err
    assert not (tmp_path / "out").exists()


def test_a_limit_below_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "play", "trike", "-e", "random", "-e", "random",
                       "--sandbox", "bwrap", "--sandbox-procs", "0")  # fmt: skip
    assert code == 2 and "--sandbox-procs" in err


def test_tournament_flags_win_over_every_entrant_s_keys() -> None:
    config = parse_config(
        {
            "game": "trike",
            "sandbox": "bwrap",
            "entrants": [
                {"command": "random", "max_memory_mb": 4000, "max_processes": 9},
                {"command": "random --seed 2", "max_cpu_seconds": 50},
            ],
        },
        "test",
    )
    limited = with_limits(config, SandboxLimits(memory_mb=256, processes=3))
    entrants = Plan.from_config(limited, "test").entrants
    assert [e.max_memory_mb for e in entrants] == [256, 256]
    assert [e.max_cpu_seconds for e in entrants] == [None, 50]  # not given: the file's
    assert [e.sandbox.max_processes for e in entrants if e.sandbox] == [3, 3]
    assert with_limits(config, SandboxLimits()) is config


# --- enforced by the warden --------------------------------------------------------------


def test_play_s_process_limit_reaches_the_warden(bwrap: None) -> None:
    # One process allowed: the Python engine alone reaches it, and the warden kills it.
    done = run_referee("play", "trike", "-e", "random", "-e", "random", "--games", "1",
                       "--sandbox", "bwrap", "--sandbox-procs", "1", timeout=120)  # fmt: skip
    assert "process limit (1 processes and threads)" in done.stdout + done.stderr


def test_check_engine_s_memory_limit_reaches_the_warden(bwrap: None) -> None:
    done = run_referee("check-engine", "trike", "--quick", "--sandbox", "bwrap",
                       "--sandbox-memory", "5", "--", "random", timeout=120)  # fmt: skip
    assert done.returncode == 1
    # Either the warden's check of the resident memory kills it, or the address-space
    # backstop (twice the limit) makes Python's start-up fail first: which one comes is a
    # race of the warden's poll with the interpreter's growth (both are the 5 MiB limit;
    # without the flag this engine passes every step).
    warden = "memory limit (resident" in done.stdout and "over 5 MiB" in done.stdout
    backstop = "exited with code 1" in done.stdout and (
        "Fatal Python error" in done.stdout or "MemoryError" in done.stdout
    )
    assert warden or backstop, done.stdout
