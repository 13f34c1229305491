"""A process reads only the code of what it runs: the ``referee`` console script's light
commands read no event loop, runner, pydantic model or page; ``perft``, ``moves`` and
``check-engine`` (which engine authors start in loops) read no config model, and ``perft``
and ``moves`` no event loop or engine process code; ``play`` reads no page, live server or
cluster client; a worker process reads no command line, config model or page; ``python -m
bots NAME`` reads only that bot.

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
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.listing import list_moves
from referee.perft import perft
from referee.registry import make_game
from tournaments.cli.rules import listing_lines

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
CONFIG = ("tournaments.event.cluster_settings", "tomllib")
"""What the config models (``MODELS``) read besides pydantic. ``--option k=v`` needs none
of them: ``tournaments.event.engine_args`` reads the models' keys on first use, not when
it is imported."""
ENGINE_PROCESSES = ("protocol.session", "protocol.process", "protocol.sandbox", "referee.players")
RULES_ONLY = (
    *LIGHT,
    *CONFIG,
    *ENGINE_PROCESSES,
    "tournaments.cli.sandbox",
    "referee.score_rules",
)
"""What ``perft`` and ``moves`` never need: they compute on the rules alone."""

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
    "referee perft": (
        ("referee", "perft", "trike", "2", "--option", "size=7"),
        RULES_ONLY,
        ("referee.perft", "referee.registry", "tournaments.event.engine_args"),
    ),
    "referee moves": (
        ("referee", "moves", "trike", "--option", "size=7", "--moves", "e3", "swap"),
        RULES_ONLY,
        ("referee.listing", "referee.registry", "tournaments.event.engine_args"),
    ),
    "referee check-engine --help": (
        ("referee", "check-engine", "--help"),
        LIGHT + CONFIG + ENGINE_PROCESSES + ("tournaments.checks.check_engine",),
        COMMAND_LINE,
    ),
    "referee check-engine --quick": (
        ("referee", "check-engine", "trike", "--quick", "--", "random"),
        (
            *MODELS,
            *CONFIG,
            *PAGES,
            *ELSEWHERE,
            *RUNNER,
            "tournaments.cli.tournament_run",
            "tournaments.checks.coverage.steps",  # the coverage steps: not with --quick
        ),
        (*LOOP, "tournaments.checks.check_engine", "protocol.session", "tournaments.cli.sandbox"),
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


def _perft_printed(out: str) -> None:
    game = make_game("trike", {"size": "7"})
    state = game.initial_state(game.player_counts[0])
    assert out == "".join(f"{d} {perft(state, d)}\n" for d in (1, 2))


def _moves_printed(out: str) -> None:
    listing = list_moves(make_game("trike", {"size": "7"}), moves=["e3", "swap"])
    assert out == "".join(f"{line}\n" for line in listing_lines(listing))


def _check_printed(out: str) -> None:
    lines = out.splitlines()
    assert lines[-1] == "9/9 steps passed", out
    assert [line.split(".", 1)[0] for line in lines[:-1]] == [str(n) for n in range(1, 10)]


def _help_printed(out: str) -> None:
    assert "--quick" in out and "--timeout" in out, out


PRINTS: dict[str, Callable[[str], None]] = {
    "referee perft": _perft_printed,
    "referee moves": _moves_printed,
    "referee check-engine --quick": _check_printed,
    "referee check-engine --help": _help_printed,
}
"""What a case's command printed, checked: it still works, reading less."""


def _run(tmp_path: Path, args: tuple[str, ...]) -> tuple[set[str], str]:
    """The modules the probe's process read, and what it printed."""
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
    return set(json.loads(out.read_text())), done.stdout


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
    modules, printed = _run(tmp_path, args)
    if case in PRINTS:
        PRINTS[case](printed)
    assert set(needed) <= modules, f"{case} did not run: {sorted(set(needed) - modules)}"
    read = sorted(name for name in unread if name in modules)
    assert read == [], f"{case} read {read}"


def test_the_heavy_modules_exist() -> None:
    """Every module a case names imports (``distributed`` only with the cluster extra)."""
    for name in sorted(set().union(*(unread for _, unread, _ in CASES.values()))):
        if name == "distributed":
            continue
        importlib.import_module(name)
