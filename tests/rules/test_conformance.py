"""The ``State``/``Game`` contract, checked for every registered game.

For each game of ``referee.registry.GAMES`` (default options but for ``OPTIONS``) and each of its
player counts, seeded random playouts check the invariants of ``referee.core``:
game-over consistency, encode/decode and move-text round trips, immutability,
``is_legal`` against ``legal_moves``, rejection of illegal moves, ranks, and that
games end.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from referee.core import Game, State, Termination
from referee.errors import IllegalMoveError
from referee.registry import GAMES
from tests.cores import interleaved, on_every_core

PLAYOUTS = 30
"""Per game and player count. Each game's own tests play 1,000 seeded games; this
generic pass checks the whole contract at every position of fewer, to stay fast."""
MAX_PLIES = 5_000
"""A playout longer than this fails: every game has a rule that ends it."""
MOVES_CHECKED = 30
"""Round trips checked per position; positions with more legal moves use a sample."""
ILLEGAL_CHECKED = 4
"""Moves legal earlier in the playout but not now, checked per position."""

OPTIONS: dict[str, dict[str, str]] = {
    # Trichess has no draw rule by default (docs/rules/trichess.md: draw-cap=none), and random play
    # often ends in bare kings that would wander forever; the cap makes playouts end.
    "trichess": {"draw-cap": "50"},
}
"""Rule options that differ from the defaults, per game (defaults otherwise)."""

CASES = [(cls, players) for cls in GAMES for players in cls.player_counts]


def _competition_ranks(ranks: tuple[int, ...]) -> bool:
    """Whether ``ranks`` is a standard competition ranking (1 = best, ties skip)."""
    return all(rank == 1 + sum(1 for other in ranks if other < rank) for rank in ranks)


def _check_position(
    game: Game[Any, Any], state: State[Any], seen: dict[Any, None], rng: random.Random
) -> tuple[int, int]:
    """Check one position; return (legal moves, illegal moves checked)."""
    moves = state.legal_moves()
    outcome = state.outcome()
    over = state.to_move is None
    assert over == (outcome is not None) == (moves == ()), "to_move/outcome/legal_moves disagree"
    assert len(set(moves)) == len(moves), "legal_moves repeats a move"
    assert state.legal_moves() == moves, "legal_moves is not deterministic"

    text = game.encode(state)
    assert text and not any(ch.isspace() for ch in text), f"encode has whitespace: {text!r}"
    again = game.decode(text)
    assert again == state and hash(again) == hash(state)
    assert game.encode(again) == text

    if outcome is not None:
        assert outcome.termination is Termination.RULES
        assert outcome.culprit is None
        assert len(outcome.ranks) == state.num_players
        assert _competition_ranks(outcome.ranks), outcome.ranks
        assert not outcome.scores or len(outcome.scores) == state.num_players
        assert outcome.reason and "\n" not in outcome.reason
    else:
        assert state.to_move in range(state.num_players)

    sample = moves if len(moves) <= MOVES_CHECKED else rng.sample(moves, MOVES_CHECKED)
    for move in sample:
        move_text = game.format_move(state, move)
        assert move_text and not any(ch.isspace() for ch in move_text), repr(move_text)
        assert game.parse_move(state, move_text) == move, move_text
        assert state.is_legal(move), move_text

    legal = set(moves)
    earlier = list(seen)
    candidates = rng.sample(earlier, min(len(earlier), 4 * ILLEGAL_CHECKED))
    stale = [move for move in candidates if move not in legal]
    for move in stale[:ILLEGAL_CHECKED]:
        assert not state.is_legal(move), f"{move!r} should be illegal"
        with pytest.raises(IllegalMoveError):
            state.play(move)
    seen.update(dict.fromkeys(moves))
    return len(moves), min(len(stale), ILLEGAL_CHECKED)


@pytest.mark.marathon
@pytest.mark.parametrize(
    ("cls", "players"), CASES, ids=[f"{cls.name}-{players}p" for cls, players in CASES]
)
def test_random_playouts_keep_the_contract(cls: type[Game[Any, Any]], players: int) -> None:
    # The seeds are shared among the cores (``tests/cores.py``): the same playouts and checks.
    parts = interleaved(range(PLAYOUTS))
    illegal_checked = sum(on_every_core(functools.partial(_playouts, cls, players), parts))
    assert illegal_checked > 0, "no illegal move was ever tried"


def _playouts(cls: type[Game[Any, Any]], players: int, seeds: Sequence[int]) -> int:
    """The playouts of ``seeds``, every position checked; the illegal moves tried."""
    game = cls(OPTIONS.get(cls.name))
    illegal_checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state(players)
        assert state.ply == 0 and state.num_players == players
        seen: dict[Any, None] = {}  # insertion-ordered, so sampling is seeded
        for ply in range(MAX_PLIES + 1):
            assert state.ply == ply
            count, illegal = _check_position(game, state, seen, rng)
            illegal_checked += illegal
            if count == 0:
                break
            before = game.encode(state)
            move = rng.choice(state.legal_moves())
            nxt = state.play(move)
            assert game.encode(state) == before, "play() mutated its receiver"
            assert game.decode(before) == state
            state = nxt
        else:
            pytest.fail(f"{cls.name} seed {seed}: no end after {MAX_PLIES} plies")
    return illegal_checked
