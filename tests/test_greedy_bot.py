"""The greedy bot: its choices, and that it clearly beats the random bot in every game."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from typing import Any

import pytest

from bots.greedy_bot import WIN_VALUE, greedy_move, outcome_utility, utility
from bots.random_bot import AnyState, mix_seed
from referee.core import AnyGame, Outcome, Termination, ranks_from_scores
from referee.registry import GAMES, make_game
from tournaments.results.standings import placement_points

GAMES_TO_PLAY = 12
"""Games per (game, seat count): a multiple of 2 and 3 so every seat is taken equally."""
PLY_CAP = 100
"""Plies per game before the position decides (keeps this fast)."""
CLEAR_WIN = 0.75
"""The placement share greedy must reach; random play against random scores 0.5."""


def _cases() -> list[object]:
    return [
        pytest.param(cls.name, players, id=f"{cls.name}-{players}p")
        for cls in GAMES
        for players in cls.player_counts[:2]
    ]


def _capped_ranks(game: AnyGame, state: AnyState) -> tuple[int, ...]:
    """Ranks of a game still running at the cap: by ``Game.evaluate`` (material, stones,
    points so far) when the game gives values, else by ``score_unfinished``. For most
    games the two agree; Trichess scores a stopped game as a pat, which would hide a
    material lead built in only ``PLY_CAP`` plies."""
    values = game.evaluate(state)
    if len(values) == state.num_players:
        return ranks_from_scores(values)
    return game.score_unfinished(state)[0]


def play_against_random(game: AnyGame, players: int, number: int) -> float:
    """Game ``number`` with greedy in seat ``number % players`` and random bots in the
    others; greedy's placement share (1 first … 0 last)."""
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
    ranks = outcome.ranks if outcome is not None else _capped_ranks(game, state)
    return placement_points(ranks)[greedy_seat]


@pytest.mark.parametrize(("name", "players"), _cases())
def test_greedy_beats_random_clearly(name: str, players: int) -> None:
    game = make_game(name)
    score = sum(play_against_random(game, players, n) for n in range(GAMES_TO_PLAY))
    score /= GAMES_TO_PLAY
    assert score >= CLEAR_WIN, f"greedy scored {score:.2f} against random in {name} ({players}p)"


@pytest.mark.parametrize(("name", "players"), _cases())
def test_every_game_gives_an_evaluation(name: str, players: int) -> None:
    """``Game.evaluate`` gives one finite value per seat in every game (what greedy needs)."""
    game = make_game(name)
    for state in _random_positions(game, players, 3, seed=1):
        values = game.evaluate(state)
        assert len(values) == players and all(math.isfinite(v) for v in values)


def _random_positions(game: AnyGame, players: int, count: int, seed: int) -> list[AnyState]:
    """``count`` positions of random play (each at a random ply of its own game)."""
    rng = random.Random(seed)
    found: list[AnyState] = []
    while len(found) < count:
        state = game.initial_state(players)
        stop = rng.randrange(4, 80)
        while state.outcome() is None and state.ply < stop:
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
        if state.outcome() is None:
            found.append(state)
    return found


def _two_ply(game: AnyGame, state: AnyState, move: Any) -> float:
    """The move's value by brute force: the worst utility over every reply."""
    seat = state.to_move
    assert seat is not None
    after = state.play(move)
    if after.to_move is None or after.to_move == seat:
        return utility(game, after, seat)
    return min(utility(game, after.play(reply), seat) for reply in after.legal_moves())


@pytest.mark.parametrize(("name", "players"), [("tricouleur", 2), ("triablo", 2)])
def test_greedy_plays_a_best_two_ply_move(name: str, players: int) -> None:
    """In two-player capture games a reply never raises the mover's material margin,
    so the pruned search finds a move of the best brute-force two-ply value."""
    game = make_game(name, {"no-capture-draw": "0"})
    for k, state in enumerate(_random_positions(game, players, 12, seed=7)):
        values = {move: _two_ply(game, state, move) for move in state.legal_moves()}
        choice = greedy_move(game, state, random.Random(k))
        assert values[choice] == max(values.values()), game.render(state)


def test_greedy_keeps_material_a_one_ply_bot_gives_away() -> None:
    """Somewhere in random Tricouleur play a capture lets the opponent take more back;
    the two-ply bot never loses material that the one-ply bot's choice loses."""
    game = make_game("tricouleur")
    worse = 0
    for k, state in enumerate(_random_positions(game, 2, 40, seed=11)):
        chosen = _two_ply(game, state, greedy_move(game, state, random.Random(k)))
        naive = greedy_move(game, state, random.Random(k), replies=False)
        assert chosen >= _two_ply(game, state, naive)
        worse += chosen > _two_ply(game, state, naive)
    assert worse > 0


def test_greedy_takes_an_outright_win_and_avoids_handing_one() -> None:
    game = make_game("trike", {"size": "7"})
    rng = random.Random(3)
    found_win = found_safe = False
    for _ in range(200):
        state = game.initial_state(2)
        while state.outcome() is None:
            seat = state.to_move
            assert seat is not None
            moves = state.legal_moves()
            wins = [m for m in moves if utility(game, state.play(m), seat) == WIN_VALUE]
            if wins:
                for seed in range(5):
                    assert greedy_move(game, state, random.Random(seed)) in wins
                found_win = True
            else:
                losing = [m for m in moves if _two_ply(game, state, m) == -WIN_VALUE]
                if losing and len(losing) < len(moves):
                    for seed in range(5):
                        assert greedy_move(game, state, random.Random(seed)) not in losing
                    found_safe = True
            state = state.play(moves[rng.randrange(len(moves))])
        if found_win and found_safe:
            break
    assert found_win and found_safe


def test_outcome_utility_scales_with_the_placement() -> None:
    game = make_game("trike")
    state = game.initial_state(2)
    assert utility(game, state, 0) == 0.0
    three = Outcome(Termination.RULES, (2, 1, 3))
    assert outcome_utility(three, 1) == WIN_VALUE
    assert outcome_utility(three, 0) == 0.0
    assert outcome_utility(three, 2) == -WIN_VALUE
    assert math.isclose(outcome_utility(Outcome(Termination.RULES, (1, 1, 3)), 0), WIN_VALUE / 2)


def test_greedy_is_reproducible() -> None:
    game = make_game("whistling-captures")
    for state in _random_positions(game, 2, 3, seed=5):
        picks = {game.format_move(state, greedy_move(game, state, random.Random(9)))}
        picks.add(game.format_move(state, greedy_move(game, state, random.Random(9))))
        assert len(picks) == 1
    assert greedy_move(game, game.initial_state(2), random.Random(1)) is not None


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
