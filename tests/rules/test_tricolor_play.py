"""Tricolor at scale: perft to the end of the game, 1,000 random games per board size, the CLI,
and a real subprocess match adjudicated as confirmed.
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games.tricolor import Tricolor, TricolorState
from referee.games.tricolor.configs import completed, on_board
from referee.perft import perft
from tests.rules.test_perft import PERFT_DIR, load_cases

ROOT = Path(__file__).resolve().parent.parent.parent
DEEP = PERFT_DIR / "tricolor-deep" / "n2-start.perft"


def perft_profile(state: TricolorState, memo: dict[int, list[int]]) -> list[int]:
    """``[perft(state, d) for d in 0, 1, …]`` up to the first 0.

    Transpositions are merged on the placed pieces, which is exact for Tricolor: the legal
    placements (colour ``ply % 3``, free positions) and the end of the game depend only
    on the pieces on the board, not on scores or seats.
    """
    profile = memo.get(state.placed)
    if profile is None:
        profile = [1]
        for move in state.legal_moves():
            for depth, count in enumerate(perft_profile(state.play(move), memo), 1):
                if depth == len(profile):
                    profile.append(0)
                profile[depth] += count
        profile.append(0)
        memo[state.placed] = profile = profile[: profile.index(0) + 1]
    return profile


@functools.cache
def start_profile(n: int) -> list[int]:
    """The whole perft profile of the empty board of side ``n`` (cached: n = 2 takes a second)."""
    return perft_profile(Tricolor({"n": str(n)}).initial_state(2), {})


def test_n2_perft_to_the_end_of_the_game() -> None:
    cases = load_cases(DEEP)
    assert [c.depth for c in cases] == list(range(1, 14))
    assert all(c.options == Tricolor({"n": "2"}).options and c.pos == "start" for c in cases)
    profile = start_profile(2)
    assert profile[1:] == [c.count for c in cases]
    assert profile[-1] == 0 and len(profile) == 3 * 2 * 2 + 2  # no game outlasts 12 plies


def test_deep_table_agrees_with_the_plain_table() -> None:
    deep = {c.depth: c.count for c in load_cases(DEEP)}
    plain = {
        c.depth: c.count
        for c in load_cases(PERFT_DIR / "tricolor.perft")
        if c.name == "tricolor-start-n2"
    }
    assert plain and all(deep[d] == count for d, count in plain.items())


@pytest.mark.parametrize(("n", "depth"), [(1, 4), (2, 5)])
def test_merged_perft_equals_plain_perft(n: int, depth: int) -> None:
    state = Tricolor({"n": str(n)}).initial_state(3)
    assert start_profile(n)[: depth + 1] == [perft(state, d) for d in range(depth + 1)]


def test_cli_perft_agrees_with_the_table() -> None:
    expected = [
        f"{c.depth} {c.count}"
        for c in load_cases(PERFT_DIR / "tricolor.perft")
        if c.name == "tricolor-start-default"
    ]
    done = subprocess.run(
        [sys.executable, "-m", "tournaments", "perft", "tricolor", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:4] == expected


# --- 1,000 seeded random games per board size -------------------------------------------

GAMES = 1000
ROUND_TRIP_EVERY = 5
"""Plies between the heavier checks (encode/decode, move text)."""


def _self_play(game: Tricolor, seed: int, players: int) -> tuple[TricolorState, int]:
    """One random game, checking the invariants at every ply.

    Returns the final state and the number of extra moves played.
    """
    rng = random.Random(seed)
    n = game.n
    state = game.initial_state(players)
    extras = 0
    for ply in range(3 * n * n + 1):
        moves = state.legal_moves()
        outcome = state.outcome()
        assert state.ply == ply == state.placed.bit_count()
        assert (state.to_move is None) == (outcome is not None) == (moves == ())
        if ply % ROUND_TRIP_EVERY == 0 or not moves:
            text = game.encode(state)
            assert game.decode(text) == state
        if not moves:
            return state, extras
        mover = state.to_move
        assert mover is not None
        move = moves[rng.randrange(len(moves))]
        assert move // game.board.plane == ply % 3  # the global colour cycle
        if ply % ROUND_TRIP_EVERY == 0:
            assert game.parse_move(state, game.format_move(state, move)) == move
        done = completed(state.configs, state.placed, state.covered, move)
        after = state.play(move)
        gain = done.points + (after.to_move is None)
        expected = list(state.scores)
        expected[mover] += gain
        assert list(after.scores) == expected
        if after.to_move is not None:
            assert after.to_move == (mover if done.extra else (mover + 1) % players)
            extras += done.extra
        assert after.last == mover
        state = after
    raise AssertionError(f"seed {seed}: no end after {3 * n * n} placements")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_thousand_random_games(n: int) -> None:
    game = Tricolor({"n": str(n)})
    lengths: list[int] = []
    draws = extras = 0
    for seed in range(GAMES):
        players = 2 + seed % 3
        final, extra = _self_play(game, seed, players)
        extras += extra
        outcome = final.outcome()
        assert outcome is not None
        assert outcome.scores == tuple(float(s) for s in final.scores)
        assert sum(final.scores) == on_board(game.configs, final.placed, final.covered).points + 1
        assert not game.board.free_cells(final.covered, final.ply % 3)
        best = max(final.scores)
        assert [r == 1 for r in outcome.ranks] == [s == best for s in final.scores]
        draws += outcome.ranks.count(1) > 1
        lengths.append(final.ply)
    assert min(lengths) >= 1 and max(lengths) <= 3 * n * n
    assert draws > 0  # equal points share the first rank
    assert extras > 0


# --- a real match -----------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(("players", "options"), [(2, []), (3, ["--option", "n=3"])])
def test_subprocess_match_is_confirmed(tmp_path: Path, players: int, options: list[str]) -> None:
    out = tmp_path / "games.tgn"
    engines = [arg for _ in range(players) for arg in ("-e", "random")]
    done = _run(
        "play", "tricolor", *engines, *options, "--games", "4", "--tc", "30+0.5",
        "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Game 4/4" in done.stdout
    text = out.read_text()
    assert text.count('[Game "tricolor"]') == 4
    assert text.count(f'[Players "{players}"]') == 4
    assert '[Score "' in text
    checked = _run("adjudicate", str(out), "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdicts = [json.loads(line) for line in checked.stdout.splitlines()]
    assert [v["verdict"] for v in verdicts] == ["confirmed"] * 4
