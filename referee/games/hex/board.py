"""``HexBoard``: the precomputed geometry of one hexhex side, slides and their victims.

The layout is ``coords``' (slots in a padded parallelogram). The geometry the two
whistling games need:

- **Slides** (``rays``): from a cell, the cells outward along each direction.
- **Victims of a slide** (``sweeps``): an enemy stone is a victim of the slide
  ``S -> E`` iff it touches an interior cell and touches neither ``S`` nor ``E``
  (docs/rules/tricouleur.md). On a hex lattice that is exactly the set of cells touching
  two *consecutive interior* cells: a cell beside the line touches two
  consecutive line cells ``a``, ``a+1``, and it avoids both ends iff
  ``1 <= a <= k-2``. So ``sweeps[S][d][i]`` is the union of the two common
  neighbours of every interior step of the slide to ``rays[S][d][i]``; a slide
  needs ``k >= 3`` steps to have any.
- **The closer rule** (``zones``, ``closer_slides``, ``closer_mask``): see ``closer``.
- **Who can whistle at all** (``whistlers``, and ``rotations`` for the six-copy
  layout of ``rotations``).

Building the tables takes a noticeable fraction of a second, so a board holds only
its cells and adjacency when made; every other table is built on first use (all of
them at once, ``rotations`` on its own). Boards are shared: ``hex_board`` caches them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from referee.games.hex import closer
from referee.games.hex.closer import Zones
from referee.games.hex.coords import DIRECTIONS, FLANKS, slot_index
from referee.games.hex.rotations import Rotations, build_rotations

WhistleLine = tuple[
    int, int, int, bool, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]
"""``(d, sweeps of the whole ray, mask of the ray, step > 0, ray, sweeps, projections[d],
sweep_other[d])``: see ``HexBoard.whistle_lines``."""

_TABLES = frozenset(
    {
        "rays",
        "paths",
        "sweeps",
        "whistle_lines",
        "sweep_whole",
        "sweep_any",
        "sweep_other",
        "zones",
        "projections",
        "slide_moves",
        "line",
        "ray_masks",
        "along",
        "whistle_shifts",
    }
)
"""The attributes built on first use by ``_build``."""


class HexBoard:
    """The precomputed geometry of one hexhex side. Every table is read-only; get boards
    from ``hex_board``."""

    __slots__ = (
        "adjacent",
        "along",
        "cells",
        "coords",
        "line",
        "mask",
        "paths",
        "projections",
        "radius",
        "ray_masks",
        "rays",
        "rotations",
        "side",
        "slide_moves",
        "slot_of",
        "step",
        "sweep_any",
        "sweep_other",
        "sweep_whole",
        "sweeps",
        "whistle_lines",
        "whistle_shifts",
        "width",
        "zones",
    )

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
    # Built on first use:
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    """Per slot, per direction, the cells outward, nearest first (empty off the board)."""
    paths: Zones
    """Per slot, per direction, per ray index ``i``: the cells a slide to ``rays[slot][d][i]``
    passes through and lands on (they must all be empty)."""
    sweeps: Zones
    """Per slot, per direction, per ray index ``i``: the cells whose stones are victims
    of the slide to ``rays[slot][d][i]`` (see the module doc); 0 for ``i < 2``. Equal
    neighbours are the same object (callers may compare with ``is``)."""
    whistle_lines: tuple[tuple[tuple[WhistleLine, ...], ...], ...]
    """Per slot, then per excluded direction ``last + 1`` (0: none excluded), for each other
    direction whose ray is long enough for a whistle (3 cells or more): ``(d, sweeps of the
    whole ray, mask of the ray, step > 0, ray, sweeps, projections[d], sweep_other[d])``,
    the tables a capture search reads, gathered for speed. A cell ``y`` of the whole
    ray's sweep first enters ``sweeps[slot][d][i]`` at ``i = (P_d(y) - P_d(slot) + 1) // 2``
    (``P_d`` = ``projections[d]``: ``y`` is ``slot + a·d`` plus a unit step at 60° to
    ``d``, which adds 1 to ``2a``, and is taken once the slide passes ``a + 1`` cells)."""
    sweep_whole: tuple[tuple[int, ...], ...]
    """Per slot, per direction: ``sweeps`` of the whole ray (0 where there is no ray)."""
    sweep_any: tuple[tuple[int, ...], ...]
    """Per slot: at index 0 the union of ``sweeps`` over the whole rays of all six
    directions, at index ``d + 1`` the same without direction ``d``: no slide from the
    slot (in those directions) can take a stone outside it."""
    sweep_other: tuple[tuple[int, ...], ...]
    """Per direction ``d``, per slot: ``sweep_any[slot][d + 1]`` (0 off the board)."""
    zones: Zones
    """Per slot, per direction, per ray index: the cells strictly closer (Euclidean)
    to the end of that slide than to its start."""
    projections: tuple[tuple[int, ...], ...]
    """Per direction ``d``, per slot: ``P_d`` of ``closer`` (0 off the board)."""
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
    rotations: Rotations
    """The six rotated copies of the board in one mask (see ``rotations``)."""

    def __init__(self, side: int) -> None:
        """The cells and adjacency of the board of side ``side``; use ``hex_board``.

        :raises ValueError: ``side < 2``.
        """
        if side < 2:
            raise ValueError(f"hexhex side {side} is below 2")
        radius = side - 1
        width = 2 * radius + 2
        coords = {
            slot_index(radius, q, r): (q, r)
            for r in range(-radius, radius + 1)
            for q in range(-radius, radius + 1)
            if abs(q + r) <= radius
        }
        slot_of = {qr: s for s, qr in coords.items()}
        adjacent = [0] * (width * (2 * radius + 1))
        for s, (q, r) in coords.items():
            for dq, dr in DIRECTIONS:
                other = slot_of.get((q + dq, r + dr))
                if other is not None:
                    adjacent[s] |= 1 << other
        cells = tuple(sorted(coords))
        values: dict[str, Any] = {
            "side": side,
            "radius": radius,
            "width": width,
            "cells": cells,
            "mask": sum(1 << s for s in cells),
            "coords": coords,
            "slot_of": slot_of,
            "step": tuple(dq + dr * width for dq, dr in DIRECTIONS),
            "adjacent": tuple(adjacent),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"HexBoard is read-only ({name})")

    def __getattr__(self, name: str) -> Any:
        """Builds the tables on the first read of one of them."""
        if name == "rotations":
            object.__setattr__(self, name, build_rotations(self))
        elif name in _TABLES:
            for key, value in _build(self).items():
                object.__setattr__(self, key, value)
        else:
            raise AttributeError(f"HexBoard has no attribute {name!r}")
        return object.__getattribute__(self, name)

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return hex_board, (self.side,)

    def __repr__(self) -> str:
        return f"hex_board({self.side})"

    def first_blocker(self, p: int, d: int, blockers: int) -> int:
        """The ray index of the nearest cell of ``blockers`` (a non-empty subset of the ray
        ``rays[p][d]``): the number of free cells a slide from ``p`` has before it."""
        if self.step[d] > 0:
            return self.along[p][(blockers & -blockers).bit_length() - 1]
        return self.along[p][blockers.bit_length() - 1]

    def closer_slides(self, movers: int, occupied: int, enemies: int) -> list[tuple[int, int]]:
        """See ``closer.closer_slides``."""
        return closer.closer_slides(self, movers, occupied, enemies)

    def closer_mask(self, start: int, enemies: Iterable[int]) -> int:
        """See ``closer.closer_mask``."""
        return closer.closer_mask(self, start, enemies)

    def zone_slides(
        self, movers: int, occupied: int, enemies: int, zones: Zones
    ) -> list[tuple[int, int]]:
        """See ``closer.zone_slides``."""
        return closer.zone_slides(self, movers, occupied, enemies, zones)

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


@cache
def hex_board(side: int) -> HexBoard:
    """The geometry of the hexhex board of side ``side`` (cached; tables built on first
    use).

    :raises ValueError: ``side < 2``.
    """
    return HexBoard(side)


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


def _build(board: HexBoard) -> dict[str, Any]:
    """Every table of ``_TABLES`` for ``board``."""
    side, radius, coords, slot_of = board.side, board.radius, board.coords, board.slot_of
    adjacent, step = board.adjacent, board.step
    slots = len(adjacent)
    rays: list[tuple[tuple[int, ...], ...]] = [()] * slots
    paths: list[tuple[tuple[int, ...], ...]] = [()] * slots
    sweeps: list[tuple[tuple[int, ...], ...]] = [()] * slots
    line: list[dict[int, tuple[int, int]]] = [{} for _ in range(slots)]
    for s, (q, r) in coords.items():
        cell_rays: list[tuple[int, ...]] = []
        cell_paths: list[tuple[int, ...]] = []
        cell_sweeps: list[tuple[int, ...]] = []
        for dq, dr in DIRECTIONS:
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
                swept.append(acc)  # equal neighbours are the same object
            cell_rays.append(tuple(ray))
            covered: list[int] = []
            for c in ray:
                covered.append((covered[-1] if covered else 0) | 1 << c)
            cell_paths.append(tuple(covered))
            cell_sweeps.append(tuple(swept))
        for d, ray_cells in enumerate(cell_rays):
            for i, c in enumerate(ray_cells):
                line[s][c] = (d, i)
        rays[s] = tuple(cell_rays)
        paths[s] = tuple(cell_paths)
        sweeps[s] = tuple(cell_sweeps)
    zones, projections = closer.euclidean_tables(side, coords, rays, slots)
    sweep_any = tuple(_sweep_unions(per) for per in sweeps)
    sweep_other = tuple(
        tuple(sweep_any[x][d + 1] if sweep_any[x] else 0 for x in range(slots)) for d in range(6)
    )
    return {
        "rays": tuple(rays),
        "paths": tuple(paths),
        "ray_masks": tuple(tuple(p[-1] if p else 0 for p in per) for per in paths),
        "along": tuple(_along(line[s], slots) for s in range(slots)),
        "sweeps": tuple(sweeps),
        "whistle_lines": tuple(
            tuple(
                tuple(
                    (
                        d,
                        sweeps[p][d][-1],
                        paths[p][d][-1],
                        step[d] > 0,
                        rays[p][d],
                        sweeps[p][d],
                        projections[d],
                        sweep_other[d],
                    )
                    for d in range(6)
                    if len(rays[p][d]) >= 3 and d != last
                )
                for last in range(-1, 6)
            )
            if rays[p]
            else ()
            for p in range(slots)
        ),
        "sweep_whole": tuple(tuple(sweep[-1] if sweep else 0 for sweep in per) for per in sweeps),
        "sweep_any": sweep_any,
        "sweep_other": sweep_other,
        "zones": zones,
        "line": tuple(line),
        "projections": projections,
        "slide_moves": tuple(
            tuple(tuple((p, c) for c in ray) for ray in per) for p, per in enumerate(rays)
        ),
        "whistle_shifts": tuple(
            (
                step[d] > 0,
                abs(step[d]),
                -step[FLANKS[d][0]],
                -step[FLANKS[d][1]],
                tuple(abs(step[d]) << k for k in range(1, (2 * radius).bit_length())),
            )
            for d in range(6)
        ),
    }


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
