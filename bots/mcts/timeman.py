"""How long to think: a time budget from ``go`` (pure; times in seconds).

``go time … inc …``: a share of the seat's own remaining time plus most of its
increment, ``(remaining - reserve) / MOVES_TO_GO + increment - overhead``, never more
than a fraction of what is left; the reserve is the largest of 50 ms, three increments
and a fifth of the clock the game started with.
``overhead`` is what the referee charged on earlier moves beyond the search itself
(start-up of the reply, pipes, scheduling on a busy machine): the engine learns it from
its own clock, since ``go`` tells it the time left before and after each of its moves
(``OverheadMeter``). Below the reserve the engine
thinks for at most half the increment minus that overhead, so the clock climbs back
instead of draining; and never more than half of what is on the clock (the increment
comes after the move). At ``1+0.01`` and above it does not lose on time as long as one
minimal search plus the overhead fits in the increment plus the referee's margin.

With ``movestogo <m>`` (a moves-per-session control: the clock is refilled after ``m``
more moves) the share is ``1 / min(m, MOVES_TO_GO)`` and the cap ``1 / m`` of the spare
time when that is larger: the last moves of a session may spend what the refill replaces,
less the reserve.

``go movetime m``: ``m`` minus a safety of ``MOVETIME_SAFETY`` (and the overhead seen).
Bare ``go``: no time limit (the search needs a node limit, or it uses ``UNTIMED``).
"""

from __future__ import annotations

from dataclasses import dataclass

MOVES_TO_GO = 25
"""The share of the remaining time spent on one move is ``1 / MOVES_TO_GO``."""
RESERVE = 0.05
"""Seconds of the clock kept back as a cushion, at least (``reserve``)."""
RESERVE_INCREMENTS = 3
"""The cushion is at least this many increments: a long game lives near it."""
RESERVE_SHARE = 0.2
"""... and at least this share of the clock the game started with."""
MAX_FRACTION = 0.25
"""Never more than this fraction of the remaining time on one move."""
MOVETIME_SAFETY = 0.01
"""Seconds kept back from a fixed move time."""
UNTIMED = 1.0
"""Seconds per move of a bare ``go`` without a node limit."""
MIN_OVERHEAD = 0.002
"""The overhead assumed before any is measured (seconds)."""


@dataclass
class OverheadMeter:
    """Learns the time the referee charges beyond the search (see the module docstring).

    Call ``searched`` after each move with the clock the engine had (``go``'s own time),
    then ``charged`` at the next ``go`` with the new clock: the charge is
    ``before - after + increment``; the overhead estimate is the largest excess seen
    over the last ``window`` moves.
    """

    window: int = 16
    _pending: tuple[float, float, float] | None = None
    """``(clock before, increment, search seconds)`` of the last move, until measured."""
    _recent: tuple[float, ...] = ()

    @property
    def estimate(self) -> float:
        """Seconds to allow per move beyond the search."""
        return max((MIN_OVERHEAD, *self._recent))

    def reset(self) -> None:
        """A new game: forget the pending move (the estimate is kept)."""
        self._pending = None

    def searched(self, clock_before: float, increment: float, seconds: float) -> None:
        """The engine searched ``seconds`` on a move started with ``clock_before`` left."""
        self._pending = (clock_before, increment, seconds)

    def charged(self, clock_now: float) -> None:
        """The engine's clock at its next ``go``: measure the last move's overhead."""
        if self._pending is None:
            return
        before, increment, seconds = self._pending
        self._pending = None
        excess = (before - clock_now + increment) - seconds
        if excess < 0 or excess > max(1.0, before):
            return  # a clock that does not fit (another game, a restarted referee)
        self._recent = (*self._recent, excess)[-self.window :]


def reserve(increment: float, start: float = 0.0) -> float:
    """The cushion of the clock: ``RESERVE``, ``RESERVE_INCREMENTS`` increments or
    ``RESERVE_SHARE`` of the clock at the game's ``start``, whichever is most.

    In a long game the engine spends its base time early and then lives near the
    cushion on its increments, so the cushion (with the referee's margin) is what
    absorbs a move that takes longer than planned. On a busy machine a process can wait
    a quarter of a second for a core (seen at load 6 on 2 cores, 2,000 plies into a
    Trichess game at 5+0.05): a cushion of 1 s there costs no thinking time, since the
    engine then spends its increments either way.
    """
    return max(RESERVE, RESERVE_INCREMENTS * increment, RESERVE_SHARE * start)


def clock_budget(
    remaining: float,
    increment: float,
    overhead: float,
    start: float = 0.0,
    moves_to_go: int | None = None,
) -> float:
    """Seconds to search with ``remaining`` seconds left, ``increment`` per move,
    ``start`` seconds on the clock when the game began and, in a moves-per-session
    control, ``moves_to_go`` moves until the clock is refilled (``go``'s ``movestogo``)."""
    spare = remaining - reserve(increment, start)
    share = MOVES_TO_GO
    cap = MAX_FRACTION
    if moves_to_go is not None and moves_to_go > 0:
        share = min(moves_to_go, MOVES_TO_GO)
        cap = max(MAX_FRACTION, 1 / moves_to_go)
    if spare <= 0:
        budget = 0.5 * increment - overhead
    else:
        budget = min(spare / share + increment - overhead, cap * spare + 0.5 * increment)
    # The increment comes after the move: never plan past half of what is on the clock.
    return max(0.0, min(budget, 0.5 * remaining - overhead))


def movetime_budget(movetime: float, overhead: float) -> float:
    """Seconds to search with a fixed ``movetime``."""
    return max(0.0, movetime - MOVETIME_SAFETY - overhead)
