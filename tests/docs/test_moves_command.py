"""``referee moves``: the legal moves of a position, its token, the seat to move and what each
move captures; bad input is one error line naming the ply."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from referee.listing import list_moves
from referee.registry import make_game
from tests.clirun import cli


def as_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = cli(capsys, "moves", *args, "--json")
    assert code == 0 and err == "", err
    data: dict[str, Any] = json.loads(out)
    return data


def test_trike_moves_are_the_cells_in_line_with_the_pawn(capsys) -> None:
    # Size 7 after d2: every empty cell on the pawn's three lines (the board is empty
    # otherwise), computed here from row/index coordinates, and the pie swap.
    rows = "abcdefg"
    pawn = (4, 2)
    expected = {"swap"}
    for r in range(1, 8):
        for i in range(1, r + 1):
            dr, di = r - pawn[0], i - pawn[1]
            if (r, i) != pawn and (dr == 0 or di == 0 or dr == di):
                expected.add(f"{rows[r - 1]}{i}")
    listing = as_json(capsys, "trike", "--option", "size=7", "--moves", "d2")
    assert {m["move"] for m in listing["moves"]} == expected
    assert listing["to_move"] == 2 and listing["ply"] == 1 and listing["players"] == 2
    assert listing["options"] == {"size": "7", "mode": "zero", "pie": "yes"}
    assert all(m["captures"] == [] for m in listing["moves"])


def test_text_shows_the_same_as_json(capsys) -> None:
    args = ("trike", "--moves", "e3", "swap", "d2")
    data = as_json(capsys, *args)
    code, out, _ = cli(capsys, "moves", *args)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "game trike size=9,mode=zero,pie=yes, 2 players"
    assert lines[1] == f"position {data['position']}"
    assert lines[2] == f"ply 3, seat {data['to_move']} to move"
    assert lines[3] == f"{len(data['moves'])} legal moves"
    listed = [word for line in lines[4:] for word in line.split()]
    assert listed == [m["move"] for m in data["moves"]]
    assert all(len(line.split()) <= 8 and line.startswith("  ") for line in lines[4:])


def test_moves_may_be_given_one_by_one_or_as_a_list(capsys) -> None:
    one_by_one = as_json(capsys, "trike", "--moves", "e3", "--moves", "swap")
    as_list = as_json(capsys, "trike", "--moves", "e3", "swap")
    assert one_by_one == as_list and one_by_one["ply"] == 2


def test_start_token_gives_the_same_listing(capsys) -> None:
    played = as_json(capsys, "tricouleur", "--moves", "c8-b7", "c5-c10")
    started = as_json(capsys, "tricouleur", "--start", played["position"])
    assert started == played


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("trike", "--moves", "e3", "e3"), ["ply 2 (move 2 of --moves) 'e3' is illegal"]),
        (("trike", "--moves", "e3", "zz9"), ["ply 2", "'zz9' does not parse"]),
        (("trike", "--players", "3"), ["trike is played by 2 players, not 3"]),
        (("trike", "--start", "9:zero:bad"), ["trike"]),
        (("trike", "--option", "size=99"), ["size"]),
        (("chess",), ["unknown game 'chess'"]),
    ],
)
def test_bad_input_is_one_error_line(capsys, args, words) -> None:
    code, out, err = cli(capsys, "moves", *args)
    assert code == 2 and out == ""
    assert err.startswith("referee: error: ") and err.count("\n") == 1
    for word in words:
        assert word in err


def test_ply_counts_from_the_game_start_with_a_start_token(capsys) -> None:
    token = as_json(capsys, "trike", "--moves", "e3", "swap")["position"]
    code, _, err = cli(capsys, "moves", "trike", "--start", token, "--moves", "d2", "d2")
    assert code == 2 and "ply 4 (move 2 of --moves) 'd2' is illegal" in err


def test_players_must_match_the_start_token(capsys) -> None:
    token = as_json(capsys, "triablo", "--players", "3")["position"]
    code, _, err = cli(capsys, "moves", "triablo", "--start", token, "--players", "2")
    assert code == 2 and "--players 2 does not match the position" in err


def finished_trike() -> tuple[str, int]:
    game = make_game("trike", {"size": "7"})
    state = game.initial_state(2)
    rng = random.Random(3)
    while state.to_move is not None:
        state = state.play(rng.choice(state.legal_moves()))
    return game.encode(state), state.ply


def test_a_finished_game_shows_its_result_and_no_moves(capsys) -> None:
    token, ply = finished_trike()
    data = as_json(capsys, "trike", "--option", "size=7", "--start", token)
    assert data["moves"] == [] and data["to_move"] is None
    assert sorted(data["outcome"]["ranks"]) == [1, 2]
    code, out, _ = cli(capsys, "moves", "trike", "--option", "size=7", "--start", token)
    assert code == 0
    assert out.splitlines()[2].startswith(f"ply {ply}, game over: ranks ")
    assert out.splitlines()[3:] == ["0 legal moves"]
    code, _, err = cli(
        capsys, "moves", "trike", "--option", "size=7", "--start", token, "--moves", "a1"
    )
    assert code == 2 and f"ply {ply + 1} (move 1 of --moves) 'a1': the game is already over" in err


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("tricouleur", 2, {}),
        ("whistling-captures", 2, {}),
        ("trichess", 3, {"draw-cap": "20"}),
        ("triablo", 2, {}),
    ],
)
def test_captures_are_the_enemy_pieces_a_move_removes(name, players, options) -> None:
    """Along seeded random games: a move lists captures iff the other seats' pieces on the
    board decrease, as many as they decrease (Triablo: one piece, the eliminations that
    may follow take more), each on a distinct cell of the game's notation."""
    game = make_game(name, options)
    state = game.initial_state(players)
    rng = random.Random(5)
    seen = 0
    for _ in range(120):
        if state.to_move is None:
            break
        listing = list_moves(game, start=game.encode(state))
        moves = state.legal_moves()
        assert [e.text for e in listing.moves] == [game.format_move(state, m) for m in moves]
        for entry, move in zip(listing.moves, moves, strict=True):
            after = state.play(move)
            drop = enemy_pieces(name, state, state) - enemy_pieces(name, state, after)
            cells = [c.cell for c in entry.captures]
            assert len(set(cells)) == len(cells)
            if name == "triablo":
                assert (len(cells) == 1) == (drop >= 1) and len(cells) <= 1
            else:
                assert len(cells) == drop
            seen += bool(cells)
        state = state.play(rng.choice(moves))
    assert seen > 0, "the game never offered a capture: pick another seed"


def enemy_pieces(name: str, before, state) -> int:
    """How many pieces of the seats other than ``before``'s mover stand in ``state``."""
    mover = before.to_move
    if name == "tricouleur":
        return sum(m.bit_count() for kind, m in enumerate(state.stones) if kind // 3 != mover)
    if name == "whistling-captures":
        return sum(m.bit_count() for seat, m in enumerate(state.stones) if seat != mover)
    if name == "trichess":
        return sum(1 for code in state.board if code and code >> 3 != mover)
    from referee.games.triablo.pieces import CONTROLLER

    return sum(1 for code in state.board if code and CONTROLLER[code] != mover)
