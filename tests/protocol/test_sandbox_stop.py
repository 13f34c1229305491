"""The end of a sandboxed start, cheaply and completely: bwrap's info read as soon as it is
whole, and the look for strays left out only when the sandbox is known to be empty (its
process 1 reaped). Skipped, with the reason, where bwrap cannot run."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

import pytest
import trio

from protocol import reaper
from protocol.messages import NewGame
from protocol.sandbox import Layout, SandboxSettings, _mounts, bwrap_argv, warden_config
from protocol.sandbox.host import (
    SandboxLaunch,
    info_whole,
    resolved,
)
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tests.procs import processes

GAME = NewGame(game="trike", players=2, seat=1, seed=5, options=(("size", "7"),))



def test_info_is_whole_only_once_its_json_object_is() -> None:
    whole = b'{\n    "child-pid": 1234,\n    "cgroup-namespace": 4026531835\n}\n'
    assert info_whole(whole)
    for cut in range(len(whole.rstrip())):
        assert not info_whole(whole[:cut]), whole[:cut]
    assert not info_whole(b"1234")  # JSON, not bwrap's object


class _Counted:
    """Counts the stray sweeps and keeps the launches of the engines started meanwhile."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sweeps = 0
        self.launches: list[SandboxLaunch] = []
        sweep, init = reaper.Strays.sweep, SandboxLaunch.__init__

        def counted_sweep(strays: reaper.Strays) -> bool:
            self.sweeps += 1
            return sweep(strays)

        def kept_init(launch: SandboxLaunch, *args: object, **kwargs: object) -> None:
            init(launch, *args, **kwargs)  # type: ignore[arg-type]
            self.launches.append(launch)

        monkeypatch.setattr(reaper.Strays, "sweep", counted_sweep)
        monkeypatch.setattr(SandboxLaunch, "__init__", kept_init)


def _ours() -> list[str]:
    """Our children and the processes of our process group's descendants: what a stop
    might have left (zombies included)."""
    me = os.getpid()
    return [f"{p.pid} {p.state} {p.cmdline}" for p in processes() if p.ppid == me]


async def test_an_engine_that_quits_leaves_nothing_and_its_empty_sandbox_is_not_swept(
    bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = _Counted(monkeypatch)
    spec = EngineSpec(
        name="rnd", argv=(sys.executable, "-m", "bots", "random"), sandbox=SandboxSettings()
    )
    before = _ours()
    with trio.fail_after(60):
        async with EngineSession.open(spec) as session:
            await session.new_game(GAME, timeout=20)
            (launch,) = counted.launches
            assert not launch.emptied()  # its warden runs
    assert session.returncode == 0
    assert _ours() == before
    if launch.as_root:  # the warden's host pid is known: its end proves the sandbox empty
        assert launch.emptied()
        assert counted.sweeps == 0
    else:
        assert counted.sweeps >= 1


async def test_a_sandbox_ended_by_a_kill_is_still_swept(
    bwrap: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = _Counted(monkeypatch)
    # It ignores quit and the end of its input: only the kill at the block's end stops it.
    argv = (sys.executable, "-m", "bots", "faulty", "--mode", "ignore-quit", "--seed", "1")
    spec = EngineSpec(name="stubborn", argv=argv, sandbox=SandboxSettings())
    before = _ours()
    with trio.fail_after(60):
        async with EngineSession.open(spec, quit_grace=0.2) as session:
            await session.new_game(GAME, timeout=20)
    assert counted.sweeps >= 1
    assert _ours() == before


def test_resolved_paths_are_realpath_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "real"
    (real / "inner").mkdir(parents=True)
    (real / "file").write_text("x")
    (tmp_path / "link").symlink_to(real)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # O_PATH: resolving it must not block on an open
    paths = [
        tmp_path / "link", tmp_path / "link" / "inner" / "..", tmp_path / "link" / "file",
        tmp_path / "dangling", tmp_path / "missing" / "deeper", tmp_path / "loop", fifo,
        Path("/"), Path("/dev/null"),
    ]  # fmt: skip
    for path in paths:
        assert resolved(str(path)) == os.path.realpath(path), path
    monkeypatch.chdir(tmp_path)
    assert resolved("link/inner") == os.path.realpath("link/inner") == str(real / "inner")


def test_the_mount_options_are_made_once_per_layout_and_follow_it() -> None:
    layout = Layout(
        system=(("/usr", None), ("/bin", "usr/bin")), visible=("/opt/engine",), masked=(),
        masked_files=(), python="/usr/bin/python3", warden="/w/warden.py", code_root="/w",
        cwd="/scratch", as_root=False,
    )  # fmt: skip
    config = warden_config(
        SandboxSettings(), report_fd=5, max_memory_mb=None, max_cpu_seconds=None, as_root=False
    )
    first = bwrap_argv(layout, SandboxSettings(), config, ["e"], {"A": "1"})
    hits = _mounts.cache_info().hits
    again = bwrap_argv(layout, SandboxSettings(), config, ["e"], {"A": "1"})
    assert first == again
    assert _mounts.cache_info().hits == hits + 1
    other = bwrap_argv(
        dataclasses.replace(layout, visible=("/opt/other",)), SandboxSettings(), config,
        ["e"], {"A": "1"},
    )  # fmt: skip
    assert "/opt/other" in other and "/opt/engine" not in other
