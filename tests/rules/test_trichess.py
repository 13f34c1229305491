"""Trichess board, notation, encoding, options and golden playthroughs (docs/rules/trichess.md).

Positions are drawn as ``Trichess.render`` draws them: the three territories side by
side, each in its owner's frame with rank 4 on top; ``wK`` is White's king, ``.`` an
empty cell. The helpers here (``Setup``, ``board``) are shared by the other Trichess
test modules.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from referee.core import Termination
from referee.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError
from referee.games.trichess import Trichess, TrichessState
from referee.games.trichess.board import INDEX, NAMES, geometry
from referee.perft import perft
from referee.registry import GAMES, find_game_class, make_game
from referee.results import result_text
from tests.clirun import RefereeCli
from tests.golden import check_golden
from tests.golden import playthrough as golden_playthrough
from tests.matches import play_and_adjudicate

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden" / "trichess"
LETTERS = "WRB"
OWNERS = "wrb"


def rot(name: str, k: int) -> str:
    """A cell name or piece (``Wd4``, ``wQ``) turned ``k`` territories round: W->R->B->W."""
    letters = LETTERS if name[0] in LETTERS else OWNERS
    return letters[(letters.index(name[0]) + k) % 3] + name[1:]


def board(picture: str) -> dict[str, str]:
    """The pieces of a diagram drawn like ``render``: ``{"We1": "wK", ...}``."""
    pieces: dict[str, str] = {}
    rows = [line.split() for line in picture.splitlines()]
    rows = [row for row in rows if len(row) == 27 and row[0] in "1234"]
    assert len(rows) == 4, "a diagram has four rank lines"
    for row in rows:
        for p in range(3):
            rank = row[9 * p]
            for f, token in enumerate(row[9 * p + 1 : 9 * p + 9]):
                if token != ".":
                    pieces[f"{LETTERS[p]}{'abcdefgh'[f]}{rank}"] = token
    return pieces


@dataclass(frozen=True)
class Setup:
    """A position in the fields of the position token, easy to write and to rotate."""

    pieces: dict[str, str]
    turn: str = "W"
    castling: str = "-"
    ep: tuple[str, ...] = ()
    pools: tuple[str, str, str] = ("-", "-", "-")
    pending: tuple[str, ...] = ()
    clock: int = 0
    ply: int = 30
    options: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        ranks = []
        for r0 in range(0, 96, 8):
            out, empty = "", 0
            for name in NAMES[r0 : r0 + 8]:
                piece = self.pieces.get(name)
                if piece is None:
                    empty += 1
                    continue
                out, empty = out + (str(empty) if empty else "") + piece, 0
            ranks.append(out + (str(empty) if empty else ""))

        def cells(names: tuple[str, ...]) -> str:
            return ",".join(sorted(names, key=INDEX.__getitem__)) or "-"

        return ":".join(
            [
                "/".join(ranks),
                self.turn,
                self.castling,
                cells(self.ep),
                ",".join(self.pools),
                cells(self.pending),
                str(self.clock),
                str(self.ply),
            ]
        )

    def rotated(self, k: int) -> Setup:
        groups = re.findall(r"[WRB][KQ]+", "" if self.castling == "-" else self.castling)
        turned = sorted((rot(g, k) for g in groups), key=lambda g: LETTERS.index(g[0]))
        return replace(
            self,
            pieces={rot(c, k): rot(p, k) for c, p in self.pieces.items()},
            turn=rot(self.turn, k),
            castling="".join(turned) or "-",
            ep=tuple(rot(c, k) for c in self.ep),
            pools=tuple(self.pools[(s - k) % 3] for s in range(3)),  # type: ignore[arg-type]
            pending=tuple(rot(c, k) for c in self.pending),
        )

    def game(self) -> Trichess:
        return Trichess(self.options)

    def state(self) -> TrichessState:
        return self.game().decode(self.text())


def texts(state: TrichessState) -> list[str]:
    game = Trichess()
    return [game.format_move(state, m) for m in state.legal_moves()]


def play(state: TrichessState, *moves: str) -> TrichessState:
    game = Trichess()
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


# --- options and registry ---------------------------------------------------------------


def test_options_names_defaults_and_order() -> None:
    game = Trichess()
    assert game.options_text() == (
        "castling=yes,double-step=yes,en-passant=each-opponent,centre=rosette,"
        "liberation-empty-pool=stays-pawn,draw-cap=none"
    )
    choices = {s.name: s.choices for s in Trichess.option_specs}
    assert choices["en-passant"] == ("each-opponent", "next-only", "no")
    assert choices["centre"] == ("rosette", "no-diagonals")
    assert choices["liberation-empty-pool"] == ("stays-pawn", "deferred")
    assert Trichess.player_counts == (3,) and Trichess.version == "1"
    assert Trichess.result_from_scores
    assert find_game_class("trichess") is Trichess and Trichess in GAMES
    assert Trichess({"draw-cap": "040"}).options["draw-cap"] == "40"


@pytest.mark.parametrize(
    "options",
    [
        {"castling": "maybe"},
        {"en-passant": "each"},
        {"centre": "cross"},
        {"liberation-empty-pool": "promote"},
        {"draw-cap": "0"},
        {"draw-cap": "-5"},
        {"draw-cap": "many"},
        {"draw-cap": "None"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(InvalidOptionError):
        Trichess(options)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_only_three_players(players: int) -> None:
    with pytest.raises(InvalidOptionError):
        Trichess().initial_state(players)


# --- test vectors ------------------------------------------------------------------

VECTORS = """
Wa4 | Wa3 Wb3 Wb4 Bg4 Bh4 | Wb2 Wc3 Bg3 Bf4
Wb4 | Wa3 Wb3 Wc3 Wa4 Wc4 Bf4 Bg4 Bh4 | Wa2 Wc2 Wd3 Bf3 Bh3 Be4
Wc4 | Wb3 Wc3 Wd3 Wb4 Wd4 Be4 Bf4 Bg4 | Wb2 Wd2 Wa3 We3 Rd4 Be3 Bg3 Bd4 Bh4
Wd4 | Wc3 Wd3 We3 Wc4 We4 Rd4 Bd4 Be4 Bf4 | Wc2 We2 Wb3 Wf3 Rd3 Rc4 Bd3 Bf3 Bc4 Bg4
We4 | Wd3 We3 Wf3 Wd4 Wf4 Rc4 Rd4 Re4 Be4 | Wd2 Wf2 Wc3 Wg3 Rc3 Re3 Rb4 Rf4 Be3 Bf4
Wf4 | We3 Wf3 Wg3 We4 Wg4 Rb4 Rc4 Rd4 | We2 Wg2 Wd3 Wh3 Rb3 Rd3 Ra4 Re4 Be4
Wg4 | Wf3 Wg3 Wh3 Wf4 Wh4 Ra4 Rb4 Rc4 | Wf2 Wh2 We3 Ra3 Rc3 Rd4
Wh4 | Wg3 Wh3 Wg4 Ra4 Rb4 | Wg2 Wf3 Rb3 Rc4
Wa3 | Wa2 Wb2 Wb3 Wa4 Wb4 | Wb1 Wc2 Wc4 Bg4
Wb3 | Wa2 Wb2 Wc2 Wa3 Wc3 Wa4 Wb4 Wc4 | Wa1 Wc1 Wd2 Wd4 Bf4 Bh4
Wc3 | Wb2 Wc2 Wd2 Wb3 Wd3 Wb4 Wc4 Wd4 | Wb1 Wd1 Wa2 We2 Wa4 We4 Be4 Bg4
Wd3 | Wc2 Wd2 We2 Wc3 We3 Wc4 Wd4 We4 | Wc1 We1 Wb2 Wf2 Wb4 Wf4 Rd4 Bd4 Bf4
We3 | Wd2 We2 Wf2 Wd3 Wf3 Wd4 We4 Wf4 | Wd1 Wf1 Wc2 Wg2 Wc4 Wg4 Rc4 Re4 Be4
Wf3 | We2 Wf2 Wg2 We3 Wg3 We4 Wf4 Wg4 | We1 Wg1 Wd2 Wh2 Wd4 Wh4 Rb4 Rd4
Wg3 | Wf2 Wg2 Wh2 Wf3 Wh3 Wf4 Wg4 Wh4 | Wf1 Wh1 We2 We4 Ra4 Rc4
Wh3 | Wg2 Wh2 Wg3 Wg4 Wh4 | Wg1 Wf2 Wf4 Rb4
Wa2 | Wa1 Wb1 Wb2 Wa3 Wb3 | Wc1 Wc3 Wb4
Wb2 | Wa1 Wb1 Wc1 Wa2 Wc2 Wa3 Wb3 Wc3 | Wd1 Wd3 Wa4 Wc4
Wc2 | Wb1 Wc1 Wd1 Wb2 Wd2 Wb3 Wc3 Wd3 | Wa1 We1 Wa3 We3 Wb4 Wd4
Wd2 | Wc1 Wd1 We1 Wc2 We2 Wc3 Wd3 We3 | Wb1 Wf1 Wb3 Wf3 Wc4 We4
We2 | Wd1 We1 Wf1 Wd2 Wf2 Wd3 We3 Wf3 | Wc1 Wg1 Wc3 Wg3 Wd4 Wf4
Wf2 | We1 Wf1 Wg1 We2 Wg2 We3 Wf3 Wg3 | Wd1 Wh1 Wd3 Wh3 We4 Wg4
Wg2 | Wf1 Wg1 Wh1 Wf2 Wh2 Wf3 Wg3 Wh3 | We1 We3 Wf4 Wh4
Wh2 | Wg1 Wh1 Wg2 Wg3 Wh3 | Wf1 Wf3 Wg4
Wa1 | Wb1 Wa2 Wb2 | Wc2 Wb3
Wb1 | Wa1 Wc1 Wa2 Wb2 Wc2 | Wd2 Wa3 Wc3
Wc1 | Wb1 Wd1 Wb2 Wc2 Wd2 | Wa2 We2 Wb3 Wd3
Wd1 | Wc1 We1 Wc2 Wd2 We2 | Wb2 Wf2 Wc3 We3
We1 | Wd1 Wf1 Wd2 We2 Wf2 | Wc2 Wg2 Wd3 Wf3
Wf1 | We1 Wg1 We2 Wf2 Wg2 | Wd2 Wh2 We3 Wg3
Wg1 | Wf1 Wh1 Wf2 Wg2 Wh2 | We2 Wf3 Wh3
Wh1 | Wg1 Wg2 Wh2 | Wf2 Wg3
"""
VECTOR_ROWS = [
    tuple(part.split() for part in line.split("|")) for line in VECTORS.strip().splitlines()
]
VECTOR_CASES = [(row, k) for row in VECTOR_ROWS for k in range(3)]


def named(cells: tuple[int, ...]) -> set[str]:
    return {NAMES[c] for c in cells}


def test_vectors_cover_all_32_white_cells() -> None:
    assert sorted(row[0][0] for row in VECTOR_ROWS) == sorted(NAMES[:32])


@pytest.mark.parametrize(
    ("row", "k"), VECTOR_CASES, ids=[f"{rot(r[0][0], k)}" for r, k in VECTOR_CASES]
)
def test_king_and_knight_targets(row: tuple[list[str], ...], k: int) -> None:
    (cell,), kings, knights = row
    geo = geometry()
    c = INDEX[rot(cell, k)]
    assert named(geo.king[c]) == {rot(t, k) for t in kings}
    assert named(geo.knight[c]) == {rot(t, k) for t in knights}


BISHOP_RAYS = {
    "Wc1": {"Wb2 Wa3", "Wd2 We3 Wf4 Rb4 Ra3"},
    "Wf1": {"We2 Wd3 Wc4 Bg4 Bh3", "Wg2 Wh3"},
    "Wc3": {"Wb4 Bh4", "Wd4 Bd4 Bc3 Bb2 Ba1", "Wd4 Rd4 Rc3 Rb2 Ra1", "Wb2 Wa1", "Wd2 We1"},
    "Wd4": {"Bf4 Bg3 Bh2", "Bd4 Bc3 Bb2 Ba1", "Rd4 Rc3 Rb2 Ra1", "Wc3 Wb2 Wa1", "We3 Wf2 Wg1"},
}


@pytest.mark.parametrize("k", range(3))
@pytest.mark.parametrize("cell", sorted(BISHOP_RAYS))
def test_bishop_rays(cell: str, k: int) -> None:
    geo = geometry()
    rays = {" ".join(NAMES[c] for c in ray) for ray in geo.diag_rays[INDEX[rot(cell, k)]]}
    assert rays == {" ".join(rot(c, k) for c in ray.split()) for ray in BISHOP_RAYS[cell]}


def test_bishop_reach_is_7_to_17_and_colour_bound() -> None:
    geo = geometry()
    reach = [len(geo.diag_between[c]) for c in range(96)]
    assert (min(reach), max(reach)) == (7, 17)
    shade = [(c >> 3 & 3) + (c & 7) & 1 for c in range(96)]  # dark if rank + file is even
    for c in range(96):
        assert all(shade[t] == shade[c] for t in geo.diag_between[c])
        assert all(shade[t] != shade[c] for t in geo.knight[c])


PAWN_VECTORS = [  # owner, cell, push, captures
    (0, "Wa4", "Bh4", {"Bg4"}),
    (0, "Wh4", "Ra4", {"Rb4"}),
    (1, "Rd4", "We4", {"Bd4", "Wd4", "Wf4"}),
    (2, "Be4", "Wd4", {"Re4", "Wc4", "We4"}),
    (0, "Wd4", "Be4", {"Bd4", "Rd4", "Bf4"}),
    (0, "We4", "Rd4", {"Be4", "Re4", "Rc4"}),
    (0, "Be3", "Be2", {"Bd2", "Bf2"}),
    (0, "Wd2", "Wd3", {"Wc3", "We3"}),
]


@pytest.mark.parametrize("k", range(3))
@pytest.mark.parametrize(("owner", "cell", "push", "caps"), PAWN_VECTORS)
def test_pawn_vectors(owner: int, cell: str, push: str, caps: set[str], k: int) -> None:
    geo = geometry()
    c = INDEX[rot(cell, k)]
    assert NAMES[geo.pawn_push[(owner + k) % 3][c]] == rot(push, k)
    assert named(geo.pawn_caps[(owner + k) % 3][c]) == {rot(t, k) for t in caps}


def test_pawns_liberate_at_the_far_end_of_their_file() -> None:
    geo = geometry()
    ends = []
    for f in range(8):
        c = INDEX[f"W{'abcdefgh'[f]}2"]
        while geo.pawn_push[0][c] >= 0:
            c = geo.pawn_push[0][c]
        ends.append(NAMES[c])
    assert ends == ["Bh1", "Bg1", "Bf1", "Be1", "Rd1", "Rc1", "Rb1", "Ra1"]


def test_no_diagonals_centre_drops_the_rosette_diagonals() -> None:
    geo = geometry("no-diagonals")
    wd4, we4, wc3 = INDEX["Wd4"], INDEX["We4"], INDEX["Wc3"]
    assert named(geo.king[wd4]) == {"Wc3", "Wd3", "We3", "Wc4", "We4", "Be4", "Bf4"}
    assert {" ".join(NAMES[c] for c in r) for r in geo.diag_rays[wc3]} == {
        "Wb4 Bh4", "Wd4", "Wb2 Wa1", "Wd2 We1"
    }  # fmt: skip
    assert named(geo.pawn_caps[0][wd4]) == {"Bf4"}
    assert named(geo.pawn_caps[0][we4]) == {"Rc4"}
    assert named(geo.knight[wd4]) == named(geometry().knight[wd4])  # knights never use diagonals


@pytest.mark.parametrize("centre", ["rosette", "no-diagonals"])
def test_relations_are_symmetric_and_rotation_invariant(centre: str) -> None:
    geo = geometry(centre)

    def turn(c: int) -> int:
        return (c + 32) % 96

    for c in range(96):
        for t, between in geo.orth_between[c].items():
            assert geo.orth_between[t][c] == between[::-1]
        for t, between in geo.diag_between[c].items():
            assert geo.diag_between[t][c] == between[::-1]
        for t in geo.knight[c]:
            assert c in geo.knight[t] and t not in geo.king[c]
        for t in geo.king[c]:
            assert c in geo.king[t]
        assert {turn(t) for t in geo.king[c]} == set(geo.king[turn(c)])
        assert {turn(t) for t in geo.knight[c]} == set(geo.knight[turn(c)])
        assert {turn(t) for t in geo.diag_between[c]} == set(geo.diag_between[turn(c)])
        for owner in range(3):
            for t in geo.pawn_caps[owner][c]:
                assert c in geo.pawn_attackers[owner][t]


# --- start position and first moves -----------------------------------------------------

START = (
    "wRwNwBwQwKwBwNwR/wPwPwPwPwPwPwPwP/8/8/rRrNrBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8/"
    "bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8:W:WKQRKQBKQ:-:-,-,-:-:0:0"
)


def test_start_position_and_white_first_moves() -> None:
    game = Trichess()
    state = game.initial_state(3)
    assert game.encode(state) == START
    assert state.to_move == 0 and state.ply == 0 and state.num_players == 3
    assert texts(state) == [
        "Wb1-Wa3", "Wb1-Wc3", "Wg1-Wf3", "Wg1-Wh3",
        *(f"W{f}2-W{f}{r}" for f in "abcdefgh" for r in (3, 4)),
    ]  # fmt: skip
    assert len(Trichess({"double-step": "no"}).initial_state(3).legal_moves()) == 12
    after = play(state, "Wb1-Wa3")
    assert after.to_move == 1 and len(after.legal_moves()) == 20
    assert texts(after)[0] == "Rb1-Ra3"
    assert play(after, "Rh2-Rh4").to_move == 2


# --- notation ---------------------------------------------------------------------------


def test_move_text_round_trips_for_every_cell_pair_form() -> None:
    game = Trichess()
    state = game.initial_state(3)
    for text in ("Wd2-Wd4", "Be2-Bd1=N", "Wa2-Ra1=P", "Rh1=Q", "We1-Wg1"):
        assert game.format_move(state, game.parse_move(state, text)) == text
    for frm in range(0, 96, 7):
        for to in range(96):
            if frm != to:
                move = game.parse_move(state, f"{NAMES[frm]}-{NAMES[to]}")
                assert game.format_move(state, move) == f"{NAMES[frm]}-{NAMES[to]}"


@pytest.mark.parametrize(
    "text",
    [
        "", "wd2-wd4", "Wd2-Wd4 ", " Wd2-Wd4", "Wd2Wd4", "Wd2-Wd4=K", "Wd2-Wd4=", "Wd2-Wd2",
        "Wi2-Wd4", "Wd5-Wd4", "Wd0-Wd4", "Wd2-Wd4=n", "Bd1=K", "Bd1", "Bd1=", "Xd2-Wd4",
        "Wd2\u2013Wd4", "Wd2-Wd4=NN", "Wd2xWd4", "d2-d4", "Wd02-Wd4", "O-O",
    ],
)  # fmt: skip
def test_parse_move_rejects_non_canonical(text: str) -> None:
    game = Trichess()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(3), text)


@pytest.mark.parametrize("move", [-1, 96 << 10, (5 << 10) | (5 << 3), (5 << 10) | (96 << 3), 6])
def test_format_move_rejects_non_moves(move: int) -> None:
    game = Trichess()
    with pytest.raises(InvalidMoveError):
        game.format_move(game.initial_state(3), move)


# --- position encoding ------------------------------------------------------------------


def test_encode_decode_round_trip_on_random_games() -> None:
    rng = random.Random(3)
    for options in ({"draw-cap": "15"}, {"liberation-empty-pool": "deferred", "draw-cap": "15"}):
        game = Trichess(options)
        state = game.initial_state(3)
        while state.to_move is not None:
            text = game.encode(state)
            again = game.decode(text)
            assert again == state and hash(again) == hash(state)
            assert again.legal_moves() == state.legal_moves()
            assert game.encode(again) == text
            state = state.play(rng.choice(state.legal_moves()))
        assert game.decode(game.encode(state)).outcome() == state.outcome()


def test_encoding_example_with_every_field() -> None:
    setup = Setup(
        board(
            """
4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .
2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .
1 wR  .  .  . wK  .  .  .   1  .  .  . wP rK  .  .  .   1  .  .  .  . bK  .  .  .
"""
        ),
        castling="WQ",
        pools=("QP", "-", "RRN"),
        pending=("Rd1",),
        clock=3,
        ply=41,
        options={"liberation-empty-pool": "deferred"},
    )
    text = "wR3wK3/8/8/8/3wPrK3/8/8/8/4bK3/8/8/8:W:WQ:-:QP,-,RRN:Rd1:3:41"
    assert setup.text() == text
    state = setup.state()
    assert state.to_move == 0 and state.status().exchange  # White must exchange on Rd1 first
    assert texts(state) == ["Rd1=P", "Rd1=Q"]
    assert Trichess({"liberation-empty-pool": "deferred"}).encode(state) == text


KINGS = "4wK3/8/8/8/4rK3/8/8/8/4bK3/8/8/8"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "garbage",
        f"{KINGS}:W:-:-:-,-,-:-:0",  # seven fields
        f"{KINGS}/8:W:-:-:-,-,-:-:0:0",  # thirteen ranks
        "4wK2/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # a short rank
        "4wK4/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # a long rank
        "44wK/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # split run of empties
        "4wX3/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # no such piece
        "4gK3/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # no such owner
        f"{KINGS}:G:-:-:-,-,-:-:0:0",
        f"{KINGS}:W*:-:-:-,-,-:-:0:0",
        f"{KINGS}:W:WKK:-:-,-,-:-:0:0",
        f"{KINGS}:W:RKWK:-:-,-,-:-:0:0",  # rights out of seat order
        f"{KINGS}:W:-:Wd9:-,-,-:-:0:0",
        f"{KINGS}:W:-:-:-,-:-:0:0",  # two pools
        f"{KINGS}:W:-:-:PQ,-,-:-:0:0",  # pool letters out of order
        f"{KINGS}:W:-:-:K,-,-:-:0:0",
        f"{KINGS}:W:-:-:-,-,-:-:5:4",  # clock above ply
        f"{KINGS}:W:-:-:-,-,-:-:00:0",
        f"{KINGS}:W:-:-:-,-,-:-:0:-1",
        "8/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # no white king
        "4wK2wK/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # two white kings
        "4wK3/wQwQ6/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # two queens
        f"{KINGS}:W:-:-:Q,-,-:-:0:0".replace("4wK3/8", "4wK3/wQ7"),  # queen on board and pooled
        "wP3wK3/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:-:-:-,-,-:-:0:0",  # pawn on its own rank 1
        f"{KINGS}:W:WK:-:-,-,-:-:0:0",  # a right without the rook
        "4wK2wR/8/8/8/4rK3/8/8/8/4bK3/8/8/8:W:WK:-:-,-,-:-:0:0".replace("4wK2", "3wK3"),
        f"{KINGS}:W:-:Rd3:-,-,-:-:0:0",  # no red pawn on Rd4
        "4wK3/8/8/8/4rK3/8/8/3rP4/4bK3/8/8/8:R:-:Rd3:-,-,-:-:0:0",  # Red's own right at its turn
        f"{KINGS}:W:-:-:-,-,-:Rd1:0:0",  # pending without deferred liberation
        f"{KINGS}:W+:-:-:-,-,-:-:0:0",  # an exchange without deferred liberation
        "4wK3/8/8/8/4rK3/8/8/8/4bK3/8/8/4wR3:W:-:-:-,-,-:-:0:0",  # White to move attacks Black
        "4wK3/8/8/4bR3/4rK3/8/8/8/4bK3/8/8/8:R:-:-:-,-,-:-:0:0",  # Black attacks White, Red to move
    ],
)
def test_decode_rejects(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        Trichess().decode(text)


def test_decode_accepts_option_dependent_fields_only_with_their_options() -> None:
    ep_black = "4wK3/8/8/8/4rK3/8/8/8/4bK3/8/8/3bP4:R:-:Bd3:-,-,-:-:0:0"
    assert Trichess().decode(ep_black).ep == (-1, -1, INDEX["Bd3"])
    with pytest.raises(InvalidPositionError):
        Trichess({"en-passant": "next-only"}).decode(ep_black)
    with pytest.raises(InvalidPositionError):
        Trichess({"castling": "no"}).decode(START)
    pending = "4wK3/8/8/8/3wPrK3/8/8/8/4bK3/8/8/8:R:-:-:-,-,-:Rd1:0:0"
    assert Trichess({"liberation-empty-pool": "deferred"}).decode(pending).pending == (
        INDEX["Rd1"],
    )


def test_render_shows_territories_turn_and_fields() -> None:
    game = Trichess()
    picture = game.render(play(game.initial_state(3), "We2-We4"))
    lines = picture.splitlines()
    assert lines[0].split() == [
        "White",
        "(seat",
        "1)",
        "Red",
        "(seat",
        "2)",
        "Black",
        "(seat",
        "3)",
    ]
    assert lines[1].split()[:9] == ["4", ".", ".", ".", ".", "wP", ".", ".", "."]
    assert lines[4].split()[:9] == ["1", "wR", "wN", "wB", "wQ", "wK", "wB", "wN", "wR"]
    assert lines[5].split() == list("abcdefgh") * 3
    assert lines[6] == "ply 1, Red (seat 2) to move"
    assert lines[7] == "castling WKQRKQBKQ  en passant We3  pools -,-,-  waiting -  clock 0"
    assert board(picture) == {
        NAMES[c]: ("wrb"[v >> 3] + ".PNBRQK"[v & 7])
        for c, v in enumerate(play(game.initial_state(3), "We2-We4").board)
        if v
    }


# --- results in records, unfinished games -----------------------------------------------


def test_result_tag_lists_the_scores_and_unfinished_games_score_as_pat() -> None:
    game = make_game("trichess")
    state = game.initial_state(3)
    assert game.score_unfinished(state) == ((1, 1, 1), (1.0, 1.0, 1.0))
    fat = Setup(board(FAT), turn="W").state().play(INDEX["Wh4"] << 10 | INDEX["We4"] << 3)
    outcome = fat.outcome()
    assert outcome is not None and outcome.termination is Termination.RULES
    assert result_text(game, outcome) == "3-0-0"


FAT = """
4  .  .  .  .  .  .  . wQ   4  .  .  .  .  .  .  .  .   4  .  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .   3  .  .  .  .  .  .  .  .
2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  .  .  .   2  .  .  .  .  .  . bK  .
1 wK  .  .  .  .  .  .  .   1  .  .  . rK  .  .  .  .   1  .  .  .  .  .  .  .  .
"""


# --- perft through the CLI, golden playthroughs, a real match -----------------------------


def test_cli_perft_agrees_with_the_perft_file(referee_cli: RefereeCli) -> None:
    done = referee_cli("perft", "trichess", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "20", "2", "400", "3", "8000"]
    assert perft(Trichess().initial_state(3), 2) == 400


@pytest.mark.processes
def test_random_bots_play_a_real_match_and_adjudication_confirms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown, text, verdicts = play_and_adjudicate(
        capsys, tmp_path / "games.tgn", "trichess", 3, "--option", "draw-cap=10"
    )
    assert "Game 4/4" in shown
    assert text.count('[Game "trichess"]') == 4 and '[Players "3"]' in text
    results = re.findall(r'\[Result "([^"]+)"\]', text)
    assert all(re.fullmatch(r"[0-3]-[0-3]-[0-3]", r) for r in results), results
    assert [v["verdict"] for v in verdicts] == ["confirmed"] * 4


GOLDEN = {
    "default": ({}, 46),  # ends in echec et fat at ply 64
    "deferred-cap": ({"liberation-empty-pool": "deferred", "draw-cap": "12"}, 3),  # the cap
    "no-diagonals-next-only": ({"centre": "no-diagonals", "en-passant": "next-only"}, 22),
}


def playthrough(options: dict[str, str], seed: int) -> str:
    """A seeded random game, ply by ply, as text."""
    return golden_playthrough(Trichess(options), 3, seed, to_move=False)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_playthrough(name: str) -> None:
    options, seed = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(options, seed)
    check_golden(path, text)
