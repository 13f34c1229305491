"""Triablo start positions and the orientation setup phase (``setup=free``).

Starts (docs/rules/triablo.md): each king in a corner, its eight singletons on
every point within two steps of it, in the default orientations of Figure 3 (two
players) or of the rotationally symmetric suggestion of docs/rules/triablo.md (three players).

Setup constraint (docs/rules/triablo.md): a singleton must take an orientation
none of whose tips has an enemy piece as the first piece along its line, if such an
orientation exists; otherwise either orientation is allowed. Orientation never blocks
a line, so each singleton's allowed orientations follow from the occupied points alone.

With ``setup=free`` the game opens with one setup move per seat in turn order
(White, Red, then Black) before White's first ordinary move. A setup move gives the
orientation of every singleton of the mover, in point order: its text is
``a2/W,a3/W,b1/E,b2/W,b3/W,c1/W,c2/W,c3/W`` (see ``notation``).
"""

from __future__ import annotations

from itertools import product

from referee.games.triablo.board import INDEX, NUM_POINTS
from referee.games.triablo.movegen import POINTS_SHIFT, SETUP, WEST_SHIFT
from referee.games.triablo.pieces import (
    CONTROLLER,
    KIND,
    SINGLETON,
    TIPS,
    TYPE_E,
    TYPE_W,
    aims_at_enemy,
    king,
    singleton,
)

_START_2 = (
    ("a1", "a2 W, a3 W, b1 W, b2 W, b3 W, c1 W, c2 W, c3 W"),
    ("g7", "e5 E, e6 E, e7 E, f5 E, f6 E, f7 E, g5 E, g6 E"),
)
_START_3 = (
    ("a1", "a2 W, a3 W, b1 W, b2 W, b3 W, c1 W, c2 W, c3 E"),
    ("d7", "b5 W, c5 W, c6 W, d5 E, d6 W, e6 W, e7 W, f7 W"),
    ("g4", "e2 W, e3 W, e4 E, f3 W, f4 W, f5 W, g5 W, g6 W"),
)


def _build(table: tuple[tuple[str, str], ...]) -> bytes:
    cells = bytearray(NUM_POINTS)
    for seat, (king_point, singles) in enumerate(table):
        cells[INDEX[king_point]] = king(seat)
        for item in singles.split(", "):
            point, orient = item.split()
            cells[INDEX[point]] = singleton(seat, TYPE_E if orient == "E" else TYPE_W)
    return bytes(cells)


START: dict[int, bytes] = {2: _build(_START_2), 3: _build(_START_3)}
"""The default start board for 2 and 3 players."""


def allowed_orientations(board: bytes, point: int) -> tuple[int, ...]:
    """The orientations the setup constraint allows the singleton on ``point``."""
    owner = CONTROLLER[board[point]]
    fit = tuple(
        o for o in (TYPE_E, TYPE_W) if not aims_at_enemy(board, point, TIPS[0][singleton(owner, o)])
    )
    return fit or (TYPE_E, TYPE_W)


def singletons_of(board: bytes, seat: int) -> list[int]:
    """The points of ``seat``'s uncovered singletons, in point order."""
    return [
        p for p in range(NUM_POINTS) if KIND[board[p]] == SINGLETON and CONTROLLER[board[p]] == seat
    ]


def _bits(points: list[int] | tuple[int, ...]) -> int:
    mask = 0
    for p in points:
        mask |= 1 << p
    return mask


def setup_move(points: list[int], orients: tuple[int, ...] | list[int]) -> int:
    """The setup move giving ``orients[i]`` to ``points[i]``."""
    west = [p for p, o in zip(points, orients, strict=True) if o == TYPE_W]
    return SETUP | _bits(points) << POINTS_SHIFT | _bits(west) << WEST_SHIFT


def setup_parts(move: int) -> tuple[list[int], list[int]]:
    """The points and orientations of a setup move, in point order."""
    points_mask = (move >> POINTS_SHIFT) & ((1 << NUM_POINTS) - 1)
    west = move >> WEST_SHIFT
    points = [p for p in range(NUM_POINTS) if points_mask >> p & 1]
    return points, [TYPE_W if west >> p & 1 else TYPE_E for p in points]


def setup_moves(board: bytes, seat: int) -> list[int]:
    """Every setup move of ``seat``, in ascending ``int`` order."""
    points = singletons_of(board, seat)
    choices = [allowed_orientations(board, p) for p in points]
    return sorted(setup_move(points, combo) for combo in product(*choices))


def is_legal_setup(board: bytes, seat: int, move: int) -> bool:
    """Whether ``move`` is a legal setup move of ``seat`` (any ``int``)."""
    if move < SETUP or move & (SETUP - 1) or not move & SETUP:
        return False
    points, orients = setup_parts(move)
    if move >> (WEST_SHIFT + NUM_POINTS) or (move >> WEST_SHIFT) & ~_bits(points):
        return False
    if points != singletons_of(board, seat):
        return False
    return all(o in allowed_orientations(board, p) for p, o in zip(points, orients, strict=True))


def apply_setup(board: bytes, move: int) -> bytes:
    """The board with the setup move's orientations."""
    cells = bytearray(board)
    for point, orient in zip(*setup_parts(move), strict=True):
        cells[point] = singleton(CONTROLLER[cells[point]], orient)
    return bytes(cells)
