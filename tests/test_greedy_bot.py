"""The greedy bot: its choices, and that it beats the random bot in every registered game."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from bots.greedy_bot import gives_outright_win, greedy_move, greedy_moves, move_value
from bots.random_bot import mix_seed
from referee.registry import GAMES, make_game
from tournaments.standings import placement_points

GAMES_TO_PLAY = 12
"""Games per (game, seat count): a multiple of 2 and 3 so every seat is taken equally."""
PLY_CAP = 200
"""Plies per game before the game's own ``score_unfinished`` decides (keeps this fast)."""
RANKS_ONLY = (
    "the game's score_unfinished gives ranks but no scores (stones, material), so the "
    "greedy bot only sees moves that change the rank order; it still wins more often than "
    "not, but not always by this margin in 12 games"
)


def _cases() -> list[object]:
    cases: list[object] = []
    for cls in GAMES:
        game = cls()
        for players in cls.player_counts[:2]:
            _, scores = game.score_unfinished(game.initial_state(players))
            marks = [] if scores else [pytest.mark.xfail(reason=RANKS_ONLY, strict=False)]
            cases.append(pytest.param(cls.name, players, id=f"{cls.name}-{players}p", marks=marks))
    return cases


@pytest.mark.parametrize(("name", "players"), _cases())
def test_greedy_beats_random(name: str, players: int) -> None:
    game = make_game(name)
    points = 0.0
    for number in range(GAMES_TO_PLAY):
        greedy_seat = number % players
        state = game.initial_state(players)
        while state.outcome() is None and state.ply < PLY_CAP:
            seat = state.to_move
            assert seat is not None
            rng = random.Random(mix_seed(seat + 1, number, state.ply))
            if seat == greedy_seat:
                move = greedy_move(game, state, rng)
            else:
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
            state = state.play(move)
        outcome = state.outcome()
        ranks = outcome.ranks if outcome is not None else game.score_unfinished(state)[0]
        points += placement_points(ranks)[greedy_seat]
    score = points / GAMES_TO_PLAY
    # Random play scores 0.5 on average; demand a clear margin.
    assert score >= 0.6, f"greedy scored {score:.2f} against random in {name} ({players}p)"


def test_greedy_takes_an_outright_win_and_avoids_handing_one() -> None:
    game = make_game("trike", {"size": "7"})
    # Play random games until a position where the mover can win at once.
    rng = random.Random(3)
    found_win = found_safe = False
    for _ in range(200):
        state = game.initial_state(2)
        while state.outcome() is None:
            wins = [m for m in state.legal_moves() if move_value(game, state, m)[0] == 1]
            if wins:
                assert set(greedy_moves(game, state)) == set(wins)
                for seed in range(5):
                    assert greedy_move(game, state, random.Random(seed)) in wins
                found_win = True
            else:
                losing = [m for m in state.legal_moves() if gives_outright_win(state, m)]
                if losing and len(losing) < len(state.legal_moves()):
                    for seed in range(5):
                        choice = greedy_move(game, state, random.Random(seed))
                        assert choice not in losing
                    found_safe = True
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        if found_win and found_safe:
            break
    assert found_win and found_safe


def test_greedy_bot_plays_over_the_protocol() -> None:
    script = (
        "rgp 1\nnewgame game trike players 2 seat 1 seed 5\nposition start\n"
        "go time 1000,1000 inc 0,0\nquit\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "bots", "greedy", "--seed", "2"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "id name greedy-2" in lines
    assert lines[-1].startswith("move ")
