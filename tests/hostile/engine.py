"""A hostile engine: plays random legal moves, and attacks once, at its first ``go``.

``python tests/hostile/engine.py ATTACK [ARG...]``. Every attempt and its outcome go
to stderr as ``hostile: ...`` lines (the referee puts them in the transcript), so
tests read there what the engine could and could not do. Attacks:

* ``read PATH...``: print each file's first line, or why it cannot be read;
* ``connect HOST:PORT`` and ``resolve NAME``: a TCP connection, a name lookup;
* ``write PATH...``: append a line to each file (creating it), or say why not;
* ``forkbomb``: processes that fork forever and keep every process they get; the
  engine never answers this ``go``;
* ``hog``: allocate and touch memory 8 MiB at a time, forever;
* ``memfd``: write 32 MiB into one new ``memfd`` after another, holding them all and
  mapping none (its resident memory stays small), forever (inside a sandbox only);
* ``fill``: write to ``$HOME`` until something stops it;
* ``spin``: burn CPU forever;
* ``kill``: fork a child, then ``kill -9 -1``; report who is still alive, play on;
* ``leftovers``: say what an earlier engine left in ``$HOME``, ``/tmp`` and
  ``/dev/shm`` (``leftovers: none``, or the paths), then leave a file in each;
* ``traces``: say what an earlier game left beyond files (``traces: none``, or what it
  found: a System V shared memory segment or message queue of a fixed key, a key in the
  user or session keyring, a loopback connection in TIME_WAIT, other processes in its
  ``/proc``, a capability), then leave each of them, and a process that sleeps in a
  session of its own (inside a sandbox only);
* ``sandboxed-only``: no attack, but it exits at once (status 3) outside a sandbox.

The five that could hurt the machine (``forkbomb``, ``kill``, ``fill``, ``memfd``,
``traces``) only attack
inside the referee's sandbox (process 1 is the warden); elsewhere they say so and
play fair. ``kill -9 -1`` as root outside a sandbox would kill every process of the
host.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from collections.abc import Sequence

from bots.engine import Report, run_engine
from bots.random_bot import AnyState, RandomBrain
from protocol.messages import Go


def say(text: str) -> None:
    print(f"hostile: {text}", file=sys.stderr, flush=True)


def sandboxed() -> bool:
    """Whether process 1 is the referee's warden (so this runs in its sandbox)."""
    try:
        with open("/proc/1/cmdline", "rb") as f:
            return b"warden" in f.read() and os.getpid() != 1
    except OSError:
        return False


def read(paths: Sequence[str]) -> None:
    for path in paths:
        try:
            with open(path) as f:
                say(f"read {path}: OK {f.readline().strip()}")
        except OSError as exc:
            say(f"read {path}: failed ({exc.strerror})")


def connect(target: str) -> None:
    host, _, port = target.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=3) as conn:
            conn.sendall(b"hostile was here\n")
            say(f"connect {target}: OK")
    except OSError as exc:
        say(f"connect {target}: failed ({exc.strerror or exc})")


def resolve(name: str) -> None:
    try:
        found = socket.getaddrinfo(name, 80)
        say(f"resolve {name}: OK {found[0][4][0]}")
    except OSError as exc:
        say(f"resolve {name}: failed ({exc.strerror or exc})")


def write(paths: Sequence[str]) -> None:
    for path in paths:
        try:
            with open(path, "a") as f:
                f.write("hostile was here\n")
            say(f"write {path}: OK")
        except OSError as exc:
            say(f"write {path}: failed ({exc.strerror})")


def forkbomb() -> None:
    say("fork bomb")
    while True:
        try:
            os.fork()  # parent and child both go on forking
        except OSError:
            time.sleep(0.001)


def hog() -> None:
    say("memory hog")
    held = []
    while True:
        held.append(bytearray(8 * 1024 * 1024))  # zeroed: every page is touched


def memfd() -> None:
    say("memfd hog")
    held = []
    block = b"m" * (32 * 1024 * 1024)
    while True:
        fd = os.memfd_create("hog")
        os.write(fd, block)
        held.append(fd)


def fill() -> None:
    say("filling $HOME")
    chunk = b"x" * (1 << 20)
    with open(os.path.join(os.environ.get("HOME", "/tmp"), "fill"), "wb") as f:
        for _ in range(1 << 20):
            f.write(chunk)
            f.flush()


def leftovers() -> None:
    places = [os.environ.get("HOME", "/tmp"), "/tmp", "/dev/shm"]
    found = []
    for place in places:
        try:
            paths = [os.path.join(place, name) for name in sorted(os.listdir(place))]
            # A mount point is a directory the sandbox shows (the code, when it lives
            # under /tmp), never something an earlier engine wrote.
            found += [path for path in paths if not os.path.ismount(path)]
        except OSError as exc:
            found.append(f"{place} ({exc.strerror})")
    say(f"leftovers: {' '.join(found) or 'none'}")
    for place in places:
        with open(os.path.join(place, f"left-by-{os.getpid()}"), "w") as f:
            f.write("an earlier game was here\n")


def spin() -> None:
    say("spinning")
    while True:
        pass


def kill_all() -> None:
    child = os.fork()
    if child == 0:
        time.sleep(3600)
        os._exit(0)
    os.kill(-1, signal.SIGKILL)
    time.sleep(0.1)
    _, status = os.waitpid(child, 0)
    dead = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    say(f"kill -9 -1 done; my child was killed: {dead}; I am alive")


TRACE_KEY = 0x52454631
"""The System V key of the segment and queue ``traces`` leaves."""
TRACE_NAME = b"referee-trace"
TRACE_PORT = 47001
"""The loopback port of the connection ``traces`` leaves in TIME_WAIT."""
KEY_SYSCALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}
"""``(add_key, keyctl)`` system call numbers (no keyring look where the machine is not here)."""


def traces() -> None:
    import ctypes
    import platform

    libc = ctypes.CDLL(None, use_errno=True)
    found = []
    if libc.shmget(TRACE_KEY, 0, 0) >= 0:
        found.append("shm")
    if libc.msgget(TRACE_KEY, 0) >= 0:
        found.append("msg")
    numbers = KEY_SYSCALLS.get(platform.machine())
    rings = {"user": -4, "session": -3}
    if numbers is not None:
        keyctl = numbers[1]
        for name, ring in rings.items():
            # KEYCTL_SEARCH (10): the key's id, or -1.
            if libc.syscall(keyctl, 10, ring, b"user", TRACE_NAME, 0) >= 0:
                found.append(f"{name}-key")
    try:  # a connection of an earlier game, still in TIME_WAIT, names its port
        with open("/proc/net/tcp") as f:
            if f":{TRACE_PORT:04X} " in f.read():
                found.append("tcp")
    except OSError:
        pass
    others = [n for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, os.getpid())]
    if others:
        found.append(f"processes {' '.join(sorted(others, key=int))}")
    with open("/proc/self/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("CapInh", "CapPrm", "CapEff", "CapAmb") and int(value, 16):
                found.append(name)
    say(f"traces: {' '.join(found) or 'none'}")
    libc.shmget(TRACE_KEY, 4096, 0o1000 | 0o600)  # IPC_CREAT, and never removed
    libc.msgget(TRACE_KEY, 0o1000 | 0o600)
    if numbers is not None:
        for ring in rings.values():
            libc.syscall(numbers[0], b"user", TRACE_NAME, b"x", 1, ring)
    try:  # a loopback connection closed by the client first: its end waits in TIME_WAIT
        with socket.create_server(("127.0.0.1", TRACE_PORT)) as server:
            client = socket.create_connection(("127.0.0.1", TRACE_PORT))
            accepted, _ = server.accept()
            client.close()
            accepted.close()
    except OSError as exc:
        say(f"traces: no loopback connection ({exc.strerror})")
    if os.fork() == 0:  # a sleeper in a session of its own, our command line still
        os.setsid()
        time.sleep(3600)
        os._exit(0)


class HostileBrain(RandomBrain):
    def __init__(self, attack: str, args: Sequence[str]) -> None:
        super().__init__(seed=7)
        self.attack, self.args, self.done = attack, tuple(args), False

    def choose(self, state: AnyState, go: Go, report: Report) -> str:
        if not self.done:
            self.done = True
            self.strike()
        return super().choose(state, go, report)

    def strike(self) -> None:
        attack, args = self.attack, self.args
        if attack in ("forkbomb", "kill", "fill", "memfd", "traces") and not sandboxed():
            say(f"{attack}: not in a sandbox, so not attacking")
        elif attack == "read":
            read(args)
        elif attack == "connect":
            connect(args[0])
            resolve(args[1])
        elif attack == "write":
            write(args)
        elif attack == "forkbomb":
            forkbomb()
        elif attack == "hog":
            hog()
        elif attack == "memfd":
            memfd()
        elif attack == "fill":
            fill()
        elif attack == "spin":
            spin()
        elif attack == "leftovers":
            leftovers()
        elif attack == "kill":
            kill_all()
        elif attack == "traces":
            traces()


def main(argv: Sequence[str]) -> int:
    attack, args = argv[0], argv[1:]
    if attack == "sandboxed-only" and not sandboxed():
        say("not in a sandbox: not playing")
        return 3
    return run_engine(lambda: HostileBrain(attack, args), name=f"hostile-{attack}", author="tests")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
