"""Tricolor rules: every rule and option of docs/rules/tricolor.md.

Positions are drawn as ``Tricolor.render`` draws them: one character per triangle, row
labels on the left (row ``2i+j+1`` of column ``j`` holds ``R(i,j)``), column labels ``j``
below; ``>``/``<`` an empty right/left-pointing triangle, a piece's letter in upper case
on its R triangle and in lower case on its L triangle (``o O`` orange, ``g`` above ``G``
green, ``y`` below ``Y`` yellow).
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from referee.core import Termination
from referee.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from referee.games.tricolor import Tricolor, TricolorState, notation
from referee.games.tricolor.configs import completed, configs_for, on_board
from referee.games.tricolor.geometry import board_for
from referee.registry import find_game_class, make_game
from tests.golden import check_golden
from tests.golden import playthrough as golden_playthrough

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "tricolor"


def drawn(
    game: Tricolor, picture: str, *, scores: tuple[int, ...] | None = None, seat: int = 0
) -> TricolorState:
    """The position drawn in ``picture`` (without the status line), through ``decode``.

    The pieces are read from the upper-case letters; the drawing must be exactly what
    ``render`` draws for them. ``scores`` defaults to seat 1 holding the board's points;
    the last placer is the seat before ``seat`` (none on an empty board).
    """
    board = game.board
    n = board.n
    lines = picture.strip("\n").splitlines()
    placed = 0
    for line in lines[:-1]:
        row = int(line[:3])
        for j in range(-n, n):
            at = 4 + 3 * (j + n) + 2
            ch = line[at] if at < len(line) else " "
            if ch in "OGY":
                assert (row - j - 1) % 2 == 0, f"upper case {ch} on an L triangle: {line!r}"
                placed |= 1 << board.index[f"{ch}({(row - j - 1) // 2},{j})"]
    assert notation.render(board, placed) == "\n".join(lines), "not the picture render draws"
    covered = 0
    for move, cover in enumerate(board.tmask):
        if placed >> move & 1:
            covered |= cover
    if scores is None:
        scores = (on_board(game.configs, placed, covered).points, 0)
    last = -1 if not placed else (seat - 1) % len(scores)
    return game.decode(notation.encode(board, game.rim_crowns, placed, scores, seat, last))


def play_text(game: Tricolor, *moves: str, state: TricolorState | None = None) -> TricolorState:
    state = state or game.initial_state(2)
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


def texts(game: Tricolor, state: TricolorState) -> list[str]:
    return [game.format_move(state, m) for m in state.legal_moves()]


def random_game(game: Tricolor, rng: random.Random, players: int = 2) -> list[TricolorState]:
    states = [game.initial_state(players)]
    while states[-1].to_move is not None:
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    return states


# --- options and registry ---------------------------------------------------------------


def test_options_names_defaults_and_order() -> None:
    game = Tricolor()
    assert game.options == {"n": "4", "rim-crowns": "yes"}
    assert list(game.options) == ["n", "rim-crowns"]
    assert game.options_text() == "n=4,rim-crowns=yes"
    assert [s.name for s in Tricolor.option_specs] == ["n", "rim-crowns"]
    assert Tricolor.option_specs[0].minimum == 1 and Tricolor.option_specs[0].maximum == 64
    assert Tricolor.option_specs[1].choices == ("yes", "no")
    assert Tricolor.player_counts == (2, 3, 4)
    assert Tricolor.version == "1"
    assert not Tricolor.result_from_scores


def test_registry() -> None:
    assert find_game_class("tricolor") is Tricolor
    assert find_game_class("TriColor") is Tricolor
    assert make_game("tricolor", {"n": "2"}).options == {"n": "2", "rim-crowns": "yes"}


@pytest.mark.parametrize(
    "options",
    [{"n": "0"}, {"n": "-1"}, {"n": "four"}, {"n": ""}, {"rim-crowns": "Yes"}, {"rim": "no"}],
)
def test_bad_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(InvalidOptionError):
        Tricolor(options)


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts(players: int) -> None:
    with pytest.raises(InvalidOptionError):
        Tricolor().initial_state(players)


# --- geometry: the counts of docs/rules/tricolor.md ----------------------------------------------


@pytest.mark.parametrize(
    ("n", "triangles", "per_colour"),
    [(1, 6, 2), (2, 24, 10), (3, 54, 24), (4, 96, 44), (5, 150, 70)],
)
def test_counts_of_section_2_5(n: int, triangles: int, per_colour: int) -> None:
    board = board_for(n)
    assert board.triangles == triangles == 6 * n * n
    assert board.per_colour == per_colour == 3 * n * n - n
    assert [v.bit_count() for v in board.valid] == [per_colour] * 3
    assert len(board.index) == 3 * per_colour
    start = Tricolor({"n": str(n)}).initial_state(2)
    assert len(start.legal_moves()) == per_colour
    assert all(name.startswith("O(") for name in texts(Tricolor({"n": str(n)}), start))


def test_counts_of_section_2_2() -> None:
    cfg = configs_for(4, True)
    assert (len(cfg.crowns), len(cfg.stars), len(cfg.hexagons)) == (180, 19, 74)
    rim = [v for v in cfg.crown_vertices if max(abs(v[0]), abs(v[1]), abs(v[0] + v[1])) == 4]
    assert len(rim) == 18 and len(set(rim)) == 18  # one crown at each non-corner rim vertex
    assert len(configs_for(4, False).crowns) == 162
    assert len(set(cfg.star_vertices)) == 19
    assert all(max(abs(i), abs(j), abs(i + j)) <= 2 for i, j in cfg.star_vertices)
    assert len(set(cfg.hexagon_vertices)) == 37  # two hexagons per interior vertex


def test_smallest_board() -> None:
    """C7: n = 1 has no crowns or stars; both hexagons are at the centre."""
    cfg = configs_for(1, True)
    assert cfg.crowns == () and cfg.stars == ()
    assert cfg.hexagon_vertices == ((0, 0), (0, 0))


def test_lozenge_triangles_follow_the_formulas() -> None:
    board = board_for(4)
    cases = {
        "O(-1,0)": (board.r_bit(-1, 0) | board.l_bit(-1, -1)),
        "G(0,0)": (board.r_bit(0, 0) | board.l_bit(0, 0)),
        "Y(1,-2)": (board.r_bit(1, -2) | board.l_bit(0, -2)),
    }
    for text, cover in cases.items():
        assert board.tmask[board.index[text]] == cover
    assert "O(-4,0)" in board.index and "O(-4,-1)" not in board.index  # L(-4,-2) is off
    assert "G(3,0)" not in board.index  # L(3,0): i + j = 3 > n - 2


def test_no_two_positions_of_a_colour_share_their_triangles() -> None:
    board = board_for(4)
    masks = [m for m in board.tmask if m]
    assert len(set(masks)) == len(masks) == 132


# --- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 4, 7])
def test_move_text_round_trips(n: int) -> None:
    game = Tricolor({"n": str(n)})
    state = game.initial_state(2)
    for text, move in game.board.index.items():
        assert game.format_move(state, move) == text
        assert game.parse_move(state, text) == move


def test_the_examples_of_rules_md_parse() -> None:
    game = Tricolor()
    state = game.initial_state(2)
    for text in ("O(-1,0)", "G(0,0)", "Y(1,-2)"):
        assert game.format_move(state, game.parse_move(state, text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "o(-1,0)",
        "O(-1, 0)",
        " O(-1,0)",
        "O(-1,0) ",
        "O( -1,0)",
        "O(+1,0)",
        "O(-01,0)",
        "O(-0,0)",
        "O(1,00)",
        "O-1,0",
        "O(-1,0",
        "O[-1,0]",
        "O(-1;0)",
        "R(0,0)",
        "O(4,0)",  # off the board of side 4
        "G(3,0)",
        "Y(-4,0)",
        "swap",
    ],
)
def test_parse_move_rejects_non_canonical(text: str) -> None:
    game = Tricolor()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(2), text)


def test_parse_move_depends_on_the_board() -> None:
    big, small = Tricolor(), Tricolor({"n": "2"})
    assert big.parse_move(big.initial_state(2), "O(3,0)") >= 0
    with pytest.raises(InvalidMoveError):
        small.parse_move(small.initial_state(2), "O(3,0)")


@pytest.mark.parametrize("move", [-1, 3 * 64, 0, True, "O(0,0)"])
def test_format_move_rejects_non_positions(move: object) -> None:
    game = Tricolor()  # id 0 is cell (-4,-4): no orange position there
    with pytest.raises(InvalidMoveError):
        game.format_move(game.initial_state(2), move)  # type: ignore[arg-type]


# --- moves and the colour cycle ---------------------------------------------------------


def test_first_placements_are_every_orange_in_canonical_order() -> None:
    game = Tricolor()
    start = game.initial_state(2)
    assert start.to_move == 0 and start.ply == 0 and start.scores == (0, 0)
    moves = texts(game, start)
    assert len(moves) == 44
    keys = [tuple(int(x) for x in t[2:-1].split(",")) for t in moves]
    assert keys == sorted(keys)  # by i, then j
    assert moves[0] == "O(-4,0)" and moves[-1] == "O(3,0)"


def test_colour_cycle_is_global() -> None:
    """The k-th placement has colour k % 3 whoever places it, extra moves included."""
    game = Tricolor()
    rng = random.Random(1)
    extra_seen = 0
    for _ in range(30):
        states = random_game(game, rng)
        for before, after in itertools.pairwise(states):
            colour = "OGY"[before.ply % 3]
            assert all(t[0] == colour for t in texts(game, before))
            extra_seen += before.to_move == after.to_move
    assert extra_seen > 0


def test_wrong_colour_parses_but_is_illegal() -> None:
    game = Tricolor()
    start = game.initial_state(2)
    green = game.parse_move(start, "G(0,0)")
    assert not start.is_legal(green)
    with pytest.raises(IllegalMoveError):
        start.play(green)
    after = play_text(game, "O(0,0)")
    assert after.is_legal(green) is False  # G(0,0) shares R(0,0) with O(0,0)
    assert after.is_legal(game.parse_move(after, "G(1,0)"))


def test_is_legal_agrees_with_legal_moves() -> None:
    rng = random.Random(5)
    for options in ({}, {"n": "2"}, {"n": "3", "rim-crowns": "no"}):
        game = Tricolor(options)
        ids = range(-2, 3 * game.board.plane + 2)
        for state in random_game(game, rng, players=3):
            legal = set(state.legal_moves())
            for move in ids:
                assert state.is_legal(move) == (move in legal)
            assert not state.is_legal(True)
            assert not state.is_legal("O(0,0)")  # type: ignore[arg-type]


def test_play_does_not_mutate() -> None:
    game = Tricolor()
    state = play_text(game, "O(0,0)")
    text = game.encode(state)
    state.play(game.parse_move(state, "G(1,0)"))
    assert game.encode(state) == text


# --- the example games of the original rules ------------------------------------------

EARLY_END = [
    ("O(-2,1)", (0, 0), 1),
    ("G(1,-1)", (0, 0), 0),
    ("Y(-1,-1)", (-1, 0), 1),  # one empty triangle
    ("O(-1,1)", (-1, -1), 0),  # one empty triangle
    ("G(0,0)", (-2, -1), 1),  # one empty triangle
    ("Y(0,-1)", (-2, -2), None),  # two empty triangles, then +1: no orange position is free
]

EARLY_END_PICTURE = """
  3      g  >
  2   <  G  g  >
  1   >  <  G  <
  0   <  Y  o  O
 -1   >  y  >  <
 -2   <  Y  o  O
 -3      y  >
  j  -2 -1  0  1
"""


def test_example_early_end_with_other_colours_free() -> None:
    game = Tricolor({"n": "2"})
    state = game.initial_state(2)
    for text, scores, seat in EARLY_END:
        state = play_text(game, text, state=state)
        assert (state.scores, state.to_move) == (scores, seat), text
    assert state.legal_moves() == ()
    board = game.board
    free = [
        name
        for name, move in board.index.items()
        if not board.tmask[move] & state.covered and name[0] != "O"
    ]
    assert sorted(free) == sorted(["Y(0,-2)", "G(0,-2)", "Y(0,1)", "Y(1,-2)", "G(1,-2)"])
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.RULES
    assert outcome.ranks == (1, 1) and outcome.scores == (-2.0, -2.0)
    assert outcome.reason == (
        "no free orange position after 6 placements, seat 2 +1 for the last one: "
        "seat 1 -2, seat 2 -2"
    )
    assert game.render(state).startswith(EARLY_END_PICTURE.strip("\n"))


def test_example_crown_forces_an_extra_move() -> None:
    game = Tricolor({"n": "2"})
    state = play_text(game, "O(-1,0)")
    assert (state.scores, state.to_move) == ((0, 0), 1)
    state = play_text(game, "G(-1,1)", state=state)
    assert (state.scores, state.to_move) == ((0, 0), 0)
    crown = game.parse_move(state, "Y(0,0)")
    assert completed(state.configs, state.placed, state.covered, crown) == (1, 0, 0, 0)
    state = state.play(crown)  # the crown at V(-1,1): seat 1 must place again, orange
    assert (state.scores, state.to_move, state.last) == ((0, 0), 0, 0)
    assert texts(game, state) == [
        "O(-2,0)", "O(-2,1)", "O(-1,-1)", "O(0,-1)", "O(0,1)", "O(1,-1)", "O(1,0)"
    ]  # fmt: skip
    state = play_text(game, "O(1,-1)", state=state)
    assert state.to_move == 1


# --- end of the game and the last placement ---------------------------------------------


def test_full_board_of_side_1() -> None:
    """n = 1: three forced placements tile the board; the yellow one completes a hexagon."""
    game = Tricolor({"n": "1"})
    start = game.initial_state(2)
    assert texts(game, start) == ["O(-1,0)", "O(0,0)"]
    state = play_text(game, "O(0,0)")
    assert texts(game, state) == ["G(-1,0)"]
    state = play_text(game, "G(-1,0)", state=state)
    assert texts(game, state) == ["Y(0,-1)"]
    state = play_text(game, "Y(0,-1)", state=state)
    assert state.to_move is None and state.ply == 3
    assert state.scores == (2, 0)  # hexagon +1, last placement +1
    outcome = state.outcome()
    assert outcome is not None and outcome.ranks == (1, 2)


def test_last_placement_counts_even_as_an_extra_move() -> None:
    """The +1 goes to the last placer even when its placement earned an extra move (C5)."""
    rng = random.Random(7)
    game = Tricolor({"n": "2"})
    found = 0
    for _ in range(400):
        states = random_game(game, rng)
        before, final = states[-2], states[-1]
        move = next(m for m in before.legal_moves() if before.play(m) == final)
        done = completed(before.configs, before.placed, before.covered, move)
        mover = before.to_move
        assert mover is not None and final.last == mover
        assert final.scores[mover] - before.scores[mover] == done.points + 1
        found += done.extra
    assert found > 0


def test_full_board_ends_with_yellow() -> None:
    rng = random.Random(3)
    for n in (2, 3):
        game = Tricolor({"n": str(n)})
        ends = [random_game(game, rng)[-1] for _ in range(300)]
        full = [s for s in ends if s.covered.bit_count() == 6 * n * n]
        assert full, n
        assert all(s.ply == 3 * n * n for s in full)
        assert all(s.ply <= 3 * n * n for s in ends)


# --- seats ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_rotate_and_the_extra_move_stays(players: int) -> None:
    game = Tricolor()
    rng = random.Random(players)
    for _ in range(20):
        states = random_game(game, rng, players)
        for before, after in itertools.pairwise(states):
            mover = before.to_move
            assert mover is not None
            move = next(m for m in before.legal_moves() if before.play(m) == after)
            done = completed(before.configs, before.placed, before.covered, move)
            if after.to_move is not None:
                assert after.to_move == (mover if done.extra else (mover + 1) % players)
        outcome = states[-1].outcome()
        assert outcome is not None and len(outcome.ranks) == players


def test_extra_moves_chain() -> None:
    """An extra placement that completes a crown again earns another one (the rule repeats)."""
    game = Tricolor()
    rng = random.Random(11)
    chains = 0
    for _ in range(100):
        states = random_game(game, rng)
        for a, b, c, d in zip(states, states[1:], states[2:], states[3:], strict=False):
            if d.to_move is not None and a.to_move == b.to_move == c.to_move == d.to_move:
                chains += 1  # three placements in a row by one seat, a fourth to come
    assert chains > 0


def test_three_seats_ranks() -> None:
    game = Tricolor({"n": "2"})
    state = game.initial_state(3)
    state = play_text(game, "O(-2,1)", "G(1,-1)", "Y(-1,-1)", state=state)
    assert state.scores == (0, 0, -1) and state.to_move == 0
    assert game.score_unfinished(state) == ((1, 1, 3), (0.0, 0.0, -1.0))


def test_score_unfinished_has_no_last_placement_bonus() -> None:
    game = Tricolor({"n": "2"})
    state = play_text(game, *[t for t, _, _ in EARLY_END[:5]])
    assert game.score_unfinished(state) == ((2, 1), (-2.0, -1.0))
    assert game.score_unfinished(game.initial_state(4)) == ((1, 1, 1, 1), (0.0,) * 4)


# --- position text ----------------------------------------------------------------------


def test_encoding_examples() -> None:
    game = Tricolor({"n": "2"})
    assert game.encode(game.initial_state(2)) == "2:rim:.../..../.../..:0,0:1:-"
    state = play_text(game, *[t for t, _, _ in EARLY_END])
    assert game.encode(state) == "2:rim:.g./.yg./y.o/.o:-2,-2:-:2"
    crown = play_text(game, "O(-1,0)", "G(-1,1)", "Y(0,0)", "O(1,-1)")
    assert game.encode(crown) == "2:rim:.o./..y./.og/..:0,0:2:1"
    norim = Tricolor({"n": "1", "rim-crowns": "no"})
    assert norim.encode(norim.initial_state(4)) == "1:norim:../.:0,0,0,0:1:-"


def test_encode_decode_round_trip() -> None:
    rng = random.Random(2)
    for options, players in (({}, 2), ({"n": "1"}, 3), ({"n": "3", "rim-crowns": "no"}, 4)):
        game = Tricolor(options)
        for _ in range(5):
            for state in random_game(game, rng, players):
                text = game.encode(state)
                again = game.decode(text)
                assert again == state and hash(again) == hash(state)
                assert (again.ply, again.covered, again.free) == (
                    state.ply,
                    state.covered,
                    state.free,
                )
                assert again.legal_moves() == state.legal_moves()
                assert game.encode(again) == text


def _round_trips(game: Tricolor, state: TricolorState) -> None:
    text = game.encode(state)
    again = game.decode(text)
    assert again == state and hash(again) == hash(state)
    assert (again.ply, again.covered, again.free, again.configs) == (
        state.ply,
        state.covered,
        state.free,
        state.configs,
    )
    assert game.encode(again) == text


@pytest.mark.parametrize("rim", ["yes", "no"])
@pytest.mark.parametrize("n", range(1, 65))
def test_decode_round_trips_at_every_board_size(n: int, rim: str) -> None:
    """``decode(encode(s)) == s`` (derived fields included) and ``encode(decode(t)) == t``
    on every board side the option allows: every ply of three whole random games (2, 3
    and 4 seats) up to n = 6 (about 1,400 positions over both options); every 5th ply of
    the first 60 of one game above (the decode's bit operations must not wrap a row at
    any width)."""
    rng = random.Random(n)
    game = Tricolor({"n": str(n), "rim-crowns": rim})
    checked = 0
    for players in (2, 3, 4) if n <= 6 else (2 + n % 3,):
        state = game.initial_state(players)
        for ply in itertools.count():
            if n <= 6 or ply % 5 == 0 or state.to_move is None:
                _round_trips(game, state)
                checked += 1
            if state.to_move is None or (n > 6 and ply == 60):
                break
            state = state.play(rng.choice(state.legal_moves()))
    assert checked >= (3 if n == 1 else 13)


EMPTY2 = ".../..../.../.."


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "expected n:rim:rows:scores:seat:last"),
        ("garbage", "expected n:rim:rows:scores:seat:last"),
        (f"2:rim:{EMPTY2}:0,0:1", "expected n:rim:rows:scores:seat:last"),
        ("3:rim:..../...../....../...../..../...:0,0:1:-", "is for n=3"),
        (f"2:norim:{EMPTY2}:0,0:1:-", "is for n=2,rim-crowns=no"),
        (f"2:yes:{EMPTY2}:0,0:1:-", "expected 'rim' or 'norim'"),
        (f"02:rim:{EMPTY2}:0,0:1:-", "bad board side"),
        (f"0:rim:{EMPTY2}:0,0:1:-", "bad board side"),
        ("2:rim:.../..../...:0,0:1:-", "expected rows of 3/4/3/2"),
        ("2:rim:..../..../.../..:0,0:1:-", "expected rows of 3/4/3/2"),
        ("2:rim:O../..../.../..:0,0:2:1", "bad piece 'O'"),
        ("2:rim:x../..../.../..:0,0:2:1", "bad piece 'x'"),
        ("2:rim:..g/..../.../..:0,0:2:1", "G(1,0) is off the board"),
        ("2:rim:.y./..o./.../..:0,0:2:1", "O(0,0) overlaps another piece"),
        (f"2:rim:{EMPTY2}:0:1:-", "1 scores, but tricolor has 2 to 4 seats"),
        (f"2:rim:{EMPTY2}:0,0,0,0,0:1:-", "5 scores"),
        (f"2:rim:{EMPTY2}:0,+0:1:-", "scores must be integers"),
        (f"2:rim:{EMPTY2}:0,-0:1:-", "scores must be integers"),
        (f"2:rim:{EMPTY2}:0,01:1:-", "scores must be integers"),
        (f"2:rim:{EMPTY2}:0,0:01:-", "bad seat"),
        (f"2:rim:{EMPTY2}:0,0:0:-", "bad seat"),
        (f"2:rim:{EMPTY2}:0,0:1:x", "bad last placer"),
        (f"2:rim:{EMPTY2}:0,0:2:-", "seat 1 makes the first placement"),
        (f"2:rim:{EMPTY2}:0,0:3:-", "one of seats 1..2 must be to move"),
        (f"2:rim:{EMPTY2}:0,0:-:-", "one of seats 1..2 must be to move"),
        (f"2:rim:{EMPTY2}:0,0:1:1", "the last placer must be '-'"),
        (f"2:rim:{EMPTY2}:1,0:1:-", "the scores add up to 1"),
        ("2:rim:.../..g./.../..:0,0:2:1", "do not follow the colour cycle"),
        ("2:rim:.o./..o./.../..:0,0:1:2", "do not follow the colour cycle"),
        ("2:rim:.o./..../.../..:0,0:1:-", "the last placer must be '-'"),
        ("2:rim:.o./..../.../..:0,0:1:3", "the last placer must be '-'"),
        ("2:rim:.o./..../.../..:0,0:-:1", "one of seats 1..2 must be to move"),
        ("2:rim:.o./..../.../..:1,0:2:1", "the scores add up to 1"),
        ("2:rim:.g./.yg./y.o/.o:-2,-2:1:2", "nobody (game over) must be to move"),
        ("2:rim:.g./.yg./y.o/.o:-2,-3:-:2", "the scores add up to -5"),
    ],
)
def test_decode_rejects(text: str, why: str) -> None:
    with pytest.raises(InvalidPositionError, match=re.escape(why)):
        Tricolor({"n": "2"}).decode(text)


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        (".y./..o./..x/..", "O(0,0) overlaps another piece"),
        ("xy./..o./.../..", "bad piece 'x'"),
        (".yg/..o./.../..", "G(1,0) is off the board"),
        (".y./..o./.../.g", "O(0,0) overlaps another piece"),
        (".y./.go./.../..", "G(0,-1) overlaps another piece"),
    ],
)
def test_decode_names_the_first_fault_of_the_rows(rows: str, why: str) -> None:
    """With several faults in the rows, the message names the first in reading order
    (the whole-plane parse finds that there is a fault, a piece-by-piece one which)."""
    with pytest.raises(InvalidPositionError, match=re.escape(why)):
        Tricolor({"n": "2"}).decode(f"2:rim:{rows}:0,0:2:1")


def test_decode_accepts_an_extra_move() -> None:
    game = Tricolor({"n": "2"})
    assert game.decode("2:rim:.o./..../.../..:0,0:1:1").to_move == 0
    assert game.decode("2:rim:.o./..../.../..:0,0:2:1").to_move == 1
    assert game.decode("2:rim:.o./..../.../..:1,-1:2:1").scores == (1, -1)
    assert game.decode("2:rim:.o./.g../.../..:0,0:1:2").ply == 2


def test_decode_checks_the_seat_order_with_three_seats() -> None:
    game = Tricolor({"n": "2"})
    assert game.decode("2:rim:.o./..../.../..:0,0,0:2:1").to_move == 1
    assert game.decode("2:rim:.o./..../.../..:0,0,0:1:1").to_move == 0  # an extra move
    with pytest.raises(InvalidPositionError):
        game.decode("2:rim:.o./..../.../..:0,0,0:3:1")  # seat 3 cannot follow seat 1


def test_render() -> None:
    game = Tricolor({"n": "2"})
    picture = game.render(play_text(game, "O(-1,0)", "G(-1,1)", "Y(0,0)"))
    assert picture.splitlines() == [
        "  3      <  >",
        "  2   <  >  <  >",
        "  1   >  <  Y  g",
        "  0   <  >  y  G",
        " -1   >  o  O  <",
        " -2   <  >  <  >",
        " -3      <  >",
        "  j  -2 -1  0  1",
        "ply 3, scores 0,0, seat 1 to place orange",
    ]
    over = game.render(play_text(game, *[t for t, _, _ in EARLY_END]))
    assert over.splitlines()[-1] == (
        "ply 6, game over: no free orange position after 6 placements, "
        "seat 2 +1 for the last one: seat 1 -2, seat 2 -2"
    )


# --- golden playthroughs ----------------------------------------------------------------

GOLDEN = {
    "default": ({}, 2, 1),
    "n2-3players": ({"n": "2"}, 3, 4),
    "n3-norim-4players": ({"n": "3", "rim-crowns": "no"}, 4, 2),
}


def _completes(state: TricolorState, move: int) -> str:
    done = completed(state.configs, state.placed, state.covered, move)
    return (
        f" completes crowns {done.crowns} stars {done.stars} hexagons {done.hexagons}"
        f" empty {done.empty}"
    )


def playthrough(options: dict[str, str], players: int, seed: int) -> str:
    """A seeded random game, ply by ply, as text."""
    return golden_playthrough(
        Tricolor(options), players, seed, name_players=True, move_note=_completes
    )


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough(name: str) -> None:
    options, players, seed = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(options, players, seed)
    check_golden(path, text)


def test_board_side_has_an_upper_bound_against_typos() -> None:
    from referee.errors import InvalidOptionError
    from referee.registry import make_game

    assert Tricolor.option_specs[0].validate("64") == "64"  # building n=64 is slow
    with pytest.raises(InvalidOptionError, match=r"outside 1\.\.64"):
        make_game("tricolor", {"n": "100000"})
