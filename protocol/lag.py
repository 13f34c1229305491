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

Cost: ``1 / TICK`` wakes a second per run (about 0.2 % of a core); per move, one look
at the stalls recorded since the request (usually none).
"""

from __future__ import annotations

from collections import deque

import trio

TICK = 0.01
"""Seconds between the monitor's wakes."""
NOTED = 0.002
"""A wake later than this is a stall (below it: timer noise, not lateness)."""
KEPT = 1024
"""Stalls remembered (the last ones): enough for any one move's window."""


class LagMonitor:
    """The stalls of one trio run's event loop (module docstring). Use ``lag_monitor()``."""

    def __init__(self) -> None:
        self._now = trio.lowlevel.current_clock().current_time
        self.due = self._now() + TICK
        """When the monitor's next wake is due (trio time)."""
        self._stalls: deque[tuple[float, float]] = deque(maxlen=KEPT)

    async def run(self) -> None:
        """Wake every ``TICK`` seconds for ever, recording late wakes."""
        while True:
            await trio.sleep_until(self.due)
            now = self._now()
            if now - self.due > NOTED:
                self._stalls.append((self.due, now))
            self.due = now + TICK

    def stalled(self, start: float, end: float) -> float:
        """The longest stall of the loop within ``[start, end]`` (trio times), in seconds.

        A stall under way at ``end`` (the monitor's wake was due before ``end`` and has
        not run yet) counts up to ``end``; 0.0 when the loop kept up.
        """
        due = self.due
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
