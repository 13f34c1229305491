"""Triablo notation, position text, diagrams, the free setup phase and golden playthroughs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from referee.games.triablo import Triablo, TriabloState
from referee.games.triablo.board import INDEX
from referee.games.triablo.movegen import ABDICATE, CAPTURE, NO_ORIENT, SLIDE, make_move
from referee.games.triablo.notation import MOVE_TEXT
from referee.games.triablo.pieces import TYPE_E, TYPE_W
from tests.golden import check_golden
from tests.golden import playthrough as golden_playthrough

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "triablo"

START_2 = "2:figure:yes:100:4/W<3R>/W<W<2R>R>/WKW<W<1R>R>RK/W<W<2R>R>/W<3R>/4:1:0:0:-"
START_3 = (
    "3:figure:yes:100:1R<R<RK/W<1R<R<R</W<W<1R>R<R</WKW<W>4/W<W<1B>B<B</W<1B<B<B</1B<B<BK:1:0:0:-"
)


def play(game: Triablo, state: TriabloState, *moves: str) -> TriabloState:
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


def texts(game: Triablo, state: TriabloState) -> list[str]:
    return [game.format_move(state, m) for m in state.legal_moves()]


# --- move text ----------------------------------------------------------------------------


def test_move_forms() -> None:
    game = Triablo()
    state = game.initial_state(2)
    a1, b2, d4 = INDEX["a1"], INDEX["b2"], INDEX["d4"]
    cases = {
        make_move(b2, d4, SLIDE, TYPE_W): "b2-d4/W",
        make_move(b2, d4, SLIDE, TYPE_E): "b2-d4/E",
        make_move(a1, b2, SLIDE, NO_ORIENT): "a1-b2",
        make_move(b2, d4, CAPTURE, NO_ORIENT): "b2xd4",
        make_move(b2, d4, CAPTURE, TYPE_E): "b2xd4/E",
        make_move(a1, b2, ABDICATE, TYPE_E): "a1>b2/E",
    }
    for move, text in cases.items():
        assert game.format_move(state, move) == text
        assert game.parse_move(state, text) == move
    with pytest.raises(InvalidMoveError):
        game.format_move(state, make_move(a1, b2, ABDICATE, NO_ORIENT))
    with pytest.raises(InvalidMoveError):
        game.format_move(state, -5)


def test_every_move_text_round_trips() -> None:
    game = Triablo()
    state = game.initial_state(3)
    assert len(MOVE_TEXT) == 37 * 36 * 8  # - and x with /E, /W or none; > with /E or /W
    for move, text in MOVE_TEXT.items():
        assert game.parse_move(state, text) == move
        assert game.format_move(state, move) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "a1",
        "A1-b2",
        "a1-B2",
        "a1-b2/e",
        "a1-b2/",
        "a1-b2/EW",
        "a1 -b2",
        "a1-b2 ",
        "a1-a1/E",
        "a1-h1/E",
        "a5-b2/E",
        "a01-b2",
        "a1>b2",
        "a1X b2",
        "a1xb2/",
        "a1*b2",
        "a2/W,a2/E",
        "a3/W,a2/W",
        "a2/W,",
        ",a2/W",
        "a2/w",
        "a2",
        "setup",
    ],
)
def test_parse_rejects_non_canonical_text(text: str) -> None:
    game = Triablo()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(2), text)


def test_parse_checks_no_legality() -> None:
    game = Triablo()
    state = game.initial_state(2)
    for text in ("a1-g7/E", "d4xe5/W", "g7>a1/E", "a4/E,d7/W"):
        move = game.parse_move(state, text)
        assert game.format_move(state, move) == text
        assert not state.is_legal(move)


MOVE_ALPHABET = "abcdefgh012345678-x>/EW,K "
POSITION_ALPHABET = "0123456789:/-<>WRBKwrbfigureyesnoklm"


@settings(max_examples=120, deadline=None)
@given(st.text(alphabet=MOVE_ALPHABET, max_size=24))
def test_parse_move_accepts_exactly_what_it_formats(text: str) -> None:
    game = Triablo()
    state = game.initial_state(2)
    try:
        move = game.parse_move(state, text)
    except InvalidMoveError:
        return
    assert game.format_move(state, move) == text
    state.is_legal(move)  # never raises


@settings(max_examples=120, deadline=None)
@given(st.text(alphabet=POSITION_ALPHABET, max_size=90))
def test_decode_raises_only_invalid_position(text: str) -> None:
    game = Triablo()
    try:
        state = game.decode(text)
    except InvalidPositionError:
        return
    assert game.encode(state) == text


@settings(max_examples=120, deadline=None)
@given(st.integers(min_value=0, max_value=36), st.text(alphabet="0123456789<>WRBKwrb", max_size=6))
def test_decode_survives_edited_start_rows(cut: int, insert: str) -> None:
    game = Triablo()
    rows = START_2.split(":")[4]
    edited = START_2.replace(rows, rows[:cut] + insert + rows[cut:], 1)
    try:
        state = game.decode(edited)
    except InvalidPositionError:
        return
    assert game.encode(state) == edited


# --- the setup phase ----------------------------------------------------------------------

WHITE_DEFAULT = "a2/W,a3/W,b1/W,b2/W,b3/W,c1/W,c2/W,c3/W"
RED_DEFAULT = "e5/E,e6/E,e7/E,f5/E,f6/E,f7/E,g5/E,g6/E"


def test_free_setup_two_players() -> None:
    game = Triablo({"setup": "free"})
    state = game.initial_state(2)
    assert state.in_setup and state.board == Triablo().initial_state(2).board
    white = texts(game, state)
    # only b1, a2 and b2 may take either orientation (docs/rules/triablo.md)
    assert len(white) == 8 and WHITE_DEFAULT in white
    assert "a2/E,a3/W,b1/E,b2/E,b3/W,c1/W,c2/W,c3/W" in white
    for bad in ("a2/W,a3/E,b1/W,b2/W,b3/W,c1/W,c2/W,c3/W", "a2/W,a3/W", "c3-c4/W", "a1>a2/E"):
        assert not state.is_legal(game.parse_move(state, bad)), bad
    after = play(game, state, "a2/E,a3/W,b1/E,b2/W,b3/W,c1/W,c2/W,c3/W")
    assert after.to_move == 1 and after.ply == 1 and after.in_setup
    red = texts(game, after)
    assert len(red) == 8 and RED_DEFAULT in red and "e5/W" not in ",".join(red)
    ready = play(game, after, "e5/E,e6/E,e7/E,f5/E,f6/W,f7/W,g5/E,g6/W")
    assert ready.to_move == 0 and ready.ply == 2 and not ready.in_setup and ready.quiet == 0
    assert game.encode(ready).split(":")[4] == "4/W<3R>/W>W<2R>R</WKW<W<1R>R<RK/W>W<2R>R</W<3R>/4"
    assert "a1>a2/E" in texts(game, ready)
    with pytest.raises(IllegalMoveError):
        ready.play(game.parse_move(ready, WHITE_DEFAULT))
    assert play(game, ready, "c3-c4/W").quiet == 1  # the setup plies did not count


def test_free_setup_three_players() -> None:
    game = Triablo({"setup": "free"})
    state = game.initial_state(3)
    counts = []
    for seat in range(3):
        assert state.to_move == seat
        moves = state.legal_moves()
        counts.append(len(moves))
        state = state.play(moves[-1])
    # White: a2 b1 b2 free; b3 and c2 aim at an enemy either way, so are free as well
    assert counts == [32, 32, 32]
    assert state.to_move == 0 and not state.in_setup
    assert not Triablo().initial_state(3).in_setup


def test_figure_setup_has_no_setup_moves() -> None:
    game = Triablo()
    state = game.initial_state(2)
    assert not state.is_legal(game.parse_move(state, WHITE_DEFAULT))


# --- position text ------------------------------------------------------------------------


def test_start_positions_encode() -> None:
    game = Triablo()
    assert game.encode(game.initial_state(2)) == START_2
    assert game.encode(game.initial_state(3)) == START_3
    assert game.decode(START_3) == game.initial_state(3)
    free = Triablo({"setup": "free", "captive-tips": "no", "no-capture-draw": "0"})
    assert game.encode(free.initial_state(2)) == START_2.replace("figure:yes:100", "free:no:0")


def test_encode_decode_round_trips_through_random_games() -> None:
    rng = random.Random(4)
    for options, players in (({}, 2), ({}, 3), ({"setup": "free", "captive-tips": "no"}, 3)):
        game = Triablo(options)
        state = game.initial_state(players)
        while True:
            text = game.encode(state)
            again = game.decode(text)
            assert again == state and hash(again) == hash(state) and game.encode(again) == text
            if state.to_move is None:
                break
            state = state.play(rng.choice(state.legal_moves()))


BAD_POSITIONS = [
    "",
    START_2 + ":x",
    START_2.replace("2:", "4:", 1),
    START_2.replace("figure", "free"),  # another game's options
    START_2.replace(":100:", ":40:"),
    START_2.replace("4/W<3R>", "4/W<3R>/4"),  # eight rows
    START_2.replace("4/W<3R>", "3/W<3R>"),  # a short row
    START_2.replace("4/W<3R>", "22/W<3R>"),  # not canonical
    START_2.replace("4/W<3R>", "4/W<3B>"),  # Black in a 2-player game
    START_2.replace("4/W<3R>", "4/W(3R>"),
    START_2.replace("4/W<3R>", "4/W<w3R>"),  # a cover on its own colour
    START_2.replace("4/W<3R>", "WKW<W<1/W<3R>"),  # two White kings, too many singletons
    START_2.replace(":1:0:0:-", ":3:0:0:-"),
    START_2.replace(":1:0:0:-", ":1:00:0:-"),
    START_2.replace(":1:0:0:-", ":1:0:1:-"),  # a ply without capture before any ply
    START_2.replace(":1:0:0:-", ":1:5:0:2k"),  # Red out but its king is there
    START_2.replace(":1:0:0:-", ":-:5:0:-"),  # over, but no one lost and no draw
    START_2.replace(":1:0:0:-", ":1:5:0:1x"),
    START_2.replace(":1:0:0:-", ":1:5:0:1"),
    START_2.replace(":1:0:0:-", ":1:200:100:-"),  # the draw count is complete
    START_2.replace("W<W<2R>R>/WK", "R<R<2R>R>/WK", 1),  # twelve Red singletons
]


@pytest.mark.parametrize("text", BAD_POSITIONS)
def test_decode_rejects(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        Triablo().decode(text)


def test_decode_rejects_impossible_setup_positions() -> None:
    game = Triablo({"setup": "free"})
    start = game.encode(game.initial_state(2))
    assert game.decode(start).in_setup
    with pytest.raises(InvalidPositionError):  # Red sets up second
        game.decode(start.replace(":1:0:0:-", ":2:0:0:-"))
    red_next = start.replace(":1:0:0:-", ":2:1:0:-")
    assert game.decode(red_next).to_move == 1
    with pytest.raises(InvalidPositionError):  # a3 Type-E aims at e7
        game.decode(red_next.replace("4/W<3R>", "4/W>3R>"))
    with pytest.raises(InvalidPositionError):  # Red has not set up yet
        game.decode(red_next.replace("4/W<3R>", "4/W<3R<"))
    with pytest.raises(InvalidPositionError):  # White has not set up yet
        game.decode(start.replace("4/W<3R>", "4/W<3R<").replace("W<W<2R>R>/WK", "W>W<2R>R>/WK"))
    with pytest.raises(InvalidPositionError):  # a piece moved during the setup
        game.decode(start.replace("4/W<3R>", "W<3/4R>"))


def test_decode_rejects_a_seat_whose_king_cannot_act() -> None:
    game = Triablo()
    stuck = "2:figure:yes:100:4/5/R<5/WKR<2R<1RK/R>5/5/1W<W<W<:1:9:0:-"
    with pytest.raises(InvalidPositionError):
        game.decode(stuck)
    assert game.decode(stuck.replace(":1:9:0:-", ":-:9:0:1m")).outcome() is not None


# --- diagrams -----------------------------------------------------------------------------


def test_render_start() -> None:
    game = Triablo()
    assert game.render(game.initial_state(2)).splitlines() == [
        "a4        .   .   .   .          d7",
        "a3      W<  .   .   .   R>       e7",
        "a2    W<  W<  .   .   R>  R>     f7",
        "a1  WK  W<  W<  .   R>  R>  RK   g7",
        "b1    W<  W<  .   .   R>  R>     g6",
        "c1      W<  .   .   .   R>       g5",
        "d1        .   .   .   .          g4",
        "W/R/B White/Red/Black; > Type-E (tips E NW SW), < Type-W (tips W NE SE);",
        "K king; a lower-case letter after a cover is its captive",
        "ply 0, seat 1 (White) to move, 0 plies without capture",
    ]
    setup = Triablo({"setup": "free"}).initial_state(3)
    assert (
        Triablo({"setup": "free"})
        .render(setup)
        .endswith("ply 0, seat 1 (White) to move (setup: orient every singleton)")
    )


# --- golden playthroughs ------------------------------------------------------------------

GOLDEN = {
    "default-2p": ({}, 2, 349),  # both capture kinds, Red takes White's king
    "default-3p": ({}, 3, 2591),  # an elimination frees a covered singleton
    "free-setup-2p": ({"setup": "free", "no-capture-draw": "30"}, 2, 1467),
    "no-captive-tips-3p": ({"captive-tips": "no", "no-capture-draw": "40"}, 3, 225),
}


def playthrough(options: dict[str, str], players: int, seed: int) -> str:
    """A seeded random game, ply by ply, as text."""
    return golden_playthrough(Triablo(options), players, seed, name_players=True, scores=False)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough(name: str) -> None:
    options, players, seed = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(options, players, seed)
    check_golden(path, text)
