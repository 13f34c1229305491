"""Triablo pieces: the byte code of a point, tips, control and line of sight.

A board is ``bytes`` with one code per point index (see ``board``):

- ``0``: an empty point;
- a **singleton** of ``owner`` with orientation ``orient``;
- a **doublet**: a ``cover`` singleton on a ``captive`` singleton of another colour;
  ``orient`` is the cover's orientation (the captive has the other one);
- a **king**: a doublet of one colour; it has no observable orientation (stored as E).

``code = 1 + 2 * (4 * top + bottom) + orient`` with ``bottom = 3`` for a singleton,
so every code is below 25. Owners are seats: 0 White, 1 Red, 2 Black.

Orientations: ``TYPE_E`` (tips E, NW, SW: the even directions) and ``TYPE_W`` (tips
W, NE, SE: the odd ones). A doublet has the cover's three tips in the cover's colour
and the other three in the captive's; a king has six tips of its colour.

With ``captive-tips=no`` a captive's tips do not count at all (a king's lower half is
not a captive: a king always has six tips).
"""

from __future__ import annotations

from referee.games.triablo.board import RAYS

TYPE_E, TYPE_W = 0, 1
ORIENT_LETTERS = "EW"
"""The notation letter of each orientation."""
NO_ONE = -1
"""The colour of a missing tip and the controller of an empty point."""
EMPTY, SINGLETON, DOUBLET, KING = 0, 1, 2, 3
"""Values of ``KIND``."""
SEAT_LETTERS = "WRB"
"""White, Red, Black: the letter of each seat in positions and diagrams."""
SEAT_NAMES = ("White", "Red", "Black")
_NONE = 3
NUM_CODES = 25


def _code(top: int, bottom: int, orient: int) -> int:
    return 1 + 2 * (4 * top + bottom) + orient


def singleton(owner: int, orient: int) -> int:
    """The code of an uncovered singleton."""
    return _code(owner, _NONE, orient)


def doublet(cover: int, captive: int, orient: int) -> int:
    """The code of ``cover`` (orientation ``orient``) on ``captive``; a king if they match."""
    return _code(cover, cover, TYPE_E) if cover == captive else _code(cover, captive, orient)


def king(owner: int) -> int:
    """The code of ``owner``'s king."""
    return _code(owner, owner, TYPE_E)


KING_CODES: tuple[int, int, int] = (king(0), king(1), king(2))
"""``king(seat)`` for each seat."""


def _decode(code: int) -> tuple[int, int, int] | None:
    """``(top, bottom, orient)`` of a valid non-empty code, else None."""
    if not 1 <= code < NUM_CODES:
        return None
    top, bottom = divmod((code - 1) >> 1, 4)
    orient = (code - 1) & 1
    if top == _NONE or (top == bottom and orient):
        return None
    return top, bottom, orient


KIND: tuple[int, ...] = tuple(
    EMPTY
    if (parts := _decode(code)) is None
    else SINGLETON
    if parts[1] == _NONE
    else KING
    if parts[0] == parts[1]
    else DOUBLET
    for code in range(NUM_CODES)
)
"""The kind of every code (``EMPTY`` also for the unused codes)."""
VALID_CODES: frozenset[int] = frozenset(
    code for code in range(NUM_CODES) if code == 0 or KIND[code] != EMPTY
)
CONTROLLER: tuple[int, ...] = tuple(
    NO_ONE if KIND[code] == EMPTY else ((code - 1) >> 1) // 4 for code in range(NUM_CODES)
)
"""The seat that moves the piece: a singleton's owner, a doublet's cover."""
CAPTIVE: tuple[int, ...] = tuple(
    ((code - 1) >> 1) % 4 if KIND[code] == DOUBLET else NO_ONE for code in range(NUM_CODES)
)
"""The owner of a doublet's covered singleton (NO_ONE for other kinds)."""
ORIENT: tuple[int, ...] = tuple(
    (code - 1) & 1 if KIND[code] in (SINGLETON, DOUBLET) else NO_ONE for code in range(NUM_CODES)
)
"""A singleton's or a doublet cover's orientation (NO_ONE for kings and empty points)."""
CONTROL_TABLE: bytes = bytes(CONTROLLER[c] + 1 if c < NUM_CODES else 0 for c in range(256))
"""``board.translate(CONTROL_TABLE).count(seat + 1)`` counts the pieces ``seat`` controls."""


def _tips(code: int, captive_tips: bool) -> tuple[int, ...]:
    kind = KIND[code]
    top = CONTROLLER[code]
    if kind == EMPTY:
        return (NO_ONE,) * 6
    if kind == KING:
        return (top,) * 6
    orient = ORIENT[code]
    other = CAPTIVE[code] if kind == DOUBLET and captive_tips else NO_ONE
    return tuple(top if d % 2 == orient else other for d in range(6))


TIPS: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] = (
    tuple(_tips(code, False) for code in range(NUM_CODES)),
    tuple(_tips(code, True) for code in range(NUM_CODES)),
)
"""``TIPS[captive_tips][code][d]``: the colour of the tip pointing in direction ``d``."""


def _back(table: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(tips[(d + 3) % 6] for d in range(6)) for tips in table)


BACK = (_back(TIPS[0]), _back(TIPS[1]))
"""``BACK[captive_tips][code][d]``: the colour of the tip that a piece seen in direction
``d`` from some point aims back at that point (its tip in the opposite direction)."""

_RAYS_NONEMPTY: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
    tuple((d, ray) for d, ray in enumerate(rays) if ray) for rays in RAYS
)


def first_piece(board: bytes, ray: tuple[int, ...]) -> int:
    """The first occupied point along ``ray``, or -1."""
    for point in ray:
        if board[point]:
            return point
    return -1


def tips_on(board: bytes, target: int, colour: int, back: tuple[tuple[int, ...], ...]) -> int:
    """How many tips of ``colour`` have ``target`` as the first piece along their line.

    ``back`` is ``BACK[captive_tips]``. A piece lies on one line from ``target`` only,
    so it contributes at most one tip.
    """
    count = 0
    for d, ray in _RAYS_NONEMPTY[target]:
        for point in ray:
            code = board[point]
            if code:
                if back[code][d] == colour:
                    count += 1
                break
    return count


def vulnerable(board: bytes, target: int, colour: int, back: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the piece on ``target`` has at least three ``colour`` tips aimed at it."""
    count = 0
    for d, ray in _RAYS_NONEMPTY[target]:
        for point in ray:
            code = board[point]
            if code:
                if back[code][d] == colour:
                    count += 1
                    if count == 3:
                        return True
                break
    return False


def aims_at_enemy(board: bytes, point: int, tips: tuple[int, ...]) -> bool:
    """Whether a piece at ``point`` with these tip colours aims a tip at an enemy piece,
    i.e. whether the first piece along one of its tip lines is controlled by another seat."""
    for d, ray in enumerate(RAYS[point]):
        colour = tips[d]
        if colour == NO_ONE:
            continue
        seen = first_piece(board, ray)
        if seen >= 0 and CONTROLLER[board[seen]] not in (colour, NO_ONE):
            return True
    return False


def controlled(board: bytes, seat: int) -> int:
    """The number of pieces ``seat`` controls (uncovered singletons and its doublets)."""
    return board.translate(CONTROL_TABLE).count(seat + 1)
