"""Why a Whistling Captures move is illegal (``WhistlingState.explain_illegal``).

The checks of ``WhistlingState.is_legal`` in the order a player thinks of them: whose
stone; a crush's adjacent enemy; a slide's or chain's legs (each straight over empty
cells, each turning, each capturing); the closer rule; then compulsory maximum capture,
naming the maximum, what the move takes, and whether the chain could go on. Pure; only
for the illegal path (it may run the whole capture search).
"""

from __future__ import annotations

from typing import Protocol

from referee.games.hex import DIRECTION_NAMES, HexBoard
from referee.games.hex.explain import closer_fault, slide_fault, step_fault, stone_fault
from referee.games.whistling.chains import CaptureSearch
from referee.games.whistling.notation import CRUSH, NAMES, Move


class Tables(Protocol):
    """What ``explain`` reads of a ``rules.Rules``."""

    @property
    def board(self) -> HexBoard: ...


class Position(Protocol):
    """What ``explain`` reads of a ``rules.WhistlingState`` (a protocol, so that this
    module, which ``rules`` imports, does not import ``rules`` back)."""

    @property
    def rules(self) -> Tables: ...
    @property
    def turn(self) -> int: ...
    @property
    def stones(self) -> tuple[int, int]: ...
    def captures(self, whistlers: list[int] | None = None) -> CaptureSearch: ...


def explain(state: Position, move: Move) -> str | None:
    """The rule ``move`` breaks for the seat to move, or None (the game not over)."""
    board = state.rules.board
    seat = state.turn
    mine, theirs = state.stones[seat], state.stones[1 - seat]
    s = move[0]
    fault = stone_fault(NAMES, s, mine, theirs)
    if fault is not None:
        return fault
    search = state.captures()
    if len(move) == 3 and move[2] == CRUSH:
        fault = step_fault(board, NAMES, s, move[1], theirs, "crush")
        if fault is not None:
            return fault
        return _maximum(search.maximum(), 1, "")
    friends, enemy = mine ^ (1 << s), theirs
    total, last, p = 0, -1, s
    legs = len(move) - 1
    for leg, nxt in enumerate(move[1:], 1):
        where = f"leg {leg} ({NAMES[p]}-{NAMES[nxt]}): " if legs > 1 else ""
        fault = slide_fault(board, NAMES, p, nxt, friends | enemy)
        if fault is not None:
            return where + fault
        d, i = board.line[p][nxt]
        if d == last:
            return where + "each leg of a whistling chain must change direction"
        victims = enemy & board.sweeps[p][d][i]
        if not victims and legs > 1:
            return where + "every leg of a whistling chain must capture"
        total += victims.bit_count()
        enemy ^= victims
        last, p = d, nxt
    end = move[-1]
    if total == 0:
        if search.maximum():
            return f"a capture is compulsory (maximum capture is {search.maximum()}) " + (
                "and this move captures nothing"
            )
        if not theirs & board.zones[s][last][board.line[s][end][1]]:
            return closer_fault(NAMES, s, end, False, "Euclidean distance")
        return None
    if not search.closer(s, end):
        return closer_fault(NAMES, s, end, True, "Euclidean distance")
    onward = _onward(state, p, last, friends, enemy)
    return _maximum(search.maximum(), total, onward)


def _maximum(need: int, taken: int, onward: str) -> str | None:
    """Compulsory maximum capture: None when ``taken`` is the maximum ``need``."""
    if taken >= need:
        return None
    what = "this chain" if onward else "this move"
    return f"maximum capture is {need}, {what} captures {taken}{onward}"


def _onward(state: Position, p: int, last: int, friends: int, enemy: int) -> str:
    """``"; the chain could continue …"`` when a capturing leg leaves ``p`` (a direction
    other than ``last``, through cells empty after the chain so far), else ``""``."""
    board = state.rules.board
    blockers = friends | enemy
    for d in range(6):
        if d == last:
            continue
        for i, cell in enumerate(board.rays[p][d]):
            if blockers >> cell & 1:
                break
            if enemy & board.sweeps[p][d][i]:
                return (
                    f"; the chain could continue from {NAMES[p]} "
                    f"({DIRECTION_NAMES[d]} to {NAMES[cell]} captures more)"
                )
    return ""
