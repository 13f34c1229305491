"""Per-engine resource limits (memory, CPU time) reach the engine process."""

from __future__ import annotations

import sys

import pytest
import trio

from protocol.errors import EngineTerminatedError
from protocol.messages import Go, Position
from protocol.session import EngineSession
from protocol.spec import EngineSpec

# A stdlib-only engine that answers the handshake, then misbehaves on ``go``.
ENGINE = r"""
import sys
what = sys.argv[1]
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "rgp":
        print("id name hog"); print("rgpok", flush=True)
    elif word == "go":
        if what == "memory":
            hog = bytearray(2 * 1024 ** 3)
        else:
            while True:
                pass
    elif word == "quit":
        break
"""


def hog(
    what: str, *, max_memory_mb: int | None = None, max_cpu_seconds: int | None = None
) -> EngineSpec:
    return EngineSpec(
        name="hog",
        argv=(sys.executable, "-c", ENGINE, what),
        max_memory_mb=max_memory_mb,
        max_cpu_seconds=max_cpu_seconds,
    )


@pytest.mark.parametrize(
    ("what", "limits"),
    [("memory", {"max_memory_mb": 400}), ("cpu", {"max_cpu_seconds": 1})],
)
async def test_engine_over_its_limit_is_stopped(what: str, limits: dict[str, int]) -> None:
    with trio.fail_after(30):
        spec = hog(what, **limits)
        async with EngineSession.open(spec, start_timeout=10) as session:
            with pytest.raises(EngineTerminatedError):
                await session.request_move(Position(), Go(), deadline=trio.current_time() + 20)


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="memory limit must be positive"):
        hog("memory", max_memory_mb=0)


def test_no_limits_by_default() -> None:
    assert hog("memory").resource_limits() == []
