"""1,000 seeded random Trichess games in-process, with the conformance invariants.

A playout picks a random piece of the seat to move, then a random pseudo-legal move of
that piece that ``is_legal`` accepts (trying the next piece if it has none), so the full
legal list is only built on the plies that check it. The default rules have no
draw rule (``draw-cap=none``: three bare kings play forever), so these games use the
option ``draw-cap=8``; each option set of docs/rules/trichess.md takes a share of the games.
Every ply checks the cheap invariants; every 30th ply (and the last) the heavy ones:
the full legal list against ``is_legal``, text and position round trips.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from referee.core import Termination
from referee.games.trichess import Trichess, TrichessState
from referee.games.trichess.attacks import KING, attacked, find_kings, material, piece_cells
from referee.games.trichess.movegen import castling_moves, piece_moves, pseudo_moves
from tests.cores import interleaved, on_every_core

GAMES = 1000
HEAVY_EVERY = 30
MAX_PLIES = 4000
"""Pawn moves and captures are finite, and the cap allows 8 plies after each."""
OPTION_SETS = [
    {"draw-cap": "8"},
    {"draw-cap": "8", "centre": "no-diagonals"},
    {"draw-cap": "8", "en-passant": "next-only", "castling": "no"},
    {"draw-cap": "8", "liberation-empty-pool": "deferred"},
    {"draw-cap": "8", "double-step": "no", "en-passant": "no"},
]
VALID_SCORES = {(3, 0, 0), (1, 1, 1), (3, 1, 0), (2, 2, 0), (2, 2, 1)}
"""Every ending's scores, up to the order of the seats."""


def check_heavy(game: Trichess, state: TrichessState, rng: random.Random) -> None:
    moves = state.legal_moves()
    over = state.outcome() is not None
    assert (state.to_move is None) == over == (moves == ())
    assert list(moves) == sorted(set(moves))
    legal = set(moves)
    for move in moves:
        assert state.is_legal(move)
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move
    if not over and not state.status().exchange:
        for move in pseudo_moves(state.board, state.context()):
            assert state.is_legal(move) == (move in legal)
    for _ in range(8):
        junk = rng.randrange(96 << 10)
        assert state.is_legal(junk) == (junk in legal)
    text = game.encode(state)
    again = game.decode(text)
    assert again == state and hash(again) == hash(state) and game.encode(again) == text
    assert state.pieces == piece_cells(state.board) and state.mat == material(state.board)
    kings = find_kings(state.board)
    assert state.kings == tuple(k[0] for k in kings)
    x = state.turn
    if not state.exchanged:  # the seat to move never attacks a king, the shield holds
        for other in (1, 2):
            assert not attacked(state.board, state.kings[(x + other) % 3], 1 << x, game.cfg.geo)
    assert not attacked(state.board, state.kings[(x + 2) % 3], 1 << (x + 1) % 3, game.cfg.geo)


def random_move(state: TrichessState, rng: random.Random) -> int:
    if state.status().exchange:
        return rng.choice(state.legal_moves())
    ctx = state.context()
    cells = list(ctx.cells)
    while cells:
        frm = cells.pop(rng.randrange(len(cells)))
        moves: list[int] = []
        piece_moves(state.board, ctx, frm, moves)
        if state.board[frm] & 7 == KING:
            moves.extend(castling_moves(state.board, ctx))
        rng.shuffle(moves)
        for move in moves:
            if state.is_legal(move):
                return move
    raise AssertionError("no legal move, but the game is not over")


def playout(game: Trichess, seed: int) -> tuple[TrichessState, str]:
    rng = random.Random(seed)
    state = game.initial_state(3)
    while True:
        assert state.ply <= MAX_PLIES, f"seed {seed}: no end after {MAX_PLIES} plies"
        outcome = state.outcome()
        if state.ply % HEAVY_EVERY == 0 or outcome is not None:
            check_heavy(game, state, rng)
        if outcome is not None:
            assert state.to_move is None
            return state, outcome.reason.split(":")[0].split(" of ")[0]
        assert state.to_move == state.turn
        move = random_move(state, rng)
        frm, to = move >> 10, (move >> 3) & 127
        assert state.board[to] & 7 != KING or frm == to, "a move onto a king"
        state = state._apply(move)


def _random_games(seeds: Sequence[int]) -> Counter[str]:
    """The games of ``seeds``, each checked as it is played and at its end: how many
    ended each way."""
    endings: Counter[str] = Counter()
    for seed in seeds:
        game = Trichess(OPTION_SETS[seed % len(OPTION_SETS)])
        final, ending = playout(game, seed)
        outcome = final.outcome()
        assert outcome is not None and outcome.termination is Termination.RULES
        scores = tuple(int(s) for s in outcome.scores)
        assert tuple(sorted(scores, reverse=True)) in {
            tuple(sorted(v, reverse=True)) for v in VALID_SCORES
        }
        assert outcome.ranks == tuple(1 + sum(o > s for o in scores) for s in scores)
        endings[ending] += 1
    return endings


@pytest.mark.marathon
def test_a_thousand_random_games() -> None:
    # The seeds are shared among the cores (``tests/cores.py``): the same games and checks.
    endings: Counter[str] = sum(on_every_core(_random_games, interleaved(range(GAMES))), Counter())
    assert endings.total() == GAMES
    assert {"echec et fat", "pat", "echec et mat", "echec et pat"} <= set(endings), endings
