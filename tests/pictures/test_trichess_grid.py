"""The curved Trichess board: its cells tile the hexagon, and lines cross seams smoothly."""

from __future__ import annotations

import math

import pytest

from referee.pictures.trichess_grid import unit_point

Point = tuple[float, float]
HEXAGON_AREA = 3 * math.sqrt(3) / 2
"""A regular hexagon of corner radius 1."""


def outline(p: int, f: int, r: int) -> list[Point]:
    """Cell (p, r, f)'s corners and edge midpoints, anticlockwise in the owner's frame."""
    ring = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
    return [unit_point(p, 2 * f + df, 2 * r + dr) for df, dr in ring]


def area(points: list[Point]) -> float:
    """Signed shoelace area (positive when anticlockwise)."""
    pairs = zip(points, points[1:] + points[:1], strict=True)
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs) / 2


def angle(a: Point, b: Point) -> float:
    """The angle between two vectors, in degrees."""
    dot = a[0] * b[0] + a[1] * b[1]
    return math.degrees(math.acos(dot / (math.hypot(*a) * math.hypot(*b))))


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def tangent(end: Point, before: Point, before2: Point) -> Point:
    """A line's direction at its ``end`` from three equally spaced points (second order)."""
    return (3 * end[0] - 4 * before[0] + before2[0], 3 * end[1] - 4 * before[1] + before2[1])


def test_the_cells_tile_the_hexagon_without_folds() -> None:
    areas = [area(outline(p, f, r)) for p in range(3) for r in range(4) for f in range(8)]
    assert min(areas) > 0.015, "a cell is folded, turned over or vanishing"
    assert sum(areas) == pytest.approx(HEXAGON_AREA, abs=1e-9)


@pytest.mark.parametrize("p", range(3))
def test_the_territories_meet_at_the_centre_on_shared_seams(p: int) -> None:
    left = (p + 2) % 3
    assert unit_point(p, 8, 8) == pytest.approx((0.0, 0.0), abs=1e-12)
    for f2 in range(9):  # rank 4's edge: the a..d side is the left neighbour's h..e side
        assert unit_point(p, f2, 8) == pytest.approx(unit_point(left, 16 - f2, 8), abs=1e-12)


@pytest.mark.parametrize("f2", range(1, 7))
def test_files_cross_the_seam_between_territories_square_on(f2: int) -> None:
    """So, mirrored into the next territory, a file runs on without a kink."""
    seam = sub(unit_point(0, 8, 8), unit_point(0, 0, 8))
    file = tangent(unit_point(0, f2, 8), unit_point(0, f2, 7), unit_point(0, f2, 6))
    assert angle(file, seam) == pytest.approx(90, abs=2)


@pytest.mark.parametrize("r2", range(1, 7))
def test_ranks_cross_the_d_e_spoke_square_on(r2: int) -> None:
    spoke = sub(unit_point(1, 8, 8), unit_point(1, 8, 0))
    rank = tangent(unit_point(1, 8, r2), unit_point(1, 7, r2), unit_point(1, 6, r2))
    assert angle(rank, spoke) == pytest.approx(90, abs=2)
    other = tangent(unit_point(1, 8, r2), unit_point(1, 9, r2), unit_point(1, 10, r2))
    assert angle(rank, other) == pytest.approx(180, abs=4)  # the e-h half runs on


def test_the_lines_are_curved() -> None:
    """White's rank 2 bows: its middle is off the chord from the a edge to the spoke."""
    a, m, b = unit_point(0, 0, 4), unit_point(0, 4, 4), unit_point(0, 8, 4)
    chord = sub(b, a)
    offset = abs(chord[0] * (m[1] - a[1]) - chord[1] * (m[0] - a[0])) / math.hypot(*chord)
    assert offset > 0.01
