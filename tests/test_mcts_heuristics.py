"""The mcts engine's positional terms (``bots/mcts/heuristics.py``): Triablo's aims,
checked against the rules' own line-of-sight count, and their place in the values."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.greedy_bot import greedy_move
from bots.mcts.brain import MctsBrain, build_parser
from bots.mcts.heuristics import AIM_WEIGHT, VULNERABLE_WEIGHT, positional, triablo_aims
from bots.mcts.search import Limits
from bots.random_bot import mix_seed
from protocol.messages import Go, NewGame
from referee.games.triablo.board import NUM_POINTS
from referee.games.triablo.pieces import BACK, CONTROLLER, NO_ONE, tips_on
from referee.registry import make_game
from tests.test_mcts import new_brain, newgame


def reference_aims(state: Any) -> tuple[float, ...]:
    """The term from its definition, one target and one seat at a time with the rules'
    ``tips_on``: per enemy piece, the seat's tips aimed at it (at most 3 counted) and
    the vulnerability bonus at three or more."""
    board = state.board
    back = BACK[state.config.captive_tips]
    out = {seat for seat, _ in state.out}
    terms = []
    for seat in range(state.config.players):
        term = 0.0
        for target in range(NUM_POINTS):
            owner = CONTROLLER[board[target]]
            if owner in (NO_ONE, seat):
                continue
            aims = tips_on(board, target, seat, back)
            term += AIM_WEIGHT * min(aims, 3) + (VULNERABLE_WEIGHT if aims >= 3 else 0.0)
        terms.append(0.0 if seat in out else term)
    return tuple(terms)


def random_positions(players: int, captive_tips: str, seed: int) -> list[Any]:
    """Every position of one random Triablo game."""
    game = make_game("triablo", {"captive-tips": captive_tips})
    rng = random.Random(seed)
    state = game.initial_state(players)
    positions = [state]
    while state.to_move is not None:
        moves = state.legal_moves()
        state = state.play(moves[rng.randrange(len(moves))])
        positions.append(state)
    return positions


@pytest.mark.parametrize("captive_tips", ["yes", "no"])
@pytest.mark.parametrize("players", [2, 3])
def test_triablo_aims_follow_their_definition(players: int, captive_tips: str) -> None:
    vulnerable = out = 0
    for seed in range(6):
        for state in random_positions(players, captive_tips, seed)[::3]:
            assert triablo_aims(state) == pytest.approx(reference_aims(state))
            vulnerable += any(
                tips_on(state.board, t, s, BACK[state.config.captive_tips]) >= 3
                for t in range(NUM_POINTS)
                for s in range(players)
                if CONTROLLER[state.board[t]] not in (NO_ONE, s)
            )
            out += bool(state.out)
    assert vulnerable > 0  # the bonus was exercised
    if players == 3:
        assert out > 0  # and seats that are out (their term is 0)


def test_the_start_has_no_aims_and_only_triablo_has_a_term() -> None:
    """Figure 3's start: no tip has an enemy as the first piece along its line."""
    triablo = make_game("triablo")
    assert triablo_aims(triablo.initial_state(2)) == (0.0, 0.0)
    assert positional(triablo) is triablo_aims
    assert all(positional(make_game(name)) is None for name in ("trike", "tricouleur", "trichess"))


@pytest.mark.parametrize("players", [2, 3])
def test_expansion_values_children_with_the_term_and_counts_quiet_on_material(
    players: int,
) -> None:
    game = make_game("triablo")
    state = next(s for s in random_positions(players, "yes", 2)[20:] if s.to_move is not None)
    brain = new_brain("triablo", players, game_seed=5)
    valuer = brain.valuer
    assert valuer is not None
    root = brain.search(state, Limits(nodes=1)).root
    material = game.evaluate(state)
    checked = 0
    for move, exact, values in zip(root.moves, root.terminal, root.minimax, strict=True):
        if exact is not None:
            continue
        child = state.play(move)
        quiet = root.quiet + 1 if game.evaluate(child) == material else 0
        raw = tuple(m + p for m, p in zip(game.evaluate(child), triablo_aims(child), strict=True))
        assert values == pytest.approx(valuer.points(raw, quiet))
        assert valuer.heuristic(child, quiet) == pytest.approx(values)
        checked += 1
    assert checked > 1


@pytest.mark.marathon
@pytest.mark.parametrize("mcts_seat", [0, 1])
def test_a_small_search_with_the_aims_beats_greedy_in_triablo(mcts_seat: int) -> None:
    """Deterministic (a node limit, seeded bots): mcts at 100 iterations a move wins
    both seats against greedy. With material alone it drew such games by the no-capture
    count (benchmarks/README.md, mcts against greedy)."""
    game = make_game("triablo")
    brain = new_brain("triablo", 2, seed=7, game_seed=5)
    state = game.initial_state(2)
    while state.to_move is not None:
        if state.to_move == mcts_seat:
            move = game.parse_move(state, brain.choose(state, Go(nodes=100), lambda _: None))
        else:
            rng = random.Random(mix_seed(1, 5, state.ply))
            move = greedy_move(game, state, rng)
        state = state.play(move)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.ranks[mcts_seat] == 1 and outcome.ranks.count(1) == 1, outcome.reason


def test_material_only_leaves_the_term_out() -> None:
    """``mcts --material-only`` (the benchmark's baseline): the same engine valuing
    positions by ``Game.evaluate`` alone."""
    assert build_parser().parse_args(["--material-only"]).material_only is True
    assert build_parser().parse_args([]).material_only is False
    plain = MctsBrain(0, positional=False)
    assert newgame(plain, make_game("triablo"), NewGame("triablo", 2, 1, 5)) is None
    assert plain.valuer is not None and plain.valuer.positional is None
    state = next(s for s in random_positions(2, "yes", 3)[20:] if any(triablo_aims(s)))
    game = make_game("triablo")
    assert plain.valuer.heuristic(state) == pytest.approx(
        plain.valuer.points(game.evaluate(state), 0)
    )
    assert new_brain("triablo", 2, game_seed=5).valuer.heuristic(state) != pytest.approx(  # type: ignore[union-attr]
        plain.valuer.heuristic(state)
    )
