"""The clock check of ``referee adjudicate``: a record's times replayed through ``Clock``.

A record's ``TimeControl`` tag (``referee.clock.seats_tag``: one control, or one per seat)
and its optional ``TimeMargin`` tag (ms, the grace the referee gave; 50 when absent) set
up the same ``Clock`` the match loop keeps. Each move's comment says the seconds the
engine used and, for a running clock, the seconds left after it. ``ClockAudit.observe``
charges the used time to the mover, exactly as the match charged it, and finds:

* a move past its time plus the margin: the mover should have lost on time there;
* a time left other than the clock's (beyond ``TOLERANCE``): the clocks were edited, or
  charged under another control.

After each move the clock takes the record's own time left, so the comments' rounding to
ms does not add up over a long game. A move without a time stops the check (old records
and other tools' records carry none): nothing after it can be known.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from referee.clock import DEFAULT_MARGIN, Clock, TimeControl, parse_seats, seats_tag

MARGIN_TAG = "TimeMargin"
"""The record tag with the referee's margin, in whole ms."""

TOLERANCE = 0.005
"""Seconds by which a recorded figure may differ from the replayed clock: the comments
round each time to 1 ms, and an hourglass adds the others' rounded times."""

UNTIMED_TAGS = ("", "?")
"""``TimeControl`` values that say nothing (PGN's unknown): no clock check."""


def clock_tags(controls: TimeControl | Sequence[TimeControl]) -> list[tuple[str, str]]:
    """The record tags of a game's time control, which this check reads back:
    ``TimeControl`` (``seats_tag``), and ``TimeMargin`` when the margin is not the default
    (so records of default runs carry no tag they do not need)."""
    seats = (controls,) if isinstance(controls, TimeControl) else tuple(controls)
    tags = [("TimeControl", seats_tag(seats))]
    margin = seats[0].margin
    if margin != DEFAULT_MARGIN:
        tags.append((MARGIN_TAG, str(round(margin * 1000))))
    return tags


class ClockProblem(NamedTuple):
    """What a record's clocks break."""

    reason: str
    """One line for humans."""
    late: bool
    """True when the move was past its time (the mover lost on time), False when only a
    recorded time left is wrong."""


class ClockAudit:
    """Replays one record's clocks move by move. Mutable, one per record."""

    __slots__ = ("_blind", "_clock", "_tag")

    def __init__(self, clock: Clock, tag: str) -> None:
        self._clock = clock
        self._tag = tag
        self._blind = False

    @classmethod
    def of_tags(cls, control: str | None, margin_ms: str | None, players: int) -> ClockAudit | None:
        """The audit of a record with these ``TimeControl`` and ``TimeMargin`` values, or
        None without a time control.

        :raises ValueError: a tag that does not read (one line).
        """
        if control is None or control.strip() in UNTIMED_TAGS:
            return None
        margin = DEFAULT_MARGIN
        if margin_ms is not None:
            if not margin_ms.isascii() or not margin_ms.isdigit():
                raise ValueError(f"bad {MARGIN_TAG} {margin_ms!r}: expected whole ms")
            margin = int(margin_ms) / 1000
        controls = parse_seats(control, players, margin=margin)
        return cls(Clock(controls, players), control)

    def observe(
        self, ply: int, seat: int, used: float | None, remaining: float | None
    ) -> ClockProblem | None:
        """Charge ``seat``'s move at ``ply`` (``used`` seconds, ``remaining`` left after
        it, as the record says); the problem it shows, or None."""
        if self._blind or used is None:
            self._blind = True
            return None
        clock = self._clock
        allowed = clock.allowed(seat)
        charge = clock.charge(seat, used)
        if charge.overrun > TOLERANCE:
            margin = clock.control(seat).margin
            return ClockProblem(
                f"seat {seat + 1} used {used:.3f}s for ply {ply} with {allowed:.3f}s left"
                f" (+{margin:g}s margin) under {self._tag}: it lost on time there,"
                " but the record goes on",
                late=True,
            )
        if remaining is not None and clock.counts_time(seat):
            if abs(remaining - charge.remaining) > TOLERANCE:
                return ClockProblem(
                    f"seat {seat + 1}'s clock after ply {ply} reads {remaining:.3f}s,"
                    f" but {self._tag} leaves it {charge.remaining:.3f}s",
                    late=False,
                )
            clock.set_remaining(seat, remaining)
        return None
