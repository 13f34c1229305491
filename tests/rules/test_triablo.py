"""Triablo rules: every move and capture type, losses, 3-player elimination, options.

Positions are drawn as in ``Triablo.render``: the seven screen rows of the hexagon,
top (``a4 b5 c6 d7``) to bottom (``d1 e2 f3 g4``); the middle row is
``a1 b2 c3 d4 e5 f6 g7``. ``.`` is an empty point; ``W<`` a White Type-W singleton
(tips W, NE, SE), ``R>`` a Red Type-E one (tips E, NW, SW); ``W>r`` a White Type-E
cover on a Red captive; ``WK`` White's king. Directions from ``d4``: E ``e5``,
NE ``d5``, NW ``c4``, W ``c3``, SW ``d3``, SE ``e4``.
"""

from __future__ import annotations

import pytest

from referee.core import Termination
from referee.errors import IllegalMoveError, InvalidMoveError, InvalidOptionError
from referee.games.triablo import Triablo, TriabloState
from referee.games.triablo.board import INDEX, NAMES, NEIGHBOURS, NUM_POINTS, ROWS, distance
from referee.games.triablo.notation import piece_token
from referee.games.triablo.pieces import (
    BACK,
    CONTROLLER,
    TIPS,
    VALID_CODES,
    aims_at_enemy,
    controlled,
    tips_on,
    vulnerable,
)
from referee.registry import find_game_class, make_game
from referee.results import forfeit_outcome, result_text

CODE_OF = {piece_token(code): code for code in VALID_CODES if code}
CODE_OF["."] = 0


def board_of(picture: str) -> bytes:
    tokens = picture.split()
    assert len(tokens) == NUM_POINTS, "the picture must show all 37 points"
    cells = bytearray(NUM_POINTS)
    points = [p for row in ROWS for p in row]
    for point, token in zip(points, tokens, strict=True):
        cells[point] = CODE_OF[token]
    return bytes(cells)


def position(
    picture: str,
    seat: int = 0,
    *,
    players: int = 2,
    options: dict[str, str] | None = None,
    quiet: int = 0,
    out: tuple[tuple[int, str], ...] = (),
) -> TriabloState:
    """The drawn position, checked by a decode round trip."""
    game = Triablo(options)
    state = TriabloState(game.config(players), board_of(picture), seat, 200, quiet, out)
    return game.decode(game.encode(state))


def texts(state: TriabloState) -> set[str]:
    return {Triablo().format_move(state, m) for m in state.legal_moves()}


def play(state: TriabloState, *moves: str) -> TriabloState:
    game = Triablo()
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


def at(state: TriabloState, name: str) -> str:
    code = state.board[INDEX[name]]
    return piece_token(code) if code else "."


def white_singletons(state: TriabloState) -> int:
    """White's physical singletons on the board: a king holds two."""
    tokens = [at(state, name) for name in NAMES]
    return sum(2 if t == "WK" else t.count("W") + t.count("w") for t in tokens)


def legal(state: TriabloState, text: str) -> bool:
    return state.is_legal(Triablo().parse_move(state, text))


# --- options, registry, geometry ----------------------------------------------------------


def test_options_names_defaults_and_order() -> None:
    game = Triablo()
    assert game.options == {"setup": "figure", "captive-tips": "yes", "no-capture-draw": "100"}
    assert game.options_text() == "setup=figure,captive-tips=yes,no-capture-draw=100"
    assert Triablo.option_specs[0].choices == ("figure", "free")
    assert Triablo.option_specs[1].choices == ("yes", "no")
    assert Triablo.player_counts == (2, 3) and Triablo.version == "1"
    assert find_game_class("triablo") is Triablo
    assert make_game("triablo", {"no-capture-draw": "0"}).options["no-capture-draw"] == "0"


@pytest.mark.parametrize(
    "options",
    [{"setup": "fixed"}, {"captive-tips": "maybe"}, {"no-capture-draw": "-1"}, {"pie": "yes"}],
)
def test_bad_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(InvalidOptionError):
        Triablo(options)


@pytest.mark.parametrize("players", [1, 4])
def test_two_or_three_players_only(players: int) -> None:
    with pytest.raises(InvalidOptionError):
        Triablo().initial_state(players)


def test_board_names_and_neighbours() -> None:
    assert NUM_POINTS == 37
    assert [NAMES[p] for p in ROWS[0]] == ["a4", "b5", "c6", "d7"]
    assert [NAMES[p] for p in ROWS[3]] == ["a1", "b2", "c3", "d4", "e5", "f6", "g7"]
    assert [NAMES[p] for p in ROWS[6]] == ["d1", "e2", "f3", "g4"]
    assert list(NAMES) == sorted(NAMES)
    assert all(abs(ord(n[0]) - ord("a") + 1 - int(n[1])) <= 3 for n in NAMES)
    around = {NAMES[p] for p in NEIGHBOURS[INDEX["d4"]]}
    assert around == {"e5", "d5", "c4", "c3", "d3", "e4"}
    counts = sorted(sum(p >= 0 for p in near) for near in NEIGHBOURS)
    assert (counts.count(3), counts.count(4), counts.count(6)) == (6, 12, 19)
    for point, near in enumerate(NEIGHBOURS):
        for d, other in enumerate(near):
            assert other < 0 or NEIGHBOURS[other][(d + 3) % 6] == point
            assert other < 0 or distance(point, other) == 1


# --- the start (docs/rules/triablo.md) -------------------------------------------


def test_two_player_start() -> None:
    state = Triablo().initial_state(2)
    board = state.board
    assert at(state, "a1") == "WK" and at(state, "g7") == "RK"
    white = ["a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
    red = ["e5", "e6", "e7", "f5", "f6", "f7", "g5", "g6"]
    assert all(at(state, p) == "W<" for p in white)  # Figure 3: White Type-W
    assert all(at(state, p) == "R>" for p in red)  # Red Type-E
    for point in range(NUM_POINTS):
        if board[point]:
            assert not aims_at_enemy(board, point, TIPS[1][board[point]]), NAMES[point]
            assert not vulnerable(board, point, 1 - CONTROLLER[board[point]], BACK[1])
    assert controlled(board, 0) == controlled(board, 1) == 9
    assert state.to_move == 0 and state.outcome() is None
    assert not any("x" in text for text in texts(state))


def test_three_player_start() -> None:
    state = Triablo().initial_state(3)
    board = state.board
    assert (at(state, "a1"), at(state, "d7"), at(state, "g4")) == ("WK", "RK", "BK")
    # Only these six cannot avoid aiming at an enemy (docs/rules/triablo.md); every other
    # piece, the kings included, aims at none.
    unavoidable = {"b3", "c2", "c5", "e6", "e3", "f5"}
    aiming = {
        NAMES[p]
        for p in range(NUM_POINTS)
        if board[p] and aims_at_enemy(board, p, TIPS[1][board[p]])
    }
    assert aiming == unavoidable
    for point in range(NUM_POINTS):
        if board[point]:
            enemies = [s for s in range(3) if s != CONTROLLER[board[point]]]
            assert all(tips_on(board, point, s, BACK[1]) <= 1 for s in enemies), NAMES[point]
    assert [controlled(board, seat) for seat in range(3)] == [9, 9, 9]
    assert not any("x" in text for text in texts(state))


def test_three_player_start_is_rotationally_symmetric() -> None:
    board = Triablo().initial_state(3).board

    def rotate(name: str) -> str:  # (q, r, s) -> (s, q, r): a1 -> d7 -> g4
        n, c = int(name[1]), ord(name[0]) - ord("a") + 1
        q, r = n - 4, c - n
        s = -q - r
        return f"{chr(ord('a') + s + q + 3)}{s + 4}"

    for point in range(NUM_POINTS):
        code = board[point]
        image = board[INDEX[rotate(NAMES[point])]]
        if code:
            # a 120° turn maps Type-E onto Type-E, so the token keeps its shape
            assert piece_token(image)[1:] == piece_token(code)[1:]
            assert CONTROLLER[image] == (CONTROLLER[code] + 1) % 3
        else:
            assert not image


# --- moves --------------------------------------------------------------------------------

SLIDES = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   .   .   .
  WK  W>r .   W<  .   .   RK
    .   .   .   .   .   .
      .   .   .   .   R>
        .   .   R<  R<
"""


def test_singleton_slides_along_its_three_tips_and_reorients() -> None:
    state = position(SLIDES)
    from_d4 = {t for t in texts(state) if t.startswith("d4")}
    # Type-W tips: W (c3, b2 blocked by the doublet), NE (d5 d6 d7), SE (e4 f4 g4)
    targets = ["c3", "d5", "d6", "d7", "e4", "f4"]
    assert from_d4 == {f"d4-{t}/{o}" for t in targets for o in "EW"}
    assert not legal(state, "d4-e5/E")  # E is not one of its tips
    assert not legal(state, "d4-b2/W") and not legal(state, "d4-a1/W")  # no jumping
    assert not legal(state, "d4-c3")  # a singleton move always carries its orientation
    after = play(state, "d4-d6/E")
    assert at(after, "d6") == "W>" and at(after, "d4") == "." and after.to_move == 1
    assert at(play(state, "d4-d6/W"), "d6") == "W<"  # /W written even though unchanged


def test_doublet_slides_in_six_directions_moved_by_its_cover() -> None:
    state = position(SLIDES)
    from_b2 = {t for t in texts(state) if t.startswith("b2")}
    targets = ["c3", "b3", "b4", "b5", "a2", "b1", "c2", "d2", "e2"]  # W is the king
    assert from_b2 == {f"b2-{t}/{o}" for t in targets for o in "EW"}
    after = play(state, "b2-e2/W")
    assert at(after, "e2") == "W<r" and at(after, "b2") == "."
    # Red owns the captive but cannot move the doublet
    red = position(SLIDES, seat=1)
    assert not any(t.startswith("b2") for t in texts(red))
    assert not legal(red, "b2-c3/E")


def test_king_steps_one_point_without_suffix() -> None:
    state = position(SLIDES, seat=1)
    steps = {t for t in texts(state) if t.startswith("g7-")}
    assert steps == {"g7-f6", "g7-f7", "g7-g6"}
    assert {t for t in texts(state) if t.startswith("g7>")} == {"g7>g5/E", "g7>g5/W"}
    assert not legal(state, "g7-e5") and not legal(state, "g7-f6/E")
    after = play(state, "g7-f6")
    assert at(after, "f6") == "RK" and at(after, "g7") == "."


ABDICATION = """
        .   .   .   .
      .   .   .   .   .
    W>r .   .   .   .   .
  WK  .   .   W<  W<  .   RK
    W>  .   .   .   .   R>
      .   .   .   .   R<
        .   .   .   R<
"""


def test_abdication_over_empty_points_and_onto_an_adjacent_singleton() -> None:
    state = position(ABDICATION)
    from_a1 = {t for t in texts(state) if t.startswith("a1")}
    assert from_a1 == {"a1-b2", "a1>d4/E", "a1>d4/W", "a1>b1/E", "a1>b1/W"}
    assert not legal(state, "a1>a2/E")  # a doublet is not a singleton
    assert not legal(state, "a1>e5/E")  # only the first piece along the line
    with pytest.raises(InvalidMoveError):  # the orientation left behind must be given
        Triablo().parse_move(state, "a1>d4")
    far = play(state, "a1>d4/E")
    assert (at(far, "a1"), at(far, "d4")) == ("W>", "WK")
    near = play(state, "a1>b1/W")
    assert (at(near, "a1"), at(near, "b1")) == ("W<", "WK")
    assert near.to_move == 1 and near.quiet == 1


def test_no_abdication_onto_an_enemy_singleton() -> None:
    state = position(ABDICATION.replace("    W>  .", "    R>  .", 1))
    assert at(state, "b1") == "R>"
    assert not legal(state, "a1>b1/E") and not legal(state, "a1>b1/W")
    assert not any(t.startswith("a1>b1") for t in texts(state))


# --- captures -----------------------------------------------------------------------------

CAPTURE = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   W>  .   .
  WK  .   W>  R<  W<  .   RK
    .   .   .   W<  .   .
      .   .   .   .   R>
        .   .   .   R<
"""


def test_singleton_captures_a_singleton_with_three_tips_on_it() -> None:
    state = position(CAPTURE)
    d4 = INDEX["d4"]
    assert tips_on(state.board, d4, 0, BACK[1]) == 3  # c3 E, d5 SW, e5 W
    captures = {t for t in texts(state) if "x" in t}
    assert captures == {"c3xd4", "d5xd4", "e5xd4"}  # no suffix: the orientation is forced
    assert "c3-b3/E" in texts(state)  # capture is optional
    assert not legal(state, "e4xd4")  # e4 (Type-W) has no tip on d4
    assert not legal(state, "c3xd4/E")
    after = play(state, "c3xd4")
    # the cover takes the orientation opposite to the covered Type-W singleton
    assert at(after, "d4") == "W>r" and at(after, "c3") == "."
    assert after.to_move == 1 and after.quiet == 0 and after.outcome() is None
    assert controlled(after.board, 1) == 3  # g7, g5, g4


FAR = """
        .   .   .   .
      .   .   .   W>  .
    .   .   .   .   .   .
  WK  .   W>  R<  W<  .   RK
    .   .   .   W<  .   .
      .   .   .   .   R>
        .   .   .   R<
"""
BLOCKED = FAR.replace(".   .   .   .   .   .\n  WK", ".   .   .   R<  .   .\n  WK")


def test_two_tips_are_not_enough_and_lines_can_be_blocked() -> None:
    two = position(CAPTURE.replace("W>  .   .\n", ".   .   .\n", 1))
    assert at(two, "d5") == "."
    assert not any("x" in t for t in texts(two))
    far = position(FAR)
    assert at(far, "d6") == "W>" and at(far, "d5") == "."
    assert {t for t in texts(far) if "x" in t} == {"c3xd4", "d6xd4", "e5xd4"}
    blocked = position(BLOCKED)
    assert at(blocked, "d5") == "R<"
    assert tips_on(blocked.board, INDEX["d4"], 0, BACK[1]) == 2
    assert not legal(blocked, "c3xd4") and not legal(blocked, "d6xd4")


def test_capture_leaving_fewer_than_three_pieces_wins() -> None:
    state = position(CAPTURE.replace("R<\n", ".\n"))
    after = play(state, "d5xd4")
    outcome = after.outcome()
    assert after.to_move is None and outcome is not None
    assert outcome.ranks == (1, 2) and outcome.termination is Termination.RULES
    assert outcome.reason == (
        "seat 1 (White) wins; out: seat 2 (Red): controls fewer than three pieces"
    )
    assert after.out == ((1, "f"),)


CAPTIVE = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   W>  .   .
  WK  .   W>  R<  R>w .   RK
    .   .   .   .   .   .
      .   .   .   .   .
        .   .   .   R<
"""


@pytest.mark.parametrize("captive_tips", ["yes", "no"])
def test_a_captives_tips_make_the_capture_possible(captive_tips: str) -> None:
    state = position(CAPTIVE, options={"captive-tips": captive_tips})
    # d4 sees White tips from c3 and d5, and the White captive's W tip under e5's Red cover
    captures = {t for t in texts(state) if "x" in t}
    if captive_tips == "yes":
        assert captures == {"c3xd4", "d5xd4"}
        assert at(play(state, "d5xd4"), "d4") == "W>r"
    else:
        assert captures == set()
        assert not legal(state, "c3xd4")


DOUBLET = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   W>  .   .
  WK  W>r .   RK  W<  .   .
    .   .   .   .   .   .
      .   .   .   R>  R<
        .   .   .   R<
"""


def test_doublet_captures_a_king_along_its_covers_tip_and_wins() -> None:
    state = position(DOUBLET)
    captures = {t for t in texts(state) if "x" in t}
    assert captures == {"b2xd4/E", "b2xd4/W"}  # singletons cannot take a king
    after = play(state, "b2xd4/W")
    assert at(after, "d4") == "W<r" and at(after, "b2") == "."
    outcome = after.outcome()
    assert outcome is not None and outcome.ranks == (1, 2)
    assert outcome.reason == "seat 1 (White) wins; out: seat 2 (Red): king captured"
    assert result_text(Triablo(), outcome) == "1-0"


def test_doublet_replaces_a_singleton_instead_of_covering_it() -> None:
    state = position(DOUBLET.replace("RK", "R<").replace(".   R<\n", ".   RK\n"))
    assert (at(state, "d4"), at(state, "g4")) == ("R<", "RK")
    captures = {t for t in texts(state) if "x" in t}
    assert captures == {"b2xd4/E", "b2xd4/W", "d5xd4", "e5xd4"}
    after = play(state, "b2xd4/E")
    assert at(after, "d4") == "W>r"  # the same captive as before: the Red singleton is gone
    assert controlled(after.board, 1) == 3 and after.quiet == 0


def test_doublet_captures_only_along_its_covers_tips() -> None:
    # cover Type-W: the captive's E tip (Red) points at d4; a third White tip from d3
    picture = DOUBLET.replace("W>r", "W<r").replace(
        "    .   .   .   .   .   .\n      .", "    .   .   W<  .   .   .\n      .", 1
    )
    state = position(picture)
    assert at(state, "d3") == "W<" and vulnerable(state.board, INDEX["d4"], 0, BACK[1])
    assert not legal(state, "b2xd4/E") and not legal(state, "b2xd4/W")
    assert not any(t.startswith("b2x") for t in texts(state))


def test_doublet_removes_a_doublet_whole_even_with_its_own_captive() -> None:
    # Red's doublet on d4 holds a White captive; the capture removes both layers
    state = position(DOUBLET.replace("RK", "R>w").replace(".   R<\n", ".   RK\n"))
    assert at(state, "d4") == "R>w" and at(state, "g4") == "RK"
    assert {t for t in texts(state) if "x" in t} == {"b2xd4/E", "b2xd4/W"}
    assert not legal(state, "d5xd4")  # a singleton only covers singletons
    after = play(state, "b2xd4/E")
    assert at(after, "d4") == "W>r"
    assert white_singletons(state) == 6 and white_singletons(after) == 5  # captive gone too


KING = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   W>  .   .
  .   .   WK  R<  W<  .   RK
    .   .   .   .   .   .
      .   .   .   .   R>
        .   .   .   R<
"""


def test_king_captures_an_adjacent_vulnerable_piece() -> None:
    state = position(KING)
    captures = {t for t in texts(state) if "x" in t}
    assert captures == {"c3xd4", "d5xd4", "e5xd4"}
    after = play(state, "c3xd4")
    assert at(after, "d4") == "WK" and at(after, "c3") == "."
    assert controlled(after.board, 1) == 3
    far = position(KING.replace("  .   .   WK  R<", "  .   WK  .   R<"))
    assert at(far, "b2") == "WK"
    assert not legal(far, "b2xd4")  # a king only reaches adjacent points
    assert not any(t.startswith("b2x") for t in texts(far))


KING_SW = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   W>  .   .
  .   .   .   R<  W<  .   RK
    .   .   WK  .   .   .
      .   .   .   .   R>
        .   .   .   R<
"""


@pytest.mark.parametrize("captive_tips", ["yes", "no"])
def test_a_king_has_six_tips_whatever_the_captive_option(captive_tips: str) -> None:
    # d4 lies north-east of the king on d3: an odd direction, not one of a Type-E cover's
    state = position(KING_SW, options={"captive-tips": captive_tips})
    assert tips_on(state.board, INDEX["d4"], 0, BACK[captive_tips == "yes"]) == 3
    assert "d3xd4" in texts(state)


# --- losses and draws ---------------------------------------------------------------------

STUCK = """
        .   .   .   .
      .   .   .   .   .
    R<  .   .   .   .   .
  WK  .   .   R<  .   .   RK
    R>  .   .   .   .   .
      .   .   .   .   .
        .   W<  W<  W<
"""


def test_king_that_cannot_move_or_abdicate_loses_at_the_start_of_its_turn() -> None:
    state = position(STUCK, seat=1)
    after = play(state, "d4-b2/E")
    outcome = after.outcome()
    assert after.to_move is None and after.legal_moves() == () and outcome is not None
    assert outcome.ranks == (2, 1)
    assert outcome.reason == (
        "seat 2 (Red) wins; out: seat 1 (White): king cannot move or abdicate"
    )
    assert after.out == ((0, "m"),)


def test_a_win_beats_a_completed_no_capture_count() -> None:
    state = position(STUCK, seat=1, quiet=99)
    won = play(state, "d4-b2/W")
    assert won.quiet == 100
    outcome = won.outcome()
    assert outcome is not None and outcome.ranks == (2, 1)
    drawn = play(state, "g7-f6")
    outcome = drawn.outcome()
    assert outcome is not None and outcome.ranks == (1, 1)
    assert outcome.reason == (
        "draw between seat 1 (White) and seat 2 (Red): no capture in 100 plies"
    )
    assert result_text(Triablo(), outcome) == "1/2-1/2"


def test_no_capture_draw_option() -> None:
    short = position(STUCK, seat=1, options={"no-capture-draw": "10"}, quiet=9)
    assert play(short, "g7-f6").to_move is None
    off = position(STUCK, seat=1, options={"no-capture-draw": "0"}, quiet=150)
    assert play(off, "g7-f6").to_move == 0
    reset = position(CAPTURE, quiet=99)
    assert play(reset, "c3xd4").quiet == 0 and play(reset, "c3xd4").to_move == 1
    assert play(reset, "c3-b3/E").to_move is None


def test_score_unfinished_scores_controlled_pieces() -> None:
    game = Triablo()
    assert game.score_unfinished(game.initial_state(3)) == ((1, 1, 1), (9.0, 9.0, 9.0))
    # The king counts; the eliminated seat scores 0 and stays behind the survivors.
    state = position(LAST, players=3, out=((1, "k"),))
    assert game.score_unfinished(state) == ((1, 3, 1), (4.0, 0.0, 4.0))
    assert game.evaluate(state) == (4.0, 0.0, 4.0)
    # Material breaks the tie between survivors (a move limit, or a forfeit of the third).
    richer = position(LAST.replace("W>r .   BK", "W>r B>  BK"), players=3, out=((1, "k"),))
    assert game.score_unfinished(richer) == ((2, 3, 1), (4.0, 0.0, 5.0))
    forfeit = forfeit_outcome(game, richer, Termination.TIMEOUT, 0)
    assert forfeit.ranks == (3, 2, 1) and forfeit.scores == (4.0, 0.0, 5.0)


@pytest.mark.parametrize("players", [2, 3])
def test_evaluate_counts_each_seats_controlled_pieces_in_random_play(players: int) -> None:
    import random

    from referee.games.triablo.pieces import controlled

    game = Triablo()
    for seed in range(12):
        state = game.initial_state(players)
        rng = random.Random(seed)
        while state.to_move is not None and state.ply < 200:
            gone = {seat for seat, _ in state.out}
            expected = tuple(
                0.0 if seat in gone else float(controlled(state.board, seat))
                for seat in range(players)
            )
            assert game.evaluate(state) == expected
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])


# --- three players ------------------------------------------------------------------------

ELIMINATION = """
        .   .   .   .
      .   .   .   .   R<
    .   .   .   W>  .   .
  WK  W>r .   RK  W<  .   R>b
    .   .   .   .   .   .
      .   .   .   .   B<
        .   B<  B<  BK
"""


def test_elimination_frees_the_singletons_its_covers_held() -> None:
    state = position(ELIMINATION, players=3)
    assert at(state, "g7") == "R>b" and controlled(state.board, 2) == 4
    after = play(state, "b2xd4/E")
    assert after.out == ((1, "k"),)
    assert after.to_move == 2  # Red is skipped
    assert at(after, "g7") == "B<"  # freed, orientation kept (opposite to the cover's)
    assert at(after, "e7") == "."  # Red's singleton left the board
    assert at(after, "d4") == "W>r"  # Red's captive stays under White's cover
    assert controlled(after.board, 2) == 5 and controlled(after.board, 1) == 0
    assert after.outcome() is None
    nxt = play(after, "e2-d1/W")
    assert nxt.to_move == 0
    assert "Red" in Triablo().render(after).splitlines()[-1]


ENCLOSE = """
        .   .   .   .
      W<  .   .   .   .
    .   .   .   .   .   B<
  WK  .   .   W>  .   .   RK
    .   .   .   .   .   B<
      R<  .   .   .   .
        R<  .   .   BK
"""


def test_a_seat_whose_king_is_stuck_is_eliminated_and_skipped() -> None:
    state = position(ENCLOSE, players=3)
    after = play(state, "d4-f6/W")
    assert after.out == ((1, "m"),) and after.to_move == 2
    assert at(after, "g7") == at(after, "c1") == at(after, "d1") == "."
    assert after.outcome() is None


LAST = """
        .   .   .   .
      .   .   .   .   .
    .   .   .   W>  .   .
  WK  W>r .   BK  W<  .   .
    .   .   .   .   .   .
      .   .   .   .   B<
        .   B<  B<  .
"""


def test_last_seat_standing_wins_and_elimination_order_ranks() -> None:
    state = position(LAST, players=3, out=((1, "k"),))
    after = play(state, "b2xd4/E")
    outcome = after.outcome()
    assert outcome is not None and after.to_move is None
    assert outcome.ranks == (1, 3, 2)
    assert outcome.reason == (
        "seat 1 (White) wins; out: seat 3 (Black): king captured; "
        "earlier out: seat 2 (Red): king captured"
    )
    assert result_text(Triablo(), outcome) == "1-0-0"


def test_three_player_draw_with_two_survivors() -> None:
    state = position(LAST, players=3, out=((1, "k"),), quiet=99)
    after = play(state, "a1-a2")
    outcome = after.outcome()
    assert outcome is not None and outcome.ranks == (1, 3, 1)
    assert result_text(Triablo(), outcome) == "1/2-0-1/2"


def test_illegal_moves_raise() -> None:
    state = Triablo().initial_state(2)
    setup = "a2/W,a3/W,b1/W,b2/W,b3/W,c1/W,c2/W,c3/W"
    for text in ("a1-b2", "c3-c4", "c3xd4", "a1>c3/E", "e5-e4/E", setup):
        with pytest.raises(IllegalMoveError):
            state.play(Triablo().parse_move(state, text))
