"""Trichess special moves and legality: castling, en passant, liberation, the shield rule and
non-aggression (docs/rules/trichess.md).

Diagrams as in ``Trichess.render`` (see test_trichess). Most tests run in all three
rotations of the board (White->Red->Black->White), since every rule is symmetric.
"""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError
from referee.games.trichess import Trichess
from referee.games.trichess.board import INDEX
from tests.rules.test_trichess import Setup, board, play, rot, texts

ROT = pytest.mark.parametrize("k", [0, 1, 2])


def moves_from(setup: Setup, k: int, cell: str) -> set[str]:
    """The legal moves (rotated back to White's frame) of the piece on ``cell``."""
    state = setup.rotated(k).state()
    here = rot(cell, k)
    return {" ".join(rot(w, -k) for w in m.split("-")) for m in texts(state) if m[:3] == here}


# --- castling ---------------------------------------------------------------------------

CASTLING = """
4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .
2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .
1 wR  .  .  . wK  .  . wR   1  .  .  .  . rK  .  .  .   1  .  .  .  . bK  .  .  .
"""


@ROT
def test_castling_both_sides_when_free(k: int) -> None:
    setup = Setup(board(CASTLING), castling="WKQ")
    assert {"We1 Wg1", "We1 Wc1"} <= moves_from(setup, k, "We1")
    state = setup.rotated(k).state()
    castled = play(state, f"{rot('We1', k)}-{rot('Wg1', k)}")
    assert castled.board[INDEX[rot("Wg1", k)]] == (k * 8 + 6)  # the king
    assert castled.board[INDEX[rot("Wf1", k)]] == (k * 8 + 4)  # the rook from h1
    assert not castled.board[INDEX[rot("Wh1", k)]]
    assert castled.castling == 0
    long = play(state, f"{rot('We1', k)}-{rot('Wc1', k)}")
    assert long.board[INDEX[rot("Wd1", k)]] == k * 8 + 4 and not long.board[INDEX[rot("Wa1", k)]]


@ROT
@pytest.mark.parametrize(
    ("attacker", "cell", "short", "long"),
    [
        ({"Rc1": "rR"}, "Wf1", False, True),  # Red's rook up its c file reaches Wf1
        ({"Be2": "bR"}, "Wd1", True, False),  # Black's rook up its e file reaches Wd1
        ({"Bg2": "bR"}, "Wb1", True, True),  # Wb1 must be empty but may be attacked
        ({"Rb1": "rR"}, "Wg1", False, True),  # the landing cell
        ({"Rd2": "bR"}, "We1", False, False),  # the king is in check (Rd2 ... Rd4 We4 ... We1)
    ],
)
def test_castling_through_attacked_cells(
    attacker: dict[str, str], cell: str, short: bool, long: bool, k: int
) -> None:
    setup = Setup({**board(CASTLING), **attacker}, castling="WKQ")
    state = setup.rotated(k).state()
    assert state.in_check(k) == (cell == "We1")
    king = moves_from(setup, k, "We1")
    assert ("We1 Wg1" in king) == short
    assert ("We1 Wc1" in king) == long


@ROT
def test_castling_needs_empty_cells_rights_and_the_option(k: int) -> None:
    blocked = Setup({**board(CASTLING), "Wb1": "wN"}, castling="WKQ")
    assert moves_from(blocked, k, "We1") >= {"We1 Wg1"}
    assert "We1 Wc1" not in moves_from(blocked, k, "We1")
    only_q = Setup(board(CASTLING), castling="WQ")
    assert "We1 Wg1" not in moves_from(only_q, k, "We1")
    assert "We1 Wc1" in moves_from(only_q, k, "We1")
    assert not {"We1 Wg1", "We1 Wc1"} & moves_from(Setup(board(CASTLING)), k, "We1")
    off = Trichess({"castling": "no"})
    assert off.encode(off.initial_state(3)).split(":")[2] == "-"


def test_castling_rights_are_lost_by_moving_or_losing_a_rook() -> None:
    state = Setup(board(CASTLING), castling="WKQ").state()
    assert play(state, "Wh1-Wh2").castling == 0b10  # queen side only
    assert play(state, "Wa1-Wb1").castling == 0b01
    assert play(state, "We1-Wf2").castling == 0
    # Red's rook comes down White's h file and takes the rook on Wh1
    raid = Setup({**board(CASTLING), "Wh3": "rR"}, castling="WKQ", turn="R").state()
    assert play(raid, "Wh3-Wh1").castling == 0b10


def test_castling_is_written_as_the_kings_move() -> None:
    state = Setup(board(CASTLING), castling="WKQ").state()
    game = Trichess()
    move = game.parse_move(state, "We1-Wg1")
    assert state.is_legal(move) and game.format_move(state, move) == "We1-Wg1"
    assert not state.is_legal(game.parse_move(state, "We1-Wh1"))


# --- en passant ---------------------------------------------------------------------------

EN_PASSANT = """
4  .  . bP  .  rP .  .  .   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .
2  .  .  . wP  .  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .
1 wK  .  .  .  .  .  .  .   1  .  .  .  . rK  .  .  .   1  .  .  .  . bK  .  .  .
"""
# Red's pawn entered White's territory from Rd4 (Rd4 -> We4), Black's from Bf4 (-> Wc4);
# both now move towards White's rank 1 and capture diagonally on Wd3 after Wd2-Wd4.


@ROT
@pytest.mark.parametrize(
    ("mode", "red", "black"),
    [("each-opponent", True, True), ("next-only", True, False), ("no", False, False)],
)
def test_en_passant_by_each_opponent(mode: str, red: bool, black: bool, k: int) -> None:
    setup = Setup(board(EN_PASSANT), options={"en-passant": mode})
    game = Trichess({"en-passant": mode})
    state = play(setup.rotated(k).state(), f"{rot('Wd2', k)}-{rot('Wd4', k)}")
    assert game.encode(state).split(":")[3] == (rot("Wd3", k) if mode != "no" else "-")
    red_ep = f"{rot('We4', k)}-{rot('Wd3', k)}"
    black_ep = f"{rot('Wc4', k)}-{rot('Wd3', k)}"
    assert (red_ep in texts(state)) == red
    taken = play(state, red_ep) if red else None
    if taken is not None:  # the double-stepped pawn goes to White's pool
        assert not taken.board[INDEX[rot("Wd4", k)]]
        assert taken.board[INDEX[rot("Wd3", k)]] == ((k + 1) % 3) * 8 + 1
        assert taken.pool(k)[1] == 1
    waited = play(state, f"{rot('Re1', k)}-{rot('Rd1', k)}")
    assert (black_ep in texts(waited)) == black
    if black:
        gone = play(waited, black_ep)
        assert not gone.board[INDEX[rot("Wd4", k)]] and gone.pool(k)[1] == 1
    # after Black's turn the right is gone for good
    later = play(waited, f"{rot('Be1', k)}-{rot('Bd1', k)}", f"{rot('Wa1', k)}-{rot('Wb1', k)}")
    assert red_ep not in texts(later)
    assert game.encode(later).split(":")[3] == "-"


def test_en_passant_needs_the_pawn_still_there_and_the_cell_empty() -> None:
    # two red knights: Wb2 reaches the passed-over cell Wd3, Wf3 reaches the pawn on Wd4;
    # White's extra rook keeps Red from being 3 points richer (non-aggression)
    setup = Setup({**board(EN_PASSANT), "Wh1": "wR", "Wb2": "rN", "Wf3": "rN"})
    pushed = play(setup.state(), "Wd2-Wd4")
    blocked = play(pushed, "Wb2-Wd3")  # the passed-over cell is no longer empty
    took_knight = play(blocked, "Wc4-Wd3")  # only an ordinary capture of the knight remains
    assert took_knight.board[INDEX["Wd4"]] == 1 and took_knight.pool(1)[2] == 1
    gone = play(pushed, "Wf3-Wd4")  # the double-stepped pawn is taken
    assert "Wc4-Wd3" not in texts(gone)
    assert Trichess().encode(gone).split(":")[3] == "-"


# --- liberation ---------------------------------------------------------------------------

LIBERATION = """
4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  . bK
2 wK  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  . wP  .  .  .
1  .  .  .  .  .  .  .  .   1  .  .  .  . rK  .  .  .   1  .  .  . bN  .  .  .  .
"""
# White's pawn on Be2 moves towards Black's rank 1: push to Be1, or take the knight on Bd1.


@ROT
def test_liberation_choice_is_compulsory_with_a_pool(k: int) -> None:
    setup = Setup(board(LIBERATION), pools=("QNP", "-", "B"))
    assert moves_from(setup, k, "Be2") == {
        "Be2 Be1=P", "Be2 Be1=N", "Be2 Be1=Q", "Be2 Bd1=P", "Be2 Bd1=N", "Be2 Bd1=Q",
    }  # fmt: skip
    state = setup.rotated(k).state()
    game = Trichess()
    for bare in ("Be2-Be1", "Be2-Bd1", "Be2-Be1=R", "Be2-Bd1=B"):
        move = game.parse_move(state, _rot_move(bare, k))
        assert not state.is_legal(move), bare
        with pytest.raises(IllegalMoveError):
            state.play(move)
    freed = play(state, _rot_move("Be2-Bd1=N", k))
    assert freed.board[INDEX[rot("Bd1", k)]] == k * 8 + 2  # a knight of the pawn's owner
    assert list(freed.pool(k)) == [0, 1, 0, 0, 0, 1]  # the knight left, the pawn did not enter
    assert list(freed.pool((k + 2) % 3))[2] == 1  # Black's knight went to Black's pool


def _rot_move(move: str, k: int) -> str:
    head, _, choice = move.partition("=")
    return "-".join(rot(c, k) for c in head.split("-")) + (f"={choice}" if choice else "")


def test_liberation_notation_of_the_rules_example() -> None:
    game = Trichess()
    state = Setup(board(LIBERATION), pools=("N", "-", "-")).state()
    move = game.parse_move(state, "Be3-Bd1=N")  # the rules page's example shape parses
    assert game.format_move(state, move) == "Be3-Bd1=N"
    assert not state.is_legal(move)  # but no pawn stands on Be3 (and none could reach Bd1)
    assert state.is_legal(game.parse_move(state, "Be2-Bd1=N"))


@ROT
def test_liberation_with_an_empty_pool_stays_a_pawn(k: int) -> None:
    setup = Setup(board(LIBERATION))
    assert moves_from(setup, k, "Be2") == {"Be2 Be1", "Be2 Bd1"}
    state = play(setup.rotated(k).state(), _rot_move("Be2-Be1", k))
    assert state.board[INDEX[rot("Be1", k)]] == k * 8 + 1  # still a pawn, for good
    assert state.pending == ()
    # later White loses a piece: still no exchange, and the pawn has no moves
    more = Setup({**board(LIBERATION), "Wg3": "wN", "Wg4": "rR"})
    arrived = play(more.rotated(k).state(), _rot_move("Be2-Be1", k))
    later = play(arrived, _rot_move("Wg4-Wg3", k), _rot_move("Bh3-Bh4", k))  # Red takes the knight
    assert later.to_move == k and later.pool(k)[2] == 1
    assert not [m for m in texts(later) if m.startswith(rot("Be1", k)) or "=" in m]


@ROT
def test_deferred_liberation_exchanges_at_the_owners_next_turn(k: int) -> None:
    options = {"liberation-empty-pool": "deferred"}
    setup = Setup({**board(LIBERATION), "Wg3": "wN", "Wg4": "rR"}, options=options)
    game = Trichess(options)
    state = play(setup.rotated(k).state(), _rot_move("Be2-Be1", k))  # empty pool: it waits
    assert state.pending == (INDEX[rot("Be1", k)],)
    assert game.encode(state).split(":")[5] == rot("Be1", k)
    state = play(state, _rot_move("Wg4-Wg3", k))  # Red takes White's knight
    state = play(state, _rot_move("Bh3-Bh4", k))
    assert state.to_move == k and texts(state) == [rot("Be1", k) + "=N"]  # the exchange first
    exchanged = play(state, rot("Be1", k) + "=N")
    assert exchanged.to_move == k and exchanged.exchanged  # then the same seat moves
    assert game.encode(exchanged).split(":")[1] == rot("W", k) + "+"
    assert exchanged.board[INDEX[rot("Be1", k)]] == k * 8 + 2 and exchanged.pending == ()
    assert all("=" not in m for m in texts(exchanged))
    moved = play(exchanged, _rot_move("Wa2-Wa1", k))
    assert moved.to_move == (k + 1) % 3 and not moved.exchanged


def test_deferred_pawn_taken_before_its_exchange_stops_waiting() -> None:
    options = {"liberation-empty-pool": "deferred"}
    setup = Setup({**board(LIBERATION), "Bf3": "bN"}, options=options)
    state = play(setup.state(), "Be2-Be1")
    assert state.pending == (INDEX["Be1"],)
    state = play(state, "Re1-Rd1", "Bf3-Be1")  # Black's knight takes the waiting pawn
    assert state.pending == () and state.pool(0)[1] == 1


# --- the shield ---------------------------------------------------------------------------

SHIELD = """
4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  . rN  .  .  . rK   3  .  .  .  .  .  .  .  .
2  .  .  .  . wK  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .
1  .  .  .  .  .  .  .  .   1  .  .  . bR  .  .  .  .   1  .  .  .  . bK  .  .  .
"""
# Red's knight on Rd3 stands on the file Rd1-Rd4-We4-We1 between Black's rook and
# White's king: a red piece may not move if that puts White in check from Black.


@ROT
def test_shield_forbids_exposing_the_previous_player_to_the_next(k: int) -> None:
    setup = Setup(board(SHIELD), turn="R")
    assert moves_from(setup, k, "Rd3") == set()
    assert moves_from(setup, k, "Rh3")  # Red still has moves
    free = Setup({c: p for c, p in board(SHIELD).items() if c != "Rd1"}, turn="R")
    assert len(moves_from(free, k, "Rd3")) == 9


@ROT
def test_shield_allows_exposing_the_next_player_to_the_previous(k: int) -> None:
    # the same line, with White's rook behind Red's knight and Black's king in front
    picture = (
        SHIELD.replace("wK", " .")
        .replace("bR", "wR")
        .replace("1  .  .  .  . bK", "1  .  .  .  .  .")
    )
    setup = Setup({**board(picture), "We2": "bK", "Wa1": "wK"}, turn="R")
    assert len(moves_from(setup, k, "Rd3")) == 9
    state = play(setup.rotated(k).state(), _rot_move("Rd3-Rc1", k))
    assert state.to_move == (k + 2) % 3 and state.in_check((k + 2) % 3)


# --- non-aggression -----------------------------------------------------------------------

NON_AGGRESSION = """
4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .   3  .  .  .  . bN  .  .  .
2  .  .  . wR  .  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .
1 wK  .  .  .  .  .  . wR   1  .  .  .  . rK  . rR  .   1  .  .  .  .  .  .  . bK
"""
# material on the board: White 10 (two rooks), Red 5 (a rook), Black 3 (a knight).
# White's rook on Wd2 reaches Be3 up its file (Wd3 Wd4 Be4 Be3).


@ROT
def test_non_aggression_forbids_a_capture_on_the_weaker_players_territory(k: int) -> None:
    setup = Setup(board(NON_AGGRESSION))
    state = setup.rotated(k).state()
    assert state.mat == tuple(((10, 5, 3)[(s - k) % 3]) for s in range(3))
    targets = moves_from(setup, k, "Wd2")
    assert "Wd2 Be3" not in targets  # 10 - 3 >= 3, and Black is not put in check
    assert "Wd2 Be4" in targets


@ROT
def test_non_aggression_allows_the_capture_that_gives_check(k: int) -> None:
    picture = NON_AGGRESSION.replace("1  .  .  .  .  .  .  . bK", "1  .  .  .  . bK  .  .  .")
    assert "Wd2 Be3" in moves_from(Setup(board(picture)), k, "Wd2")  # Be3-Be2-Be1 is open


@ROT
def test_non_aggression_is_territorial_and_needs_three_points(k: int) -> None:
    on_white = Setup({**board(NON_AGGRESSION), "Wd3": "bN"})  # a black knight off its territory
    assert "Wd2 Wd3" in moves_from(on_white, k, "Wd2")
    pawns = {"Ba2": "bP", "Bb2": "bP", "Bc2": "bP", "Bd2": "bP"}
    exactly_three = Setup({**board(NON_AGGRESSION), **pawns})  # 10 - 7 = 3: protected
    assert "Wd2 Be3" not in moves_from(exactly_three, k, "Wd2")
    two = Setup({**board(NON_AGGRESSION), **pawns, "Bf2": "bP"})  # 10 - 8 = 2: not protected
    assert "Wd2 Be3" in moves_from(two, k, "Wd2")


def test_the_rules_example_lost_2_4_5() -> None:
    """White lost 2 points, Red 4, Black 5: Black is protected from White, Red is not."""
    pieces = {
        "Wa1": "wK", "Wd2": "wR", "Wh1": "wR", "Wb2": "wP", "Wc2": "wP",
        "Re1": "rK", "Rg1": "rR", "Ra2": "rR",
        "Bh1": "bK", "Be3": "bN", "Ba2": "bB", "Bb2": "bP", "Bc2": "bP", "Bd2": "bP",
    }  # fmt: skip
    state = Setup(pieces).state()
    assert state.mat == (12, 10, 9)  # the same margins as 37 / 35 / 34 points
    moves = texts(state)
    assert "Wd2-Be3" not in moves  # Black's knight on Black's territory: protected
    assert "Wh1-Ra2" in moves  # Red's rook on Red's territory: 2 points is not enough


@ROT
def test_non_aggression_applies_to_pawn_captures_and_liberation_choices(k: int) -> None:
    # White's pawn on Bb2 takes Black's knight on Bc1 (White 13, Black 4): only the queen,
    # which attacks Black's king along Black's rank 1, makes the capture legal.
    setup = Setup(
        {
            "We1": "wK", "Wa1": "wR", "Wh1": "wR", "Wd2": "wP", "Bb2": "wP",
            "Re1": "rK", "Rc2": "rR", "Be1": "bK", "Bc1": "bN", "Wc4": "bP",
        },
        pools=("QN", "-", "-"),
    )  # fmt: skip
    assert moves_from(setup, k, "Bb2") == {"Bb2 Bb1=N", "Bb2 Bb1=Q", "Bb2 Bc1=Q"}
