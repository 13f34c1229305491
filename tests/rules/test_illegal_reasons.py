"""Illegal-move reasons of every game through the ``State`` API: real positions (from the
start, after moves, or decoded from a position token), one illegal move each, and the exact
line ``State.why_illegal`` gives; ``play`` raises ``IllegalMoveError`` with that line.

Every game has at least three different reasons here; ``test_why_illegal`` checks over
random positions that a reason is given exactly for the illegal moves.
"""

from __future__ import annotations

from collections import Counter

import pytest

from referee.errors import IllegalMoveError
from referee.registry import GAME_NAMES, make_game

TRICOULEUR_CAPTURE = (
    "......../........./..BRW..w../B...R..wb../....B..wbr../..b........../..ww........../"
    "..rrr.....RRR../....W.....WW../..........B../..RB...b..../..BW..r..b./..W..wrb../"
    "........./........:2:3:3"
)
"""Seat 2 to move with a capture available."""
WHISTLING_MAX_3 = (
    "....xx...../....xxx...../......x....../............../...o..........o/oo...........ooo/"
    "ooo...........oo./.oo.............../.................../..................../"
    "...................../..................../.................../...............xx./"
    ".xx...........xxx/xxx...........xx/xx............./............../......oo...../"
    ".....ooo..../.....oo....:1:0:2"
)
"""Seat 1 to move; its only legal moves are chains taking three stones (``r2-m7-A21`` …)."""
TRICHESS_CHECK = (
    "8/4wK3/5bN2/bRrB6/8/5wB1rK/8/8/bK2rP4/8/8/rP6wN:W:-:-:QRRBNPPPPPPPP,QRRBNNPPPPP,"
    "QRBBNPPPPPPP:-:3:285"
)
"""White's king on We2 next to Black's knight on Wf3's reach."""
TRICHESS_RICH = (
    "8/6rN1/2wP2wK1wB/wP5wP1/8/5rR2/2wP1bP1rK1/1rP4bPrP/bK3rB3/8/bB5bP1/rP1bB4bP:R:-:-:"
    "QRRBNNPPPP,QRBNPPPPP,QRRNNPPPP:-:0:244"
)
"""Red to move, 4 points richer than Black."""
TRICHESS_CASTLE = (
    "2wK1wQ3/wR1wP3wPwR/1wP1wB1wP1wN/wPbP2wPrP1wP/1rR1rQ1rBrN1/3rKrP2bN/rP3rB1rPrP/"
    "rP2rP1rP2/1bR1bQbK2bR/4bPbP1wN/bPbPbPbP3bB/3bB1wP1bP:B:BK:-:B,RN,N:-:2:56"
)
"""Black to move, its king-side castling right kept, Bf1 under White's knight."""
TRICHESS_LIBERATE = (
    "2bP5/bP3wR2wP/5wP1rP/bRbP2rP1rR1/5rB2/8/3rP2rRbP/3wK1rK2/8/8/4bKbP2/rN7:B:-:-:"
    "QRBBNNPPPPPP,QBNPPPP,QRBBNNPP:-:8:221"
)
"""Black to move, a pawn on Wa2 that can reach White's rank 1, Black's pool not empty."""
TRICHESS_SHIELD = (
    "1rB4wK1/8/8/1wQ5wP/2rB5/2wRbB2rK1/6bPrP/5bP2/bNbR5wN/2bK5/3wN3bP/7wP:B:-:-:"
    "RBBPPPPP,QRRNNPPPPPPP,QRBNPPPPP:-:5:293"
)
"""Black to move; its piece on Rd2 stands between White's rook on Rc2 and Red's king."""
TRICOULEUR_WHISTLE = (
    "b......./........./.........W/.........../......W...r./............./............../"
    "...R.........../...W........../............./............/.........../w........./"
    "b...w...w/........:2:1:35"
)
"""Seat 2 to move; the whistle k14-g14 takes a stone but ends no nearer to an enemy."""
TRIABLO_VULNERABLE = "2:figure:yes:100:1W<W>1/2R<2/1W<4/3R<wR>W<r1/R>1WK2R>w/5/1R>1RK:1:292:30:-"
"""White to move; Red's singleton on g6 has only two White tips aimed at it."""
TRIABLO_ABDICATE = "2:figure:yes:100:4/R>4/1W<W>r3/1W>R>wWKW<rR>W</R<5/5/R<w1R>RK:1:234:40:-"
"""White to move, its king on d4."""

CASES: list[tuple[str, dict[str, str], str | None, str, str, str | None]] = [
    # (game, options, position token or None for the start, moves, move, reason or None when
    # the move is legal under those options)
    ("trike", {}, None, "e3 swap e1", "e3", "the cell e3 is occupied (seat 2's checker)"),
    ("trike", {}, None, "e3 swap e1", "e1", "the pawn stands on e1: it must move to another cell"),
    ("trike", {}, None, "e3 swap e1", "i9", "i9 is not in a straight line from the pawn on e1"),
    ("trike", {}, None, "e3 swap e1", "e5", "the pawn's path from e1 to e5 is blocked at e3"),
    (
        "trike", {}, None, "e3 swap e1", "swap",
        "the pie swap is only allowed on ply 2, seat 2's first turn",
    ),
    ("trike", {"pie": "no"}, None, "e3", "swap", "the pie swap is off in this game (pie=no)"),
    ("tricouleur", {}, None, "", "c8-d9", "the cell d9 is occupied"),
    ("tricouleur", {}, None, "", "c8-e4", "e4 is not in a straight line from c8"),
    ("tricouleur", {}, None, "", "c8-h8", "the path from c8 to h8 is blocked at d8"),
    (
        "tricouleur", {}, None, "", "c4-c6",
        "the stone on c4 is not this seat's: it belongs to the opponent",
    ),
    ("tricouleur", {}, None, "", "d10-c6", "there is no stone on d10"),
    (
        "tricouleur", {}, None, "", "c8-a8",
        "closer rule: a plain move must end strictly nearer (Euclidean distance) to an enemy "
        "stone than it started; a8 is not nearer than c8 to any",
    ),
    (
        "tricouleur", {}, TRICOULEUR_CAPTURE, "", "k8-f8",
        "a capture is compulsory and this move captures nothing",
    ),
    (
        "tricouleur", {}, TRICOULEUR_WHISTLE, "", "k14-g14",
        "closer rule (closer-applies-to-captures=yes): a whistling capture must end strictly "
        "nearer (Euclidean distance) to an enemy stone than it started; g14 is not nearer than "
        "k14 to any",
    ),
    ("tricouleur", {"closer-applies-to-captures": "no"}, TRICOULEUR_WHISTLE, "", "k14-g14", None),
    (
        "whistling-captures", {}, None, "", "G5-G7",
        "the stone on G5 is not this seat's: it belongs to the opponent",
    ),
    ("whistling-captures", {}, None, "", "s1-u1", "the cell u1 is occupied"),
    ("whistling-captures", {}, None, "", "s1-s3", "s3 is not in a straight line from s1"),
    (
        "whistling-captures", {}, None, "", "s1xu1",
        "a crush steps onto an adjacent enemy stone: u1 holds none",
    ),
    (
        "whistling-captures", {}, WHISTLING_MAX_3, "", "r2-m7",
        "maximum capture is 3, this chain captures 1; "
        "the chain could continue from m7 (SE to z20 captures more)",
    ),
    (
        "whistling-captures", {}, WHISTLING_MAX_3, "", "v2-F12",
        "a capture is compulsory (maximum capture is 3) and this move captures nothing",
    ),
    (
        "tricolor", {}, None, "", "G(0,0)",
        "placement 1 must be orange (the colour cycle orange, green, yellow): G(0,0) is green",
    ),
    (
        "tricolor", {}, None, "O(0,0)", "G(0,-1)",
        "G(0,-1) overlaps the piece on O(0,0): a triangle is taken",
    ),
    ("tricolor", {}, None, "O(0,0) G(-1,0) Y(1,-2)", "O(0,0)", "a piece already stands on O(0,0)"),
    ("trichess", {}, None, "", "Wa1-Wa3", "the path from Wa1 to Wa3 is blocked at Wa2"),
    ("trichess", {}, None, "", "Rd2-Rd4", "the pawn on Rd2 is Red's, not White's"),
    ("trichess", {}, None, "", "Wb1-Wb4", "the knight on Wb1 cannot jump to Wb4"),
    ("trichess", {}, None, "", "Wc1-Wc3", "Wc3 is not on a line of the bishop on Wc1"),
    (
        "trichess", {}, TRICHESS_CHECK, "", "We2-Wd2",
        "the king would be in check: Black's knight on Wf3 attacks Wd2",
    ),
    (
        "trichess", {}, TRICHESS_RICH, "", "Rf2-Bc4",
        "non-aggression: Red has 14 points of material to Black's 10, so a capture on "
        "Black's territory must leave its king in check by Red",
    ),
    (
        "trichess", {}, TRICHESS_SHIELD, "", "Rd2-Re1",
        "shield: the move would leave Red's king on Rg2 attacked by White's rook on Rc2",
    ),
    (
        "trichess", {}, TRICHESS_CASTLE, "", "Be1-Bg1",
        "castling: Bf1 is attacked by White's knight on Bh2",
    ),
    (
        "trichess", {}, TRICHESS_LIBERATE, "", "Wa2-Wa1",
        "liberation is compulsory: name a piece of the pool (=P, =N, =B, =R, =Q)",
    ),
    ("triablo", {}, None, "", "a1-b1", "the point b1 is occupied (a capture is written with x)"),
    ("triablo", {}, None, "", "b2-d4/W", "the path from b2 to d4 is blocked at c3"),
    ("triablo", {}, None, "", "a1xb2", "the piece on b2 is White's own"),
    ("triablo", {}, None, "", "g6-g5/E", "the piece on g6 is not White's: Red controls it"),
    (
        "triablo", {}, TRIABLO_VULNERABLE, "", "f6xg6/E",
        "vulnerability: a capture needs three White tips aimed at the piece on g6; it has 2",
    ),
    (
        "triablo", {}, TRIABLO_ABDICATE, "", "d4>c4/E",
        "a king abdicates onto one of its own singletons; c4 holds none",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "options", "start", "moves", "text", "reason"), CASES)
def test_reason(
    name: str,
    options: dict[str, str],
    start: str | None,
    moves: str,
    text: str,
    reason: str | None,
) -> None:
    game = make_game(name, options)
    players = 3 if name == "trichess" else 2
    state = game.decode(start) if start else game.initial_state(players)
    for played in moves.split():
        state = state.play(game.parse_move(state, played))
    move = game.parse_move(state, text)
    assert state.why_illegal(move) == reason
    if reason is None:
        assert state.is_legal(move) and state.explain_illegal(move) is None
        return
    assert not state.is_legal(move)
    with pytest.raises(IllegalMoveError) as raised:
        state.play(move)
    assert str(raised.value) == reason


def test_every_game_has_three_reasons() -> None:
    reasons = Counter(name for name, *_ in CASES)
    assert set(reasons) == set(GAME_NAMES)
    assert min(reasons.values()) >= 3, reasons


def test_a_legal_move_has_no_reason_and_the_game_over_one() -> None:
    game = make_game("trike", {"size": "7"})
    state = game.initial_state(2)
    assert state.why_illegal(game.parse_move(state, "d2")) is None
    while state.to_move is not None:
        state = state.play(state.legal_moves()[0])
    assert state.why_illegal(game.parse_move(state, "a1")) == "the game is over"
