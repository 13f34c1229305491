"""Trichess endings and scoring (docs/rules/trichess.md): échec et fat, pat, single mate by
either opponent, double mate, échec et pat (coalition), the draw cap; exact 3/2/1/0.

Each position is set up with the seat to move about to deliver the ending (so the
ending follows a real move), and is checked in all three rotations of the board.
"""

from __future__ import annotations

import pytest

from referee.core import Termination
from referee.games.trichess import Trichess
from tests.rules.test_trichess import Setup, play, rot, texts

ROT = pytest.mark.parametrize("k", [0, 1, 2])
COLOURS = ("White", "Red", "Black")


def pieces(text: str) -> dict[str, str]:
    """``"wK Wa1, rK Rd1"`` -> ``{"Wa1": "wK", "Rd1": "rK"}``."""
    return {cell: piece for piece, cell in (item.split() for item in text.split(","))}


def finish(setup: Setup, move: str, k: int) -> tuple[tuple[int, ...], str]:
    """Play ``move`` (written for k=0) in rotation ``k``; return the scores in k=0's seats."""
    head, _, choice = move.partition("=")
    text = "-".join(rot(c, k) for c in head.split("-")) + (f"={choice}" if choice else "")
    before = setup.rotated(k).state()
    assert before.outcome() is None
    state = play(before, text)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.RULES and outcome.culprit is None
    assert state.to_move is None and state.legal_moves() == ()
    assert not state.is_legal(before.legal_moves()[0])
    again = setup.game().decode(setup.game().encode(state))
    assert again.outcome() == outcome
    scores = tuple(int(outcome.scores[(s + k) % 3]) for s in range(3))
    ranks = tuple(outcome.ranks[(s + k) % 3] for s in range(3))
    assert ranks == tuple(1 + sum(o > v for o in scores) for v in scores)
    return scores, outcome.reason


@ROT
def test_echec_et_fat(k: int) -> None:
    # White's queen goes to We4: up the file to Red's king on Rd1, and along the rosette
    # branch We4-Be4-Bf3 to Black's king on Bg2, at once.
    setup = Setup(pieces("wK Wa1, wQ Wh4, rK Rd1, bK Bg2"))
    scores, reason = finish(setup, "Wh4-We4", k)
    assert scores == (3, 0, 0)
    assert reason.startswith("echec et fat") and f"{COLOURS[k]} (seat {k + 1})" in reason


@ROT
def test_pat(k: int) -> None:
    setup = Setup(pieces("wK We1, wQ Rh2, rK Ra1, bK Be1"))
    scores, reason = finish(setup, "Rh2-Rc2", k)
    assert scores == (1, 1, 1) and reason.startswith("pat:")


SMOTHER = "wK We1, bK Be1, rK Ra1, rR Rb1, rR Ra2, rP Rb2"
"""Red's king boxed in by its own pieces, none of which can reach Rb3 or Rc2."""


@ROT
def test_single_mate_by_the_previous_player(k: int) -> None:
    setup = Setup(pieces(SMOTHER + ", wN Rd4"))
    scores, reason = finish(setup, "Rd4-Rb3", k)
    assert scores == (3, 0, 1)  # White seigneur, Red serf, Black vassal
    mater, mated = (
        f"{COLOURS[k]} (seat {k + 1})",
        f"{COLOURS[(k + 1) % 3]} (seat {(k + 1) % 3 + 1})",
    )
    assert reason == f"echec et mat: {mater} mates {mated} alone"


@ROT
def test_single_mate_by_the_next_player(k: int) -> None:
    # Black's knight already checks Red; White makes a quiet move, and Red is mated by Black.
    setup = Setup(pieces(SMOTHER + ", bN Rc2"))
    scores, _ = finish(setup, "We1-Wd1", k)
    assert scores == (1, 0, 3)  # Black seigneur, Red serf, White vassal


@ROT
def test_double_mate(k: int) -> None:
    setup = Setup(pieces(SMOTHER + ", wN Rd4, bN Rc2"))
    scores, reason = finish(setup, "Rd4-Rb3", k)
    assert scores == (2, 0, 2) and reason.startswith("double echec et mat")


@ROT
def test_single_mate_although_both_opponents_check(k: int) -> None:
    # White's rook checks along Red's rank 1, Black's knight from Rb3. Taking the knight
    # (Ra2xRb3) escapes Black but not White: White alone mates, Black does not.
    setup = Setup(pieces("wK We1, wR Rh3, bK Be1, bN Rb3, rK Ra1, rP Ra2, rP Rb2"))
    scores, _ = finish(setup, "Rh3-Rh1", k)
    assert scores == (3, 0, 1)


@ROT
def test_echec_et_pat_coalition_mate(k: int) -> None:
    # White's rook checks along rank 1; Black's rook holds rank 2. Neither colour alone
    # mates (Ra2 escapes White, the king is not even attacked by Black).
    setup = Setup(pieces("wK We1, wR Rc3, rK Ra1, bK Be1, bR Rh2"))
    scores, reason = finish(setup, "Rc3-Rc1", k)
    assert scores == (1, 2, 2)  # the player before the victim (White) is vassal
    assert reason.startswith("echec et pat")


@ROT
def test_a_player_in_check_with_a_way_out_plays_on(k: int) -> None:
    setup = Setup(pieces("wK We1, wR Rc3, rK Ra1, bK Be1"))
    state = play(setup.rotated(k).state(), f"{rot('Rc3', k)}-{rot('Rc1', k)}")
    assert state.outcome() is None and state.in_check((k + 1) % 3)
    assert texts(state) == [f"{rot('Ra1', k)}-{rot(to, k)}" for to in ("Ra2", "Rb2")]


@ROT
def test_fat_by_a_deferred_exchange(k: int) -> None:
    # White's waiting pawn on Rd1 becomes a queen: up the file to Red's king on Rd3 and
    # along the diagonal Re2 Rf3 Rg4 Ba4 to Black's king: the exchange itself is the fat.
    setup = Setup(
        pieces("wK Wa1, wP Rd1, rK Rd3, bK Ba4"),
        pools=("Q", "-", "-"),
        pending=("Rd1",),
        options={"liberation-empty-pool": "deferred"},
    )
    assert texts(setup.rotated(k).state()) == [rot("Rd1", k) + "=Q"]
    state = play(setup.rotated(k).state(), rot("Rd1", k) + "=Q")
    outcome = state.outcome()
    assert outcome is not None and state.to_move is None
    assert tuple(int(outcome.scores[(s + k) % 3]) for s in range(3)) == (3, 0, 0)


def test_draw_cap_is_scored_as_pat_and_a_win_stands() -> None:
    options = {"draw-cap": "40"}
    quiet = Setup(pieces("wK We1, wR Wh1, rK Re1, bK Be1"), clock=39, ply=60, options=options)
    state = play(quiet.state(), "Wh1-Wh2")
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (1.0, 1.0, 1.0)
    assert "draw-cap" in outcome.reason and state.legal_moves() == ()
    pawn = play(quiet.state(), "We1-Wd1")
    assert pawn.outcome() is not None  # a king move counts too
    fresh = Setup(pieces("wK We1, wP Wa2, rK Re1, bK Be1"), clock=39, ply=60, options=options)
    assert play(fresh.state(), "Wa2-Wa3").outcome() is None  # a pawn move resets the clock
    mate = Setup(pieces(SMOTHER + ", wN Rd4"), clock=39, ply=60, options=options)
    assert Trichess(options).encode(play(mate.state(), "Rd4-Rb3")).split(":")[6] == "40"
    final = play(mate.state(), "Rd4-Rb3").outcome()
    assert final is not None and final.scores == (3.0, 0.0, 1.0)  # the mate wins over the cap
    uncapped = Setup(pieces("wK We1, wR Wh1, rK Re1, bK Be1"), clock=39, ply=60)
    assert play(uncapped.state(), "Wh1-Wh2").outcome() is None  # draw-cap=none by default
