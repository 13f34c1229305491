"""Which enemy pieces a legal move takes off the board, for every game.

The rules keep no list of a move's victims (they only compute the position after it), so
this module reads them from the positions before and after the move, game by game, the
way the pictures mark them (``referee.pictures``): a piece is captured when it belonged to
another seat before the move and is gone (or replaced) after it. Trike and Tricolor have
no captures. Each game's tables are imported when that game is asked for, as the
registry does, so listing one game's moves does not import the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.games.hex import bits

Victim = tuple[str, str]
"""``(cell name, piece)`` of one captured piece, e.g. ``("e9", "Second white")``."""

_TRICOULEUR_COLOURS = ("red", "white", "blue")
_TRICOULEUR_ARMIES = ("First", "Second")
_WHISTLING_SIDES = ("X", "O")
_TRICHESS_PIECES = dict(
    zip("KQRBNP", ("king", "queen", "rook", "bishop", "knight", "pawn"), strict=True)
)


def _tricouleur(before: Any, move: Any, after: Any) -> list[Victim]:
    from referee.games.tricouleur.notation import NAMES

    enemy = 1 - before.turn
    out = []
    for kind in range(3 * enemy, 3 * enemy + 3):
        piece = f"{_TRICOULEUR_ARMIES[enemy]} {_TRICOULEUR_COLOURS[kind % 3]}"
        out += [(NAMES[s], piece) for s in bits(before.stones[kind] & ~after.stones[kind])]
    return out


def _whistling(before: Any, move: Any, after: Any) -> list[Victim]:
    from referee.games.whistling.notation import NAMES

    enemy = 1 - before.turn
    gone = before.stones[enemy] & ~after.stones[enemy]
    return [(NAMES[s], _WHISTLING_SIDES[enemy]) for s in bits(gone)]


def _trichess(before: Any, move: Any, after: Any) -> list[Victim]:
    from referee.games.trichess.attacks import PIECE_LETTERS
    from referee.games.trichess.board import COLOUR_NAMES, NAMES

    out = []
    for cell, code in enumerate(before.board):
        if code and code >> 3 != before.turn and after.board[cell] != code:
            letter = PIECE_LETTERS[code & 7]
            out.append((NAMES[cell], f"{COLOUR_NAMES[code >> 3]} {_TRICHESS_PIECES[letter]}"))
    return out


def _triablo(before: Any, move: Any, after: Any) -> list[Victim]:
    from referee.games.triablo.board import NAMES
    from referee.games.triablo.movegen import SETUP, split_move
    from referee.games.triablo.pieces import CONTROLLER, DOUBLET, KIND, KING, SEAT_NAMES, SINGLETON

    if move >= SETUP:
        return []
    to = split_move(move)[1]
    code = before.board[to]
    if not code or CONTROLLER[code] == before.seat:
        return []
    kind = {SINGLETON: "singleton", DOUBLET: "doublet", KING: "king"}[KIND[code]]
    return [(NAMES[to], f"{SEAT_NAMES[CONTROLLER[code]]} {kind}")]


_BY_GAME: dict[str, Callable[[Any, Any, Any], list[Victim]]] = {
    "tricouleur": _tricouleur,
    "whistling-captures": _whistling,
    "trichess": _trichess,
    "triablo": _triablo,
}

CAPTURING_GAMES = frozenset(_BY_GAME)
"""The ids of the games that have captures."""


def victims(game_name: str, before: Any, move: Any, after: Any) -> tuple[Victim, ...]:
    """The pieces ``move`` (legal in ``before``, leading to ``after``) captures, in the
    game's cell order; empty for a move that captures nothing and for games without
    captures."""
    read = _BY_GAME.get(game_name)
    return () if read is None else tuple(read(before, move, after))
