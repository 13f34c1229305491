"""The curved Trichess board: where each cell's corners, edge midpoints and centre lie.

The board is a regular hexagon (corner radius 1, centre O, y up). Six straight spokes
from O to the edge midpoints cut it into six kites, two per territory (files a–d and
e–h); the spokes are the seams: between a territory's two halves (the d/e line) and
between territories (each territory's rank 4 against its neighbour's). Inside a kite
the 4 × 4 cells are the grid of a *conformal* map from the square onto the kite, so
every file and rank line is a smooth curve, ranks and files cross at right angles,
and both meet each seam square on. Mirroring across a seam then continues every
line smoothly, which is what the rules ask of the board: a file runs on from one
territory into the next (White's a–d into Black's h–e) without a kink, and the whole
board reads as one curved surface with the central obstacle at O.

The map is the Schwarz–Christoffel map of the kite composed with the inverse map of
the square (both from the unit disc); its derivative along the square is
``((1 - ζ) / (1 + ζ)) ** (1/6)``, integrated here with fixed-step RK4 from the
square's centre, so the result is deterministic. Which lines of the map are drawn is
free (any choice keeps the crossings square): the files are spaced evenly along the
back edge, and the ranks halfway between even along the outer edge and even along
the d/e spoke, since the map alone would crowd the hexagon's corners and swell the
rosette.
"""

from __future__ import annotations

import bisect
import cmath
import math
from functools import cache

Point = tuple[float, float]

_SQRT3 = math.sqrt(3)
_C = complex(-0.5, -_SQRT3 / 2)
"""White's a1 corner of the hexagon: the kite's outer corner."""
_BACK_MID = complex(0, -_SQRT3 / 2)
"""The midpoint of White's back edge, where the d/e spoke starts."""
_SIDE_MID = complex(-0.75, -_SQRT3 / 4)
"""The midpoint of White's left edge, where the White/Black seam starts."""
_K = math.gamma(0.25) ** 2 / (4 * math.sqrt(2 * math.pi))
"""``∫₀¹ (1 - t⁴)^(-1/2) dt``: the disc-to-square map sends ±1, ±i to ±K, ±iK."""
_STEPS = 16
"""RK4 steps per point: within 0.05 pixel of the exact map, in about 40 ms per process."""
_SAMPLES = 24
"""Samples along the back edge and the d/e spoke, for spacing the lines."""


def _slope(zeta: complex) -> tuple[complex, complex]:
    """(dζ/ds, dg/ds) at disc point ζ: the inverse square map and the kite map."""
    return cmath.sqrt(1 - zeta**4), ((1 - zeta) / (1 + zeta)) ** (1 / 6)


def _raw(u: float, v: float) -> complex:
    """The kite map, up to a similarity, at square point (u, v) ∈ [0, 1]².

    The square's corners (0,0), (1,0), (1,1), (0,1) go to the kite's outer corner,
    back-edge midpoint, centre and side-edge midpoint. Integrated from the square's
    centre, where ζ = 0, along the straight line to (u, v).
    """
    h = _K * complex(1 - u - v, u - v) / _STEPS
    zeta, g = 0j, 0j
    for _ in range(_STEPS):
        a1, b1 = _slope(zeta)
        a2, b2 = _slope(zeta + h / 2 * a1)
        a3, b3 = _slope(zeta + h / 2 * a2)
        a4, b4 = _slope(zeta + h * a3)
        zeta += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
        g += h / 6 * (b1 + 2 * b2 + 2 * b3 + b4)
    return g


@cache
def kite() -> tuple[tuple[complex, ...], ...]:
    """White's a–d kite on the half-cell grid: ``kite()[i][j]`` is the point at file
    coordinate ``i / 2`` (0 = the a-file edge, 4 = the d/e spoke) and rank coordinate
    ``j / 2`` (0 = the back edge, 4 = the seam with Black), in unit coordinates."""
    # Normalise by the two right-angled corners, where the map is regular (the outer
    # corner and the centre are singular and converge slowly).
    back, side = _raw(1, 0), _raw(0, 1)

    def place(g: complex) -> complex:
        return _SIDE_MID + (g - side) * (_BACK_MID - _SIDE_MID) / (back - side)

    # Where along the back edge (for files) and along the d/e spoke (for ranks) each
    # square coordinate lands, to choose where the lines go.
    ts = [k / _SAMPLES for k in range(_SAMPLES + 1)]
    on_back = [abs(place(_raw(t, 0)) - _C) / abs(_BACK_MID - _C) for t in ts]
    on_spoke = [abs(place(_raw(1, t)) - _BACK_MID) / abs(_BACK_MID) for t in ts]
    # the ends are the kite's corners, exactly (the integration is least accurate there)
    on_back[0] = on_spoke[0] = 0.0
    on_back[-1] = on_spoke[-1] = 1.0
    files = [_inverse(ts, on_back, i / 8) for i in range(9)]
    ranks = [(files[j] + _inverse(ts, on_spoke, j / 8)) / 2 for j in range(9)]
    grid = [[place(_raw(files[i], ranks[j])) for j in range(9)] for i in range(9)]
    # Points on the back edge are known exactly; those on the other sides are put
    # exactly on their lines, so the halves and territories share their seams.
    for k in range(9):
        grid[k][0] = _C + (_BACK_MID - _C) * k / 8
        grid[0][k] = _onto(grid[0][k], _C, _SIDE_MID)
        grid[8][k] = _onto(grid[8][k], _BACK_MID, 0j)
        grid[k][8] = _onto(grid[k][8], _SIDE_MID, 0j)
    grid[0][8], grid[8][8] = _SIDE_MID, 0j
    return tuple(tuple(column) for column in grid)


def _onto(z: complex, a: complex, b: complex) -> complex:
    """``z`` projected onto the line through ``a`` and ``b``."""
    d = (b - a) / abs(b - a)
    return a + d * ((z - a) / d).real


def _inverse(ts: list[float], fractions: list[float], target: float) -> float:
    """The ``t`` at which the increasing samples ``fractions`` (of ``ts``) reach
    ``target``, by linear interpolation."""
    k = min(max(bisect.bisect_left(fractions, target), 1), len(ts) - 1)
    lo, hi = fractions[k - 1], fractions[k]
    return ts[k - 1] + (ts[k] - ts[k - 1]) * (target - lo) / (hi - lo)


_TURNS = tuple(cmath.exp(1j * math.radians(120 * p)) for p in range(3))


def unit_point(p: int, f2: int, r2: int) -> Point:
    """The point of territory ``p`` at file coordinate ``f2 / 2`` (0..8, from the
    owner's a-file edge) and rank coordinate ``r2 / 2`` (0..4, from its back edge), in
    unit coordinates with y up. Half-integers are cell edge midpoints and centres."""
    # the e–h half is the a–d half mirrored across the owner's d/e spoke
    z = kite()[f2][r2] if f2 <= 8 else -kite()[16 - f2][r2].conjugate()
    z *= _TURNS[p]
    return (z.real, z.imag)
