"""protocol/SPEC.md's example engine ("Writing an engine") does what README.md says.

The engine is taken from SPEC.md itself, so the text and the test cannot drift: as
printed (no rules: it resigns at every ``go``) it passes ``check-engine``'s protocol
steps and fails those that need a move; with a move generator in ``legal_moves`` (here
the referee's own rules) it passes every step, for every player count.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.processes  # check-engine batteries of the spec's engine

ROOT = Path(__file__).resolve().parents[1]

RULES = """def legal_moves(setup, start, moves):
    from referee.registry import make_game

    pairs = [pair.split("=", 1) for pair in setup.get("options", "").split(",") if pair]
    game = make_game(setup["game"], dict(pairs))
    state = game.decode(start) if start else game.initial_state(int(setup["players"]))
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return [game.format_move(state, move) for move in state.legal_moves()]
"""
"""A move generator for the example: the referee's rules (an author writes their own)."""

PROTOCOL_STEPS = {
    "handshake", "options", "newgame", "gameover", "quit", "unknown command",
    "engine options", "games against random",
}  # fmt: skip
"""The steps the example passes as printed (README.md says so)."""


def example() -> str:
    """The Python engine of SPEC.md's "Writing an engine" section."""
    text = (ROOT / "protocol" / "SPEC.md").read_text(encoding="utf-8")
    section = text[text.index("## 10. Writing an engine") :]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "SPEC.md's 'Writing an engine' has no python block"
    return match.group(1)


def with_rules(code: str) -> str:
    """``code`` with its ``legal_moves`` stub replaced by ``RULES``."""
    stub = re.search(
        r"def legal_moves\(setup, start, moves\):\n(    .*\n|\n)*?    return \[\]\n", code
    )
    assert stub, "the example's legal_moves stub changed: update this test and README.md"
    return code[: stub.start()] + RULES + code[stub.end() :]


def check(path: Path, game: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "tournaments", "check-engine", game, "--timeout", "10",
         "--games", "2", "--", sys.executable, str(path)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    marks = {}
    for line in done.stdout.splitlines():
        found = re.match(r"\d+\. (ok|FAIL|skip)\s+([^:]+):", line)
        if found:
            marks[found.group(2)] = found.group(1)
    assert marks, done.stdout + done.stderr
    return marks


CHECKS = [("as printed", "trike"), ("with rules", "trike"), ("with rules", "triablo")]
"""The checks of this module: which engine (the example as printed, or with a move
generator), and which game."""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, str]]:
    """Each of ``CHECKS``'s step marks, the three run side by side: a check mostly waits
    (fresh processes, ``go movetime`` requests, clocked games), and its marks are about
    what the engine sent."""
    folder = tmp_path_factory.mktemp("spec-example")
    engines = {"as printed": example(), "with rules": with_rules(example())}
    paths = {}
    for name, code in engines.items():
        paths[name] = folder / f"{name.replace(' ', '-')}.py"
        paths[name].write_text(code)
    with ThreadPoolExecutor(max_workers=len(CHECKS)) as pool:
        marks = pool.map(lambda case: check(paths[case[0]], case[1]), CHECKS)
        return dict(zip(CHECKS, marks, strict=True))


def test_as_printed_it_passes_the_protocol_steps_and_resigns(
    checked: dict[tuple[str, str], dict[str, str]],
) -> None:
    marks = checked["as printed", "trike"]
    assert {name for name, mark in marks.items() if mark == "ok"} == PROTOCOL_STEPS
    assert {mark for name, mark in marks.items() if name not in PROTOCOL_STEPS} == {"FAIL"}


@pytest.mark.parametrize("game", ["trike", "triablo"])
def test_with_a_move_generator_it_passes_every_step(
    game: str, checked: dict[tuple[str, str], dict[str, str]]
) -> None:
    marks = checked["with rules", game]
    assert set(marks.values()) == {"ok"}, marks
    assert len(marks) == 18
