"""Tricolor configurations (docs/rules/tricolor.md): each kind completed alone and several at once.

Every position is drawn as ``Tricolor.render`` draws it (board side 4): one character per
triangle, ``>``/``<`` an empty right/left-pointing triangle, a piece's letter in upper case
on its R triangle and in lower case on its L triangle (``o O`` an orange piece, ``g``
above ``G`` green, ``y`` below ``Y`` yellow). Row ``2i+j+1`` of column ``j`` holds
``R(i,j)``. Each drawing is a legal position (the colours follow the cycle) with seat 1 to
move; each case plays one placement and checks what it completes, the points and who
moves next, under both values of ``rim-crowns``, and against the naive model.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from referee.games.tricolor import Tricolor, TricolorState
from referee.games.tricolor.configs import Completion, completed
from tests.rules.test_tricolor import drawn
from tests.rules.test_tricolor_naive import NaiveBoard


class Case(NamedTuple):
    name: str
    picture: str
    move: str
    rim: tuple[int, int, int, int]
    """(crowns, stars, hexagons, empty triangles) completed with rim-crowns=yes."""
    norim: tuple[int, int, int, int]
    """The same with rim-crowns=no."""


CASES = [
    Case(
        "crown",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  <  >  <  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  <  >  <  >  <
  2   <  >  <  >  o  O  <  >
  1   >  <  >  <  Y  <  >  <
  0   <  >  <  >  y  >  <  >
 -1   >  <  >  <  >  <  >  <
 -2   <  >  g  >  <  >  <  >
 -3   >  <  G  <  >  o  O  <
 -4   <  >  <  >  <  >  <  >
 -5      <  >  <  >  <  >
 -6         <  >  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "G(1,0)",
        (1, 0, 0, 0),
        (1, 0, 0, 0),
    ),
    Case(
        "three-crowns",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  <  >  o  O
  4   <  >  <  >  <  >  <  >
  3   >  <  Y  g  >  <  >  <
  2   <  >  y  G  <  >  <  >
  1   >  <  >  <  >  <  >  <
  0   <  >  g  Y  <  >  <  >
 -1   >  <  G  y  >  <  >  <
 -2   <  >  <  >  <  >  <  >
 -3   >  <  >  <  >  <  >  <
 -4   <  >  <  >  <  >  <  >
 -5      <  >  <  >  <  >
 -6         o  O  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "O(1,-2)",
        (3, 0, 0, 0),
        (3, 0, 0, 0),
    ),
    Case(
        "rim-crown",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  <  >  o  O
  4   <  >  <  >  <  >  <  Y
  3   >  <  >  <  >  <  >  y
  2   <  >  <  >  <  >  <  >
  1   >  <  >  <  >  <  >  <
  0   <  >  <  >  <  >  <  >
 -1   >  <  >  <  >  <  >  <
 -2   <  >  <  >  <  >  g  >
 -3   >  <  >  <  >  <  G  <
 -4   <  >  <  >  <  >  o  O
 -5      <  >  <  >  <  >
 -6         <  >  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "G(0,2)",
        (1, 0, 0, 0),
        (0, 0, 0, 0),
    ),
    Case(
        "star",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  o  O  <  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  <  >  <  >  <
  2   <  >  <  >  <  Y  <  >
  1   >  <  >  <  >  y  >  <
  0   <  >  <  >  o  O  o  O
 -1   >  <  >  <  >  g  Y  <
 -2   <  >  <  >  <  G  y  >
 -3   >  <  >  <  >  <  >  <
 -4   <  >  <  >  <  >  <  >
 -5      <  >  <  >  g  >
 -6         <  >  <  G
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "G(-1,2)",
        (3, 1, 0, 0),
        (3, 1, 0, 0),
    ),
    Case(
        "hexagon",
        """
  7            <  >
  6         <  >  <  >
  5      <  Y  <  >  <  >
  4   g  >  y  >  <  >  <  >
  3   G  o  O  <  >  <  >  <
  2   <  >  <  >  <  >  <  >
  1   >  <  >  <  >  o  O  <
  0   <  >  <  >  <  >  <  >
 -1   >  <  >  <  >  <  >  <
 -2   <  >  <  >  <  >  <  >
 -3   >  <  >  <  >  <  >  <
 -4   <  >  <  >  <  >  <  >
 -5      <  >  <  >  <  >
 -6         <  >  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "G(3,-3)",
        (0, 0, 1, 0),
        (0, 0, 1, 0),
    ),
    Case(
        "empty-triangle",
        """
  7            <  >
  6         <  >  <  Y
  5      <  >  <  >  y  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  <  >  <  >  <
  2   <  >  <  >  <  >  <  >
  1   >  <  >  <  >  <  >  <
  0   <  >  <  >  <  >  o  O
 -1   >  <  >  <  >  <  >  <
 -2   <  >  <  >  <  >  <  >
 -3   >  <  >  <  >  <  >  <
 -4   <  >  <  >  <  >  <  >
 -5      <  >  <  >  <  >
 -6         <  >  g  >
 -7            <  G
  j  -4 -3 -2 -1  0  1  2  3
""",
        "O(-1,3)",
        (0, 0, 0, 1),
        (0, 0, 0, 1),
    ),
    Case(
        "crown-and-hexagon",
        """
  7            <  >
  6         <  >  o  O
  5      <  >  <  >  <  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  <  >  <  >  <
  2   <  >  <  >  <  >  g  >
  1   >  <  >  o  O  <  G  <
  0   <  >  <  >  <  >  <  >
 -1   >  <  >  <  >  <  Y  g
 -2   <  >  <  >  <  >  y  G
 -3   >  <  >  <  >  o  O  <
 -4   <  >  <  >  <  Y  <  >
 -5      <  >  <  >  y  >
 -6         <  >  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "G(-4,2)",
        (1, 0, 1, 0),
        (1, 0, 1, 0),
    ),
    Case(
        "crown-and-empty-triangle",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  <  >  <  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  <  >  <  >  <
  2   <  >  <  >  <  >  <  >
  1   >  <  >  g  >  <  >  <
  0   o  O  <  G  <  >  <  >
 -1   >  <  >  <  >  <  >  <
 -2   <  >  o  O  <  >  <  >
 -3   >  <  >  <  >  <  >  <
 -4   <  >  <  >  <  Y  g  >
 -5      <  >  <  >  y  G
 -6         <  Y  <  >
 -7            y  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "O(-4,1)",
        (1, 0, 0, 1),
        (0, 0, 0, 1),
    ),
    Case(
        "two-hexagons",
        """
  7            o  O
  6         g  >  g  >
  5      <  G  <  G  <  >
  4   <  >  o  O  <  >  <  >
  3   >  <  >  <  >  <  >  <
  2   <  >  <  >  <  >  <  >
  1   >  <  >  <  >  <  >  <
  0   <  >  <  >  <  >  <  >
 -1   >  <  >  <  >  <  >  <
 -2   <  >  <  >  <  >  <  >
 -3   >  <  >  <  >  <  >  <
 -4   <  >  <  >  <  >  <  >
 -5      <  Y  <  >  <  >
 -6         y  >  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "Y(3,-1)",
        (2, 0, 2, 0),
        (1, 0, 2, 0),
    ),
    Case(
        "two-stars",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  <  >  <  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  o  O  <  >  <
  2   <  >  <  >  <  >  <  >
  1   >  <  Y  g  Y  g  >  <
  0   <  >  y  G  y  G  <  >
 -1   >  o  O  <  >  o  O  <
 -2   <  >  g  Y  g  Y  <  >
 -3   >  <  G  y  G  y  >  <
 -4   <  >  <  >  <  >  <  >
 -5      o  O  <  >  <  >
 -6         <  >  <  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "O(-1,0)",
        (6, 2, 2, 0),
        (6, 2, 2, 0),
    ),
    Case(
        "four-empty-triangles",
        """
  7            <  >
  6         <  >  <  >
  5      <  >  <  >  <  >
  4   <  >  <  >  <  >  <  >
  3   >  <  >  o  O  <  >  g
  2   <  >  o  O  <  >  <  G
  1   >  <  >  <  >  <  >  <
  0   <  >  <  >  <  >  <  >
 -1   >  <  >  <  >  g  >  <
 -2   <  >  o  O  g  G  <  >
 -3   >  <  >  <  G  <  Y  <
 -4   <  >  <  >  <  >  y  >
 -5      <  >  <  Y  <  >
 -6         <  >  y  >
 -7            <  >
  j  -4 -3 -2 -1  0  1  2  3
""",
        "Y(-3,1)",
        (0, 0, 0, 4),
        (0, 0, 0, 4),
    ),
]


def _setup(case: Case, rim: bool) -> tuple[Tricolor, TricolorState, int]:
    game = Tricolor({"rim-crowns": "yes" if rim else "no"})
    state = drawn(game, case.picture)
    move = game.parse_move(state, case.move)
    assert state.to_move == 0 and state.is_legal(move), case.move
    return game, state, move


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("rim", [True, False], ids=["rim", "norim"])
def test_placement_completes(case: Case, rim: bool) -> None:
    game, state, move = _setup(case, rim)
    expected = Completion(*(case.rim if rim else case.norim))
    assert completed(state.configs, state.placed, state.covered, move) == expected
    after = state.play(move)
    assert after.scores[0] - state.scores[0] == expected.points
    assert after.scores[1] == state.scores[1]
    assert after.to_move == (0 if expected.extra else 1)
    naive = NaiveBoard(4, rim)
    pieces = {game.format_move(state, m) for m in range(len(state.configs.board.names))
              if state.placed >> m & 1}  # fmt: skip
    assert naive.completed(pieces, case.move) == tuple(expected)


def test_every_kind_is_shown_alone_and_several_at_once() -> None:
    alone = {c.name: Completion(*c.rim) for c in CASES}
    assert alone["crown"] == (1, 0, 0, 0)
    assert alone["star"].stars == 1 and alone["star"][2:] == (0, 0)
    assert alone["hexagon"] == (0, 0, 1, 0)
    assert alone["empty-triangle"] == (0, 0, 0, 1)
    assert alone["three-crowns"] == (3, 0, 0, 0)
    assert alone["two-stars"].stars == 2
    assert alone["two-hexagons"].hexagons == 2 and alone["two-hexagons"].stars == 0
    assert alone["four-empty-triangles"] == (0, 0, 0, 4)


def test_crown_gives_an_extra_move_and_scores_nothing() -> None:
    case = next(c for c in CASES if c.name == "crown")
    _, state, move = _setup(case, True)
    after = state.play(move)
    assert after.to_move == 0 and after.scores == state.scores


def test_several_crowns_give_one_extra_move() -> None:
    """C3: three crowns at once, yet seat 1 places once more and then the turn passes."""
    case = next(c for c in CASES if c.name == "three-crowns")
    _, state, move = _setup(case, True)
    extra = state.play(move)
    assert extra.to_move == 0
    quiet = next(
        m
        for m in extra.legal_moves()
        if completed(extra.configs, extra.placed, extra.covered, m) == (0, 0, 0, 0)
    )
    assert extra.play(quiet).to_move == 1


def test_star_scores_and_gives_an_extra_move() -> None:
    case = next(c for c in CASES if c.name == "star")
    _, state, move = _setup(case, True)
    after = state.play(move)
    assert after.scores[0] == state.scores[0] + 1 and after.to_move == 0


@pytest.mark.parametrize("name", ["crown-and-hexagon", "crown-and-empty-triangle", "two-stars"])
def test_hexagon_or_empty_triangle_cancels_the_extra_move(name: str) -> None:
    """C4: a crown or star with a hexagon or an empty triangle scores, but the turn passes."""
    case = next(c for c in CASES if c.name == name)
    _, state, move = _setup(case, True)
    after = state.play(move)
    done = Completion(*case.rim)
    assert done.crowns > 0 and (done.hexagons or done.empty)
    assert after.to_move == 1
    assert after.scores[0] - state.scores[0] == done.points


def test_rim_crown_option() -> None:
    """C2: the crown at a rim vertex counts only with rim-crowns=yes."""
    case = next(c for c in CASES if c.name == "rim-crown")
    _, with_rim, move = _setup(case, True)
    assert with_rim.play(move).to_move == 0
    _, without, move = _setup(case, False)
    assert without.play(move).to_move == 1
