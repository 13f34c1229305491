"""Big fields for the tests and ``benchmarks/entrants_bench.py``: a config of many
``random`` entrants, a ``referee tournament`` subprocess on it, and what it is measured
by (the first game's line, the peak memory, the time from a signal to the exit)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFEREE = [sys.executable, "-m", "tournaments"]


def write_field(
    path: Path,
    entrants: int,
    *,
    games: int | None = 4,
    fmt: str = "round-robin",
    players: int = 2,
    rounds: int | None = None,
    challengers: int | None = None,
    tc: str = "10+0.1",
) -> Path:
    """A TOML config of ``entrants`` seeded ``random`` bots on Trike (Triablo for three
    seats), ``games`` games in all (or ``rounds`` rounds)."""
    lines = [f'game = "{"trike" if players == 2 else "triablo"}"', f"players = {players}"]
    lines += [f'format = "{fmt}"', f'tc = "{tc}"']
    if games is not None:
        lines.append(f"games = {games}")
    if rounds is not None:
        lines.append(f"rounds = {rounds}")
    if challengers is not None:
        lines.append(f"challengers = {challengers}")
    for i in range(entrants):
        lines += ["[[entrants]]", f'name = "r{i}"', f'command = "random --seed {i}"']
    path.write_text("\n".join(lines) + "\n")
    return path


def environment() -> dict[str, str]:
    """The environment of a subprocess that imports this tree."""
    return dict(os.environ, PYTHONPATH=str(ROOT))


def start(config: Path, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    """``referee tournament CONFIG --out OUT`` with its output piped."""
    return subprocess.Popen(
        [*REFEREE, "tournament", str(config), "--out", str(out), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
        cwd=ROOT,
    )


def wait_for_line(proc: subprocess.Popen[bytes], prefix: bytes, timeout: float) -> bytes | None:
    """Read ``proc``'s stdout until a line starts with ``prefix`` (that line), the end of
    its output or ``timeout`` seconds (None)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    buffer = b""
    fd = proc.stdout.fileno()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buffer += chunk
        for line in buffer.split(b"\n")[:-1]:
            if line.startswith(prefix):
                return line
        buffer = buffer[buffer.rfind(b"\n") + 1 :]
    return None


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler for ``signum`` (``SigCgt`` in /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) process ``pid`` has used so far; None once gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(proc: subprocess.Popen[bytes], signum: int = signal.SIGTERM) -> tuple[float, int, str]:
    """Send ``signum``; the seconds until the process exits, its exit status and stderr."""
    sent = time.monotonic()
    proc.send_signal(signum)
    _out, err = proc.communicate(timeout=120)
    return time.monotonic() - sent, proc.returncode, err.decode(errors="replace")


def stop_measured(
    proc: subprocess.Popen[bytes], signum: int = signal.SIGTERM
) -> tuple[float, float, int, str]:
    """``stop``, also giving the CPU seconds the process used from the signal to its exit
    (read from /proc every 10 ms until it is gone: a figure a busy machine does not
    inflate as it does the wall time)."""
    assert proc.stderr is not None
    before = cpu_seconds(proc.pid) or 0.0
    last = before
    sent = time.monotonic()
    proc.send_signal(signum)
    err = b""
    while proc.poll() is None:
        used = cpu_seconds(proc.pid)
        if used is not None:
            last = used
        ready, _, _ = select.select([proc.stderr.fileno()], [], [], 0.01)
        if ready:
            err += os.read(proc.stderr.fileno(), 65536)
    seconds = time.monotonic() - sent
    err += proc.stderr.read()
    return seconds, last - before, proc.returncode, err.decode(errors="replace")


_MEASURED = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
sys.stderr.buffer.write(code.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code.returncode)
"""


def peak_rss(config: Path, out: Path, timeout: float) -> tuple[float, int, str]:
    """Run the tournament to its end; its peak resident memory in MB (the largest
    process it waited for: the runner itself; engines are smaller), exit status, stderr.

    A fresh process runs it, so no other child of the caller counts."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *REFEREE, "tournament", str(config), "--out", str(out)],
        capture_output=True,
        text=True,
        env=environment(),
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )
    kb, code = done.stdout.split()
    return int(kb) / 1024, int(code), done.stderr
