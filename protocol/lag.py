"""The referee's own lateness: how long its event loop stalled while an engine's clock ran.

A move is charged from just before the request is written to the moment the reply is
read. When the referee's process cannot run (CPU hogs beside it, another game of the
same run busy in the loop, a paused machine), a reply that came in time waits unread
in the pipe and the engine is charged the wait. ``stalled(start, end)`` bounds that
wait without any cost per line: one system task per trio run (``LagMonitor``, started
by the first ``lag_monitor()``) sleeps ``TICK`` seconds at a time and records each wake
that came more than ``NOTED`` late as a stall, from when it was due to when it ran; a
stall still under way at ``end`` (the monitor's wake is overdue) counts as well. The
bound is generous: a stall while the engine was still thinking delayed nothing, but
the referee cannot tell, and the benefit of the doubt goes to the engine.

The monitor ticks only while a clock may run: a move request counts itself in
``watched`` while it is out (``EngineSession.request_move``), and once no request has
been out for ``IDLE_TICKS`` wakes in a row the monitor dozes (no wake at all) until the
next request rouses it (``rouse``: its next wake due ``TICK`` from then, so a stall of
that request is measured as before).

Cost, measured on a 2-core VM (27 November): a wake costs the process about 190 µs of
CPU when the loop has nothing else to do (the sleep and the wake-up in the kernel, and
cold caches), so ticking alone, 100 wakes a second, cost about 2 % of a core in every
process that had an engine, idle or not; among games, with the loop busy, a wake costs
about 16 µs (0.2 % of a core). A process whose engines wait for no move (between
events, a worker without a job) now dozes: nothing. Per move, one look at the stalls
recorded since the request (usually none: one comparison) and the count in ``watched``.
"""

from __future__ import annotations

import math
from collections import deque

import trio

TICK = 0.01
"""Seconds between the monitor's wakes."""
NOTED = 0.002
"""A wake later than this is a stall (below it: timer noise, not lateness)."""
KEPT = 1024
"""Stalls remembered (the last ones): enough for any one move's window."""
IDLE_TICKS = 20
"""Wakes in a row with no request out before the monitor dozes (0.2 s: never between
the moves or the games of a running match)."""


class LagMonitor:
    """The stalls of one trio run's event loop (module docstring). Use ``lag_monitor()``."""

    def __init__(self) -> None:
        self._now = trio.lowlevel.current_clock().current_time
        self.due = self._now() + TICK
        """When the monitor's next wake is due (trio time; infinite while it dozes)."""
        self._stalls: deque[tuple[float, float]] = deque(maxlen=KEPT)
        self._last_finish = -math.inf
        """When the newest recorded stall ended (none: minus infinity)."""
        self.watched = 0
        """Move requests out now (their clocks run): the monitor ticks while any is."""
        self.dozing = False
        """True while the monitor does not tick (no request out for a while)."""
        self._roused = trio.Event()

    async def run(self) -> None:
        """Wake every ``TICK`` seconds for ever, recording late wakes; doze while no
        request is out (module docstring)."""
        idle = 0
        while True:
            await trio.sleep_until(self.due)
            now = self._now()
            if now - self.due > NOTED:
                self._stalls.append((self.due, now))
                self._last_finish = now
            idle = 0 if self.watched else idle + 1
            if idle < IDLE_TICKS:
                self.due = now + TICK
                continue
            self.dozing = True
            self.due = math.inf  # no wake is overdue while it dozes: no stall under way
            await self._roused.wait()  # ``rouse`` set the next wake
            self._roused = trio.Event()
            idle = 0

    def rouse(self) -> None:
        """End a doze (a request is about to go out): the next wake is due in ``TICK``."""
        if self.dozing:
            self.dozing = False
            self.due = self._now() + TICK
            self._roused.set()

    def stalled(self, start: float, end: float) -> float:
        """The longest stall of the loop within ``[start, end]`` (trio times), in seconds.

        A stall under way at ``end`` (the monitor's wake was due before ``end`` and has
        not run yet) counts up to ``end``; 0.0 when the loop kept up.
        """
        due = self.due
        if due >= end and self._last_finish <= start:
            return 0.0  # the common case: on time, and no stall recorded since ``start``
        worst = end - (due if due > start else start) if due < end else 0.0
        if worst <= NOTED:
            worst = 0.0
        for begin, finish in reversed(self._stalls):
            if finish <= start:
                break
            overlap = (finish if finish < end else end) - (begin if begin > start else start)
            if overlap > worst:
                worst = overlap
        return worst


_MONITOR: trio.lowlevel.RunVar[LagMonitor] = trio.lowlevel.RunVar("referee_lag_monitor")


def lag_monitor() -> LagMonitor:
    """The run's ``LagMonitor``, started (as a system task) at the first call."""
    try:
        return _MONITOR.get()
    except LookupError:
        monitor = LagMonitor()
        _MONITOR.set(monitor)
        trio.lowlevel.spawn_system_task(monitor.run, name="referee lag monitor")
        return monitor
