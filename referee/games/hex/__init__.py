"""Hexhex geometry shared by Tricouleur and Whistling Captures (docs/rules/tricouleur.md,
docs/rules/whistling-captures.md).

- ``coords``: axial coordinates, directions, distances, the slot layout of bit masks.
- ``board``: ``HexBoard`` (cells, adjacency, slides and their victims, the bit-parallel
  whistle test), built lazily and shared through ``hex_board``.
- ``closer``: the closer rule (Euclidean half-planes, discs); ``board.step_zones`` the
  hex-step zones.
- ``layout``: ``BoardLayout``, the tables ``closer`` and ``rotations`` read of a board.
- ``rotations``: six rotated copies of the board in one mask, for fast whistle tests.
"""

from referee.games.hex.board import HexBoard, hex_board, step_zones
from referee.games.hex.closer import Zones
from referee.games.hex.coords import (
    DIRECTION_NAMES,
    DIRECTIONS,
    FLANKS,
    OPPOSITE,
    bits,
    dist2,
    hex_distance,
    nearer_to_some,
)
from referee.games.hex.rotations import Rotations

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "FLANKS",
    "OPPOSITE",
    "HexBoard",
    "Rotations",
    "Zones",
    "bits",
    "dist2",
    "hex_board",
    "hex_distance",
    "nearer_to_some",
    "step_zones",
]
