"""``State.why_illegal`` and ``State.explain_illegal`` against ``legal_moves``, for every game.

Seeded random playouts of every registered game (and player count, and a few option
sets); at each position a sample of move tokens that parse: legal moves, moves legal
somewhere earlier in the playout, and tokens made up from the game's cell names. For
each: ``why_illegal`` is None exactly for the legal moves, ``explain_illegal`` (the
game's own judgement, computed independently of ``is_legal``) is None exactly for the
legal moves too, and an illegal move's reason is one specific line (never the generic
``NOT_LEGAL``). ``play`` raises the same line.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from referee.core import NOT_LEGAL, AnyGame, State
from referee.errors import IllegalMoveError, RulesError
from referee.registry import make_game

Fuzz = Callable[[AnyGame, State[Any], random.Random, list[str]], str]

PLAYOUTS = 4
"""Per case; each case's positions give hundreds of illegal tokens."""
MAX_PLIES = 160
"""Plies per playout checked (long games are cut: the openings and middles matter)."""
PER_POSITION = 6
"""Tokens of each kind (legal, earlier, made up) checked per position."""


def _cells(text: str) -> list[str]:
    """The cell names in a move text (split at the separators of every notation)."""
    return [part for part in re.split(r"[-x>=/,]", text) if part]


def _trike(game: AnyGame, state: State[Any], rng: random.Random, pool: list[str]) -> str:
    names: tuple[str, ...] = getattr(state, "board").names  # noqa: B009 - any state type
    return "swap" if rng.random() < 0.1 else rng.choice(names)


def _own(game: AnyGame, state: State[Any], rng: random.Random) -> list[str]:
    """The cells of a few legal moves of the seat to move (its movable stones first)."""
    moves = state.legal_moves()
    picked = rng.sample(moves, min(3, len(moves)))
    return [cell for m in picked for cell in _cells(game.format_move(state, m))]


def _pairs(sep: str) -> Fuzz:
    """Two cells joined by one of ``sep``'s characters: the first mostly from a legal
    move now (a stone of the mover), the second from any move seen."""

    def fuzz(game: AnyGame, state: State[Any], rng: random.Random, pool: list[str]) -> str:
        cells = _cells(rng.choice(pool)) + _cells(rng.choice(pool))
        own = _own(game, state, rng) if rng.random() < 0.7 else cells
        return f"{rng.choice(own[:1] or cells)}{rng.choice(sep)}{rng.choice(own + cells)}"

    return fuzz


def _whistling(game: AnyGame, state: State[Any], rng: random.Random, pool: list[str]) -> str:
    moves = state.legal_moves()
    text = game.format_move(state, rng.choice(moves))
    if "x" in text or rng.random() < 0.3:
        return _pairs("-x")(game, state, rng, pool)
    cells = text.split("-")
    roll = rng.random()
    if roll < 0.25 and len(cells) > 2:  # a chain cut short
        return "-".join(cells[: rng.randrange(2, len(cells))])
    if roll < 0.5:  # one more leg, anywhere
        return "-".join([*cells, rng.choice(_cells(rng.choice(pool)) + cells)])
    if roll < 0.75:  # a pivot moved
        cells[rng.randrange(1, len(cells))] = rng.choice(_cells(rng.choice(pool)) + cells)
        return "-".join(cells)
    return "-".join([cells[0], *cells[1:][::-1]])  # the legs in another order


def _trichess(game: AnyGame, state: State[Any], rng: random.Random, pool: list[str]) -> str:
    cells = _cells(rng.choice(pool)) + _cells(rng.choice(pool))
    cells = [c for c in cells if len(c) == 3]
    text = f"{rng.choice(cells)}-{rng.choice(cells)}"
    return text + (f"={rng.choice('PNBRQ')}" if rng.random() < 0.15 else "")


def _tricolor(game: AnyGame, state: State[Any], rng: random.Random, pool: list[str]) -> str:
    return rng.choice("OGY") + rng.choice(pool)[1:]


_TRIABLO_FROM: dict[str, list[str]] = {}
"""Triablo's well-formed move texts by their origin point (filled on first use)."""


def _triablo(game: AnyGame, state: State[Any], rng: random.Random, pool: list[str]) -> str:
    if not _TRIABLO_FROM:
        from referee.games.triablo.notation import MOVE_TEXT

        for text in MOVE_TEXT.values():
            _TRIABLO_FROM.setdefault(text[:2], []).append(text)
    origin = rng.choice(_own(game, state, rng) + _cells(rng.choice(pool)))
    return rng.choice(_TRIABLO_FROM.get(origin[:2]) or _TRIABLO_FROM["a1"])


CASES: list[tuple[str, dict[str, str], int, Fuzz]] = [
    ("trike", {}, 2, _trike),
    ("trike", {"pie": "no", "mode": "odd", "size": "7"}, 2, _trike),
    ("trike", {"mode": "even", "size": "7"}, 2, _trike),
    ("tricouleur", {}, 2, _pairs("-x")),
    ("tricouleur", {"closer-applies-to-captures": "no", "closer-metric": "steps"}, 2, _pairs("-x")),
    ("whistling-captures", {}, 2, _whistling),
    ("whistling-captures", {"closer-applies-to-captures": "no"}, 2, _whistling),
    ("tricolor", {}, 2, _tricolor),
    ("tricolor", {"n": "2", "rim-crowns": "no"}, 3, _tricolor),
    ("triablo", {}, 2, _triablo),
    ("trichess", {"draw-cap": "50"}, 3, _trichess),
    (
        "trichess",
        {"draw-cap": "50", "castling": "no", "double-step": "no", "en-passant": "next-only"},
        3,
        _trichess,
    ),
    (
        "trichess",
        {"draw-cap": "50", "centre": "no-diagonals", "liberation-empty-pool": "deferred"},
        3,
        _trichess,
    ),
    ("triablo", {"setup": "free", "captive-tips": "no"}, 3, _triablo),
]
"""(game, options, players, token maker)."""


def _options_id(options: dict[str, str]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def _tokens(
    game: AnyGame, state: State[Any], rng: random.Random, pool: list[str], fuzz: Fuzz
) -> list[str]:
    moves = state.legal_moves()
    legal = [game.format_move(state, m) for m in rng.sample(moves, min(PER_POSITION, len(moves)))]
    earlier = rng.sample(pool, min(PER_POSITION, len(pool)))
    made = [fuzz(game, state, rng, pool) for _ in range(PER_POSITION)] if pool else []
    return legal + earlier + made


@pytest.mark.parametrize(
    ("name", "options", "players", "fuzz"),
    CASES,
    ids=[f"{c[0]}-{c[2]}p-{_options_id(c[1])}" for c in CASES],
)
def test_why_illegal_is_none_exactly_for_legal_moves(
    name: str, options: dict[str, str], players: int, fuzz: Fuzz
) -> None:
    game = make_game(name, options)
    rng = random.Random(f"{name}{options}{players}")
    reasons: set[str] = set()
    illegal_checked = 0
    for _ in range(PLAYOUTS):
        state = game.initial_state(players)
        pool: list[str] = []
        seen: set[str] = set()
        for _ply in range(MAX_PLIES):
            moves = state.legal_moves()
            if not moves:
                break
            legal = set(moves)
            for text in _tokens(game, state, rng, pool, fuzz):
                try:
                    move = game.parse_move(state, text)
                except RulesError:
                    continue
                why = state.why_illegal(move)
                explained = state.explain_illegal(move)
                if move in legal:
                    assert why is None, (text, game.encode(state), why)
                    assert explained is None, (text, game.encode(state), explained)
                    continue
                illegal_checked += 1
                assert why is not None and why != NOT_LEGAL, (text, game.encode(state))
                assert explained == why and "\n" not in why
                with pytest.raises(IllegalMoveError, match=re.escape(why)):
                    state.play(move)
                reasons.add(re.sub(r"[A-Za-z]+[0-9]+|\([-0-9,]+\)|[0-9]+", "#", why))
            for move in moves:
                text = game.format_move(state, move)
                if text not in seen:
                    seen.add(text)
                    pool.append(text)
            state = state.play(rng.choice(moves))
    assert illegal_checked >= 100, illegal_checked
    assert len(reasons) >= 3, reasons
