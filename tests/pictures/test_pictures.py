"""``position_svg``: golden pictures of every game, and the properties each picture has."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.games.hex import bits
from referee.games.whistling.notation import NAMES as WHISTLING_NAMES
from referee.pictures import DRAWERS, LastMove, position_svg
from referee.pictures.svg import esc, num, text
from referee.registry import GAMES, make_game
from tests.golden import check_golden
from tests.pictures.positions import CASES, Case, mid_game, start

GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"
CELLS = {
    "trike": 45,  # triangle of side 9
    "tricouleur": 169,  # hexhex side 8
    "whistling-captures": 331,  # hexhex side 11
    "trichess": 96,
    "tricolor": 96,  # 6n² triangles, n = 4
    "triablo": 37,  # hexhex side 4
}
"""Cell counts of the rules pages (docs/rules/), independent of the rules code."""
SEATS = {
    "trike": ("seat 1 (dark)", "seat 2 (light)"),
    "tricouleur": ("seat 1, First (marked)", "seat 2, Second"),
    "whistling-captures": ("seat 1, X (dark)", "seat 2, O (light)"),
    "trichess": ("White (seat 1)", "Red (seat 2)", "Black (seat 3)"),
    "tricolor": ("seat 1", "seat 2"),
    "triablo": ("seat 1 (White)", "seat 2 (Red)", "seat 3 (Black)"),
}
"""How the status line names each seat of each game."""

IDS = [case.slug for case in CASES]


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def status(root: ET.Element) -> list[str]:
    return [e.text or "" for e in with_class(root, "status")]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_start_position_matches_golden(case: Case) -> None:
    game, state = start(case)
    check_golden(GOLDEN / f"{case.slug}-start.svg", position_svg(game, state))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_mid_game_position_matches_golden(case: Case) -> None:
    game, state, last = mid_game(case)
    check_golden(GOLDEN / f"{case.slug}-mid.svg", position_svg(game, state, last_move=last))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_picture_is_xml_with_one_element_per_cell(case: Case) -> None:
    game, state, last = mid_game(case)
    root = parse(position_svg(game, state, last_move=last))
    assert root.tag == f"{SVG}svg"
    cells = with_class(root, "cell")
    assert len(cells) == CELLS[case.game]
    assert len({c.get("data-cell") for c in cells}) == CELLS[case.game], "cell names repeat"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_last_move_is_marked_and_named(case: Case) -> None:
    game, state, last = mid_game(case)
    root = parse(position_svg(game, state, last_move=last))
    assert with_class(root, "last-move")
    text = game.format_move(last.before, last.move)
    assert [e.text for e in with_class(root, "last-move-text")] == [f"Last move: {text}"]
    bare = parse(position_svg(game, state))
    assert not with_class(bare, "last-move") and not with_class(bare, "last-move-text")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_status_names_the_side_to_move(case: Case) -> None:
    game, state, _ = mid_game(case)
    first = status(parse(position_svg(game, state)))[0]
    assert state.to_move is not None
    mover = f"{SEATS[case.game][state.to_move]} to move"
    assert first.startswith(mover)


def test_a_finished_game_shows_its_result_instead() -> None:
    game = make_game("trike")
    state = game.initial_state(2)
    rng = random.Random(3)
    while state.to_move is not None:
        state = state.play(rng.choice(state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None
    lines = status(parse(position_svg(game, state)))
    assert lines[0] == f"Game over: {outcome.reason}"
    assert not any("to move" in line for line in lines)


def test_whistling_chain_shows_its_path_and_every_victim() -> None:
    case = next(c for c in CASES if c.game == "whistling-captures")
    game, state, last = mid_game(case)
    before = last.before
    victims = before.stones[1 - before.turn] & ~state.stones[1 - before.turn]  # type: ignore[attr-defined]
    assert len(last.move) >= 4 and victims.bit_count() >= 2  # type: ignore[arg-type]
    root = parse(position_svg(game, state, last_move=last))
    shown = {e.get("data-cell") for e in with_class(root, "captured")}
    assert shown == {WHISTLING_NAMES[s] for s in bits(victims)}
    assert len(with_class(root, "captured-mark")) == len(shown)
    arrow = [e for e in with_class(root, "last-move") if e.tag == f"{SVG}g"]
    polyline = arrow[0].find(f"{SVG}polyline")
    assert polyline is not None
    assert len(polyline.get("points", "").split()) == len(last.move)  # type: ignore[arg-type]


def test_a_bare_move_marks_the_path_without_captures() -> None:
    case = next(c for c in CASES if c.game == "whistling-captures")
    game, state, last = mid_game(case)
    root = parse(position_svg(game, state, last_move=last.move))
    assert with_class(root, "last-move")
    assert not with_class(root, "captured")


def test_move_text_and_move_value_draw_the_same() -> None:
    game, state, last = mid_game(CASES[0])
    text = game.format_move(last.before, last.move)
    assert position_svg(game, state, last_move=text) == position_svg(
        game, state, last_move=last.move
    )
    assert position_svg(game, state, last_move=LastMove(last.before, text)) == position_svg(
        game, state, last_move=last
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_output_is_deterministic_and_self_contained(case: Case) -> None:
    game, state, last = mid_game(case)
    picture = position_svg(game, state, last_move=last)
    assert picture == position_svg(game, state, last_move=last)
    for forbidden in ("<script", " id=", "href", "url(", "<image", "@import"):
        assert forbidden not in picture


def test_size_sets_the_rendered_width_and_keeps_the_aspect() -> None:
    game, state = start(CASES[0])
    root = parse(position_svg(game, state, size=300))
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert float(root.get("width", "")) == 300
    assert float(root.get("height", "")) == pytest.approx(300 * height / width, abs=0.01)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_coordinates_can_be_left_out(case: Case) -> None:
    game, state = start(case)
    assert with_class(parse(position_svg(game, state)), "coord")
    assert not with_class(parse(position_svg(game, state, coordinates=False)), "coord")


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_shared_layers_carry_nothing_from_one_picture_to_the_next(case: Case) -> None:
    """The drawing caches what positions share; a picture must not depend on what was
    drawn before it (nor on the options of earlier calls)."""
    game, first = start(case)
    _, state, last = mid_game(case)
    plain = position_svg(game, first, coordinates=False, size=200)
    full = position_svg(game, state, last_move=last)
    assert position_svg(game, first, coordinates=False, size=200) == plain
    assert position_svg(game, first) != plain
    assert position_svg(game, state, last_move=last) == full


def test_every_registered_game_has_a_picture() -> None:
    assert set(DRAWERS) == {cls.name for cls in GAMES}


def test_text_is_escaped_and_numbers_are_short() -> None:
    assert esc("<a & 'b'>") == "&lt;a &amp; &apos;b&apos;&gt;"
    assert ET.fromstring(text((1, 2), 'x<"&">y')).text == 'x<"&">y'
    assert [num(v) for v in (1.0, -0.001, 2.456, 3.10)] == ["1", "0", "2.46", "3.1"]
