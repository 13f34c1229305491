"""Hexhex geometry shared by Tricouleur and Whistling Captures (rules file §1).

Cells are pointy-top hexagons in axial coordinates ``(q, r)``: ``r`` is the screen
row counted from the centre, increasing downward, and ``q`` increases to the right
along a row. A hexhex board of side ``N`` (radius ``R = N - 1``) holds the
``3N(N-1)+1`` cells with ``|q|, |r|, |q+r| <= R``.

Every cell is stored as a **slot**: its bit position in a padded parallelogram,
``slot = (r + R) * W + (q + R)`` with row width ``W = 2R + 2``. The extra column
is never on the board, so a one-cell step is always the same slot offset
(``STEP`` below) and whole sets of cells can be moved with a shift of a Python
``int`` bit mask without wrapping around a row. Slots in increasing order are the
cells in reading order (top row first, left to right).

The geometry the two whistling games need, computed once per side (``hex_board``):

- **Slides** (``rays``): from a cell, the cells outward along each direction.
- **Victims of a slide** (``sweeps``): an enemy stone is a victim of the slide
  ``S -> E`` iff it touches an interior cell and touches neither ``S`` nor ``E``
  (shared/RULES.md). On a hex lattice that is exactly the set of cells touching
  two *consecutive interior* cells: a cell beside the line touches two
  consecutive line cells ``a``, ``a+1``, and it avoids both ends iff
  ``1 <= a <= k-2``. So ``sweeps[S][d][i]`` is the union of the two common
  neighbours of every interior step of the slide to ``rays[S][d][i]``; a slide
  needs ``k >= 3`` steps to have any.
- **The closer rule** (``zones``): the cells ``Y`` strictly closer to the end of a
  slide than to its start. For the Euclidean metric (squared distance
  ``dq² + dq·dr + dr²``) this is a half-plane: with ``P_d(Y) = 2·B(Y, d)``
  (``B`` the bilinear form of that metric), ``Y`` is closer to ``S + k·d`` than
  to ``S`` iff ``P_d(Y) > P_d(S) + k``. For any metric the zones shrink as ``k``
  grows (distance along a line is convex), so a slide is closer iff every shorter
  slide in the same direction is. ``step_zones`` gives the same table for the
  hex-step metric; ``nearer_to_some`` handles any start and end (chains).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (1, -1), (0, -1), (0, 1), (-1, 1))
"""The six ``(dq, dr)`` steps, indexed 0..5: E, W, NE, NW, SE, SW."""
DIRECTION_NAMES: tuple[str, ...] = ("E", "W", "NE", "NW", "SE", "SW")
OPPOSITE: tuple[int, ...] = (1, 0, 5, 4, 3, 2)
"""The index of the reverse of each direction."""
FLANKS: tuple[tuple[int, int], ...] = ((4, 2), (3, 5), (0, 3), (2, 1), (5, 0), (1, 4))
"""For each direction ``d``, the two directions at 60° to it: the cells touching both
a cell ``c`` and ``c + d`` are ``c + FLANKS[d][0]`` and ``c + FLANKS[d][1]``."""

_POSITIVE_STEP = (True, False, False, False, True, True)
"""Whether each direction's slot step is positive (E, SE, SW)."""

Zones = tuple[tuple[tuple[int, ...], ...], ...]
"""Per slot, per direction, per ray index: a bit mask of cells."""


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


@dataclass(frozen=True, slots=True, eq=False)
class HexBoard:
    """The precomputed geometry of one hexhex side. Every table is read-only."""

    side: int
    """Cells per board edge ``N``."""
    radius: int
    """``R = N - 1``."""
    width: int
    """Slots per padded row, ``2R + 2``."""
    cells: tuple[int, ...]
    """The slots of the board's cells, in reading order."""
    mask: int
    """The bit mask of every cell."""
    coords: dict[int, tuple[int, int]]
    """Slot to axial ``(q, r)``."""
    slot_of: dict[tuple[int, int], int]
    """Axial ``(q, r)`` to slot."""
    step: tuple[int, ...]
    """The slot offset of one step in each direction."""
    adjacent: tuple[int, ...]
    """Per slot, the mask of its on-board neighbours (0 off the board)."""
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """Per slot, per direction, the cells outward, nearest first (empty off the board)."""
    paths: Zones
    """Per slot, per direction, per ray index ``i``: the cells a slide to ``rays[slot][d][i]``
    passes through and lands on (they must all be empty)."""
    sweeps: Zones
    """Per slot, per direction, per ray index ``i``: the cells whose stones are victims
    of the slide to ``rays[slot][d][i]`` (see the module doc); 0 for ``i < 2``."""
    whistle_lines: tuple[
        tuple[tuple[tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]], ...], ...], ...
    ]
    """Per slot, then per excluded direction ``last + 1`` (0: none excluded), for each other
    direction whose ray is long enough for a whistle (3 cells or more): ``(d, sweeps of the
    whole ray, mask of the ray, step > 0, ray, sweeps)``, the tables a capture search
    reads, gathered for speed."""
    sweep_whole: tuple[tuple[int, ...], ...]
    """Per slot, per direction: ``sweeps`` of the whole ray (0 where there is no ray)."""
    sweep_any: tuple[tuple[int, ...], ...]
    """Per slot: at index 0 the union of ``sweeps`` over the whole rays of all six
    directions, at index ``d + 1`` the same without direction ``d``: no slide from the
    slot (in those directions) can take a stone outside it."""
    zones: Zones
    """Per slot, per direction, per ray index: the cells strictly closer (Euclidean)
    to the end of that slide than to its start."""
    projections: tuple[tuple[int, ...], ...]
    """Per direction ``d``, per slot: ``P_d`` of the module doc (0 off the board)."""
    slide_moves: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """Per slot, per direction: the moves ``(slot, rays[slot][d][i])``, nearest first."""
    line: tuple[dict[int, tuple[int, int]], ...]
    """Per slot, every cell on one of its rays mapped to ``(direction, ray index)``."""
    ray_masks: tuple[tuple[int, ...], ...]
    """Per slot, per direction, the mask of the whole ray (0 off the board)."""
    along: tuple[bytes, ...]
    """Per slot ``p``, indexed by slot ``x``: the ray index of ``x`` on its line from ``p``
    (the number of cells strictly between them), 255 if ``x`` is on no ray of ``p``."""
    whistle_shifts: tuple[tuple[bool, int, int, int, tuple[int, ...]], ...]
    """Per direction, the constants of ``whistlers``: whether the slot step is positive,
    its size, the shifts that bring the two cells beside a step onto its first cell, and
    the doubling shifts of a flood fill that covers the longest ray."""

    def first_blocker(self, p: int, d: int, blockers: int) -> int:
        """The ray index of the nearest cell of ``blockers`` (a non-empty subset of the ray
        ``rays[p][d]``): the number of free cells a slide from ``p`` has before it."""
        if self.step[d] > 0:
            return self.along[p][(blockers & -blockers).bit_length() - 1]
        return self.along[p][blockers.bit_length() - 1]

    def closer_slides(self, movers: int, occupied: int, enemies: int) -> list[tuple[int, int]]:
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
            self.projections,
            self.ray_masks,
            self.along,
            self.slide_moves,
        )
        reach = []
        for d in range(0, 6, 2):  # E, NE, SE; their opposites W, SW, NW are negatives
            values = [projections[d][y] for y in targets]
            reach.append(max(values))
            reach.append(-min(values))
        limits = (reach[0], reach[1], reach[2], reach[5], reach[4], reach[3])
        positive = _POSITIVE_STEP
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

    def closer_mask(self, start: int, enemies: Iterable[int]) -> int:
        """The cells strictly nearer (Euclidean) than ``start`` to at least one of
        ``enemies`` (slots): the union of one open disc per enemy."""
        where = self.coords
        sq, sr = where[start]
        found = 0
        for y in enemies:
            q, r = where[y]
            a, b = q - sq, r - sr
            found |= _discs(self.side, y)[a * a + a * b + b * b]
        return found

    def zone_slides(
        self, movers: int, occupied: int, enemies: int, zones: Zones
    ) -> list[tuple[int, int]]:
        """Like ``closer_slides`` for any metric given by its ``zones`` table."""
        out: list[tuple[int, int]] = []
        for s in bits(movers):
            for d, ray in enumerate(self.rays[s]):
                zone = zones[s][d]
                for i, c in enumerate(ray):
                    if occupied >> c & 1 or not enemies & zone[i]:
                        break
                    out.append((s, c))
        return out

    def shift(self, mask: int, d: int) -> int:
        """``mask`` moved one step in direction ``d`` (cells leaving the board are dropped)."""
        s = self.step[d]
        return ((mask << s) if s > 0 else (mask >> -s)) & self.mask

    def dilate(self, mask: int) -> int:
        """The cells adjacent to at least one cell of ``mask``."""
        w = self.width
        near = mask << 1 | mask >> 1 | mask << w | mask >> w | mask << (w - 1) | mask >> (w - 1)
        return near & self.mask

    def whistlers(self, movers: int, targets: int, empty: int) -> int:
        """The stones of ``movers`` that have a slide through ``empty`` cells with a victim
        in ``targets`` (the closer rule is not checked). Bit-parallel, all stones at once.

        A victim touches two consecutive interior cells ``c, c+d``; so a slide in direction
        ``d`` can capture iff it can reach a cell ``c`` with ``c+d`` and ``c+2d`` empty and
        a target on a cell touching both ``c`` and ``c+d``. Those cells are found for all
        stones at once, then flood-filled back along ``-d`` through empty cells (doubling
        the distance each round).
        """
        found = 0
        if not movers or not targets:
            return found
        for positive, s, a, b, doubled in self.whistle_shifts:
            flanked = (targets << a if a > 0 else targets >> -a) | (
                targets << b if b > 0 else targets >> -b
            )
            if positive:
                prop = empty & (empty >> s)
                gen = prop & (empty >> (s + s)) & flanked
                if not gen:
                    continue
                gen |= empty & (gen >> s)
                for k in doubled:
                    gen |= prop & (gen >> k)
                    prop &= prop >> k
                found |= movers & (gen >> s)
            else:
                prop = empty & (empty << s)
                gen = prop & (empty << (s + s)) & flanked
                if not gen:
                    continue
                gen |= empty & (gen << s)
                for k in doubled:
                    gen |= prop & (gen << k)
                    prop &= prop << k
                found |= movers & (gen << s)
        return found

    def victims(self, start: int, d: int, index: int, targets: int) -> int:
        """The stones of ``targets`` taken by the slide ``start -> rays[start][d][index]``."""
        return targets & self.sweeps[start][d][index]


def _slot(radius: int, q: int, r: int) -> int:
    return (r + radius) * (2 * radius + 2) + (q + radius)


def _projection(d: tuple[int, int], y: tuple[int, int]) -> int:
    """``2·B(y, d)``: twice the Euclidean dot product of ``y`` with the unit step ``d``."""
    return 2 * y[0] * d[0] + y[0] * d[1] + y[1] * d[0] + 2 * y[1] * d[1]


@cache
def hex_board(side: int) -> HexBoard:
    """The geometry of the hexhex board of side ``side`` (cached).

    :raises ValueError: ``side < 2``.
    """
    if side < 2:
        raise ValueError(f"hexhex side {side} is below 2")
    radius = side - 1
    width = 2 * radius + 2
    slots = width * (2 * radius + 1)
    coords = {
        _slot(radius, q, r): (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    }
    cells = tuple(sorted(coords))
    slot_of = {qr: s for s, qr in coords.items()}
    step = tuple(dq + dr * width for dq, dr in DIRECTIONS)
    adjacent = [0] * slots
    for s, (q, r) in coords.items():
        for dq, dr in DIRECTIONS:
            other = slot_of.get((q + dq, r + dr))
            if other is not None:
                adjacent[s] |= 1 << other
    # Euclidean half-planes: above[d][t] = cells with projection > t (0 above the top).
    above: list[dict[int, int]] = []
    for vector in DIRECTIONS:
        ranked = sorted(((_projection(vector, qr), s) for s, qr in coords.items()), reverse=True)
        levels: dict[int, int] = {}
        acc = 0
        for t in range(ranked[0][0] + 2 * side, ranked[-1][0] - 2, -1):
            while ranked and ranked[0][0] > t:
                acc |= 1 << ranked.pop(0)[1]
            levels[t] = acc
        above.append(levels)
    rays: list[tuple[tuple[int, ...], ...]] = [()] * slots
    paths: list[tuple[tuple[int, ...], ...]] = [()] * slots
    sweeps: list[tuple[tuple[int, ...], ...]] = [()] * slots
    zones: list[tuple[tuple[int, ...], ...]] = [()] * slots
    line: list[dict[int, tuple[int, int]]] = [{} for _ in range(slots)]
    for s, (q, r) in coords.items():
        cell_rays: list[tuple[int, ...]] = []
        cell_paths: list[tuple[int, ...]] = []
        cell_sweeps: list[tuple[int, ...]] = []
        cell_zones: list[tuple[int, ...]] = []
        for d, (dq, dr) in enumerate(DIRECTIONS):
            ray: list[int] = []
            k = 1
            while (q + k * dq, r + k * dr) in slot_of:
                ray.append(slot_of[(q + k * dq, r + k * dr)])
                k += 1
            swept: list[int] = []
            acc = 0
            for i in range(len(ray)):
                if i >= 2 and adjacent[ray[i - 2]] & adjacent[ray[i - 1]] & ~acc:
                    acc = acc | adjacent[ray[i - 2]] & adjacent[ray[i - 1]]
                swept.append(acc)  # equal neighbours are the same object (callers may use ``is``)
            base = _projection(DIRECTIONS[d], (q, r))
            cell_rays.append(tuple(ray))
            covered: list[int] = []
            for c in ray:
                covered.append((covered[-1] if covered else 0) | 1 << c)
            cell_paths.append(tuple(covered))
            cell_sweeps.append(tuple(swept))
            cell_zones.append(tuple(above[d][base + i + 1] for i in range(len(ray))))
            for i, c in enumerate(ray):
                line[s][c] = (d, i)
        rays[s] = tuple(cell_rays)
        paths[s] = tuple(cell_paths)
        sweeps[s] = tuple(cell_sweeps)
        zones[s] = tuple(cell_zones)
    return HexBoard(
        side=side,
        radius=radius,
        width=width,
        cells=cells,
        mask=sum(1 << s for s in cells),
        coords=coords,
        slot_of=slot_of,
        step=step,
        adjacent=tuple(adjacent),
        rays=tuple(rays),
        paths=tuple(paths),
        ray_masks=tuple(tuple(p[-1] if p else 0 for p in per) for per in paths),
        along=tuple(_along(line[s], slots) for s in range(slots)),
        sweeps=tuple(sweeps),
        whistle_lines=tuple(
            tuple(
                tuple(
                    (d, sweeps[p][d][-1], paths[p][d][-1], step[d] > 0, rays[p][d], sweeps[p][d])
                    for d in range(6)
                    if len(rays[p][d]) >= 3 and d != last
                )
                for last in range(-1, 6)
            )
            if rays[p]
            else ()
            for p in range(slots)
        ),
        sweep_whole=tuple(tuple(sweep[-1] if sweep else 0 for sweep in per) for per in sweeps),
        sweep_any=tuple(_sweep_unions(per) for per in sweeps),
        zones=tuple(zones),
        line=tuple(line),
        projections=tuple(
            tuple(_projection(dd, coords[x]) if x in coords else 0 for x in range(slots))
            for dd in DIRECTIONS
        ),
        slide_moves=tuple(
            tuple(tuple((p, c) for c in ray) for ray in per) for p, per in enumerate(rays)
        ),
        whistle_shifts=tuple(
            (
                step[d] > 0,
                abs(step[d]),
                -step[FLANKS[d][0]],
                -step[FLANKS[d][1]],
                tuple(abs(step[d]) << k for k in range(1, (2 * radius).bit_length())),
            )
            for d in range(6)
        ),
    )


def _along(line: dict[int, tuple[int, int]], slots: int) -> bytes:
    table = bytearray(b"\xff" * slots)
    for x, (_, i) in line.items():
        table[x] = i
    return bytes(table)


def _sweep_unions(per_direction: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    whole = [sweep[-1] if sweep else 0 for sweep in per_direction]
    every = 0
    for mask in whole:
        every |= mask
    if not per_direction:
        return ()
    others = []
    for d in range(6):
        rest = 0
        for e, mask in enumerate(whole):
            if e != d:
                rest |= mask
        others.append(rest)
    return (every, *others)


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


@cache
def step_zones(side: int) -> Zones:
    """Like ``HexBoard.zones`` for the hex-step metric: per slot, direction and ray index,
    the cells strictly fewer steps from the slide's end than from its start (cached).

    Distance along a line is convex, so each cell ``Y`` is closer to exactly the first
    ``K_Y`` ends of a ray; the loop stops there."""
    board = hex_board(side)
    where = [(board.coords[y], 1 << y) for y in board.cells]
    out: list[tuple[tuple[int, ...], ...]] = [()] * len(board.adjacent)
    for s in board.cells:
        sq, sr = board.coords[s]
        per_dir = []
        for d, ray in enumerate(board.rays[s]):
            dq, dr = DIRECTIONS[d]
            zone = [0] * len(ray)
            for (q, r), bit in where:
                e, f = q - sq, r - sr
                start = max(abs(e), abs(f), abs(e + f))
                for i in range(len(ray)):
                    a, b = e - (i + 1) * dq, f - (i + 1) * dr
                    if max(abs(a), abs(b), abs(a + b)) >= start:
                        break
                    zone[i] |= bit
            per_dir.append(tuple(zone))
        out[s] = tuple(per_dir)
    return tuple(out)


_DISCS: dict[tuple[int, int], dict[int, int]] = {}


def _discs(side: int, centre: int) -> dict[int, int]:
    """For each squared distance ``t`` from ``centre`` to a cell: the cells nearer than
    ``t`` (computed once per board side and centre)."""
    found = _DISCS.get((side, centre))
    if found is None:
        board = hex_board(side)
        here = board.coords[centre]
        found, inner = {}, 0
        for t, s in sorted((dist2(here, board.coords[s]), s) for s in board.cells):
            if t not in found:
                found[t] = inner
            inner |= 1 << s
        _DISCS[(side, centre)] = found
    return found
