"""A cluster task's ending is read from its result, not from the future's status, which
moves on after the result was taken (a worker killed right after its task finished made
the status "lost" and its reports were taken for a failure: a CI run on 27 November)."""

from __future__ import annotations

import pytest

from tournaments.cluster.client import settled_status

distributed = pytest.importorskip("distributed")


def test_a_list_of_reports_is_a_finished_task() -> None:
    assert settled_status([{"report": {}}]) == "finished"
    assert settled_status([]) == "finished"  # its reports all came streamed


def test_a_cancellation_is_cancelled_and_an_error_is_an_error() -> None:
    from distributed.client import FutureCancelledError

    cancelled = FutureCancelledError(key="k", reason="scheduler-connection-lost")
    assert settled_status(cancelled) == "cancelled"
    boom = RuntimeError("boom")
    assert settled_status((RuntimeError, boom, None)) == "error"
    assert settled_status(boom) == "error"
