"""``check-engine``'s special-move step always sends every game's special moves.

The fixed histories (``tournaments/checks/coverage/histories.py``) are checked against the
rules here, each by a test of its own kind written from the boards before and after the
move (not from the history's name): every move legal, the last one really a castling, an
en passant, a chain … Then the step's requests hold the Trichess castling and en passant
whatever the seed, and an engine that cannot read them fails that step, naming the move.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
import trio

from bots.faulty_bot import castling_or_en_passant
from protocol.spec import EngineSpec
from referee.listing.captures import victims
from referee.registry import GAME_NAMES, make_game
from tournaments.checks.coverage import scenarios
from tournaments.checks.coverage.histories import SPECIAL_HISTORIES, SpecialHistory
from tournaments.checks.coverage.steps import STEPS, Coverage, _ask_all

Check = Callable[[str, Any, Any, Any, str], bool]
"""``(game, before, move, after, text)``: whether the move is of the kind named."""


def _taken(game: str, before: Any, move: Any, after: Any) -> list[str]:
    return [cell for cell, _ in victims(game, before, move, after)]


def _trichess_castling(game: str, before: Any, move: Any, after: Any, text: str) -> bool:
    # Two of the mover's pieces leave their cells, one of them its king from e1.
    me = before.turn
    left = [c for c, code in enumerate(before.board) if code >> 3 == me and code
            and after.board[c] != code]  # fmt: skip
    king_from_e1 = text.split("-")[0][1:] == "e1"
    return len(left) == 2 and king_from_e1 and not _taken(game, before, move, after)


def _trichess_en_passant(game: str, before: Any, move: Any, after: Any, text: str) -> bool:
    # The pawn taken is not on the cell the capturing pawn lands on.
    taken = _taken(game, before, move, after)
    return len(taken) == 1 and taken[0] != text.split("-")[1]


def _field(game: str, state: Any, index: int) -> str:
    return str(make_game(game).encode(state).split(":")[index])


def _same_seat_again(game: str, before: Any, move: Any, after: Any, text: str) -> bool:
    return bool(after.to_move == before.to_move)


KINDS: dict[str, Check] = {
    "the pie swap": lambda g, b, m, a, t: t == "swap" and b.ply == 1,
    "a trap and the extra placement it earns": _same_seat_again,
    "a replacement": lambda g, b, m, a, t: "x" in t and _taken(g, b, m, a) == [t.split("x")[1]],
    "a whistle that takes two or more stones": lambda g, b, m, a, t: (
        "x" not in t and len(_taken(g, b, m, a)) >= 2
    ),
    "a two-leg chain that takes two or more stones": lambda g, b, m, a, t: (
        t.count("-") == 2 and len(_taken(g, b, m, a)) >= 2
    ),
    "a crush": lambda g, b, m, a, t: (
        re.fullmatch(r"[A-Za-z]\d+x[A-Za-z]\d+", t) is not None and len(_taken(g, b, m, a)) == 1
    ),
    "castling": _trichess_castling,
    "en passant": _trichess_en_passant,
    # The liberating pawn's owner's pool (the token's fifth field) loses a piece.
    "a liberation": lambda g, b, m, a, t: (
        "=" in t and _field(g, b, 4).split(",")[b.turn] != _field(g, a, 4).split(",")[b.turn]
    ),
    # A waiting pawn (the sixth field) is exchanged; the same seat moves on.
    "a deferred exchange": lambda g, b, m, a, t: (
        _field(g, b, 5) != "-" and _field(g, a, 5) == "-" and a.to_move == b.to_move
    ),
    "an extra placement": _same_seat_again,
    "a setup move": lambda g, b, m, a, t: b.ply < b.num_players and t.count(",") >= 4,
    "an abdication": lambda g, b, m, a, t: ">" in t and not _taken(g, b, m, a),
    "a capture": lambda g, b, m, a, t: len(_taken(g, b, m, a)) == 1,
}


@pytest.mark.parametrize(
    "history", SPECIAL_HISTORIES, ids=[f"{h.game}-{h.what}-{h.players}" for h in SPECIAL_HISTORIES]
)
def test_each_history_is_legal_and_ends_in_the_move_it_names(history: SpecialHistory) -> None:
    game = make_game(history.game, dict(history.options))
    state: Any = game.initial_state(history.players)
    for text in history.moves[:-1]:
        state = state.play(game.parse_move(state, text))  # raises on an illegal move
    move = game.parse_move(state, history.moves[-1])
    after = state.play(move)
    assert after.outcome() is None
    assert KINDS[history.what](history.game, state, move, after, history.moves[-1])
    # The kinds tell moves apart: the move before it is not of that kind.
    if len(history.moves) > 1:
        before: Any = game.initial_state(history.players)
        for text in history.moves[:-2]:
            before = before.play(game.parse_move(before, text))
        prior = game.parse_move(before, history.moves[-2])
        assert not KINDS[history.what](history.game, before, prior, state, history.moves[-2])


def test_every_game_has_its_special_moves() -> None:
    named = {(h.game, h.what) for h in SPECIAL_HISTORIES}
    assert {("trichess", "castling"), ("trichess", "en passant"), ("trike", "the pie swap"),
            ("trichess", "a liberation"), ("tricolor", "an extra placement"),
            ("whistling-captures", "a two-leg chain that takes two or more stones"),
            ("tricouleur", "a whistle that takes two or more stones"),
            ("triablo", "a setup move")} <= named  # fmt: skip
    assert {h.game for h in SPECIAL_HISTORIES} == set(GAME_NAMES)


@pytest.mark.parametrize("seed", [1, 2, 7, 12345])
def test_trichess_requests_hold_castling_and_en_passant_for_every_seed(seed: int) -> None:
    found = set()
    for ask in scenarios.special_asks("trichess", (3,), seed):
        game = ask.make_game()
        state: Any = game.initial_state(3)
        for text in ask.moves:
            move = game.parse_move(state, text)
            after = state.play(move)
            for what in ("castling", "en passant"):
                if KINDS[what]("trichess", state, move, after, text):
                    found.add(what)
            state = after
    assert found == {"castling", "en passant"}


def test_every_game_s_special_histories_are_asked_whatever_the_seed() -> None:
    for history in SPECIAL_HISTORIES:
        counts = make_game(history.game).player_counts
        asked = [a.moves for a in scenarios.fixed_special_asks(history.game, counts)]
        assert history.moves in asked
        assert any(len(m) == len(history.moves) + 1 and m[:-1] == history.moves for m in asked)
    # They come first in the step's requests, before the random playouts' finds.
    fixed = scenarios.fixed_special_asks("trichess", (3,))
    assert scenarios.special_asks("trichess", (3,), 99)[: len(fixed)] == fixed


def test_the_faulty_engine_s_detector_finds_castling_and_en_passant() -> None:
    game = make_game("trichess")
    found = {
        h.what: castling_or_en_passant(game, 3, None, h.moves)
        for h in SPECIAL_HISTORIES
        if h.game == "trichess" and not h.options
    }
    assert found["castling"] == "castling We1-Wg1"
    assert found["en passant"] == "en passant Bb4-Ba3"
    assert found["a liberation"] is None


def _coverage(mode: str) -> Coverage:
    spec = EngineSpec(name="faulty", argv=(sys.executable, "-m", "bots", "faulty", "--mode", mode))
    return Coverage("trichess", spec, (3,), timeout=10.0, seed=1, games=0)


def _run_special_step(mode: str) -> tuple[bool, str]:
    return trio.run(dict(STEPS)["special moves in the history"], _coverage(mode))


def test_an_engine_that_cannot_read_castling_or_en_passant_fails_the_special_step() -> None:
    passed, detail = _run_special_step("no-castling-ep")
    assert not passed
    # The step names the request (the castling history, asked first) and the answer.
    assert detail.startswith("castling (We1-Wg1), 3 players"), detail
    assert "got 'error'" in detail or "cannot read the history" in detail, detail


def test_the_en_passant_history_alone_is_caught_too() -> None:
    asks = [a for a in scenarios.special_asks("trichess", (3,), 1) if a.label.startswith("en p")]
    passed, detail = trio.run(_ask_all, _coverage("no-castling-ep"), asks, "special moves")
    assert not passed
    assert detail.startswith("en passant (Bb4-Ba3), 3 players"), detail


def test_the_special_step_passes_an_engine_that_reads_them() -> None:
    # The same faulty engine with a fault elsewhere (an unknown command) reads castling
    # and en passant: the step passes, so the failure above is the fault's.
    passed, detail = _run_special_step("die-on-unknown")
    assert passed, detail
    assert "special moves answered with legal moves" in detail
