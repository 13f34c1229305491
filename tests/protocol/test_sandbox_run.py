"""Engines in the real bubblewrap sandbox: what they can do there, and the limits that end
them, each named in the error (skipped, with the reason, where bwrap cannot run)."""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from protocol import reaper, sandbox
from protocol.errors import EngineTerminatedError
from protocol.keeper import Keeper
from protocol.keeper import available as keeper_available
from protocol.messages import Go, NewGame, Position
from protocol.process import EngineProcess
from protocol.sandbox import PACKAGE, SANDBOX_UID, SandboxSettings
from protocol.sandbox.host import SandboxUnavailable, check_sandbox, layout_for, probe
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from protocol.transcript import STDERR, Transcript
from tests.hostile import hostile_argv, processes_mentioning

GAME = NewGame(game="trike", players=2, seat=1, seed=5, options=(("size", "7"),))



def stderr_of(transcript: Transcript) -> list[str]:
    return [line.text for line in transcript.entries() if line.marker == STDERR]


async def run_command(argv: tuple[str, ...], **kwargs: object) -> tuple[int | None, str, list[str]]:
    """Run a plain program in the sandbox until it exits: status, description, stderr."""
    spec = EngineSpec(name="cmd", argv=argv, sandbox=SandboxSettings(), **kwargs)  # type: ignore[arg-type]
    transcript = Transcript()
    with trio.fail_after(30):
        async with EngineProcess.open(spec, transcript) as process:
            await process.close_stdin()
            await process.exited.wait()
            status, text = process.returncode, process.exit_description()
    return status, text, stderr_of(transcript)


def test_a_missing_bwrap_is_refused_with_the_package_to_install() -> None:
    with pytest.raises(SandboxUnavailable) as info:
        probe(bwrap="/nonexistent/bwrap")
    message = str(info.value)
    assert "bwrap is not installed" in message and PACKAGE in message and "\n" not in message


def test_a_bwrap_that_cannot_make_namespaces_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(SandboxUnavailable) as info:
        check_sandbox(str(fake))
    message = str(info.value)
    assert "No permissions to create a new namespace" in message and PACKAGE in message


async def test_a_sandboxed_engine_plays(bwrap: None) -> None:
    spec = EngineSpec(name="rnd", argv=(sys.executable, "-m", "bots", "random"),
                      sandbox=SandboxSettings())  # fmt: skip
    with trio.fail_after(30):
        async with EngineSession.open(spec) as session:
            await session.new_game(GAME, timeout=10)
            answer = await session.request_move(Position(), Go(), deadline=trio.current_time() + 10)
            assert answer.move
    assert any("(in the bwrap sandbox)" in line for line in session.transcript.lines())


@pytest.mark.parametrize("kept", [False, True], ids=["own", "kept"])
async def test_the_engine_may_open_its_own_standard_streams_by_name(
    bwrap: None, kept: bool
) -> None:
    """``/dev/stdout`` and ``/dev/stderr`` open (as root, the referee gives the engine's
    user its pipes: a shell engine's ``echo … > /dev/stderr`` was refused)."""
    script = "echo to-dev-stderr > /dev/stderr; echo to-dev-stdout > /dev/stdout; cat >/dev/null"
    spec = EngineSpec(name="sh", argv=("/bin/sh", "-c", script), sandbox=SandboxSettings())
    transcript = Transcript()
    with trio.fail_after(30):
        async with contextlib.AsyncExitStack() as stack:
            keeper = None
            if kept:
                if not keeper_available(spec):
                    pytest.skip("no kept sandbox here: the compiled warden cannot be built")
                keeper = await stack.enter_async_context(Keeper.open(spec, Transcript()))
            new_game = None if keeper is None else keeper.new_game
            async with EngineProcess.open(spec, transcript, new_game=new_game) as process:
                said = b""
                while b"to-dev-stdout" not in said:
                    await trio.lowlevel.wait_readable(process.stdout_fd)
                    said += os.read(process.stdout_fd, 4096)
                await process.close_stdin()
                await process.exited.wait()
                await process.stderr_settled(5)
                assert process.returncode == 0, process.exit_description()
    assert "to-dev-stderr" in stderr_of(transcript), stderr_of(transcript)


async def test_inside_no_network_no_host_processes_no_new_user_namespaces(
    bwrap: None, warden: str
) -> None:
    script = (
        "tr '\\0' ' ' </proc/1/cmdline | cut -c1-300;"
        " hostname; id -u; ls /proc | grep -c '^[0-9]'; cat /proc/net/dev | grep -c ':';"
        " unshare --user true 2>/dev/null && echo userns-allowed || echo userns-denied;"
        " env | sort | tr '\\n' ' '"
    )
    status, _, err = await run_command(("/bin/sh", "-c", f"({script}) >&2"))
    assert status == 0, err
    first, hostname, uid, processes, interfaces, userns, env = err[:7]
    # Process 1 is the warden asked for.
    assert first.startswith("/warden ") if warden == "compiled" else "warden.py " in first
    assert hostname == "sandbox"
    assert int(uid) == (SANDBOX_UID if os.geteuid() == 0 else os.geteuid())
    assert int(processes) <= 6  # the warden, sh, its subshell and pipeline; not the host's
    assert interfaces == "1"  # the loopback of its own, nothing else
    assert userns == "userns-denied"
    names = {pair.split("=", 1)[0] for pair in env.split()}
    assert names <= {"PATH", "HOME", "TMPDIR", "LANG", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE",
                     "PWD", "SHLVL", "_"}, names  # fmt: skip


async def test_the_root_and_the_host_are_read_only(bwrap: None, tmp_path: Path) -> None:
    script = (
        "for p in / /usr /etc /dev /scratch /tmp /dev/shm; do touch $p/x 2>/dev/null && echo $p;"
        " done"
    )
    status, _, err = await run_command(("/bin/sh", "-c", f"({script}) >&2"))
    assert status == 0 and err == ["/scratch", "/tmp", "/dev/shm"]


async def test_dev_holds_the_usual_devices_and_no_terminal(bwrap: None) -> None:
    script = (
        "ls /dev | tr '\\n' ' '; echo;"
        " head -c 5 /dev/urandom | wc -c; head -c 3 /dev/random | wc -c;"
        " head -c 7 /dev/zero | wc -c; echo gone >/dev/null && echo written;"
        " readlink /dev/stderr; readlink /dev/fd"
    )
    status, _, err = await run_command(("/bin/sh", "-c", f"({script}) >&2"))
    assert status == 0, err
    listing, urandom, random, zero, null, through, fd = err[:7]
    assert listing.split() == ["fd", "null", "random", "shm", "stderr", "stdin", "stdout",
                               "urandom", "zero"]  # fmt: skip
    assert (urandom, random, zero, null) == ("5", "3", "7", "written")
    assert through == "/proc/self/fd/2" and fd == "/proc/self/fd"


@pytest.mark.parametrize(
    ("attack", "limits", "words"),
    [
        ("forkbomb", {"sandbox": SandboxSettings(max_processes=16)},
         "process limit (16 processes and threads)"),
        ("hog", {"max_memory_mb": 200}, "memory limit (resident"),
        ("memfd", {"max_memory_mb": 200, "sandbox": SandboxSettings(max_scratch_mb=40)},
         "memory limit (resident"),
        ("fill", {"sandbox": SandboxSettings(max_scratch_mb=8)}, "scratch limit"),
        ("spin", {"max_cpu_seconds": 1}, "CPU time limit"),
    ],
)  # fmt: skip
async def test_an_engine_over_a_limit_is_killed_and_the_limit_named(
    bwrap: None, warden: str, tmp_path: Path, attack: str, limits: dict[str, object], words: str
) -> None:
    marker = str(tmp_path)  # in every process's command line
    spec = EngineSpec(
        name=attack,
        argv=hostile_argv(attack, marker),
        **{"sandbox": SandboxSettings(), **limits},  # type: ignore[arg-type]
    )
    with trio.fail_after(60):
        async with EngineSession.open(spec) as session:
            await session.new_game(GAME, timeout=10)
            with pytest.raises(EngineTerminatedError) as info:
                await session.request_move(Position(), Go(), deadline=trio.current_time() + 50)
    message = str(info.value)
    assert words in message, message
    # Killed by the warden (SIGKILL); or first by the kernel at the CPU limit (SIGXCPU);
    # or, its write refused (ENOSPC), the filler gave up by itself: the limit is named.
    ends = {"spin": ("signal 24 (SIGXCPU): ",), "fill": ("exited with code 1: ",)}
    assert any(f"{end}{words}" in message
               for end in ("signal 9 (SIGKILL): ", *ends.get(attack, ()))), message  # fmt: skip
    assert processes_mentioning(marker) == []


async def test_the_sandbox_limits_memory_by_default(
    bwrap: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A smaller default than the real one, for the test's sake: the engine sets no limit.
    monkeypatch.setattr(sandbox, "DEFAULT_MAX_MEMORY_MB", 300)
    argv = hostile_argv("hog", str(tmp_path))
    spec = EngineSpec(name="hog", argv=argv, sandbox=SandboxSettings())
    with trio.fail_after(60):
        async with EngineSession.open(spec) as session:
            await session.new_game(GAME, timeout=10)
            with pytest.raises(EngineTerminatedError) as info:
                await session.request_move(Position(), Go(), deadline=trio.current_time() + 50)
    assert "signal 9 (SIGKILL): memory limit (resident" in str(info.value)
    assert "over 300 MiB)" in str(info.value)
    assert processes_mentioning(str(tmp_path)) == []


async def test_kill_minus_one_kills_only_the_sandbox_s_processes(
    bwrap: None, warden: str, tmp_path: Path
) -> None:
    spec = EngineSpec(name="kill", argv=hostile_argv("kill", str(tmp_path)),
                      sandbox=SandboxSettings())  # fmt: skip
    async with trio.open_nursery() as nursery:
        # A neighbour outside the sandbox, as the engine's neighbours are.
        neighbour = await trio.lowlevel.open_process(["sleep", "30"])
        with trio.fail_after(30):
            async with EngineSession.open(spec) as session:
                await session.new_game(GAME, timeout=10)
                for _ in range(3):  # it plays on
                    await session.request_move(Position(), Go(), deadline=trio.current_time() + 10)
        assert neighbour.returncode is None
        neighbour.kill()
        await neighbour.wait()
        nursery.cancel_scope.cancel()
    lines = stderr_of(session.transcript)
    assert "hostile: kill -9 -1 done; my child was killed: True; I am alive" in lines, lines


def test_the_warden_refuses_to_run_unless_it_is_process_1(bwrap: None) -> None:
    """Its kill(-1) reaches the whole host from anywhere but process 1 of a namespace.

    Run as process 2 of a PID namespace (bwrap's own init is 1): even a warden without
    the check would reach only that namespace.
    """
    warden = str(Path(__file__).resolve().parents[2] / "protocol" / "sandbox" / "warden.py")
    done = subprocess.run(
        ["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/",
         "--proc", "/proc", "--dev", "/dev",
         sys.executable, "-I", "-S", warden, "report=2", "max_processes=4", "--", "/bin/true"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "warden: not process 1 of a sandbox; refusing to run\n"


def test_what_may_change_during_an_event_is_looked_up_at_every_start(tmp_path: Path) -> None:
    """The system's and Python's directories are looked up once per process; the engine's
    own directories and the hidden paths that exist, at every start: a hidden folder made
    after a first start is covered at the next."""
    engine = tmp_path / "engine"
    engine.mkdir()
    program = engine / "play"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    settings = SandboxSettings(hidden=(str(engine / "out"),))
    first = layout_for([str(program)], None, None, settings)
    assert str(engine) in first.visible and first.masked == ()
    (engine / "out").mkdir()
    second = layout_for([str(program)], None, None, settings)
    assert second.masked == (str(engine / "out"),)
    assert second.system == first.system and second.visible == first.visible


async def test_bubblewrap_gets_none_of_the_referee_s_environment(
    bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the tag that finds its strays: bwrap clears what it runs, and a copy of the
    referee's environment (tokens, credentials) would only cost every start."""
    monkeypatch.setenv("REFEREE_TEST_SECRET", "hunter2")
    spec = EngineSpec(name="cat", argv=("/bin/cat",), sandbox=SandboxSettings())
    with trio.fail_after(30):
        async with EngineProcess.open(spec, Transcript()) as process:
            environ = await trio.Path(f"/proc/{process.pid}/environ").read_bytes()
    names = [pair.split(b"=", 1)[0] for pair in environ.split(b"\0") if pair]
    assert names == [reaper.TAG_VARIABLE.encode()]
