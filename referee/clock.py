"""Time controls, the one parser of their text, and the per-seat clock the referee keeps.

Pure: the caller measures elapsed time (from writing ``go`` to the arrival of the
reply line) and hands it in; nothing here reads a clock.

Accounting, in the manner of fastchess and cutechess: a seat's clock starts at the base
time; after each move the measured time is subtracted and then the increment added. With
moves per session (``40/60+0.5``) the base time is added again each time the seat has made
another ``moves`` moves, whatever was left carried over. With an hourglass the time a seat
spends is shared equally among the other seats (it runs out of one side of the glass into
the others). A move is late when it took longer than the time left (or the fixed move
time) plus the margin; the overrun beyond that is reported in milliseconds.

``TimeControl.parse`` is the only reader of a time-control text (the command line, a
config's ``tc``, a record's ``TimeControl`` tag); ``TimeControl.tag`` writes the canonical
text it reads back. The match loop and ``referee adjudicate``'s clock check
(``referee.clock_audit``) both charge moves through ``Clock``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import NamedTuple

from referee.errors import UserError

DEFAULT_MARGIN = 0.05
"""Seconds of grace for pipe and scheduling latency before a reply counts as late."""

_NUMBER = r"(\d+(?:\.\d+)?)"
_TC_PATTERN = re.compile(rf"^(?:(\d+)/)?{_NUMBER}(?:\+{_NUMBER})?$")
_HOURGLASS_PATTERN = re.compile(rf"^hourglass:{_NUMBER}$")
_MOVETIME_PATTERN = re.compile(rf"^movetime={_NUMBER}$")

FORMS = "BASE+INC, MOVES/BASE+INC, hourglass:BASE, movetime=SECONDS or inf (seconds)"
"""The forms ``TimeControl.parse`` reads, for error messages and help."""

DEFAULT_TC = "10+0.1"
"""The time control of ``play`` and ``tournament`` when none is given."""

TC_HELP = (
    f"Time control: {FORMS}; e.g. 40/60+0.5 is 60 s per 40 moves plus 0.5 s a move"
    f" (default {DEFAULT_TC} without --movetime)."
)
"""The command line's help for ``--tc``."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """How much time one seat has. Exactly one of four kinds:

    * clock: ``base`` seconds plus ``increment`` seconds after every move; with ``moves``,
      ``base`` seconds more after every ``moves`` moves of the seat (moves per session);
    * hourglass: ``base`` seconds, and the time each seat uses is added to the others';
    * fixed: ``movetime`` seconds for every move, nothing carried over;
    * untimed: neither (``go`` is sent bare); the referee still stops a stalled engine
      after ``untimed_limit`` seconds per move.
    """

    base: float | None = None
    """Starting time per seat, seconds (clock and hourglass kinds)."""
    increment: float = 0.0
    """Time added after each move, seconds (clock kind)."""
    movetime: float | None = None
    """Fixed time per move, seconds (fixed kind)."""
    margin: float = DEFAULT_MARGIN
    """Grace in seconds before a late reply is a time forfeit."""
    untimed_limit: float = 3600.0
    """Per-move stall limit of an untimed game, seconds."""
    moves: int | None = None
    """Moves per session (clock kind): ``base`` is added again after each ``moves`` moves."""
    hourglass: bool = False
    """Whether the time a seat uses goes to the other seats (hourglass kind)."""

    def __post_init__(self) -> None:
        for value in (self.base, self.increment, self.movetime, self.margin):
            if value is not None and (not math.isfinite(value) or value < 0):
                raise UserError(f"time control values must be finite and >= 0, not {value}")
        if self.base is not None and self.movetime is not None:
            raise UserError("a time control is either base+increment or a fixed move time")
        if self.moves is not None and (self.moves < 1 or self.base is None):
            raise UserError("moves per session need a base time and at least 1 move")
        if self.hourglass and (self.base is None or self.increment or self.moves is not None):
            raise UserError("an hourglass has a base time only: no increment, no sessions")

    @classmethod
    def parse(cls, text: str, *, margin: float = DEFAULT_MARGIN) -> TimeControl:
        """Parse a time-control text; every number is in seconds.

        ``B+I`` (``10+0.1``) or ``B``; ``M/B+I`` or ``M/B`` (``40/60+0.5``: ``B`` seconds
        for every ``M`` moves); ``hourglass:B``; ``movetime=S`` (what ``tag`` writes for
        a fixed move time); ``inf`` (or ``none``, ``-``) means untimed.

        :raises UserError: anything else, with a one-line message naming the forms.
        """
        text = text.strip()
        if text in ("inf", "none", "-"):
            return cls(margin=margin)
        if text.startswith("hourglass"):
            match = _HOURGLASS_PATTERN.match(text)
            if match is None:
                raise UserError(
                    f"bad hourglass time control {text!r}: expected hourglass:BASE, e.g."
                    " hourglass:60"
                )
            return cls(base=_positive(text, match.group(1)), hourglass=True, margin=margin)
        if text.startswith("movetime"):
            match = _MOVETIME_PATTERN.match(text)
            if match is None:
                raise UserError(
                    f"bad move time {text!r}: expected movetime=SECONDS, e.g. movetime=0.5"
                )
            return cls(movetime=_positive(text, match.group(1)), margin=margin)
        match = _TC_PATTERN.match(text)
        if match is None:
            form = "MOVES/BASE+INC, e.g. 40/60+0.5" if "/" in text else "BASE+INC, e.g. 10+0.1"
            raise UserError(f"bad time control {text!r}: expected {form} (forms: {FORMS})")
        moves = None if match.group(1) is None else int(match.group(1))
        if moves == 0:
            raise UserError(f"bad time control {text!r}: the moves per session must be >= 1")
        base = _positive(text, match.group(2))
        return cls(base=base, increment=float(match.group(3) or 0), margin=margin, moves=moves)

    @classmethod
    def fixed(cls, movetime_ms: int, *, margin: float = DEFAULT_MARGIN) -> TimeControl:
        """A fixed time per move, given in milliseconds as on the command line."""
        if movetime_ms <= 0:
            raise UserError(f"bad move time {movetime_ms} ms: must be positive")
        return cls(movetime=movetime_ms / 1000, margin=margin)

    @property
    def kind(self) -> str:
        """``clock``, ``hourglass``, ``fixed`` or ``untimed``."""
        if self.base is not None:
            return "hourglass" if self.hourglass else "clock"
        if self.movetime is not None:
            return "fixed"
        return "untimed"

    def tag(self) -> str:
        """The canonical text, as the record's ``TimeControl`` tag: ``10+0.1``,
        ``40/60+0.5``, ``hourglass:60``, ``movetime=0.5`` or ``-``; ``parse`` reads it back."""
        if self.base is not None:
            if self.hourglass:
                return f"hourglass:{_seconds(self.base)}"
            session = "" if self.moves is None else f"{self.moves}/"
            return f"{session}{_seconds(self.base)}+{_seconds(self.increment)}"
        if self.movetime is not None:
            return f"movetime={_seconds(self.movetime)}"
        return "-"


def time_control(
    tc: str | None,
    movetime_ms: int | None,
    *,
    margin: float = DEFAULT_MARGIN,
    default: str,
    names: tuple[str, str] = ("tc", "movetime_ms"),
) -> TimeControl:
    """The time control of a ``--tc`` text or a ``--movetime`` in ms (a config's ``tc`` and
    ``movetime_ms``), ``default`` when neither is given; ``names`` are how the two are
    called where they came from, for the error.

    :raises UserError: both given, or a bad value (one line).
    """
    if movetime_ms is not None:
        if tc is not None:
            raise UserError(f"give either {names[0]} or {names[1]}, not both")
        return TimeControl.fixed(movetime_ms, margin=margin)
    return TimeControl.parse(tc if tc is not None else default, margin=margin)


def seats_tag(controls: Sequence[TimeControl]) -> str:
    """The ``TimeControl`` tag of a game: one control's text when every seat has the same,
    else each seat's in seat order joined by ``,`` (time odds: ``10+0.1,5+0.1``)."""
    tags = [tc.tag() for tc in controls]
    return tags[0] if len(set(tags)) == 1 else ",".join(tags)


def parse_seats(
    text: str, players: int, *, margin: float = DEFAULT_MARGIN
) -> tuple[TimeControl, ...]:
    """Every seat's control from a ``TimeControl`` tag (``seats_tag``'s text).

    :raises UserError: a bad control, or a list of another length than ``players``.
    """
    parts = text.split(",")
    if len(parts) == 1:
        return (TimeControl.parse(text, margin=margin),) * players
    if len(parts) != players:
        raise UserError(
            f"bad time control {text!r}: {len(parts)} per-seat controls for {players} seats"
        )
    return tuple(TimeControl.parse(part, margin=margin) for part in parts)


def _positive(text: str, number: str) -> float:
    value = float(number)
    if value <= 0 or not math.isfinite(value):
        raise UserError(f"bad time control {text!r}: the time must be positive")
    return value


def _seconds(value: float) -> str:
    """``value`` written so that ``float`` reads back the same number: ``60``, ``0.5``,
    never an exponent (the shortest text, ``repr``'s digits, written out positionally)."""
    text = f"{value:g}"
    if "e" not in text and float(text) == value:
        return text
    text = format(Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


class Charge(NamedTuple):
    """The result of charging one move to a seat's clock.

    Immutable, as a frozen dataclass would be, and made once per ply: a ``NamedTuple``
    is several times cheaper to build (a frozen dataclass sets each field through
    ``object.__setattr__``)."""

    remaining: float
    """Time left after the move (increment and any new session added), seconds; may be
    < 0 within the margin."""
    overrun: float
    """How far past the allowed time plus margin the move was, seconds; > 0 means a forfeit."""


class Clock:
    """The remaining time of every seat, each under its own ``TimeControl``.

    ``controls`` is one control for every seat, or one per seat (time odds). An hourglass
    joins the seats' clocks, so it must be every seat's control or none's (ValueError).
    Mutable by design: the match loop owns one per game and nothing else sees it;
    ``referee adjudicate`` replays a record's moves through one.
    """

    __slots__ = (
        "_controls",
        "_hourglass",
        "_incs_ms",
        "_made",
        "_remaining",
        "_remaining_ms",
        "_sessions",
        "tc",
    )

    def __init__(self, controls: TimeControl | Sequence[TimeControl], num_players: int) -> None:
        if isinstance(controls, TimeControl):
            controls = (controls,) * num_players
        if len(controls) != num_players:
            raise UserError(f"{len(controls)} time controls for {num_players} seats")
        self._controls = tuple(controls)
        self.tc = self._controls[0]  # seat 1's control: every seat's without time odds
        hourglass = [tc.hourglass for tc in self._controls]
        if any(hourglass) and not all(hourglass):
            raise UserError("an hourglass must be every seat's time control or none's")
        self._hourglass = all(hourglass)
        self._sessions = any(tc.moves is not None for tc in self._controls)
        self._remaining = [tc.base if tc.base is not None else 0.0 for tc in self._controls]
        # ``go`` carries every seat's time each ply, and one seat's changes per move:
        # each seat's whole ms are kept and updated by ``charge``.
        self._remaining_ms = [_whole_ms(left) for left in self._remaining]
        # Constant for the game; built once because ``go`` carries it every ply.
        self._incs_ms = tuple(int(tc.increment * 1000) for tc in self._controls)
        self._made = [0] * num_players  # each seat's moves this game, counted for sessions

    def control(self, seat: int) -> TimeControl:
        """``seat``'s time control."""
        return self._controls[seat]

    def counts_time(self, seat: int) -> bool:
        """Whether ``seat`` has a running clock (clock or hourglass kind), so that its
        remaining time is worth recording."""
        return self._controls[seat].base is not None

    def remaining(self, seat: int) -> float:
        """Seconds left on ``seat``'s clock (clock and hourglass kinds; 0 otherwise)."""
        return self._remaining[seat]

    def moves_to_go(self, seat: int) -> int | None:
        """Moves ``seat`` must make before its next session's time arrives, counting the
        next one (``go … movestogo``), or None without sessions."""
        moves = self._controls[seat].moves
        if moves is None:
            return None
        return moves - self._made[seat] % moves

    def allowed(self, seat: int) -> float:
        """Seconds ``seat`` may use for its next move before the margin."""
        tc = self._controls[seat]
        if tc.base is not None:
            return max(self._remaining[seat], 0.0)
        if tc.movetime is not None:
            return tc.movetime
        return tc.untimed_limit

    def deadline_after(self, seat: int) -> float:
        """Seconds after ``go`` at which the referee stops waiting (allowed + margin)."""
        tc = self._controls[seat]
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
        """Subtract ``elapsed`` seconds from ``seat``, then add the increment, and the base
        time again when the move completes a session; with an hourglass, share ``elapsed``
        equally among the other seats.

        The overrun is measured against the time allowed before the move, so a
        move that is late is reported late even though the increment follows.
        """
        tc = self._controls[seat]
        remaining = self._remaining
        if tc.base is None:
            overrun = elapsed - self.deadline_after(seat)
            return Charge(remaining[seat], overrun if overrun > 0.0 else 0.0)
        left = remaining[seat]
        overrun = elapsed - ((left if left > 0.0 else 0.0) + tc.margin)  # deadline_after
        left = left - elapsed + tc.increment
        if self._sessions:
            self._made[seat] += 1
            if tc.moves is not None and self._made[seat] % tc.moves == 0:
                left += tc.base
        remaining[seat] = left
        self._remaining_ms[seat] = int(left * 1000) if left > 0.0 else 0  # _whole_ms
        if self._hourglass and len(remaining) > 1:
            share = elapsed / (len(remaining) - 1)
            for other in range(len(remaining)):
                if other != seat:
                    remaining[other] += share
                    self._remaining_ms[other] = _whole_ms(remaining[other])
        return Charge(left, overrun if overrun > 0.0 else 0.0)

    def set_remaining(self, seat: int, seconds: float) -> None:
        """Set ``seat``'s time left (an audit takes a record's own figure after each move,
        so that the record's rounding to ms does not add up over a game)."""
        self._remaining[seat] = seconds
        self._remaining_ms[seat] = _whole_ms(seconds)


def _whole_ms(seconds: float) -> int:
    """``seconds`` in whole ms, 0 if not positive (what ``go time`` carries)."""
    return int(seconds * 1000) if seconds > 0.0 else 0
