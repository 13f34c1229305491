"""Triablo at scale: 1,000 seeded random games per player count, and a real match.

Every ply of every game checks the cheap invariants (the ply count, the seat to move,
each seat still in the game has its king and three pieces, the no-capture count); one
ply in ``HEAVY_EVERY`` also checks the whole ``State``/``Game`` contract (game-over
consistency, encode/decode, every move's text round trip and ``is_legal`` against
``legal_moves``, stale moves rejected, material, ``play`` against ``_apply``).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from referee.core import Termination
from referee.errors import IllegalMoveError
from referee.games.triablo import Triablo, TriabloState
from referee.games.triablo.pieces import (
    CAPTIVE,
    CONTROLLER,
    DOUBLET,
    KIND,
    KING,
    KING_CODES,
    controlled,
)
from tests.cores import interleaved, on_every_core
from tests.matches import play_and_adjudicate

GAMES = 1_000
MAX_PLIES = 5_000
"""No game may last longer: with 100 plies between captures and under 30 captures
possible, a game ends well before."""
HEAVY_EVERY = 100


def _material(state: TriabloState) -> list[int]:
    singles = [0, 0, 0]
    for code in state.board:
        kind = KIND[code]
        if kind == KING:
            singles[CONTROLLER[code]] += 2
        elif kind:
            singles[CONTROLLER[code]] += 1
            if kind == DOUBLET:
                singles[CAPTIVE[code]] += 1
    return singles


def _heavy(game: Triablo, state: TriabloState, stale: list[int], rng: random.Random) -> None:
    moves = state.legal_moves()
    assert (state.to_move is None) == (state.outcome() is not None) == (moves == ())
    assert len(set(moves)) == len(moves) and list(moves) == sorted(moves)
    text = game.encode(state)
    again = game.decode(text)
    assert again == state and hash(again) == hash(state) and game.encode(again) == text
    assert again.legal_moves() == moves
    for move in moves:
        move_text = game.format_move(state, move)
        assert game.parse_move(state, move_text) == move
        assert state.is_legal(move), move_text
    legal = set(moves)
    for move in rng.sample(stale, min(len(stale), 8)):
        if move not in legal:
            assert not state.is_legal(move), game.format_move(state, move)
            with pytest.raises(IllegalMoveError):
                state.play(move)
    assert all(count <= 10 for count in _material(state))
    if moves:
        move = rng.choice(moves)
        assert state.play(move) == state._apply(move)


def _playout(game: Triablo, players: int, seed: int) -> TriabloState:
    rng = random.Random(seed)
    state = game.initial_state(players)
    limit = game.draw_limit
    previous: tuple[int, ...] = ()
    for ply in range(MAX_PLIES + 1):
        moves = state.legal_moves()
        assert state.ply == ply
        if not moves or ply % HEAVY_EVERY == seed % HEAVY_EVERY:
            _heavy(game, state, list(previous), rng)
        if not moves:
            assert state.seat < 0
            return state
        seat = state.seat
        alive = state.alive
        assert seat in alive and len(alive) >= 2 and state.quiet < limit
        for other in alive:
            assert state.board.find(KING_CODES[other]) >= 0 and controlled(state.board, other) >= 3
        previous = moves
        nxt = state._apply(moves[rng.randrange(len(moves))])
        assert nxt.quiet in (0, state.quiet + 1)
        assert len(nxt.out) >= len(state.out) and nxt.out[: len(state.out)] == state.out
        state = nxt
    pytest.fail(f"seed {seed}: no end after {MAX_PLIES} plies")


def _check_end(state: TriabloState, players: int) -> str:
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is Termination.RULES
    assert outcome.culprit is None and outcome.scores == ()
    assert outcome.reason and "\n" not in outcome.reason
    ranks = outcome.ranks
    assert all(rank == 1 + sum(1 for o in ranks if o < rank) for rank in ranks)
    alive = state.alive
    assert sorted(ranks[seat] for seat in alive) == [1] * len(alive)
    if len(alive) == 1:
        assert len(state.out) == players - 1
        return "win"
    assert state.quiet == 100
    return "draw"


def _random_games(players: int, seeds: Sequence[int]) -> tuple[Counter[str], set[str], int]:
    """The games of ``seeds``, each checked at every ply and at its end: how many ended
    in a win and in a draw, every reason a seat left, the longest game's plies."""
    game = Triablo()
    endings: Counter[str] = Counter()
    reasons: set[str] = set()
    longest = 0
    for seed in seeds:
        final = _playout(game, players, seed)
        endings[_check_end(final, players)] += 1
        reasons.update(why for _, why in final.out)
        longest = max(longest, final.ply)
    return endings, reasons, longest


@pytest.mark.marathon
@pytest.mark.parametrize("players", [2, 3])
def test_a_thousand_random_games(players: int) -> None:
    # The seeds are shared among the cores (``tests/cores.py``): the same games and checks.
    parts = on_every_core(functools.partial(_random_games, players), interleaved(range(GAMES)))
    endings: Counter[str] = sum((part for part, _, _ in parts), Counter())
    reasons = set().union(*(part for _, part, _ in parts))
    longest = max(part for _, _, part in parts)
    assert endings.total() == GAMES
    assert endings["win"] > 100 and endings["draw"] > 100, endings
    assert reasons == {"k", "f", "m"}, reasons  # every loss condition happens in play
    assert longest < MAX_PLIES


# --- a real match -------------------------------------------------------------------------


@pytest.mark.processes
def test_three_player_subprocess_match_is_confirmed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown, text, verdicts = play_and_adjudicate(capsys, tmp_path / "games.tgn", "triablo", 3)
    assert "Game 4/4" in shown
    assert text.count('[Players "3"]') == 4 and '[Game "triablo"]' in text
    assert [v["verdict"] for v in verdicts] == ["confirmed"] * 4
