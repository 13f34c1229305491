"""The sandbox started by an ordinary user (not root mode), with the system's Python.

The suite may run as root, where the sandbox uses root mode; this test runs the
unprivileged path for real: as ``nobody`` (``setpriv``), with ``/usr/bin/python3``.
It also shows what ``RLIMIT_NPROC`` counts in the sandbox: the processes of the user
*in the sandbox's user namespace*. Twenty processes of the same user outside do not
count against an engine allowed sixteen, and the engine's own are capped there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

from protocol.sandbox import COMPILED_WARDEN
from protocol.sandbox.host import SandboxUnavailable, probe
from tests.hostile import ROOT

pytestmark = pytest.mark.sandbox

PYTHON = "/usr/bin/python3"
SCRIPT = r"""
import subprocess, sys
sys.path.insert(0, sys.argv[1])
from protocol.sandbox import SandboxSettings
from protocol.sandbox.host import SandboxLaunch, check_sandbox

check_sandbox()
outside = [subprocess.Popen(["sleep", "60"]) for _ in range(20)]
for name, script in [
    ("ten", "i=0; while [ $i -lt 10 ]; do sleep 5 & i=$((i+1)); done; wait"),
    ("bomb", "while :; do sleep 60 & done"),
]:
    launch = SandboxLaunch(["/bin/sh", "-c", script], cwd=None, env=None,
                           settings=SandboxSettings(max_processes=16),
                           max_memory_mb=None, max_cpu_seconds=None)
    assert not launch.as_root and "--disable-userns" in launch.argv
    print("warden", "compiled" if sys.argv[2] in launch.argv else "python", flush=True)
    process = subprocess.Popen(launch.argv, pass_fds=launch.pass_fds, stderr=subprocess.DEVNULL)
    launch.spawned(); process.wait(timeout=60); launch.finish(); launch.close()
    print(name, launch.ready, launch.status, launch.breach and launch.breach.detail, flush=True)
for process in outside:
    process.kill(); process.wait()
"""

KEPT_SCRIPT = r"""
import os, subprocess, sys
sys.path.insert(0, sys.argv[1])
from protocol.sandbox import SandboxSettings
from protocol.sandbox.host import SandboxLaunch, check_sandbox
from protocol.sandbox.kept import KeptGame

def read_all(fd):
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    return data

check_sandbox()
script = ("grep -E '^Cap(Inh|Prm|Eff|Amb)' /proc/self/status; ls -A /scratch /tmp /dev/shm;"
          " touch /scratch/x /tmp/x /dev/shm/x;"
          " i=0; while [ $i -lt 30 ]; do sleep 5 & i=$((i+1)); done; wait")
launch = SandboxLaunch(["/bin/sh", "-c", script], cwd=None, env=None,
                       settings=SandboxSettings(max_processes=16),
                       max_memory_mb=None, max_cpu_seconds=None, kept=True)
assert not launch.as_root and "--disable-userns" in launch.argv
process = subprocess.Popen(launch.argv, pass_fds=launch.pass_fds, stderr=subprocess.DEVNULL)
launch.spawned()
print("keeper", launch.control.recv(16) == b"up\n", flush=True)
for game in range(2):
    kept = KeptGame(launch.control)
    os.close(kept.stdin_fd)
    kept.stdin_fd = -1
    out = read_all(kept.stdout_fd).decode().split()
    kept.finish(read_all(kept.report_fd))
    print(game, " ".join(out), kept.ready, kept.status, kept.breach and kept.breach.detail,
          flush=True)
    kept.close()
launch.close()
print("end", process.wait(timeout=60), flush=True)
"""


@pytest.fixture
def cache() -> Iterator[str]:
    """A cache directory nobody may write (the compiled warden is built there)."""
    path = tempfile.mkdtemp(prefix="referee-cache-", dir="/tmp")
    os.chmod(path, 0o777)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists(PYTHON) or shutil.which("setpriv") is None
    or shutil.which("bwrap") is None or shutil.which("prlimit") is None,
    reason="needs root (to become nobody), setpriv, prlimit, bwrap and /usr/bin/python3",
)  # fmt: skip
@pytest.mark.parametrize("warden", ["compiled", "python"])
def test_an_unprivileged_user_gets_the_same_sandbox_and_limits(cache: str, warden: str) -> None:
    if warden == "compiled" and not any(shutil.which(cc) for cc in ("cc", "gcc", "clang")):
        pytest.skip("no C compiler: the compiled warden cannot be built here")
    try:
        probe()  # here, as root: if that fails, the machine cannot sandbox at all
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))
    done = subprocess.run(
        # A hard open-file limit below the sandbox's 1024, which nobody may not raise:
        # the engine gets the lower one rather than failing to start.
        ["prlimit", "--nofile=512:512",
         "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
         "env", "-i", "HOME=/nonexistent", "PATH=/usr/bin:/bin", f"REFEREE_CACHE={cache}",
         *(["REFEREE_WARDEN=python"] if warden == "python" else []),
         PYTHON, "-c", SCRIPT, str(ROOT), COMPILED_WARDEN],
        capture_output=True, text=True, timeout=120, cwd="/",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, ten, second, bomb = done.stdout.splitlines()
    assert first == second == f"warden {warden}"
    assert ten == "ten True 0 None"
    # Killed by the warden at the limit, or exited when its forks failed: either way, named.
    assert bomb.startswith("bomb True ")
    assert bomb.endswith(" process limit (16 processes and threads)")


@pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists(PYTHON) or shutil.which("setpriv") is None
    or shutil.which("bwrap") is None
    or not any(shutil.which(cc) for cc in ("cc", "gcc", "clang")),
    reason="needs root (to become nobody), setpriv, bwrap, a C compiler and /usr/bin/python3",
)  # fmt: skip
def test_an_unprivileged_user_gets_a_kept_sandbox_with_no_capability_left(cache: str) -> None:
    """Where the referee's own user is the sandbox's, the kept sandbox's process 1 holds
    ``CAP_SYS_ADMIN`` there to make each game's namespaces: no game's engine keeps any
    capability, each finds empty scratch, and the limits hold game after game."""
    try:
        probe()
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))
    done = subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
         "env", "-i", "HOME=/nonexistent", "PATH=/usr/bin:/bin", f"REFEREE_CACHE={cache}",
         PYTHON, "-c", KEPT_SCRIPT, str(ROOT)],
        capture_output=True, text=True, timeout=120, cwd="/",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    keeper, *games, end = done.stdout.splitlines()
    assert keeper == "keeper True" and end == "end 0"
    zero = "0000000000000000"
    for number, line in enumerate(games):
        seen, _, verdict = line.partition(" True ")
        assert seen == (
            f"{number} CapInh: {zero} CapPrm: {zero} CapEff: {zero} CapAmb: {zero}"
            " /dev/shm: /scratch: /tmp:"
        ), line
        # Killed at the limit, or exited when its forks failed: either way, named.
        assert verdict.endswith(" process limit (16 processes and threads)"), line
    assert len(games) == 2
