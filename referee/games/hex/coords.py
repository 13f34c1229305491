"""Axial hex coordinates, directions, distances and the slot layout (docs/rules/tricouleur.md,
docs/rules/whistling-captures.md).

Cells are pointy-top hexagons in axial coordinates ``(q, r)``: ``r`` is the screen
row counted from the centre, increasing downward, and ``q`` increases to the right
along a row. A hexhex board of side ``N`` (radius ``R = N - 1``) holds the
``3N(N-1)+1`` cells with ``|q|, |r|, |q+r| <= R``.

Every cell is stored as a **slot**: its bit position in a padded parallelogram,
``slot = (r + R) * W + (q + R)`` with row width ``W = 2R + 2``. The extra column
is never on the board, so a one-cell step is always the same slot offset and whole
sets of cells can be moved with a shift of a Python ``int`` bit mask without
wrapping around a row. Slots in increasing order are the cells in reading order
(top row first, left to right).
"""

from __future__ import annotations

from collections.abc import Iterable

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
"""The six ``(dq, dr)`` steps, indexed 0..5: E, W, NE, NW, SE, SW."""
DIRECTION_NAMES: tuple[str, ...] = ("E", "W", "NE", "NW", "SE", "SW")
OPPOSITE: tuple[int, ...] = (1, 0, 5, 4, 3, 2)
"""The index of the reverse of each direction."""
FLANKS: tuple[tuple[int, int], ...] = ((4, 2), (3, 5), (0, 3), (2, 1), (5, 0), (1, 4))
"""For each direction ``d``, the two directions at 60° to it: the cells touching both
a cell ``c`` and ``c + d`` are ``c + FLANKS[d][0]`` and ``c + FLANKS[d][1]``."""
POSITIVE_STEP: tuple[bool, ...] = (True, False, False, False, True, True)
"""Whether each direction's slot step is positive (E, SE, SW): the nearest cell of a
ray's subset is then its lowest set bit, else its highest."""


def dist2(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Squared Euclidean distance between two cell centres (neighbours are 1 apart)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return dq * dq + dq * dr + dr * dr


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The number of steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def bits(mask: int) -> list[int]:
    """The set bits of ``mask`` (slots), in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def slot_index(radius: int, q: int, r: int) -> int:
    """The slot of the cell ``(q, r)`` on a board of radius ``radius``."""
    return (r + radius) * (2 * radius + 2) + (q + radius)


def projection(d: tuple[int, int], y: tuple[int, int]) -> int:
    """``2·B(y, d)``: twice the Euclidean dot product of ``y`` with the unit step ``d``."""
    return 2 * y[0] * d[0] + y[0] * d[1] + y[1] * d[0] + 2 * y[1] * d[1]


def rotate(cell: tuple[int, int], turns: int) -> tuple[int, int]:
    """``cell`` turned ``turns`` times 60° clockwise about the centre (E becomes SE)."""
    q, r = cell
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def nearer_to_some(
    start: tuple[int, int], end: tuple[int, int], enemies: Iterable[tuple[int, int]]
) -> bool:
    """The Euclidean closer rule for any start and end cell: whether ``end`` is strictly
    nearer than ``start`` to at least one of ``enemies`` (axial coordinates)."""
    sq, sr = start
    eq, er = end
    for q, r in enemies:
        a, b, c, d = q - eq, r - er, q - sq, r - sr
        if a * a + a * b + b * b < c * c + c * d + d * d:
            return True
    return False
