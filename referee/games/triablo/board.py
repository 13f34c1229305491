"""Triablo geometry: the 37 points of a hexhex board of side 4, their names and lines.

Self-contained on purpose (no other game's hex code is shared).

A point is named by a letter ``a``–``g`` (``c``, with ``a`` = 1) and a number ``1``–``7``
(``n``); the name is valid iff ``|c - n| <= 3`` (docs/rules/triablo.md). Axial coordinates are
``q = n - 4`` (to the right) and ``r = c - n`` (the screen row, downward)::

          a4  b5  c6  d7
        a3  b4  c5  d6  e7
      a2  b3  c4  d5  e6  f7
    a1  b2  c3  d4  e5  f6  g7
      b1  c2  d3  e4  f5  g6
        c1  d2  e3  f4  g5
          d1  e2  f3  g4

A point's index orders points by letter, then number: ``a1`` is 0, ``a2`` 1, … ``g7``
36, which is also the order of the names as strings.

The six directions are numbered counter-clockwise from East, so ``d + 3 (mod 6)`` is
the opposite of ``d`` and the even directions (E, NW, SW) are the tips of a Type-E
singleton, the odd ones (NE, W, SE) those of a Type-W singleton.

Everything is computed once at import and only read afterwards.
"""

from __future__ import annotations

from typing import NamedTuple

SIDE = 4
"""Points along each side of the hexagon."""
RADIUS = SIDE - 1

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""The ``(dq, dr)`` step of each direction: E, NE, NW, W, SW, SE."""
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
E, NE, NW, W, SW, SE = range(6)


def opposite(direction: int) -> int:
    """The direction pointing the other way."""
    return (direction + 3) % 6


def _name(q: int, r: int) -> str:
    n = q + SIDE
    c = r + n
    return f"{chr(ord('a') + c - 1)}{n}"


COORDS: tuple[tuple[int, int], ...] = tuple(
    sorted(
        (
            (n - SIDE, c - n)
            for c in range(1, 2 * SIDE)
            for n in range(1, 2 * SIDE)
            if abs(c - n) <= RADIUS
        ),
        key=lambda qr: (qr[0] + qr[1] + SIDE, qr[0] + SIDE),  # (c, n)
    )
)
"""``(q, r)`` of every point index."""
NUM_POINTS = len(COORDS)
NAMES: tuple[str, ...] = tuple(_name(q, r) for q, r in COORDS)
"""The canonical name of every point index."""
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
"""Canonical name to point index; exactly the names in ``NAMES``."""
_AT: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(COORDS)}


def point_at(q: int, r: int) -> int:
    """The index of the point ``(q, r)``, or -1 off the board."""
    return _AT.get((q, r), -1)


def _ray(point: int, direction: int) -> tuple[int, ...]:
    q, r = COORDS[point]
    dq, dr = DIRECTIONS[direction]
    cells: list[int] = []
    while True:
        q, r = q + dq, r + dr
        nxt = point_at(q, r)
        if nxt < 0:
            return tuple(cells)
        cells.append(nxt)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(p, d) for d in range(6)) for p in range(NUM_POINTS)
)
"""``RAYS[p][d]``: the points outward from ``p`` in direction ``d``, nearest first."""
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] if ray else -1 for ray in rays) for rays in RAYS
)
"""``NEIGHBOURS[p][d]``: the adjacent point in direction ``d``, or -1 off the board."""


class Line(NamedTuple):
    """How one point sees another on a common line."""

    direction: int
    """The direction from the first point to the second."""
    between: tuple[int, ...]
    """The points strictly between them, nearest the first point first."""


LINES: tuple[dict[int, Line], ...] = tuple(
    {ray[k]: Line(d, ray[:k]) for d, ray in enumerate(RAYS[p]) for k in range(len(ray))}
    for p in range(NUM_POINTS)
)
"""``LINES[p][t]``: the line from ``p`` to every point ``t`` that shares one with it."""

ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted((i for i, (_, r) in enumerate(COORDS) if r == row), key=lambda i: COORDS[i][0]))
    for row in range(-RADIUS, RADIUS + 1)
)
"""The screen rows from the top (``a4``…``d7``) to the bottom (``d1``…``g4``), left to right."""


def distance(a: int, b: int) -> int:
    """The number of steps between two points."""
    (qa, ra), (qb, rb) = COORDS[a], COORDS[b]
    dq, dr = qb - qa, rb - ra
    return max(abs(dq), abs(dr), abs(dq + dr))
