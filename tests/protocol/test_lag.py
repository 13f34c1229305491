"""The lag monitor (``protocol.lag``): it dozes while no move request is out, and a
request rouses it in time to measure the stalls of that request."""

from __future__ import annotations

import math
import time

import trio

from protocol.lag import IDLE_TICKS, NOTED, TICK, lag_monitor


def _stall(seconds: float) -> None:
    """Hold the event loop (as a busy referee does): no task runs meanwhile."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


async def test_the_monitor_dozes_while_no_request_is_out_and_wakes_no_more() -> None:
    monitor = lag_monitor()
    await trio.sleep(IDLE_TICKS * TICK + 0.5)  # generous: the wakes may come late under load
    assert monitor.dozing
    assert monitor.due == math.inf  # no wake is due, so none can be overdue
    start = trio.current_time()
    _stall(0.05)  # a stall while no request is out: nobody's clock ran
    await trio.sleep(0.2)
    assert monitor.dozing
    assert monitor.stalled(start, trio.current_time()) == 0.0  # no wake, no stall recorded


async def test_a_request_rouses_a_dozing_monitor_and_its_stall_is_measured() -> None:
    monitor = lag_monitor()
    await trio.sleep(IDLE_TICKS * TICK + 0.5)
    assert monitor.dozing
    # What ``EngineSession.request_move`` does when a request goes out.
    monitor.rouse()
    monitor.watched += 1
    try:
        assert not monitor.dozing
        start = trio.current_time()
        _stall(0.3)  # the loop stalls: the request's reply would wait unread
        stalled_while_blocked = monitor.stalled(start, trio.current_time())
        await trio.sleep(2 * TICK)  # the monitor runs, late, and records the stall
        recorded = monitor.stalled(start, trio.current_time())
        await trio.sleep(IDLE_TICKS * TICK + 0.5)
        assert not monitor.dozing  # a request is out: it keeps ticking
    finally:
        monitor.watched -= 1
    # Under way at the look (its wake overdue), then recorded: most of the 0.3 s either way.
    assert stalled_while_blocked > 0.2
    assert recorded > 0.2
    assert NOTED < recorded < 10
