"""Six rotated copies of a hexhex board in one bit mask: "who can whistle?" in a few
integer operations.

Copy ``d`` (one per direction, a block of slots) holds the board turned so that
direction ``d`` becomes W, in the slot layout of ``coords`` plus a blank row after
each copy. In every copy a step W is slot ``-1`` and a whole line W–E is a run of
consecutive slots ending at a slot that is never on the board. So one computation
on the six copies at once covers every direction:

- a stone can **step** onto a target iff ``(movers >> 1) & targets``;
- a stone can **whistle** (slide W through empty cells taking a target, the closer
  rule aside) iff it is the first stone E of a cell ``c`` of its line such that
  ``c``, ``c-1`` and ``c-2`` are empty and a target touches both ``c`` and ``c-1``
  (its NW or SW neighbour; see ``board``): those cells ``gen`` are found by shifts,
  and one addition carries each of them E through the empty run after it, onto the
  cell that ends the run: the stones found are ``(empty + gen) & movers``.

A position is kept in this layout incrementally (``spread`` once, then ``flip``
per changed cell), which costs far less than the flood fills of
``HexBoard.whistlers``.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.hex.coords import DIRECTIONS, bits, rotate, slot_index
from referee.games.hex.layout import BoardLayout

_WEST = (-1, 0)


@dataclass(frozen=True, slots=True, eq=False)
class Rotations:
    """The six-copy layout of one board (see the module doc)."""

    width: int
    """Slots per row in each copy (as ``HexBoard.width``)."""
    mask: int
    """Every cell of every copy."""
    bits_of: tuple[int, ...]
    """Per board slot, the mask of its six copies (0 off the board)."""
    owner: tuple[int, ...]
    """Per slot of the layout, the board slot it is a copy of (-1 for none)."""

    def spread(self, mask: int) -> int:
        """The six-copy mask of the board mask ``mask``."""
        out, copies = 0, self.bits_of
        for s in bits(mask):
            out |= copies[s]
        return out

    def steps_onto(self, movers: int, targets: int) -> bool:
        """Whether a stone of ``movers`` touches one of ``targets`` (six-copy masks)."""
        return bool(movers >> 1 & targets)

    def whistlers(self, movers: int, targets: int) -> list[int]:
        """The board slots, in reading order, of the stones of ``movers`` with a slide
        through empty cells (neither ``movers`` nor ``targets``) that has a victim in
        ``targets``; the closer rule is not checked. Both are six-copy masks."""
        empty = self.mask & ~(movers | targets)
        w = self.width
        gen = empty & (empty << 1) & (empty << 2) & ((targets << w) | (targets >> (w - 1)))
        if not gen:
            return []
        found = (empty + gen) & movers  # ``empty`` and ``gen`` hold no stone of ``movers``
        if not found:
            return []
        owner = self.owner
        if found & (found - 1) == 0:
            return [owner[found.bit_length() - 1]]
        return sorted({owner[b] for b in bits(found)})


def build_rotations(board: BoardLayout) -> Rotations:
    """The six-copy layout of ``board``."""
    radius, width = board.radius, board.width
    block = width * (2 * radius + 2)  # the copy's rows, then a blank row
    turns = [next(t for t in range(6) if rotate(d, t) == _WEST) for d in DIRECTIONS]
    copies = [0] * len(board.adjacent)
    owner = [-1] * (6 * block)
    for s, qr in board.coords.items():
        for d, t in enumerate(turns):
            bit = d * block + slot_index(radius, *rotate(qr, t))
            copies[s] |= 1 << bit
            owner[bit] = s
    every = 0
    for mask in copies:
        every |= mask
    return Rotations(width=width, mask=every, bits_of=tuple(copies), owner=tuple(owner))
