"""``check-engine``'s coverage steps (10 to 18): what games send, as a promise.

The scenarios are checked on their own (pure: every game, every option, the pie swap
and special moves are really in them); then five faulty engines, real processes that
each pass the nine basic steps, fail the coverage step that names their fault; and the
bundled engines pass every step for every game and player count they play.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.registry import GAMES, make_game
from tests.c_build import build_trike_engine
from tournaments.checks.coverage import scenarios
from tournaments.checks.coverage.steps import STEPS

GAME_NAMES = [cls.name for cls in GAMES]


def check(game: str, *command: str, games: str = "1") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments", "check-engine", game, "--timeout", "10",
         "--games", games, "--", *command],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )  # fmt: skip


def marks(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """Step name -> ok, FAIL or skip."""
    found = {}
    for line in done.stdout.splitlines():
        match = re.match(r"\d+\. (ok|FAIL|skip)\s+([^:]+):", line)
        if match:
            found[match.group(2)] = match.group(1)
    return found


# --- the scenarios, from the rules ------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_ask_is_a_position_with_a_seat_to_move(name: str) -> None:
    counts = make_game(name, {}).player_counts
    asks = [
        *scenarios.seat_asks(name, counts, 1),
        *scenarios.state_asks(name, counts, 1),
        *scenarios.option_asks(name, counts, 1),
        *scenarios.swap_asks(name, counts, 1),
        *scenarios.special_asks(name, counts, 1),
    ]
    for ask in asks:
        state = ask.state(ask.make_game())
        assert state.outcome() is None and state.to_move is not None, ask.label
    # Every seat of every player count is asked from the start.
    seats = {
        (a.players, a.state(a.make_game()).to_move) for a in scenarios.seat_asks(name, counts, 1)
    }
    assert seats == {(n, s) for n in counts for s in range(n)}
    # ``position state`` starts: for every player count, alone and with moves after them.
    states = scenarios.state_asks(name, counts, 1)
    assert {a.players for a in states} == set(counts)
    assert all(a.start is not None for a in states) and any(a.moves for a in states)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_option_sweep_takes_every_option_off_its_default(name: str) -> None:
    game = make_game(name, {})
    values = scenarios.option_values(game.option_specs)
    assert {option for option, _ in values} == {spec.name for spec in game.option_specs}
    for spec in game.option_specs:
        if spec.choices:  # every other choice of an enumerated option
            assert {v for o, v in values if o == spec.name} == set(spec.choices) - {spec.default}
    asked = {ask.options for ask in scenarios.option_asks(name, game.player_counts, 1)}
    assert asked == {((option, value),) for option, value in values}


def test_trike_histories_hold_the_pie_swap_and_an_extra_move() -> None:
    swaps = scenarios.swap_asks("trike", (2,), 1)
    assert swaps and all("swap" in ask.moves for ask in swaps)
    special = scenarios.special_asks("trike", (2,), 1)
    assert any(ask.label.startswith(scenarios.EXTRA_MOVE) for ask in special)
    assert not any(scenarios.swap_asks(name, make_game(name, {}).player_counts, 1)
                   for name in GAME_NAMES if name != "trike")  # fmt: skip


@pytest.mark.parametrize(
    ("name", "pattern"),
    [
        ("triablo", r"^[a-g]\d/[EW](,[a-g]\d/[EW])+$"),  # a setup move (setup=free)
        ("triablo", r"x"),  # a capture
        ("trichess", r"=[A-Z]$"),  # a promotion
        ("whistling-captures", r"^[^-]+(-[^-]+){2,}$"),  # a chain of jumps
        ("tricouleur", r"x"),  # a capture
    ],
)
def test_special_histories_end_in_the_game_s_special_moves(name: str, pattern: str) -> None:
    asks = scenarios.special_asks(name, make_game(name, {}).player_counts, 1)
    assert any(re.search(pattern, ask.moves[-1]) for ask in asks), [a.label for a in asks]


def test_move_kinds_tell_captures_chains_and_setups_apart() -> None:
    kind = scenarios.move_kind
    assert kind("e3") == kind("i9") == "#"
    assert kind("c3xd4") != kind("c3-d4")
    assert kind("D2-l20-x20") != kind("D2-l20")
    assert kind("swap") == "aaaa"


def test_game_plans_cycle_seats_and_counts_and_vary_options() -> None:
    plans = scenarios.game_plans("triablo", (2, 3), 10, 1)
    assert {(p.players, p.seat) for p in plans} >= {(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)}
    assert any(p.options for p in plans) and any(p.opening for p in plans)
    assert scenarios.game_plans("triablo", (2, 3), 10, 1) == plans  # seeded


# --- five faults, each named ------------------------------------------------------------


FAULTS = [
    ("ignore-state", "position state starts", "position state after the"),
    ("ignore-options", "rule options", "size="),
    ("no-swap", "pie swap in the history", "swap"),
    ("die-on-unknown", "unknown command", "exited with code 3"),
    ("second-newgame", "two games in one process", "game 2 in the same process"),
]
"""(faulty bot mode, the step it must fail, words of that step's line)."""


@pytest.fixture(scope="module")
def faulty_checks() -> dict[str, subprocess.CompletedProcess[str]]:
    """Each faulty mode's check of Trike, four at a time (as ``bundled_checks``: a check
    mostly waits, and its verdict does not depend on timing)."""
    modes = [mode for mode, _, _ in FAULTS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(
            lambda mode: check("trike", sys.executable, "-m", "bots", "faulty", "--mode", mode),
            modes,
        )
        return dict(zip(modes, done, strict=True))


@pytest.mark.processes  # check-engine runs: real engine processes
@pytest.mark.parametrize(("mode", "step", "words"), FAULTS)
def test_each_faulty_engine_fails_the_step_that_names_its_fault(
    mode: str, step: str, words: str, faulty_checks: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    done = faulty_checks[mode]
    assert done.returncode == 1, done.stdout + done.stderr
    found = marks(done)
    assert [found[name] for name in list(found)[:9]] == ["ok"] * 9, done.stdout  # basic steps
    assert found[step] == "FAIL", done.stdout
    line = next(x for x in done.stdout.splitlines() if re.match(rf"\d+\. FAIL\s+{step}:", x))
    assert words in line
    assert "sent" in line or "last protocol lines" in line  # what was sent, what came back


TWO_SEATS_ONLY = """
from bots.engine import run_engine
from bots.random_bot import RandomBrain


class TwoSeatsOnly(RandomBrain):
    def newgame(self, game, cmd):
        return "2 players only" if cmd.players != 2 else super().newgame(game, cmd)


run_engine(lambda: TwoSeatsOnly(1), name="two-only", author="tests")
"""


@pytest.mark.processes
def test_a_refused_player_count_is_reported_not_failed(tmp_path: Path) -> None:
    # SPEC: an engine answers ``error`` to a game it does not play; such a game is void,
    # never a forfeit, so the promise holds and the steps pass, saying what was refused.
    engine = tmp_path / "two_only.py"
    engine.write_text(TWO_SEATS_ONLY)
    done = check("triablo", sys.executable, str(engine), games="3")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "refused 1 (void, not a forfeit): seat 1 of 3 from the start" in done.stdout
    assert "games against random: 3 games without a protocol or notation fault; it refused 1" in (
        done.stdout
    )


# --- the bundled engines pass -----------------------------------------------------------


BUNDLED = [(engine, name) for engine in ("random", "greedy", "mcts") for name in GAME_NAMES]
ARGUMENTS = {"mcts": "--max-children 1000"}
"""Each engine's arguments in these checks. The mcts bot searches until its tree holds
this many children instead of spending the whole ``go movetime``/clock on a search:
the steps ask for legal moves and protocol, not for good ones, and searches to the
500,000-child default took four fifths of these checks' CPU (a check of ``mcts`` cost
four checks of ``greedy``); its searches to the clock are ``tests/test_mcts*.py``'s."""


@pytest.fixture(scope="module")
def bundled_checks() -> dict[tuple[str, str], subprocess.CompletedProcess[str]]:
    """Every bundled engine's check of every game, four at a time.

    A check mostly waits (``go movetime 100`` requests, fresh processes, a clocked game),
    so running them side by side takes a fraction of the wall time of one after another;
    each check's verdict does not depend on timing (a loss on time is a warning).
    """
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = pool.map(
            lambda pair: check(pair[1], f"{pair[0]} {ARGUMENTS.get(pair[0], '')}".strip()),
            BUNDLED,
        )
        return dict(zip(BUNDLED, done, strict=True))


@pytest.mark.processes
@pytest.mark.parametrize(("engine", "name"), BUNDLED, ids=[f"{e}-{n}" for e, n in BUNDLED])
def test_bundled_engines_pass_every_step_of_every_game(
    engine: str,
    name: str,
    bundled_checks: dict[tuple[str, str], subprocess.CompletedProcess[str]],
) -> None:
    # One game against random: the seats and player counts are steps 10 to 15's.
    done = bundled_checks[engine, name]
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(marks(done).values()) == {"ok"}
    assert len(marks(done)) == 9 + len(STEPS)


@pytest.mark.processes
def test_the_c_engine_passes_every_step_of_trike() -> None:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    done = check("trike", "trike-c", games="4")
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(marks(done).values()) == {"ok"} and len(marks(done)) == 9 + len(STEPS)
