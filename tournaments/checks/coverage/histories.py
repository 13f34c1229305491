"""Fixed histories that hold each game's special moves, so ``check-engine`` always sends them.

Random playouts (``scenarios.special_asks``) meet most kinds of move, but some special
moves look like plain ones in the notation (a Trichess castling ``We1-Wg1`` and an en
passant ``Bb4-Ba3`` are written as any other ``FROM-TO``) or need a long and lucky game
(a liberation, a deferred exchange). Each ``SpecialHistory`` below is a fixed sequence of
moves from the initial position whose last move is one such move; the sequences were
found by search with the rules and are checked against the rules by the test suite
(``tests/test_check_special_histories.py``: every move legal, the last one of the kind it is
named for). They are data, not code: a rules change that breaks one fails that test.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SpecialHistory:
    """Legal moves from the start of ``game`` ending in a move of the kind ``what``."""

    game: str
    what: str
    """The kind of the last move, for people: ``castling``, ``en passant``."""
    players: int
    options: tuple[tuple[str, str], ...]
    """The rule options that differ from the defaults."""
    moves: tuple[str, ...]


def _history(game: str, what: str, players: int, moves: str, **options: str) -> SpecialHistory:
    pairs = tuple((key.replace("_", "-"), value) for key, value in options.items())
    return SpecialHistory(game, what, players, pairs, tuple(moves.split()))


SPECIAL_HISTORIES: tuple[SpecialHistory, ...] = (
    _history("trike", "the pie swap", 2, "d1 swap"),
    _history("trike", "a trap and the extra placement it earns", 2, "i2 h1 i1",
             mode="odd"),
    _history("tricouleur", "a replacement", 2, "e9-k9 k8xk9"),
    _history("tricouleur", "a whistle that takes two or more stones", 2,
             "h4-j6 k7xj6 g4-g11 d4-k4"),
    _history("whistling-captures", "a two-leg chain that takes two or more stones", 2,
             "G15-A15 x20-E13-M13"),
    _history("whistling-captures", "a crush", 2,
             "s3-k3 i7-o1-D16-G13-M13-i13-l16-i19-v6-H18-q1 s1xq1"),
    _history("trichess", "castling", 3,
             "Wg1-Wf3 Rf2-Rf4 Bb1-Ba3 We2-We3 Rb1-Rc3 Bd2-Bd3 Wf1-We2 Rd2-Rd3 Bd1-Bd2 We1-Wg1"),
    _history("trichess", "en passant", 3,
             "We2-We4 Rg2-Rg4 Bg1-Bh3 Wb2-Wb4 Rg4-Bb4 Ba2-Ba4 Wc1-Wa3 Bb4-Ba3"),
    _history("trichess", "a liberation", 3,
             "Wb2-Wb4 Ra2-Ra4 Bb1-Ba3 Wg2-Wg4 Rd2-Rd4 Bh2-Bh4 Wa2-Wa4 Rc2-Rc3 Bh4-Wb4 Wh2-Wh4 "
             "Ra1-Ra3 Wb4-Wb3 Wg1-Wf3 Rc1-Ba3 Wb3-Wb2 We2-We3 Rd1-Rc1 Bg2-Bg4 Wf3-Rb4 Rf2-Rf3 "
             "Wb2-Wa1=N"),
    _history("trichess", "a deferred exchange", 3,
             "Wh2-Wh3 Rg2-Rg4 Bf2-Bf3 We2-We4 Rf2-Rf4 Bc2-Bc4 Wg2-Wg4 Ra2-Ra3 Bh2-Bh3 Wg1-Wf3 "
             "Rb1-Rc3 Ba2-Ba4 Wf1-Bg4 Rg4-Ba4 Bb2-Bb4 We4-Rd4 Ba4-Bb3 Ba1-Rh3 Wb1-Wa3 Bb3-Bb2 "
             "Rh3-Ba4 Wd1-We2 Rh2-Rh4 Bb1-Ba3 Wc2-Wc4 Rb2-Rb4 Be2-Be4 Wc4-Be4 Rd2-Rd3 Bg1-Be2 "
             "We2-We4 Rh1-Rh3 Bd1-Bc2 We4-Rf3 Re2-Re3 Bg2-Bg3 Wh1-Wg1 Bb2-Bb1 Bh3-Bh4 Rf3-Rg2 "
             "Rg1-Rf3 Bh1-Bh2 Wf3-Rb4 Bb1=P",
             liberation_empty_pool="deferred"),
    _history("tricolor", "an extra placement", 2, "O(0,0) G(-1,0) Y(-1,1)"),
    _history("tricolor", "an extra placement", 3,
             "O(1,-2) G(-1,-1) Y(2,0) O(0,-1) G(-2,-2) Y(1,-1)"),
    _history("triablo", "a setup move", 2,
             "a2/E,a3/W,b1/W,b2/W,b3/W,c1/W,c2/W,c3/W", setup="free"),
    _history("triablo", "a setup move", 3,
             "a2/E,a3/W,b1/E,b2/E,b3/W,c1/W,c2/W,c3/E", setup="free"),
    _history("triablo", "an abdication", 2, "a1>b2/E"),
    _history("triablo", "a capture", 3, "a3-a4/W d5-d3/W e3-d2/W c3-f6/W d3-e3/E e4xe3"),
)  # fmt: skip
"""Every game's special moves, each at the end of a fixed history (a game's entries
together name every kind ``check-engine`` promises to send for it)."""
