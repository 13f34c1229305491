"""Trike rules: every rule and option of docs/rules/trike.md.

Positions are drawn as in ``Trike.render``: one row per line from the apex,
``.`` empty, ``X`` seat 1, ``O`` seat 2, brackets around the pawn's cell.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from referee.core import Termination
from referee.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from referee.games.trike import SWAP, Trike, TrikeState
from referee.games.trike.board import board_for
from referee.games.trike.rules import derive_turn
from referee.registry import find_game_class, make_game
from tests.golden import check_golden
from tests.golden import playthrough as golden_playthrough

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "trike"


def diagram(game: Trike, picture: str, *, swapped: bool = False) -> TrikeState:
    """The state drawn in ``picture``; ply = checkers (+1 after a swap).

    Goes through ``decode`` so that the drawing must be a consistent position.
    """
    tokens = picture.split()
    board = game.board
    assert len(tokens) == board.num_cells, "the picture must show every cell"
    values = {".": 0, "X": 1, "O": 2}
    cells = bytes(values[t.strip("[]")] for t in tokens)
    pawns = [i for i, t in enumerate(tokens) if t.startswith("[")]
    pawn = pawns[0] if pawns else -1
    ply = sum(1 for v in cells if v) + swapped
    turn, free = derive_turn(board, game.mode, cells, pawn)
    state = TrikeState(game.size, game.mode, game.pie, cells, pawn, ply, turn, free, board)
    return game.decode(game.encode(state))


def play_text(game: Trike, *moves: str, state: TrikeState | None = None) -> TrikeState:
    state = state or game.initial_state(2)
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


def names(game: Trike, moves: tuple[int, ...]) -> set[str]:
    return {game.format_move(game.initial_state(2), m) for m in moves}


def random_game(game: Trike, rng: random.Random) -> list[TrikeState]:
    states = [game.initial_state(2)]
    while states[-1].to_move is not None:
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    return states


# --- options and registry ---------------------------------------------------------------


def test_options_names_defaults_and_order() -> None:
    game = Trike()
    assert game.options == {"size": "9", "mode": "zero", "pie": "yes"}
    assert list(game.options) == ["size", "mode", "pie"]
    assert game.options_text() == "size=9,mode=zero,pie=yes"
    assert [s.name for s in Trike.option_specs] == ["size", "mode", "pie"]
    assert Trike.option_specs[1].choices == ("zero", "even", "odd")
    assert Trike.option_specs[2].choices == ("yes", "no")
    assert Trike.player_counts == (2,)
    assert Trike.version == "1"


def test_alias_and_registry() -> None:
    assert find_game_class("trike") is Trike
    assert find_game_class("pure-trike") is Trike
    assert make_game("pure-trike").options == Trike().options


@pytest.mark.parametrize(
    "options",
    [
        {"size": "6"},
        {"size": "20"},
        {"size": "nine"},
        {"mode": "foo"},
        {"mode": "Zero"},
        {"pie": "maybe"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(InvalidOptionError):
        Trike(options)


@pytest.mark.parametrize("size", [7, 19])
def test_extreme_sizes_are_accepted(size: int) -> None:
    game = Trike({"size": str(size)})
    assert len(game.initial_state(2).legal_moves()) == size * (size + 1) // 2


def test_only_two_players() -> None:
    for players in (1, 3):
        with pytest.raises(InvalidOptionError):
            Trike().initial_state(players)


# --- board geometry ---------------------------------------------------------------------


def test_cell_names_size_9_and_19() -> None:
    board = board_for(9)
    assert board.num_cells == 45
    assert board.names[0] == "a1"
    assert board.names[-9:] == tuple(f"i{k}" for k in range(1, 10))
    big = board_for(19)
    assert big.num_cells == 190
    assert big.names[-1] == "s19"
    assert sorted({name[0] for name in big.names}) == list("abcdefghijklmnopqrs")


def test_neighbour_counts_size_9() -> None:
    counts = [len(n) for n in board_for(9).neighbours]
    assert (counts.count(2), counts.count(4), counts.count(6)) == (3, 21, 21)


@pytest.mark.parametrize("size", range(7, 20))
def test_neighbours_are_symmetric_and_rays_are_lines(size: int) -> None:
    board = board_for(size)
    for cell, near in enumerate(board.neighbours):
        for other in near:
            assert cell in board.neighbours[other]
        # the three lines through a cell hold 2N-2 other cells (docs/rules/trike.md)
        assert sum(len(ray) for ray in board.rays[cell]) == 2 * size - 2
        assert set(board.between[cell]) == {c for ray in board.rays[cell] for c in ray}


# --- moves ------------------------------------------------------------------------------


def test_first_move_anywhere_and_no_swap_yet() -> None:
    game = Trike()
    start = game.initial_state(2)
    assert start.to_move == 0 and start.ply == 0
    assert start.legal_moves() == tuple(range(45))
    assert not start.is_legal(SWAP)
    with pytest.raises(IllegalMoveError):
        start.play(SWAP)


@pytest.mark.parametrize("pie", ["yes", "no"])
def test_sixteen_replies_to_every_opening(pie: str) -> None:
    game = Trike({"pie": pie})
    start = game.initial_state(2)
    for opening in range(45):
        after = start.play(opening)
        moves = after.legal_moves()
        normal = [m for m in moves if m != SWAP]
        assert len(normal) == 16, game.format_move(after, opening)
        assert (SWAP in moves) == (pie == "yes")
        assert after.to_move == 1


NO_JUMP = """
            X
          .   .
        .   .   .
      .   O   .   .
    .   .  [X]  O   .
  .   .   .   X   .   .
.   .   .   .   .   .   .
"""


def test_slides_stop_before_checkers() -> None:
    game = Trike({"size": "7"})
    state = diagram(game, NO_JUMP)
    assert state.to_move == 1 and state.ply == 5
    assert names(game, state.legal_moves()) == {"e1", "e2", "d3", "c3", "f3", "g3"}
    for blocked in ("c1", "e5", "g5", "d2", "e4", "f4", "e3", "g1", "a1"):
        assert not state.is_legal(game.parse_move(state, blocked)), blocked
        with pytest.raises(IllegalMoveError):
            state.play(game.parse_move(state, blocked))


def test_swap_transfers_the_checker_and_seat_1_moves_next() -> None:
    game = Trike()
    after = play_text(game, "e3", "swap")
    assert after.ply == 2
    assert after.to_move == 0
    assert after.cells[game.parse_move(after, "e3")] == 2  # now seat 2's checker
    assert after.pawn == game.parse_move(after, "e3")
    assert len(after.legal_moves()) == 16 and SWAP not in after.legal_moves()
    nxt = play_text(game, "e1", state=after)
    assert nxt.to_move == 1 and nxt.cells[game.parse_move(nxt, "e1")] == 1
    assert not nxt.is_legal(SWAP)


def test_swap_only_on_seat_2s_first_turn() -> None:
    game = Trike()
    later = play_text(game, "e3", "e1")
    assert not later.is_legal(SWAP)
    with pytest.raises(IllegalMoveError):
        later.play(SWAP)
    no_pie = Trike({"pie": "no"})
    opened = play_text(no_pie, "e3")
    assert not opened.is_legal(SWAP)
    with pytest.raises(IllegalMoveError):
        opened.play(SWAP)


def test_play_does_not_mutate() -> None:
    game = Trike()
    state = play_text(game, "e3")
    text = game.encode(state)
    state.play(game.parse_move(state, "e1"))
    assert game.encode(state) == text


def test_is_legal_agrees_with_legal_moves() -> None:
    rng = random.Random(5)
    for options in ({}, {"mode": "even", "size": "7"}, {"mode": "odd", "size": "7"}):
        game = Trike(options)
        for state in random_game(game, rng):
            legal = set(state.legal_moves())
            for move in (SWAP, *range(game.board.num_cells)):
                assert state.is_legal(move) == (move in legal)
            assert not state.is_legal(game.board.num_cells)
            assert not state.is_legal(-2)


# --- end and scoring --------------------------------------------------------------------


def test_trapped_in_the_corner_ends_zero_mode() -> None:
    game = Trike({"size": "7", "pie": "no"})
    state = play_text(game, "b1", "b2", "a1")
    assert state.to_move is None and state.legal_moves() == ()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.RULES
    assert outcome.ranks == (1, 2) and outcome.scores == (2.0, 1.0)
    assert outcome.reason == "pawn trapped at a1: seat 1 scores 2, seat 2 scores 1"


def test_swapped_checker_scores_for_seat_2() -> None:
    game = Trike({"size": "7"})
    state = play_text(game, "b1", "swap", "b2", "a1")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (1.0, 2.0) and outcome.ranks == (2, 1)


SCORING = """
            .
          .   X
        .   .   .
      O   X   .   .
    X  [X]  O   .   .
  O   O   X   .   .   .
O   .   .   .   .   .   X
"""


def test_score_counts_pawn_cell_and_neighbours_only() -> None:
    game = Trike({"size": "7"})
    state = diagram(game, SCORING)
    outcome = state.outcome()
    assert outcome is not None
    # X on e2 (under the pawn), e1, d2, f3; O on d1, e3, f2; b2, f1, g1, g7 do not count
    assert outcome.scores == (4.0, 3.0)
    assert outcome.ranks == (1, 2)
    assert outcome.reason == "pawn trapped at e2: seat 1 scores 4, seat 2 scores 3"


def test_game_goes_on_while_one_neighbour_is_empty() -> None:
    game = Trike({"size": "7"})
    picture = SCORING.replace("O   O   X", "O   .   X").replace(
        "O   .   .   .   .", "O   O   .   .   ."
    )
    state = diagram(game, picture)
    assert state.to_move == 1 and state.outcome() is None
    assert names(game, state.legal_moves()) == {"f2"}


def test_score_unfinished() -> None:
    game = Trike()
    assert game.score_unfinished(game.initial_state(2)) == ((1, 1), (0.0, 0.0))
    adjacent = play_text(game, "e3", "e2")  # X e3 next to O e2 under the pawn
    assert game.score_unfinished(adjacent) == ((1, 1), (1.0, 1.0))
    apart = play_text(game, "e3", "e1")  # X e3 is two cells away from the pawn on e1
    assert game.score_unfinished(apart) == ((2, 1), (0.0, 1.0))


@pytest.mark.parametrize(
    "options",
    [{}, {"size": "7"}, {"size": "19"}, {"mode": "even"}, {"mode": "odd"}, {"pie": "no"}],
)
def test_no_ties_and_end_conditions(options: dict[str, str]) -> None:
    game = Trike(options)
    rng = random.Random(11)
    for _ in range(60):
        states = random_game(game, rng)
        final = states[-1]
        outcome = final.outcome()
        assert outcome is not None
        assert sorted(outcome.ranks) == [1, 2]
        assert sum(outcome.scores) in (3, 5, 7)
        pawn_trapped = all(final.cells[n] for n in game.board.neighbours[final.pawn])
        assert pawn_trapped
        if game.mode != 0:
            assert 0 not in final.cells
        for state in states[:-1]:
            assert state.outcome() is None and state.to_move is not None


def test_even_mode_trapped_player_places_anywhere() -> None:
    game = Trike({"size": "7", "mode": "even", "pie": "no"})
    state = play_text(game, "b1", "b2", "a1")
    assert state.to_move == 1 and state.free and state.outcome() is None
    assert len(state.legal_moves()) == 28 - 3
    after = play_text(game, "g4", state=state)
    assert after.to_move == 0 and not after.free
    assert names(game, after.legal_moves()) == {
        "g1", "g2", "g3", "g5", "g6", "g7", "f3", "e2", "d1", "f4", "e4", "d4"
    }  # fmt: skip


def test_odd_mode_trapper_places_again() -> None:
    game = Trike({"size": "7", "mode": "odd", "pie": "no"})
    state = play_text(game, "b1", "b2", "a1")
    assert state.to_move == 0 and state.free and state.outcome() is None
    assert len(state.legal_moves()) == 28 - 3
    after = play_text(game, "g4", state=state)
    assert after.to_move == 1 and not after.free
    assert after.cells[game.parse_move(after, "g4")] == 1


@pytest.mark.parametrize("mode", ["even", "odd"])
def test_fill_modes_follow_the_turn_rule(mode: str) -> None:
    game = Trike({"size": "7", "mode": mode})
    rng = random.Random(3)
    repeated = 0
    for _ in range(50):
        states = random_game(game, rng)
        for before, after in itertools.pairwise(states):
            mover = before.to_move
            assert mover is not None
            trapped = all(after.cells[n] for n in game.board.neighbours[after.pawn])
            if after.to_move is None:
                assert 0 not in after.cells
                continue
            same = mode == "odd" and trapped
            assert after.to_move == (mover if same else 1 - mover)
            assert after.free == trapped
        seats = [s.to_move for s in states[:-1]]
        repeated += any(seats[i] == seats[i + 1] == seats[i + 2] for i in range(len(seats) - 2))
    assert (repeated > 0) == (mode == "odd")  # odd: a placement can be trapped again


# --- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", [7, 9, 19])
def test_move_text_round_trips(size: int) -> None:
    game = Trike({"size": str(size)})
    state = game.initial_state(2)
    for move in (*range(game.board.num_cells), SWAP):
        text = game.format_move(state, move)
        assert game.parse_move(state, text) == move
    assert game.format_move(state, 0) == "a1"
    assert game.format_move(state, SWAP) == "swap"


@pytest.mark.parametrize(
    "text", ["E3", "e03", "z1", "e10", "e6", "a2", "e0", " e3", "e3 ", "", "Swap", "e", "3", "e+3"]
)
def test_parse_move_rejects_non_canonical(text: str) -> None:
    game = Trike()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(2), text)


def test_parse_move_depends_on_size() -> None:
    big = Trike({"size": "19"})
    assert (
        big.format_move(big.initial_state(2), big.parse_move(big.initial_state(2), "s19")) == "s19"
    )
    with pytest.raises(InvalidMoveError):
        Trike().parse_move(Trike().initial_state(2), "j1")


def test_encode_decode_round_trip() -> None:
    rng = random.Random(2)
    for options in ({}, {"size": "7", "mode": "odd"}, {"size": "19", "mode": "even", "pie": "no"}):
        game = Trike(options)
        for state in random_game(game, rng):
            text = game.encode(state)
            assert " " not in text
            again = game.decode(text)
            assert again == state and hash(again) == hash(state)
            assert again.to_move == state.to_move and again.free == state.free
            assert game.encode(again) == text


def test_encoding_example() -> None:
    game = Trike({"size": "7"})
    state = play_text(game, "b1", "swap", "b2")
    assert game.encode(state) == "7:zero:pie:./ox/.../..../...../....../.......:b2:2:3"
    assert game.encode(game.initial_state(2)) == (
        "7:zero:pie:./../.../..../...../....../.......:-:1:0"
    )


EMPTY7 = "./../.../..../...../....../......."


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        f"7:zero:pie:{EMPTY7}:-:1",  # six fields
        f"9:zero:pie:{EMPTY7}:-:1:0",  # another size than the game's
        f"7:odd:pie:{EMPTY7}:-:1:0",  # another mode
        f"7:zero:nopie:{EMPTY7}:-:1:0",  # another pie option
        f"7:zero:yes:{EMPTY7}:-:1:0",
        f"07:zero:pie:{EMPTY7}:-:1:0",
        "7:zero:pie:./../.../..../...../......:-:1:0",  # six rows
        "7:zero:pie:./../.../..../...../....../......:-:1:0",  # short row
        "7:zero:pie:./../.../..../...../....../......X:-:1:0",  # bad cell character
        f"7:zero:pie:{EMPTY7}:-:1:01",
        f"7:zero:pie:{EMPTY7}:-:3:0",
        f"7:zero:pie:{EMPTY7}:-:2:0",  # seat 2 cannot open
        f"7:zero:pie:{EMPTY7}:a1:1:0",  # pawn on an empty board
        f"7:zero:pie:{EMPTY7}:-:1:1",  # a ply without a checker
        "7:zero:pie:x/../.../..../...../....../.......:-:2:1",  # checker without pawn
        "7:zero:pie:x/../.../..../...../....../.......:b1:2:1",  # pawn on an empty cell
        "7:zero:pie:x/../.../..../...../....../.......:h1:2:1",  # no such cell
        "7:zero:pie:o/../.../..../...../....../.......:a1:1:1",  # seat 2 opened
        "7:zero:pie:x/x./.../..../...../....../.......:b1:1:2",  # seat 1 twice
        "7:zero:pie:x/o./.../..../...../....../.......:b1:2:2",  # wrong seat to move
        "7:zero:pie:x/../.../..../...../....../.......:a1:2:3",  # two swaps
        "7:zero:pie:x/o./x../..../...../....../.......:c1:-:3",  # over, but c1 is not trapped
    ],
)
def test_decode_rejects(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        Trike({"size": "7"}).decode(text)


def test_decode_rejects_swap_without_pie() -> None:
    game = Trike({"size": "7", "pie": "no"})
    with pytest.raises(InvalidPositionError):
        game.decode("7:zero:nopie:o/../.../..../...../....../.......:a1:1:2")
    assert Trike({"size": "7"}).decode("7:zero:pie:o/../.../..../...../....../.......:a1:1:2")


def test_render_marks_checkers_pawn_and_coordinates() -> None:
    game = Trike({"size": "7"})
    picture = game.render(play_text(game, "b1", "swap", "b2"))
    lines = picture.splitlines()
    assert lines[0] == "a               ."
    assert lines[1] == "b             O  [X]"
    assert lines[7] == "    1   2   3   4   5   6   7"
    assert lines[8] == "ply 3, pawn on b2, seat 2 to move"
    assert "game over: pawn trapped at a1" in game.render(play_text(game, "b1", "b2", "a1"))


# --- golden playthroughs ----------------------------------------------------------------

GOLDEN = {
    "default": ({}, 14),  # seed 14 plays the swap
    "even-size7": ({"size": "7", "mode": "even"}, 25),
    "odd-size7": ({"size": "7", "mode": "odd"}, 0),  # seed 0 traps twice in a row
}


def playthrough(options: dict[str, str], seed: int) -> str:
    """A seeded random game, ply by ply, as text."""
    return golden_playthrough(Trike(options), 2, seed)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough(name: str) -> None:
    options, seed = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(options, seed)
    check_golden(path, text)
