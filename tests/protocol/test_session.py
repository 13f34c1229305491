"""EngineSession against real processes: the bots, well-behaved and faulty.

Every test starts ``python -m bots ...`` as a subprocess, so these exercise the
pipes, the process group and the clean-up for real. Timeouts are short.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

import pytest
import trio

from protocol.errors import (
    EngineError,
    EngineRefusedError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.messages import GameOver, Go, NewGame, Position
from protocol.session import EngineSession, MoveAnswer
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from tests.conftest import ROOT, bot_argv

TRIKE = NewGame(game="trike", players=2, seat=1, seed=7, options=(("size", "9"),))


def bot(*args: str, name: str = "bot") -> EngineSpec:
    return EngineSpec(name=name, argv=bot_argv(*args), cwd=str(ROOT))


def in_seconds(seconds: float) -> float:
    return trio.current_time() + seconds


def process_state(pid: int) -> str | None:
    """The /proc state letter of ``pid`` (``"Z"`` for a zombie), None if there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()[0]


def group_members(pgid: int) -> list[tuple[int, str]]:
    """(pid, state) of every process whose process group is ``pgid``."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[2]) == pgid:
            members.append((int(entry), fields[0]))
    return members


def living(pgid: int) -> list[tuple[int, str]]:
    """Members of the group that are not zombies, plus the leader in any state.

    An orphaned grandchild killed with its group is reaped by init, which may take
    a moment and is outside the referee's hands; the engine itself must be reaped.
    """
    return [(pid, state) for pid, state in group_members(pgid) if state != "Z" or pid == pgid]


async def wait_gone(pgid: int, seconds: float = 2.0) -> list[tuple[int, str]]:
    """Poll until nothing of the group lives (see ``living``); return what is left."""
    with trio.move_on_after(seconds):
        while living(pgid):  # noqa: ASYNC110 (no event to wait on: we poll /proc)
            await trio.sleep(0.02)
    return living(pgid)


# --- start and handshake -------------------------------------------------------------


async def test_handshake_gives_engine_id_and_quit_ends_the_process() -> None:
    async with EngineSession.open(bot("random", "--seed", "5")) as session:
        pid = session.pid
        assert session.alive
        assert session.engine_id == {"name": "random-5", "author": "referee project"}
        assert session.engine_options == ()
    assert session.returncode == 0  # it obeyed quit
    assert not session.alive
    assert process_state(pid) is None
    lines = session.transcript.lines()
    assert any(line.endswith("> rgp 1") for line in lines)
    assert any(line.endswith("< rgpok") for line in lines)
    assert any(line.endswith("> quit") for line in lines)


async def test_a_program_that_does_not_exist_is_a_start_error() -> None:
    spec = EngineSpec(name="ghost", argv=("/nonexistent/engine", "--x"))
    with pytest.raises(EngineStartError, match="cannot start engine 'ghost'") as info:
        async with EngineSession.open(spec):
            pytest.fail("the block must not run")
    assert "\n" not in str(info.value)
    assert "No such file" in str(info.value)


async def test_a_missing_working_directory_is_a_start_error() -> None:
    spec = EngineSpec(name="x", argv=(sys.executable,), cwd="/nonexistent/dir")
    with pytest.raises(EngineStartError, match="/nonexistent/dir: No such file"):
        async with EngineSession.open(spec):
            pass


async def test_a_file_that_is_not_executable_is_a_start_error(tmp_path: Path) -> None:
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\necho rgpok\n")
    with pytest.raises(EngineStartError, match="Permission denied"):
        async with EngineSession.open(EngineSpec(name="x", argv=(str(script),))):
            pass


async def test_no_handshake_is_a_start_error_within_the_start_timeout() -> None:
    started = trio.current_time()
    with pytest.raises(EngineStartError, match="handshake within 1 s") as info:
        async with EngineSession.open(bot("faulty", "--no-handshake"), start_timeout=1.0):
            pass
    assert trio.current_time() - started < 3.0
    assert not isinstance(info.value, BaseExceptionGroup)


async def test_exit_during_handshake_is_a_start_error() -> None:
    spec = EngineSpec(name="true", argv=(sys.executable, "-c", "pass"))
    with pytest.raises(EngineStartError, match="exited with code 0"):
        async with EngineSession.open(spec, start_timeout=2.0):
            pass


async def test_version_refusal_is_a_start_error() -> None:
    code = "import sys; sys.stdin.readline(); print('error unsupported protocol version')"
    spec = EngineSpec(name="old", argv=(sys.executable, "-c", code))
    with pytest.raises(EngineStartError, match="refused protocol rgp 1"):
        async with EngineSession.open(spec, start_timeout=2.0):
            pass


async def test_declared_options_are_read_and_undeclared_ones_refused() -> None:
    code = (
        "import sys\n"
        "sys.stdin.readline()\n"
        "print('id name opt\\noption name Depth type spin default 3 min -1 max 9\\nrgpok',"
        " flush=True)\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('ping'): print('pong', line.split()[1], flush=True)\n"
    )
    spec = EngineSpec(name="opt", argv=(sys.executable, "-c", code), options=(("Depth", "4"),))
    async with EngineSession.open(spec, quit_grace=0.5) as session:
        (option,) = session.engine_options
        assert (option.name, option.minimum, option.maximum) == ("Depth", -1, 9)
    assert any("> setoption name Depth value 4" in line for line in session.transcript.lines())
    bad = EngineSpec(name="opt", argv=spec.argv, options=(("Hash", "1"),))
    with pytest.raises(EngineStartError, match="no option 'Hash'"):
        async with EngineSession.open(bad, quit_grace=0.5):
            pass


# --- playing -------------------------------------------------------------------------


async def test_random_bot_plays_and_timing_is_consistent() -> None:
    async with EngineSession.open(bot("random")) as session:
        await session.new_game(TRIKE, timeout=2.0)
        moves: list[str] = []
        for _ in range(6):
            before = trio.current_time()
            answer = await session.request_move(
                Position(tuple(moves)), Go(times=(5000, 5000), incs=(0, 0)), deadline=in_seconds(2)
            )
            assert isinstance(answer, MoveAnswer)
            assert answer.move is not None
            assert before <= answer.sent_at <= answer.arrived_at <= trio.current_time()
            assert 0 <= answer.elapsed < 2
            moves.append(answer.move)
        assert len(set(moves) - {"swap"}) == len(moves) - moves.count("swap")
        rtt = await session.ping(1.0)
        assert 0 <= rtt < 1
        await session.notify(GameOver("1-0", "rules"))


async def test_random_bot_is_deterministic() -> None:
    async def play() -> list[str | None]:
        async with EngineSession.open(bot("random", "--seed", "11")) as session:
            await session.new_game(TRIKE, timeout=2.0)
            history: list[str] = []
            for _ in range(5):
                answer = await session.request_move(
                    Position(tuple(history)), Go(), deadline=in_seconds(2)
                )
                assert answer.move is not None
                history.append(answer.move)
            # Same position again, after another: the same move.
            again = await session.request_move(Position(()), Go(), deadline=in_seconds(2))
            assert again.move == history[0]
            return list(history)

    assert await play() == await play()


async def test_newgame_refusal_and_bad_game() -> None:
    async with EngineSession.open(bot("faulty", "--error-on-newgame")) as session:
        with pytest.raises(EngineRefusedError, match="refused the game: unsupported"):
            await session.new_game(TRIKE, timeout=2.0)
    async with EngineSession.open(bot("random")) as session:
        with pytest.raises(EngineRefusedError, match="unknown game"):
            await session.new_game(NewGame("no-such-game", 2, 1, 0), timeout=2.0)


async def test_exit_on_newgame_is_terminated() -> None:
    async with EngineSession.open(bot("faulty", "--exit-on-newgame")) as session:
        with pytest.raises(EngineTerminatedError, match="exited with code 0"):
            await session.new_game(TRIKE, timeout=2.0)
        assert not session.alive


async def test_resign_gives_no_move() -> None:
    async with EngineSession.open(bot("faulty", "--resign")) as session:
        await session.new_game(TRIKE, timeout=2.0)
        answer = await session.request_move(Position(), Go(), deadline=in_seconds(2))
        assert answer.move is None


async def test_illegal_move_is_well_formed_but_illegal() -> None:
    from referee.registry import make_game

    game = make_game("trike")
    state = game.initial_state(2)
    history: list[str] = []
    for _ in range(2):
        move = state.legal_moves()[0]
        history.append(game.format_move(state, move))
        state = state.play(move)
    async with EngineSession.open(bot("faulty", "--illegal", "--at", "2")) as session:
        await session.new_game(TRIKE, timeout=2.0)
        answer = await session.request_move(Position(tuple(history)), Go(), deadline=in_seconds(2))
    assert answer.move is not None
    assert not state.is_legal(game.parse_move(state, answer.move))


async def test_slow_engine_answers_after_its_delay() -> None:
    async with EngineSession.open(bot("faulty", "--slow", "300")) as session:
        await session.new_game(TRIKE, timeout=2.0)
        answer = await session.request_move(Position(), Go(movetime=100), deadline=in_seconds(2))
        assert answer.elapsed >= 0.29
        with pytest.raises(EngineTimeoutError) as info:
            await session.request_move(Position(), Go(movetime=100), deadline=in_seconds(0.1))
        assert info.value.overrun >= 0


# --- failures ------------------------------------------------------------------------


async def test_crash_is_terminated_with_exit_code() -> None:
    async with EngineSession.open(bot("faulty", "--crash")) as session:
        await session.new_game(TRIKE, timeout=2.0)
        with pytest.raises(EngineTerminatedError, match="exited with code 3"):
            await session.request_move(Position(), Go(), deadline=in_seconds(2))
        # The failure sticks: the next call fails at once, and so does a write.
        with pytest.raises(EngineTerminatedError):
            await session.receive(in_seconds(2))
        with pytest.raises(EngineTerminatedError):
            for _ in range(3):
                await session.send(Position(), Go())
                await trio.sleep(0.01)
        assert not session.alive


async def test_crash_is_seen_even_when_a_grandchild_holds_stdout() -> None:
    async with EngineSession.open(bot("faulty", "--spawn-child", "--crash")) as session:
        pgid = session.pid
        await session.new_game(TRIKE, timeout=2.0)
        started = trio.current_time()
        with pytest.raises(EngineTerminatedError, match="exited with code 3"):
            await session.request_move(Position(), Go(), deadline=in_seconds(5))
        assert trio.current_time() - started < 2
        assert living(pgid)  # the sleeping child is still there, holding the pipe
    assert await wait_gone(pgid) == []


async def test_stall_is_a_timeout_and_ping_detects_it() -> None:
    async with EngineSession.open(bot("faulty", "--stall"), quit_grace=0.2) as session:
        await session.new_game(TRIKE, timeout=2.0)
        assert await session.ping(1.0) >= 0
        started = trio.current_time()
        with pytest.raises(EngineTimeoutError, match="no reply within"):
            await session.request_move(Position(), Go(), deadline=in_seconds(0.3))
        assert 0.29 <= trio.current_time() - started < 1.0
        with pytest.raises(EngineTimeoutError):
            await session.ping(0.2)
        pid = session.pid
    assert process_state(pid) is None


async def test_bad_pong_is_ignored_so_ping_times_out() -> None:
    async with EngineSession.open(bot("faulty", "--bad-pong")) as session:
        with pytest.raises(EngineTimeoutError):
            await session.ping(0.3)
        await session.new_game(TRIKE, timeout=2.0)  # the stray pong did not get in the way


async def test_garbage_is_a_protocol_violation_naming_the_line() -> None:
    async with EngineSession.open(bot("faulty", "--garbage")) as session:
        await session.new_game(TRIKE, timeout=2.0)
        with pytest.raises(ProtocolViolation, match="'hello there'"):
            await session.request_move(Position(), Go(), deadline=in_seconds(2))


async def test_wrong_reply_during_search_and_error_reply() -> None:
    code = (
        "import sys\n"
        "sys.stdin.readline()\n"
        "print('rgpok', flush=True)\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('go movetime 1'): print('ok', flush=True)\n"
        "    elif line.startswith('go'): print('info depth 1\\nerror out of memory', flush=True)\n"
    )
    spec = EngineSpec(name="odd", argv=(sys.executable, "-c", code))
    async with EngineSession.open(spec, quit_grace=0.5) as session:
        with pytest.raises(ProtocolViolation, match="unexpected reply 'ok' during a search"):
            await session.request_move(Position(), Go(movetime=1), deadline=in_seconds(2))
        with pytest.raises(ProtocolViolation, match="engine error: out of memory"):
            await session.request_move(Position(), Go(), deadline=in_seconds(2))


async def test_engine_that_stops_reading_its_input_times_out_on_write() -> None:
    code = "import sys, time\nsys.stdin.readline(); print('rgpok', flush=True)\ntime.sleep(60)\n"
    spec = EngineSpec(name="deaf", argv=(sys.executable, "-c", code))
    # Over 1 MiB: more than the stdin pipe holds even after it grows for long games.
    long_history = Position(tuple(f"m{i}" for i in range(200_000)))
    async with EngineSession.open(spec, quit_grace=0.2) as session:
        started = trio.current_time()
        with pytest.raises(EngineTimeoutError, match="did not read its input"):
            await session.request_move(long_history, Go(), deadline=in_seconds(0.3))
        assert trio.current_time() - started < 1.0


async def test_flood_is_a_quick_violation_without_memory_growth() -> None:
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    async with EngineSession.open(bot("faulty", "--flood"), quit_grace=0.2) as session:
        await session.new_game(TRIKE, timeout=2.0)
        started = time.monotonic()
        with pytest.raises(ProtocolViolation, match="line too long: over 65536 bytes"):
            await session.request_move(Position(), Go(), deadline=in_seconds(5))
        assert time.monotonic() - started < 2
        pid = session.pid
        assert not session.alive
    assert process_state(pid) is None
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before < 20_000


async def test_stderr_flood_does_not_block_the_engine() -> None:
    transcript = Transcript(max_stderr_lines=50)
    async with EngineSession.open(bot("faulty", "--stderr-flood"), transcript=transcript) as s:
        await s.new_game(TRIKE, timeout=2.0)
        history: list[str] = []
        for _ in range(4):
            answer = await s.request_move(Position(tuple(history)), Go(), deadline=in_seconds(3))
            assert answer.move is not None
            history.append(answer.move)
    assert transcript.dropped_stderr > 1000
    assert all(len(line.text) <= transcript.max_chars + 40 for line in transcript.entries())
    # The protocol exchange was not pushed out by stderr.
    assert any(line.marker == ">" and line.text == "rgp 1" for line in transcript.entries())


# --- lifetime ------------------------------------------------------------------------


async def test_spawned_child_does_not_outlive_the_block() -> None:
    async with EngineSession.open(bot("faulty", "--spawn-child"), quit_grace=0.2) as session:
        pgid = session.pid
        await session.new_game(TRIKE, timeout=2.0)
        with pytest.raises(EngineTimeoutError):
            await session.request_move(Position(), Go(), deadline=in_seconds(0.2))
        assert len(living(pgid)) == 2  # the engine and its sleep
    # The engine itself is reaped at once; the orphaned child is killed with the group.
    assert process_state(pgid) is None
    assert await wait_gone(pgid) == []


async def test_cancellation_from_outside_still_cleans_up() -> None:
    pids: list[int] = []
    with trio.CancelScope() as scope:
        async with EngineSession.open(bot("faulty", "--stall"), quit_grace=0.2) as session:
            pids.append(session.pid)
            await session.new_game(TRIKE, timeout=30.0)
            # The cancellation comes from outside while the engine "searches"; set only
            # now so that a slow start on a loaded machine cannot pre-empt it.
            scope.deadline = trio.current_time() + 0.3
            await session.request_move(Position(), Go(), deadline=in_seconds(30))
    assert scope.cancelled_caught
    assert process_state(pids[0]) is None


async def test_cancellation_during_start_still_cleans_up() -> None:
    with trio.move_on_after(0.5) as scope:
        async with EngineSession.open(bot("faulty", "--no-handshake"), start_timeout=10):
            pytest.fail("the handshake cannot succeed")
    assert scope.cancelled_caught
    assert not [pid for pid in os.listdir("/proc") if pid.isdigit() and _is_no_handshake_bot(pid)]


def _is_no_handshake_bot(pid: str) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        return b"--no-handshake" in cmdline and process_state(int(pid)) not in (None, "Z")
    except OSError:
        return False


async def test_errors_in_the_body_propagate_bare() -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        async with EngineSession.open(bot("random")) as session:
            raise Boom
    assert session.returncode == 0
    with pytest.raises(EngineTimeoutError):
        async with EngineSession.open(bot("faulty", "--stall"), quit_grace=0.1) as session:
            await session.new_game(TRIKE, timeout=2.0)
            await session.request_move(Position(), Go(), deadline=in_seconds(0.1))


async def test_engine_that_ignores_quit_is_killed_after_the_grace() -> None:
    code = (
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "sys.stdin.readline(); print('rgpok', flush=True)\n"
        "while True: time.sleep(1)\n"
    )
    spec = EngineSpec(name="stubborn", argv=(sys.executable, "-c", code))
    started = trio.current_time()
    async with EngineSession.open(spec, quit_grace=0.2) as session:
        pid = session.pid
    assert trio.current_time() - started < 3
    assert process_state(pid) is None
    assert session.returncode == -9


async def test_session_has_no_public_constructor() -> None:
    with pytest.raises(TypeError, match=r"EngineSession\.open"):
        EngineSession(object(), bot("random"), Transcript(), max_line_bytes=10)


def test_engine_error_is_the_common_base() -> None:
    for cls in (EngineStartError, EngineTerminatedError, EngineTimeoutError, ProtocolViolation):
        assert issubclass(cls, EngineError)
    assert issubclass(EngineRefusedError, EngineStartError)


async def test_a_cancelled_session_ends_without_sitting_out_its_quit_grace() -> None:
    # A cancel (a stopping tournament) signals the engine's group; the engine dies at
    # once, and the session's shielded wait for its exit must hear of it (issue 22: it
    # waited the whole grace, a second per engine, before a stop could end).
    with trio.CancelScope() as scope:
        async with EngineSession.open(bot("random", "--seed", "5"), quit_grace=10.0) as session:
            await session.new_game(TRIKE, timeout=5)
            began = trio.current_time()
            scope.cancel()
            await trio.sleep(30)
    assert trio.current_time() - began < 5
