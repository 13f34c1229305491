"""A process reads only the code of what it runs: the ``referee`` console script's light
commands read no event loop, runner, pydantic model or page; ``play`` reads no page, live
server or cluster client; a worker process reads no command line, config model or page;
``python -m bots NAME`` reads only that bot.

The suite starts hundreds of ``referee`` and worker processes, and a user's ``referee
--help`` should not wait for the tournament runner: each case runs a fresh interpreter
(what an earlier import left in this one would hide a regression) and names the modules
it must not have read. A module named here that is renamed or moved makes the case pass
vacuously, so ``test_the_heavy_modules_exist`` checks that every one of them still imports.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import atexit, json, sys
out, kind, args = sys.argv[1], sys.argv[2], sys.argv[3:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
if kind == "referee":
    sys.argv = ["referee", *args]
    from tournaments.cli import main
    main()
elif kind == "bots":
    from bots.__main__ import main
    main(args)
else:
    import importlib
    importlib.import_module(args[0])
"""
"""Runs the console script's ``main`` (or ``python -m bots``'s, or imports a module) and
writes, at exit, the names of every module the process read."""

LOOP = ("trio",)
RUNNER = ("tournaments.runner.run", "tournaments.play.slot", "referee.match")
"""The tournament runner and the driver it plays games with (``play`` needs the driver)."""
MODELS = ("tournaments.event.config", "tournaments.event.stream_models")
PAGES = (
    "tournaments.html.page",
    "tournaments.html.report",
    "tournaments.html.adjudicate",
    "tournaments.html.paged.verdicts",
)
ELSEWHERE = ("tournaments.live.server", "tournaments.cluster.client", "distributed")
COMMAND_LINE = ("typer", "tournaments.cli.app")

LIGHT = LOOP + RUNNER + MODELS + PAGES + ELSEWHERE + ("tournaments.cli.tournament_run",)
"""What ``--help``, ``--version``, ``games`` and ``rules`` never need."""

CASES = {
    "referee --help": (("referee", "--help"), LIGHT, COMMAND_LINE),
    "referee --version": (("referee", "--version"), LIGHT, COMMAND_LINE),
    "referee games": (("referee", "games"), LIGHT, ("referee.registry", "tabulate")),
    "referee rules trike": (("referee", "rules", "trike", "--path"), LIGHT, ("referee.registry",)),
    "referee play": (
        ("referee", "play", "trike", "-e", "random", "-e", "random", "--games", "1", "-q"),
        (
            *MODELS[1:],
            *PAGES,
            *ELSEWHERE,
            "tournaments.cli.tournament_run",
            "referee.adjudicate",
            "tournaments.runner.run",  # a match is played by runner.match, not the runner
        ),
        (*LOOP, "tournaments.runner.match", "tournaments.play.slot", "referee.match"),
    ),
    "a worker process": (
        ("module", "tournaments.play.worker"),
        MODELS + PAGES + ELSEWHERE + COMMAND_LINE + ("pydantic", "tournaments.runner.run"),
        (*LOOP, "tournaments.play.slot"),
    ),
    "python -m bots random": (
        ("bots", "random"),
        ("bots.mcts.brain", "bots.greedy_bot", "bots.faulty_bot", *LOOP, *COMMAND_LINE),
        ("bots.random_bot",),  # it ran, and met the end of its (empty) input
    ),
}
"""Each case: what the process runs, the modules it must not read, and some it must (so a
probe that ran nothing cannot pass)."""


def _read_modules(tmp_path: Path, args: tuple[str, ...]) -> set[str]:
    out = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text()))


@pytest.mark.parametrize(
    "case",
    [
        # a real game (three processes): the processes tier
        pytest.param(case, marks=pytest.mark.processes) if case == "referee play" else case
        for case in CASES
    ],
)
def test_a_process_reads_only_what_it_runs(case: str, tmp_path: Path) -> None:
    args, unread, needed = CASES[case]
    modules = _read_modules(tmp_path, args)
    assert set(needed) <= modules, f"{case} did not run: {sorted(set(needed) - modules)}"
    read = sorted(name for name in unread if name in modules)
    assert read == [], f"{case} read {read}"


def test_the_heavy_modules_exist() -> None:
    """Every module a case names imports (``distributed`` only with the cluster extra)."""
    for name in sorted(set().union(*(unread for _, unread, _ in CASES.values()))):
        if name == "distributed":
            continue
        importlib.import_module(name)
