"""``BoardLayout``: the tables of a hexhex board that the geometry helpers read.

``closer`` and ``rotations`` compute parts of a ``HexBoard`` from its other tables, and
``HexBoard`` calls them; typing their argument with this protocol, not with ``HexBoard``,
keeps them below ``board`` (no import back).
"""

from __future__ import annotations

from typing import Protocol


class BoardLayout(Protocol):
    """What ``closer`` and ``rotations`` read of a board (``HexBoard`` has it all)."""

    side: int
    radius: int
    width: int
    cells: tuple[int, ...]
    coords: dict[int, tuple[int, int]]
    adjacent: tuple[int, ...]
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    projections: tuple[tuple[int, ...], ...]
    slide_moves: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    ray_masks: tuple[tuple[int, ...], ...]
    along: tuple[bytes, ...]
