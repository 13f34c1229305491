"""The closer rule on a hexhex board: a move must end strictly nearer to some enemy stone.

For the Euclidean metric (squared distance ``dq² + dq·dr + dr²``) the cells ``Y``
strictly closer to the end of a slide than to its start form a half-plane: with
``P_d(Y) = 2·B(Y, d)`` (``B`` the bilinear form of that metric), ``Y`` is closer to
``S + k·d`` than to ``S`` iff ``P_d(Y) > P_d(S) + k``. For any metric these zones
shrink as ``k`` grows (distance along a line is convex), so a slide is closer iff
every shorter slide in the same direction is. ``board.step_zones`` gives the same
table for the hex-step metric; ``closer_mask`` and ``coords.nearer_to_some`` handle any
start and end (chains).

The functions take a board's tables (``layout.BoardLayout``); ``HexBoard``'s methods of
the same names call them.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.hex.coords import DIRECTIONS, POSITIVE_STEP, bits, dist2, projection
from referee.games.hex.layout import BoardLayout

Zones = tuple[tuple[tuple[int, ...], ...], ...]
"""Per slot, per direction, per ray index: a bit mask of cells."""


def euclidean_tables(
    side: int,
    coords: dict[int, tuple[int, int]],
    rays: list[tuple[tuple[int, ...], ...]],
    slots: int,
) -> tuple[Zones, tuple[tuple[int, ...], ...]]:
    """``(zones, projections)`` of ``HexBoard`` from the board's cells and rays."""
    # Euclidean half-planes: above[d][t] = cells with projection > t (0 above the top).
    above: list[dict[int, int]] = []
    for vector in DIRECTIONS:
        ranked = sorted(((projection(vector, qr), s) for s, qr in coords.items()), reverse=True)
        levels: dict[int, int] = {}
        acc = 0
        for t in range(ranked[0][0] + 2 * side, ranked[-1][0] - 2, -1):
            while ranked and ranked[0][0] > t:
                acc |= 1 << ranked.pop(0)[1]
            levels[t] = acc
        above.append(levels)
    zones: list[tuple[tuple[int, ...], ...]] = [()] * slots
    for s, qr in coords.items():
        zones[s] = tuple(
            tuple(above[d][projection(DIRECTIONS[d], qr) + i + 1] for i in range(len(ray)))
            for d, ray in enumerate(rays[s])
        )
    projections = tuple(
        tuple(projection(dd, coords[x]) if x in coords else 0 for x in range(slots))
        for dd in DIRECTIONS
    )
    return tuple(zones), projections


def closer_slides(
    board: BoardLayout, movers: int, occupied: int, enemies: int
) -> list[tuple[int, int]]:
    """Every slide of a stone of ``movers`` through cells outside ``occupied`` that ends
    strictly nearer (Euclidean) to a stone of ``enemies`` than it started: stones in
    reading order, then directions E, W, NE, NW, SE, SW, nearest first.

    A slide of ``k`` steps along ``d`` is closer iff ``k < max P_d(enemy) - P_d(start)``.
    """
    out: list[tuple[int, int]] = []
    targets = bits(enemies)
    if not targets:
        return out
    projections, ray_masks, along, moves = (
        board.projections,
        board.ray_masks,
        board.along,
        board.slide_moves,
    )
    reach = []
    for d in range(0, 6, 2):  # E, NE, SE; their opposites W, SW, NW are negatives
        values = [projections[d][y] for y in targets]
        reach.append(max(values))
        reach.append(-min(values))
    limits = (reach[0], reach[1], reach[2], reach[5], reach[4], reach[3])
    positive = POSITIVE_STEP
    for s in bits(movers):
        s_masks, s_along, s_moves = ray_masks[s], along[s], moves[s]
        for d in range(6):
            n = limits[d] - projections[d][s] - 1
            if n <= 0:
                continue
            blockers = occupied & s_masks[d]
            if blockers:
                if positive[d]:
                    run = s_along[(blockers & -blockers).bit_length() - 1]
                else:
                    run = s_along[blockers.bit_length() - 1]
                if run < n:
                    n = run
            out.extend(s_moves[d][:n])
    return out


def closer_mask(board: BoardLayout, start: int, enemies: Iterable[int]) -> int:
    """The cells strictly nearer (Euclidean) than ``start`` to at least one of
    ``enemies`` (slots): the union of one open disc per enemy."""
    where = board.coords
    sq, sr = where[start]
    found = 0
    for y in enemies:
        q, r = where[y]
        a, b = q - sq, r - sr
        found |= discs(board, y)[a * a + a * b + b * b]
    return found


def zone_slides(
    board: BoardLayout, movers: int, occupied: int, enemies: int, zones: Zones
) -> list[tuple[int, int]]:
    """Like ``closer_slides`` for any metric given by its ``zones`` table."""
    out: list[tuple[int, int]] = []
    for s in bits(movers):
        for d, ray in enumerate(board.rays[s]):
            zone = zones[s][d]
            for i, c in enumerate(ray):
                if occupied >> c & 1 or not enemies & zone[i]:
                    break
                out.append((s, c))
    return out


_DISCS: dict[tuple[int, int], dict[int, int]] = {}


def discs(board: BoardLayout, centre: int) -> dict[int, int]:
    """For each squared distance ``t`` from ``centre`` to a cell: the cells nearer than
    ``t`` (computed once per board side and centre)."""
    found = _DISCS.get((board.side, centre))
    if found is None:
        here = board.coords[centre]
        found, inner = {}, 0
        for t, s in sorted((dist2(here, board.coords[s]), s) for s in board.cells):
            if t not in found:
                found[t] = inner
            inner |= 1 << s
        _DISCS[(board.side, centre)] = found
    return found
