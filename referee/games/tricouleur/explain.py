"""Why a Tricouleur move is illegal (``TricouleurState.explain_illegal``).

The checks of ``TricouleurState.is_legal`` in the order a player thinks of them: whose
stone, the replacement's adjacent enemy or the slide's straight free line, then the
closer rule on whistling captures (with ``closer-applies-to-captures=yes``), compulsory
capture, and the closer rule on plain moves. Pure; only for the illegal path.
"""

from __future__ import annotations

from typing import Protocol

from referee.games.hex import HexBoard, Zones
from referee.games.hex.explain import (
    CAPTURE_COMPULSORY,
    closer_fault,
    slide_fault,
    step_fault,
    stone_fault,
)
from referee.games.tricouleur.notation import NAMES

Move = tuple[int, ...]


class Tables(Protocol):
    """What ``explain`` reads of a ``rules.Rules``."""

    @property
    def board(self) -> HexBoard: ...
    @property
    def zones(self) -> Zones: ...
    @property
    def closer_captures(self) -> bool: ...


class Position(Protocol):
    """What ``explain`` reads of a ``rules.TricouleurState`` (a protocol, so that this
    module, which ``rules`` imports, does not import ``rules`` back)."""

    @property
    def rules(self) -> Tables: ...
    @property
    def turn(self) -> int: ...
    @property
    def stones(self) -> tuple[int, ...]: ...
    def capture_exists(self) -> bool: ...


def explain(state: Position, move: Move) -> str | None:
    """The rule ``move`` breaks for the seat to move, or None (the game not over)."""
    rules = state.rules
    board = rules.board
    s, t = move[0], move[1]
    base, other = 3 * state.turn, 3 - 3 * state.turn
    st = state.stones
    mine = st[base] | st[base + 1] | st[base + 2]
    theirs = st[other] | st[other + 1] | st[other + 2]
    fault = stone_fault(NAMES, s, mine, theirs)
    if fault is None and len(move) == 3:
        return step_fault(board, NAMES, s, t, theirs, "replacement")
    if fault is None:
        fault = slide_fault(board, NAMES, s, t, mine | theirs)
    if fault is not None:
        return fault
    d, i = board.line[s][t]
    colour = next(c for c in range(3) if st[base + c] >> s & 1)
    metric = "Euclidean distance" if rules.zones is board.zones else "hex steps"
    closer = theirs & rules.zones[s][d][i]
    if st[other + (colour + 1) % 3] & board.sweeps[s][d][i]:  # a whistling capture
        if rules.closer_captures and not closer:
            return closer_fault(NAMES, s, t, True, metric)
        return None
    if state.capture_exists():
        return CAPTURE_COMPULSORY
    if not closer:
        return closer_fault(NAMES, s, t, False, metric)
    return None
