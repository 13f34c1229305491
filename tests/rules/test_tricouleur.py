"""Tricouleur rules: every rule and option of docs/rules/tricouleur.md.

Positions are drawn as ``Tricouleur.render`` draws them: the 15 screen rows of the
hexhex board between the names of their first and last cells; ``R W B`` are seat 1's
(First's) red, white and blue stones, ``r w b`` seat 2's (Second's).
"""

from __future__ import annotations

import random

import pytest

from referee.core import Termination
from referee.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from referee.games.tricouleur import REPLACE, Tricouleur, TricouleurState
from referee.games.tricouleur.notation import BOARD, CELLS, NAMES, encode
from referee.registry import find_game_class, make_game

KINDS = "RWBrwb"


def diagram(
    game: Tricouleur, picture: str, *, seat: int = 0, quiet: int = 0, ply: int | None = None
) -> TricouleurState:
    """The position drawn in ``picture`` with ``seat`` (0-based) to move.

    Goes through ``decode``, so the drawing must be a consistent position.
    """
    tokens = [t for t in picture.split() if len(t) == 1 and t in ".RWBrwb"]
    assert len(tokens) == 169, "the picture must show every cell"
    stones = [0] * 6
    for slot, token in zip(BOARD.cells, tokens, strict=True):
        if token != ".":
            stones[KINDS.index(token)] |= 1 << slot
    if ply is None:
        ply = max(quiet, 10) + (seat - max(quiet, 10)) % 2
    return game.decode(encode(tuple(stones), seat, quiet, ply))


def texts(game: Tricouleur, state: TricouleurState) -> list[str]:
    return [game.format_move(state, m) for m in state.legal_moves()]


def play(game: Tricouleur, state: TricouleurState, *moves: str) -> TricouleurState:
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


def stone(state: TricouleurState, cell: str) -> str:
    slot = CELLS[cell]
    for kind, mask in enumerate(state.stones):
        if mask >> slot & 1:
            return KINDS[kind]
    return "."


# --- options and registry ---------------------------------------------------------------


def test_options_names_defaults_and_order() -> None:
    game = Tricouleur()
    assert game.options == {
        "closer-applies-to-captures": "yes",
        "closer-metric": "euclidean",
        "no-capture-draw": "40",
    }
    assert game.options_text() == (
        "closer-applies-to-captures=yes,closer-metric=euclidean,no-capture-draw=40"
    )
    assert Tricouleur.option_specs[0].choices == ("yes", "no")
    assert Tricouleur.option_specs[1].choices == ("euclidean", "steps")
    assert Tricouleur.player_counts == (2,)
    assert Tricouleur.version == "1"
    assert find_game_class("tricouleur") is Tricouleur
    assert make_game("TRICOULEUR").options == game.options


@pytest.mark.parametrize(
    "options",
    [
        {"closer-applies-to-captures": "maybe"},
        {"closer-metric": "manhattan"},
        {"no-capture-draw": "-1"},
        {"no-capture-draw": "forty"},
        {"colours": "3"},
    ],
)
def test_bad_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(InvalidOptionError):
        Tricouleur(options)


def test_only_two_players() -> None:
    for players in (1, 3):
        with pytest.raises(InvalidOptionError):
            Tricouleur().initial_state(players)


# --- board, names and start ---------------------------------------------------------------


def test_cell_names() -> None:
    assert len(NAMES) == 169
    where = BOARD.coords
    assert where[CELLS["h8"]] == (0, 0)
    for name, slot in CELLS.items():
        c, n = ord(name[0]) - ord("a") + 1, int(name[1:])
        assert abs(c - n) <= 7
        assert where[slot] == (n - 8, c - n)
    first_row = [NAMES[s] for s in BOARD.cells[:8]]
    assert first_row == ["a8", "b9", "c10", "d11", "e12", "f13", "g14", "h15"]
    assert [NAMES[s] for s in BOARD.cells[-8:]] == ["h1", "i2", "j3", "k4", "l5", "m6", "n7", "o8"]


START_PICTURE = """
  a8        . . . . . . . .  h15
  a7       . . . . . . . . .  i15
  a6      . . B R W . . w . .  j15
  a5     . . . B R . . w b . .  k15
  a4    . . . . B . . w b r . .  l15
  a3   . . b . . . . . . . . . .  m15
  a2  . . w w . . . . . . . . . .  n15
  a1 . . r r r . . . . . R R R . .  o15
  b1  . . . . . . . . . . W W . .  o14
  c1   . . . . . . . . . . B . .  o13
  d1    . . R B W . . b . . . .  o12
  e1     . . B W . . r b . . .  o11
  f1      . . W . . w r b . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . . . . .  o8
"""

FIRST = (
    "c8:B d9:R e10:W d8:B e9:R e8:B k11:R l12:R m13:R l11:W m12:W m11:B "
    "f3:R g4:B h5:W g3:B h4:W h3:W"
)
SECOND = (
    "h13:w h12:w i13:b h11:w i12:b j13:r c5:b c4:w d5:w c3:r d4:r e5:r "
    "k8:b k7:r l8:b k6:w l7:r m8:b"
)


def test_start_position_is_rules_file_2_3() -> None:
    game = Tricouleur()
    start = game.initial_state(2)
    assert start == diagram(game, START_PICTURE, seat=0, ply=0)
    assert start.ply == 0 and start.quiet == 0 and start.to_move == 0
    for cell_kind in FIRST.split():
        cell, kind = cell_kind.split(":")
        assert stone(start, cell) == kind
    for cell_kind in SECOND.split():
        cell, kind = cell_kind.split(":")
        assert stone(start, cell) == kind
    for mask in start.stones:
        assert mask.bit_count() == 6
    assert game.render(start).splitlines()[:15] == START_PICTURE.strip("\n").splitlines()


def test_start_symmetries_rules_file_6_1() -> None:
    game = Tricouleur()
    start = game.initial_state(2)
    where, slot_of = BOARD.coords, BOARD.slot_of
    placed = {
        where[s]: KINDS[k] for k, m in enumerate(start.stones) for s in range(240) if m >> s & 1
    }
    assert len(placed) == 36
    # 180 degrees swaps the owners, same colours
    swap = {k: k.swapcase() for k in KINDS}
    assert {(-q, -r): swap[k] for (q, r), k in placed.items()} == placed
    # 120 degrees maps each army onto itself with blue -> red -> white -> blue
    cycle = {"B": "R", "R": "W", "W": "B", "b": "r", "r": "w", "w": "b"}
    assert {(-q - r, q): cycle[k] for (q, r), k in placed.items()} == placed
    assert all((q, r) in slot_of for q, r in placed)


def test_start_moves() -> None:
    game = Tricouleur()
    start = game.initial_state(2)
    assert len(start.legal_moves()) == 156
    assert not start.capture_exists()
    assert "c8-c6" in texts(game, start)


# --- moves --------------------------------------------------------------------------------

WHISTLE = """
  a8        . . . . . . . .  h15
  a7       . . . . . . . . .  i15
  a6      . . . . . . . . . .  j15
  a5     . . . . . . . . . . .  k15
  a4    . . . . . . . . . . . .  l15
  a3   . . . . . . . . . . . . .  m15
  a2  . w W . . . . . . . . . . .  n15
  a1 R . . . . . . r . . . . . . .  o15
  b1  . b w . . . . . . . . . . .  o14
  c1   . . . . . . . . . . . . .  o13
  d1    . . . . . . . . . . . .  o12
  e1     . . . . . . . . . . .  o11
  f1      . . . . . . . . . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . . . . .  o8
"""


def test_whistle_takes_the_prey_colour_beside_the_interior_only() -> None:
    game = Tricouleur()
    state = diagram(game, WHISTLE)
    # a1 slides east along the middle row (b2 c3 d4 e5 f6 g7), stopped by r on h8.
    moves = texts(game, state)
    # capture is compulsory: the replacement c4xb3 and every whistle, no plain move
    assert moves == [
        "c4xb3",
        "a1-d4",
        "a1-e5",
        "a1-f6",
        "a1-g7",
        "a1-a4",
        "a1-a5",
        "a1-a6",
        "a1-a7",
    ]
    three = play(game, state, "a1-d4")  # interior b2 c3: b3 touches both; d3 touches d4
    assert (stone(three, "b3"), stone(three, "d3"), stone(three, "c2")) == (".", "w", "b")
    four = play(game, state, "a1-e5")  # interior b2 c3 d4: now d3 is taken as well
    assert (stone(four, "b3"), stone(four, "d3"), stone(four, "c2")) == (".", ".", "b")
    assert stone(four, "c4") == "W"  # friendly stones are never taken
    assert stone(four, "e5") == "R" and stone(four, "a1") == "."
    assert four.quiet == 0 and four.to_move == 1  # no chains: the turn passes
    # red takes white only: the blue c2 beside the same steps survives every whistle
    for text in ("a1-f6", "a1-g7"):
        assert stone(play(game, state, text), "c2") == "b"


def test_victims_touching_an_end_are_not_taken() -> None:
    game = Tricouleur()
    state = diagram(game, WHISTLE)
    # a1-a4 runs up the a-line (a2 a3): b3 touches a2 and a3, neither a1 nor a4
    assert stone(play(game, state, "a1-a4"), "b3") == "."
    # a1-d4 ends next to d3 and a1-c3 (two steps) has no victim at all
    assert stone(play(game, state, "a1-d4"), "d3") == "w"
    assert not state.is_legal(game.parse_move(state, "a1-c3"))


def test_slides_stop_before_any_stone() -> None:
    game = Tricouleur()
    state = diagram(game, WHISTLE)
    for text in ("a1-h8", "a1-i9", "c4-a2", "c4-b3"):
        assert not state.is_legal(game.parse_move(state, text)), text
        with pytest.raises(IllegalMoveError):
            state.play(game.parse_move(state, text))


def test_replacement_of_any_colour_onto_an_adjacent_enemy() -> None:
    game = Tricouleur()
    state = diagram(game, WHISTLE)
    after = play(game, state, "c4xb3")  # white replaces white (no colour rule)
    assert stone(after, "b3") == "W" and stone(after, "c4") == "."
    assert after.quiet == 0
    # Second: w on d3 replaces nothing adjacent... b on c2 touches nothing of First's;
    reply = texts(game, after)
    assert all("x" not in m for m in reply)
    # replacement is one step only, and never onto a friend or an empty cell
    for text in ("a1xb3", "c4xc5", "a1xb2"):
        assert not state.is_legal(game.parse_move(state, text)), text


NO_CAPTURE = """
  a8        . . . . . . . .  h15
  a7       . . . . . . . . .  i15
  a6      . . . . . . . . . .  j15
  a5     . . . . . . . . . . .  k15
  a4    . . . . . . . . . . . .  l15
  a3   . . . . . . . . . . . . .  m15
  a2  . . . . . . . . . . . . . .  n15
  a1 . . . . . . . R . r . . . . .  o15
  b1  . . . . . . . . . . . . . .  o14
  c1   . . . . . . . . . . . . .  o13
  d1    . . . . . . . . . . . .  o12
  e1     . . . . . . . . . . .  o11
  f1      . . . . . . . . . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . . . . .  o8
"""


def test_closer_rule_euclidean_and_steps() -> None:
    """The closer metrics differ: from h8 (0,0) with the only enemy on j10 (2,0), h9 (1,-1) is
    Euclid-closer (3 < 4) but not step-closer (2 = 2)."""
    euclid = Tricouleur()
    state = diagram(euclid, NO_CAPTURE)
    assert texts(euclid, state) == ["h8-i9", "h8-h9", "h8-i8"]
    steps = Tricouleur({"closer-metric": "steps"})
    state = diagram(steps, NO_CAPTURE)
    assert texts(steps, state) == ["h8-i9"]
    for text in ("h8-h9", "h8-g7", "h8-h10"):
        assert not state.is_legal(steps.parse_move(state, text))


FLEEING_WHISTLE = """
  a8        . . . . . . . .  h15
  a7       . . . . . . . . .  i15
  a6      . . . . . . . . . .  j15
  a5     . . . . . . . . . . .  k15
  a4    . . . . . . . . . . . .  l15
  a3   . . . . . . . . . . . . .  m15
  a2  . . . . . . . . w . . . . .  n15
  a1 . . . . . . . R . . . . . . .  o15
  b1  . . . . . . . . . . . . . .  o14
  c1   . . . . . . . . . . . . .  o13
  d1    . . . . . . . . . . . .  o12
  e1     . . . . . . . . . . .  o11
  f1      . . . . . . . . . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . . . . .  o8
"""


def test_closer_rule_applies_to_whistles_by_default() -> None:
    """h8 whistling east past i10 ends no nearer to it (k11: 3 = 3, farther beyond)."""
    game = Tricouleur()
    state = diagram(game, FLEEING_WHISTLE)
    assert not state.capture_exists()
    assert texts(game, state) == ["h8-i9", "h8-j10", "h8-h9", "h8-h10"]
    for text in ("h8-k11", "h8-o15", "h8-h11"):
        assert not state.is_legal(game.parse_move(state, text))


def test_closer_rule_exempts_whistles_when_off() -> None:
    game = Tricouleur({"closer-applies-to-captures": "no"})
    state = diagram(game, FLEEING_WHISTLE)
    assert state.capture_exists()
    assert texts(game, state) == [
        "h8-k11", "h8-l12", "h8-m13", "h8-n14", "h8-o15",
        "h8-h11", "h8-h12", "h8-h13", "h8-h14", "h8-h15",
    ]  # fmt: skip
    assert not state.is_legal(game.parse_move(state, "h8-i9"))  # capture is compulsory
    after = play(game, state, "h8-o15")
    assert stone(after, "i10") == "." and after.outcome() is not None


# --- the source example of the game's original rules ----------------------------------------

EXAMPLE = """
  a8        . . . . b . . .  h15
  a7       R . . . b . . . .  i15
  a6      . . . . . . . . B .  j15
  a5     . . . . . . . . . . .  k15
  a4    . . . . . . . . . . . W  l15
  a3   . . . . . . . . . . . . .  m15
  a2  . w . . b . . . . . . . . .  n15
  a1 . . . . . . . . . . . . . . .  o15
  b1  w . . . . . . . . . . . . .  o14
  c1   . . . W . . . . . . . . .  o13
  d1    . . . . . . . . . . . .  o12
  e1     . . . . . . . . . . .  o11
  f1      . . . . . . . . . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . R . . .  o8
"""


def test_source_example_move_by_move() -> None:
    """The marked stones (here seat 1) capture; each reply is the only capture."""
    game = Tricouleur()
    state = diagram(game, EXAMPLE)
    assert texts(game, state) == [
        "a7-a1", "f4-f8", "f4-f9", "f4-f10", "f4-f11", "f4-f12", "f4-f13",
    ]  # fmt: skip
    state = play(game, state, "a7-a1")  # red whistles past the white b3
    assert stone(state, "b3") == "." and stone(state, "a1") == "R"
    assert texts(game, state) == ["b1xa1"]  # forced: the only capture
    state = play(game, state, "b1xa1")
    assert stone(state, "a1") == "w"
    assert texts(game, state) == ["f4-f8", "f4-f9", "f4-f10", "f4-f11", "f4-f12", "f4-f13"]
    state = play(game, state, "f4-f13")  # white takes the blues e6 and e11, not e12
    assert (stone(state, "e6"), stone(state, "e11"), stone(state, "e12")) == (".", ".", "b")
    assert texts(game, state) == ["e12xf13"]  # forced again
    state = play(game, state, "e12xf13")
    counts = [state.armies(seat).bit_count() for seat in (0, 1)]
    assert counts == [3, 2]  # three stones taken for two


def test_free_choice_no_maximum_rule() -> None:
    game = Tricouleur()
    state = diagram(game, EXAMPLE)
    one = play(game, state, "f4-f12")  # takes e6 only, while f4-f13 takes two
    assert stone(one, "e6") == "." and stone(one, "e11") == "b"


# --- the end ------------------------------------------------------------------------------

LAST_STONE = """
  a8        . . . . . . . .  h15
  a7       . . . . . . . . .  i15
  a6      . . . . . . . . . .  j15
  a5     . . . . . . . . . . .  k15
  a4    . . . . . . . . . . . .  l15
  a3   . . . . . . . . . . . . .  m15
  a2  . . . . . . . . . . . . . .  n15
  a1 . . . . . . . B r . . . . . .  o15
  b1  . . . . . . . . . . . . . .  o14
  c1   . . . . . . . . . . . . .  o13
  d1    . . . . . . . . . . . .  o12
  e1     . . . . . . . . . . .  o11
  f1      . . . . . . . . . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . . . . .  o8
"""


def test_a_seat_without_stones_loses() -> None:
    game = Tricouleur()
    state = diagram(game, LAST_STONE)
    assert texts(game, state) == ["h8xi9"]
    over = play(game, state, "h8xi9")
    assert over.to_move is None and over.legal_moves() == ()
    outcome = over.outcome()
    assert outcome is not None and outcome.termination is Termination.RULES
    assert outcome.ranks == (1, 2) and outcome.scores == ()
    assert outcome.reason == "seat 2 has no stones left"
    assert "game over: seat 2 has no stones left" in game.render(over)
    # the same from seat 2's side
    mirrored = diagram(game, LAST_STONE.replace("B r", "b R"), seat=1)
    done = play(game, mirrored, "h8xi9")
    assert done.outcome() is not None and done.outcome().ranks == (2, 1)  # type: ignore[union-attr]


FAR_APART = """
  a8        . . . . . . . .  h15
  a7       . . . . . . . . .  i15
  a6      . . . . . . . . . .  j15
  a5     . . . . . . . . . . .  k15
  a4    . . . . . . . . . . . .  l15
  a3   . . . . . . . . . . . . .  m15
  a2  . . . . . . . . . . . . . .  n15
  a1 R . . . . . . . . . . . . . r  o15
  b1  . . . . . . . . . . . . . .  o14
  c1   . . . . . . . . . . . . .  o13
  d1    . . . . . . . . . . . .  o12
  e1     . . . . . . . . . . .  o11
  f1      . . . . . . . . . .  o10
  g1       . . . . . . . . .  o9
  h1        . . . . . . . .  o8
"""


@pytest.mark.parametrize(("limit", "expected"), [("40", 40), ("6", 6)])
def test_no_capture_draw(limit: str, expected: int) -> None:
    game = Tricouleur({"no-capture-draw": limit})
    state = diagram(game, FAR_APART, quiet=expected - 2, ply=expected)
    assert state.to_move == 0
    state = play(game, state, "a1-b2")
    assert state.quiet == expected - 1 and state.to_move == 1
    state = play(game, state, "o15-n14")
    assert state.quiet == expected and state.to_move is None
    outcome = state.outcome()
    assert outcome is not None and outcome.ranks == (1, 1) and outcome.scores == ()
    assert outcome.reason == f"draw: {expected} plies without a capture"


def test_no_capture_draw_off_and_capture_resets() -> None:
    game = Tricouleur({"no-capture-draw": "0"})
    state = diagram(game, FAR_APART, quiet=500, ply=500)
    for _ in range(10):
        state = state.play(state.legal_moves()[0])
        assert state.to_move is not None
    assert state.quiet == 510
    capture = diagram(Tricouleur(), WHISTLE, quiet=30, ply=30)
    assert play(Tricouleur(), capture, "a1-e5").quiet == 0


def test_score_unfinished_scores_and_ranks_by_stones() -> None:
    game = Tricouleur()
    assert game.score_unfinished(game.initial_state(2)) == ((1, 1), (18.0, 18.0))
    assert game.score_unfinished(diagram(game, WHISTLE)) == ((2, 1), (2.0, 4.0))
    assert game.evaluate(diagram(game, WHISTLE)) == (2.0, 4.0)


# --- notation -----------------------------------------------------------------------------


def test_move_text_round_trips() -> None:
    game = Tricouleur()
    state = diagram(game, WHISTLE)
    for move in state.legal_moves():
        assert game.parse_move(state, game.format_move(state, move)) == move
    assert game.parse_move(state, "d9xe9") == (CELLS["d9"], CELLS["e9"], REPLACE)
    assert game.parse_move(state, "c8-c6") == (CELLS["c8"], CELLS["c6"])
    assert game.format_move(state, (CELLS["o15"], CELLS["h1"])) == "o15-h1"


@pytest.mark.parametrize(
    "text",
    ["", "c8", "c8-", "C8-c6", "c08-c6", "c8-c6 ", " c8-c6", "c8_c6", "c8Xc6", "c8-c6-c4",
     "a9-a8", "p1-o1", "h16-h15", "h0-h1", "c8–c6", "c8xx6", "8c-6c"],
)  # fmt: skip
def test_parse_move_rejects_non_canonical(text: str) -> None:
    game = Tricouleur()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(2), text)


def test_format_move_rejects_garbage() -> None:
    game = Tricouleur()
    with pytest.raises(InvalidMoveError):
        game.format_move(game.initial_state(2), (0, 1))
    with pytest.raises(InvalidMoveError):
        game.format_move(game.initial_state(2), (CELLS["a1"], CELLS["a2"], 5))


def test_is_legal_rejects_malformed_moves() -> None:
    state = Tricouleur().initial_state(2)
    for move in [(), (1,), (1, 2, 3, 4), ("a", "b"), (CELLS["c8"], "c6"), (-5, 3), (10**6, 2)]:
        assert not state.is_legal(move)  # type: ignore[arg-type]


def test_encoding_example_and_round_trip() -> None:
    game = Tricouleur()
    start = game.initial_state(2)
    text = game.encode(start)
    assert text == (
        "......../........./..BRW..w../...BR..wb../....B..wbr../..b........../..ww........../"
        "..rrr.....RRR../..........WW../..........B../..RBW..b..../..BW..rb.../..W..wrb../"
        "........./........:1:0:0"
    )
    rng = random.Random(4)
    state = start
    while state.to_move is not None:
        again = game.decode(game.encode(state))
        assert again == state and hash(again) == hash(state)
        assert again.to_move == state.to_move
        state = state.play(rng.choice(state.legal_moves()))
    assert game.decode(game.encode(state)) == state


def rows_text(stones: dict[str, str]) -> str:
    """The ``rows`` field of a position with ``stones`` (cell name -> letter)."""
    marks = {CELLS[cell]: kind for cell, kind in stones.items()}
    start = [s for s in BOARD.cells]
    lines: dict[int, str] = {}
    for s in start:
        row = BOARD.coords[s][1]
        lines[row] = lines.get(row, "") + marks.get(s, ".")
    return "/".join(lines[r] for r in sorted(lines))


START_ROWS = rows_text(
    {
        cell_kind.split(":")[0]: cell_kind.split(":")[1]
        for cell_kind in (FIRST + " " + SECOND).split()
    }
)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        f"{START_ROWS}:1:0",  # three fields
        f"{START_ROWS}:1:0:0:0",  # five fields
        f"{START_ROWS.rsplit('/', 1)[0]}:1:0:0",  # 14 rows
        f"{START_ROWS[:-1]}:1:0:0",  # short last row
        f"{START_ROWS[:-1]}X:1:0:0",  # bad stone letter
        f"{START_ROWS[:-1]}\u00e9:1:0:0",  # not ascii
        f"{START_ROWS}:2:0:0",  # seat 2 cannot move at ply 0
        f"{START_ROWS}:3:0:1",  # no seat 3
        f"{START_ROWS}:1:3:2",  # quiet count above ply
        f"{START_ROWS}:1:41:50",  # past the draw
        f"{START_ROWS}:1:40:40",  # drawn, yet a seat to move
        f"{START_ROWS}:-:0:2",  # over, yet nothing ended it
        f"{START_ROWS}:1:00:0",
        f"{START_ROWS}:1:0:-2",
        f"{START_ROWS}:1:0:1234567",
        f"{rows_text({c: 'R' for c in ('a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7')})}:-:0:1",
        f"{rows_text({'a1': 'R'})}:-:0:2",  # seat 1 lost its stones on its own move
        f"{rows_text({'a1': 'R'})}:2:0:1",  # seat 2 has none: the game is over
        f"{rows_text({})}:-:0:1",  # nobody has stones
    ],
)
def test_decode_rejects(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        Tricouleur().decode(text)


def test_decode_accepts_a_finished_game() -> None:
    state = Tricouleur().decode(f"{rows_text({'a1': 'R'})}:-:0:1")
    assert state.to_move is None and state.outcome() is not None
    assert Tricouleur().decode(f"{START_ROWS}:-:40:40").outcome().ranks == (1, 1)  # type: ignore[union-attr]


def test_render_shows_names_and_turn() -> None:
    game = Tricouleur()
    picture = game.render(game.initial_state(2)).splitlines()
    assert picture[7] == "  a1 . . r r r . . . . . R R R . .  o15"
    assert picture[-1] == "ply 0, seat 1 (First, RWB) to move, 0 plies without capture"
    later = diagram(game, WHISTLE, seat=1, quiet=3, ply=7)
    assert game.render(later).splitlines()[-1] == (
        "ply 7, seat 2 (Second, rwb) to move, 3 plies without capture"
    )


# --- consistency over random games ----------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{}, {"closer-applies-to-captures": "no"}, {"closer-metric": "steps"}],
)
def test_is_legal_agrees_with_legal_moves(options: dict[str, str]) -> None:
    game = Tricouleur(options)
    rng = random.Random(9)
    for _ in range(3):
        state = game.initial_state(2)
        while state.to_move is not None:
            legal = set(state.legal_moves())
            seat = state.to_move
            mine = state.armies(seat)
            candidates: set[tuple[int, ...]] = set()
            for s in BOARD.cells:
                if mine >> s & 1:
                    for ray in BOARD.rays[s]:
                        candidates.update((s, c) for c in ray)
                    candidates.update(
                        (s, c, REPLACE) for c in BOARD.cells if BOARD.adjacent[s] >> c & 1
                    )
            candidates.update(legal)
            for move in candidates:
                assert state.is_legal(move) == (move in legal), game.format_move(state, move)
            state = state.play(rng.choice(state.legal_moves()))
