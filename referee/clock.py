"""Time controls and the per-seat clock the referee keeps.

Pure: the caller measures elapsed time (from writing ``go`` to the arrival of the
reply line) and hands it in; nothing here reads a clock.

Accounting, in the manner of fastchess: a seat's clock starts at the base time;
after each move the measured time is subtracted and then the increment added.
A move is late when it took longer than the time left (or the fixed move time)
plus the margin; the overrun beyond that is reported in milliseconds.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

DEFAULT_MARGIN = 0.05
"""Seconds of grace for pipe and scheduling latency before a reply counts as late."""

_TC_PATTERN = re.compile(r"^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time each seat has. Exactly one of three kinds:

    * clock: ``base`` seconds plus ``increment`` seconds after every move;
    * fixed: ``movetime`` seconds for every move, nothing carried over;
    * untimed: neither (``go`` is sent bare); the referee still stops a stalled engine
      after ``untimed_limit`` seconds per move.
    """

    base: float | None = None
    """Starting time per seat, seconds (clock kind)."""
    increment: float = 0.0
    """Time added after each move, seconds (clock kind)."""
    movetime: float | None = None
    """Fixed time per move, seconds (fixed kind)."""
    margin: float = DEFAULT_MARGIN
    """Grace in seconds before a late reply is a time forfeit."""
    untimed_limit: float = 3600.0
    """Per-move stall limit of an untimed game, seconds."""

    def __post_init__(self) -> None:
        for value in (self.base, self.increment, self.movetime, self.margin):
            if value is not None and (not math.isfinite(value) or value < 0):
                raise ValueError(f"time control values must be finite and >= 0, not {value}")
        if self.base is not None and self.movetime is not None:
            raise ValueError("a time control is either base+increment or a fixed move time")

    @classmethod
    def parse(cls, text: str, *, margin: float = DEFAULT_MARGIN) -> TimeControl:
        """Parse ``B+I`` (seconds, e.g. ``10+0.1``) or ``B``; ``inf`` means untimed.

        :raises ValueError: anything else, with a one-line message.
        """
        text = text.strip()
        if text in ("inf", "none", "-"):
            return cls(margin=margin)
        match = _TC_PATTERN.match(text)
        if match is None:
            raise ValueError(
                f"bad time control {text!r}: expected BASE+INC in seconds, e.g. 10+0.1"
            )
        base = float(match.group(1))
        if base <= 0:
            raise ValueError(f"bad time control {text!r}: the base time must be positive")
        return cls(base=base, increment=float(match.group(2) or 0), margin=margin)

    @classmethod
    def fixed(cls, movetime_ms: int, *, margin: float = DEFAULT_MARGIN) -> TimeControl:
        """A fixed time per move, given in milliseconds as on the command line."""
        if movetime_ms <= 0:
            raise ValueError(f"bad move time {movetime_ms} ms: must be positive")
        return cls(movetime=movetime_ms / 1000, margin=margin)

    @property
    def kind(self) -> str:
        """``clock``, ``fixed`` or ``untimed``."""
        if self.base is not None:
            return "clock"
        if self.movetime is not None:
            return "fixed"
        return "untimed"

    def tag(self) -> str:
        """The record's ``TimeControl`` tag: ``10+0.1``, ``movetime=0.5`` or ``-``."""
        if self.base is not None:
            return f"{_seconds(self.base)}+{_seconds(self.increment)}"
        if self.movetime is not None:
            return f"movetime={_seconds(self.movetime)}"
        return "-"


def _seconds(value: float) -> str:
    return f"{value:g}"


class Charge(NamedTuple):
    """The result of charging one move to a seat's clock.

    Immutable, as a frozen dataclass would be, and made once per ply: a ``NamedTuple``
    is several times cheaper to build (a frozen dataclass sets each field through
    ``object.__setattr__``)."""

    remaining: float
    """Time left after the move (increment added), seconds; may be < 0 within the margin."""
    overrun: float
    """How far past the allowed time plus margin the move was, seconds; > 0 means a forfeit."""


class Clock:
    """The remaining time of every seat under one ``TimeControl``.

    Mutable by design: the match loop owns one per game and nothing else sees it.
    """

    __slots__ = ("_incs_ms", "_remaining", "_remaining_ms", "tc")

    def __init__(self, tc: TimeControl, num_players: int) -> None:
        self.tc = tc
        start = tc.base if tc.base is not None else 0.0
        self._remaining = [start] * num_players
        # ``go`` carries every seat's time each ply, and one seat's changes per move:
        # each seat's whole ms are kept and updated by ``charge``.
        self._remaining_ms = [_whole_ms(start)] * num_players
        # Constant for the game; built once because ``go`` carries it every ply.
        self._incs_ms = (int(tc.increment * 1000),) * num_players

    def remaining(self, seat: int) -> float:
        """Seconds left on ``seat``'s clock (clock kind; 0 otherwise)."""
        return self._remaining[seat]

    def allowed(self, seat: int) -> float:
        """Seconds ``seat`` may use for its next move before the margin."""
        tc = self.tc
        if tc.base is not None:
            return max(self._remaining[seat], 0.0)
        if tc.movetime is not None:
            return tc.movetime
        return tc.untimed_limit

    def deadline_after(self, seat: int) -> float:
        """Seconds after ``go`` at which the referee stops waiting (allowed + margin)."""
        tc = self.tc
        if tc.base is not None:  # ``allowed`` inlined: this is read twice a ply
            remaining = self._remaining[seat]
            return (remaining if remaining > 0.0 else 0.0) + tc.margin
        return self.allowed(seat) + tc.margin

    def times_ms(self) -> tuple[int, ...]:
        """Every seat's remaining time in whole ms, for ``go time ...``."""
        return tuple(self._remaining_ms)

    def incs_ms(self) -> tuple[int, ...]:
        """Every seat's increment in whole ms, for ``go ... inc ...``."""
        return self._incs_ms

    def charge(self, seat: int, elapsed: float) -> Charge:
        """Subtract ``elapsed`` seconds from ``seat``, then add the increment.

        The overrun is measured against the time allowed before the move, so a
        move that is late is reported late even though the increment follows.
        """
        tc = self.tc
        remaining = self._remaining
        if tc.base is None:
            overrun = elapsed - self.deadline_after(seat)
            return Charge(remaining[seat], overrun if overrun > 0.0 else 0.0)
        left = remaining[seat]
        overrun = elapsed - ((left if left > 0.0 else 0.0) + tc.margin)  # deadline_after
        left = left - elapsed + tc.increment
        remaining[seat] = left
        self._remaining_ms[seat] = int(left * 1000) if left > 0.0 else 0  # _whole_ms
        return Charge(left, overrun if overrun > 0.0 else 0.0)


def _whole_ms(seconds: float) -> int:
    """``seconds`` in whole ms, 0 if not positive (what ``go time`` carries)."""
    return int(seconds * 1000) if seconds > 0.0 else 0
