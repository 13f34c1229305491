"""Why a move of a hexhex capture game is illegal: the faults Tricouleur and Whistling
Captures share (whose stone, a straight line, a free path, an adjacent enemy, the closer
rule, compulsory capture), each as one line of text in the rules' own terms.

Pure and only for the illegal path (``State.explain_illegal``): every function returns
None when the move has not that fault. ``names`` maps a slot to its cell name.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.games.hex.board import HexBoard

CAPTURE_COMPULSORY = "a capture is compulsory and this move captures nothing"


def stone_fault(names: Mapping[int, str], s: int, mine: int, theirs: int) -> str | None:
    """A move must start on a stone of the seat to move."""
    if mine >> s & 1:
        return None
    if theirs >> s & 1:
        return f"the stone on {names[s]} is not this seat's: it belongs to the opponent"
    return f"there is no stone on {names[s]}"


def slide_fault(
    board: HexBoard, names: Mapping[int, str], s: int, t: int, occupied: int
) -> str | None:
    """A slide goes in a straight line from ``s`` to ``t`` through empty cells and lands on
    an empty cell (``occupied``: the stones that block it)."""
    if s == t:
        return f"a move must leave its cell: {names[s]} to {names[t]}"
    where = board.line[s].get(t)
    if where is None:
        return f"{names[t]} is not in a straight line from {names[s]}"
    d, i = where
    blocked = board.paths[s][d][i] & occupied
    if not blocked:
        return None
    first = board.rays[s][d][board.first_blocker(s, d, blocked)]
    if first == t:
        return f"the cell {names[t]} is occupied"
    return f"the path from {names[s]} to {names[t]} is blocked at {names[first]}"


def step_fault(
    board: HexBoard, names: Mapping[int, str], s: int, t: int, theirs: int, what: str
) -> str | None:
    """A ``what`` (replacement, crush) steps onto an adjacent cell holding an enemy stone."""
    if not board.adjacent[s] >> t & 1:
        return f"a {what} steps onto an adjacent enemy stone: {names[t]} is not next to {names[s]}"
    if not theirs >> t & 1:
        return f"a {what} steps onto an adjacent enemy stone: {names[t]} holds none"
    return None


def closer_fault(names: Mapping[int, str], s: int, t: int, capture: bool, metric: str) -> str:
    """The closer rule's line: the move does not end strictly nearer (by ``metric``) to
    an enemy stone than it started (``capture``: under closer-applies-to-captures)."""
    what = "a whistling capture" if capture else "a plain move"
    option = " (closer-applies-to-captures=yes)" if capture else ""
    return (
        f"closer rule{option}: {what} must end strictly nearer ({metric}) to an enemy stone "
        f"than it started; {names[t]} is not nearer than {names[s]} to any"
    )
