"""What an engine said last, in its failure's message: bounded, and never lost.

``EngineError.add_diagnostics`` (pure) keeps at most the last 5 stderr lines, each cut,
and the last 3 protocol lines; the session adds them to every failure, waiting for the
rest of stderr after an exit. Against real processes (the faulty bot) too.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

import pytest
import trio

from protocol.errors import (
    EXCHANGE_TAIL_CHARS,
    STDERR_TAIL_CHARS,
    EngineError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.messages import Go, NewGame, Position
from protocol.session import NO_OUTPUT_HINT, EngineSession
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from tests.conftest import ROOT, bot_argv

TRIKE = NewGame(game="trike", players=2, seat=1, seed=7, options=(("size", "9"),))


def faulty(*args: str) -> EngineSpec:
    return EngineSpec(name="bad", argv=bot_argv("faulty", *args), cwd=str(ROOT))


def test_diagnostics_are_bounded_and_added_once() -> None:
    error = EngineTerminatedError("engine 'x' exited with code 1")
    stderr = [f"line {i}" for i in range(9)] + ["y" * 5000]
    exchange = ["> rgp 1", "< rgpok", "> position start moves " + "e3 " * 500, "> go"]
    error.add_diagnostics(stderr, exchange, "a hint")
    text = str(error)
    assert text.startswith("engine 'x' exited with code 1; a hint; its stderr ended with: ")
    assert error.stderr_tail[:4] == ("line 5", "line 6", "line 7", "line 8")
    assert len(error.stderr_tail) == 5 and len(error.stderr_tail[-1]) == STDERR_TAIL_CHARS
    assert error.exchange_tail[0] == "< rgpok" and len(error.exchange_tail) == 3
    assert all(len(line) <= EXCHANGE_TAIL_CHARS for line in error.exchange_tail)
    assert "line 4" not in text and len(text) < 5 * 210 + 3 * 110 + 120
    error.add_diagnostics(["again"], [], "")
    assert str(error) == text  # a session's fatal error is raised again: diagnosed once


def test_control_characters_stay_escaped_on_one_line() -> None:
    error = ProtocolViolation("bad line")
    error.add_diagnostics(["a\rb\x1b[31m"], [], "")
    assert "\r" not in str(error) and "\x1b" not in str(error)
    assert "\\r" in str(error)


def test_transcript_tails_leave_notes_out() -> None:
    transcript = Transcript()
    transcript.sent(0.0, "rgp 1")
    transcript.stderr(0.1, "warming up")
    transcript.received(0.2, "rgpok")
    transcript.note(0.3, "handshake done")
    transcript.stderr(0.4, "fatal")
    assert transcript.last_stderr(5) == ["warming up", "fatal"]
    assert transcript.last_stderr(1) == ["fatal"]
    assert transcript.last_exchanged(5) == ["> rgp 1", "< rgpok"]
    assert transcript.last_stderr(0) == [] and transcript.last_exchanged(0) == []


async def test_an_exit_during_the_handshake_quotes_stderr() -> None:
    spec = faulty("--mode", "crash-before", "--stderr", "fatal: cannot open weights.bin")
    with pytest.raises(EngineStartError) as info:
        async with EngineSession.open(spec, start_timeout=10):
            pass
    assert "its stderr ended with: 'fatal: cannot open weights.bin'" in str(info.value)
    assert info.value.exchange_tail == ("> rgp 1",)


async def _start_only(spec: EngineSpec, start_timeout: float) -> EngineError | None:
    """What starting ``spec``'s engine raised (the handshake is all that runs)."""
    try:
        async with EngineSession.open(spec, start_timeout=start_timeout):
            pass
    except EngineError as error:
        return error
    return None


async def _first_move(mode: str) -> EngineError | None:
    """What asking the faulty engine of ``mode`` for its first move raised (2 s to answer),
    inside its session."""
    spec = faulty("--mode", mode, "--stderr", f"about to {mode}")
    async with EngineSession.open(spec, start_timeout=10) as session:
        await session.new_game(TRIKE, timeout=10)
        try:
            await session.request_move(
                Position(()), Go(movetime=100), deadline=trio.current_time() + 2
            )
        except EngineError as error:
            return error
    return None


FAILING: dict[str, Callable[[], Awaitable[EngineError | None]]] = {
    "no-handshake": functools.partial(_start_only, faulty("--mode", "no-handshake"), 1),
    # It writes ``info`` lines and never ``rgpok`` (5 s: a loaded machine may take over
    # a second to start Python).
    "handshake-flood": functools.partial(_start_only, faulty("--mode", "handshake-flood"), 5),
    "crash": functools.partial(_first_move, "crash"),
    "garbage": functools.partial(_first_move, "garbage"),
    "stall": functools.partial(_first_move, "stall"),
}
"""Sessions with real faulty engines that must each end in an ``EngineError``."""


@pytest.fixture(scope="module")
def failures() -> dict[str, EngineError | None]:
    """What each of ``FAILING`` raised (None: nothing), all run side by side.

    Most of them wait out a timeout (the start's 1 s and 5 s, the move's 2 s); what each
    engine sends does not depend on the others, and every timeout is that session's own.
    """
    raised: dict[str, EngineError | None] = {}

    async def one(name: str) -> None:
        raised[name] = await FAILING[name]()

    async def all_of_them() -> None:
        async with trio.open_nursery() as nursery:
            for name in FAILING:
                nursery.start_soon(one, name)

    trio.run(all_of_them)
    return raised


def test_a_silent_handshake_asks_whether_stdout_is_flushed(
    failures: dict[str, EngineError | None],
) -> None:
    error = failures["no-handshake"]
    assert isinstance(error, EngineStartError), error
    assert NO_OUTPUT_HINT in str(error)


def test_a_slow_handshake_that_wrote_something_gets_no_flush_hint(
    failures: dict[str, EngineError | None],
) -> None:
    # Something was read, so the hint would mislead.
    error = failures["handshake-flood"]
    assert isinstance(error, EngineStartError), error
    assert "did not complete the handshake within 5 s" in str(error)
    assert NO_OUTPUT_HINT not in str(error)


@pytest.mark.parametrize(
    ("mode", "error_type"),
    [
        ("crash", EngineTerminatedError),
        ("garbage", ProtocolViolation),
        ("stall", EngineTimeoutError),
    ],
)
def test_every_failure_in_a_game_carries_the_last_lines(
    mode: str, error_type: type[EngineError], failures: dict[str, EngineError | None]
) -> None:
    error = failures[mode]
    assert isinstance(error, error_type), error
    text = str(error)
    assert f"its stderr ended with: 'about to {mode}'" in text
    assert "last protocol lines: " in text
    if mode == "garbage":  # the bad line itself, after the request
        assert "'> go movetime 100' | '< hello there'" in text
    else:
        assert "'> position start' | '> go movetime 100'" in text


async def test_a_stderr_flood_before_a_crash_keeps_the_last_five_lines_cut() -> None:
    spec = faulty("--mode", "crash", "--stderr-flood", "--stderr", "fatal: out of memory")
    async with EngineSession.open(spec, start_timeout=10) as session:
        await session.new_game(TRIKE, timeout=10)
        with pytest.raises(EngineTerminatedError) as info:
            await session.request_move(Position(()), Go(), deadline=trio.current_time() + 10)
    tail = info.value.stderr_tail
    assert len(tail) == 5 and tail[-1] == "fatal: out of memory"
    assert all(len(line) <= STDERR_TAIL_CHARS for line in tail)
