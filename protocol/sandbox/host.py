"""The sandbox on this host: what it shows, the pipes of one start, and a check that it works.

``protocol.sandbox`` builds the command line from a ``Layout``; this module finds the
layout on this machine (``layout_for``), holds the descriptors of one sandboxed start
(``SandboxLaunch``: the warden's report pipe and, in root mode, bwrap's info and block
pipes and the user namespace's maps) and checks once per process that bubblewrap
works here (``probe``). No trio: ``protocol.process`` awaits what needs awaiting.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import select
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from protocol.errors import EngineSetupError
from protocol.sandbox import (
    PACKAGE,
    SANDBOX_UID,
    SCRATCH,
    SYSTEM_PATHS,
    WRITABLE,
    Layout,
    SandboxSettings,
    bwrap_argv,
    compiled,
    environment,
    masks,
    shown_in_scratch,
    warden,
    warden_config,
)

MAX_SHOWN = 16
"""Directories a kept sandbox shows again inside its scratch (``warden.c``'s limit)."""
PROBE_TIMEOUT = 20.0
"""Seconds the check may take (a sandbox normally starts in a few milliseconds)."""


class SandboxUnavailable(EngineSetupError):
    """bubblewrap is missing or cannot make a sandbox here; ``str()`` is one line (a
    ``UserError``: the user asked for the sandbox, and can install it or go without)."""


def _under(path: str, roots: Sequence[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def covered_scratch(dirs: Sequence[str]) -> tuple[str, str] | None:
    """The first of ``dirs`` (resolved host directories a sandbox would show) that is one
    of the sandbox's own scratch directories (``WRITABLE``: ``/tmp``, ``/dev/shm``) or
    lies above one (``/``), with that scratch directory; None when none does.

    Shown read-only there, the host's folder would cover the empty scratch: the engine
    could not write there, and the warden's watch of the scratch would count the host's
    files (every start failed with "scratch limit (/tmp full)").
    """
    for found in dirs:
        for scratch in WRITABLE:
            if _under(scratch, [found]):
                return found, scratch
    return None


# What the host shows of its system and of the referee's Python and code is looked up once
# per process (functools.cache): a sandbox starts every game, and these lookups (symbolic
# links, resolved paths) were a quarter of the referee's own work per start. What may
# change during an event (the engine's directories, which hidden paths exist) is looked
# up at every start.


@functools.cache
def _system() -> tuple[tuple[str, str | None], ...]:
    found: list[tuple[str, str | None]] = []
    for path in SYSTEM_PATHS:
        if os.path.islink(path):
            found.append((path, os.readlink(path)))
        elif os.path.isdir(path):
            found.append((path, None))
    return tuple(found)


def resolved(path: str) -> str:
    """``os.path.realpath(path)``, asked of the kernel where ``path`` exists: the name of
    the file it opens (``O_PATH``: nothing is read, a device or FIFO is not opened) in
    ``/proc/self/fd``. Three system calls instead of a Python walk that ``lstat``s each
    component: the engine's directories and the hidden paths are resolved at every
    sandbox start. Elsewhere (a missing path, no ``/proc``), ``os.path.realpath``."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except (OSError, ValueError):
        return os.path.realpath(path)
    try:
        found = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return os.path.realpath(path)
    finally:
        os.close(fd)
    # The kernel's name of a file deleted meanwhile, or outside this process's root.
    return (
        found
        if found.startswith("/") and not found.endswith(" (deleted)")
        else (os.path.realpath(path))
    )


def program_dirs(argv: Sequence[str], cwd: str | None, path: str | None) -> list[str]:
    """The engine's own directories on the host: its working directory, its program's,
    and its script's (the first argument naming an existing file), resolved."""
    base = cwd or os.getcwd()
    found = [resolved(cwd)] if cwd else []
    program = argv[0]
    located = os.path.join(base, program) if "/" in program else shutil.which(program, path=path)
    if located:
        found.append(os.path.dirname(resolved(located)))
    for arg in argv[1:]:
        candidate = os.path.join(base, arg) if "/" in arg else None
        if candidate is not None and os.path.isfile(candidate):
            found.append(os.path.dirname(resolved(candidate)))
            break
    return found


@functools.cache
def code_root() -> str:
    """The directory holding the referee's packages (``protocol``, ``bots``, ...)."""
    return str(Path(warden.__file__).resolve().parents[2])


def runtime_dirs() -> list[str]:
    """The system's and Python's directories, resolved: every sandbox shows them."""
    return [*_system_dirs(), *_python_dirs()]


@functools.cache
def _system_dirs() -> tuple[str, ...]:
    """The system directories of ``_system`` (not its links), resolved."""
    return tuple(os.path.realpath(p) for p, target in _system() if target is None)


@functools.cache
def _python_dirs() -> tuple[str, ...]:
    """The prefixes of the Python running the referee, resolved, in order."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return tuple(os.path.realpath(p) for p in sorted(prefixes))


@functools.lru_cache(maxsize=8)
def _homes(home: str | None) -> tuple[str, ...]:
    """The referee user's home directories (the account's and ``$HOME``), resolved."""
    found = {os.path.realpath(str(Path.home()))}
    if home:
        found.add(os.path.realpath(home))
    return tuple(sorted(found))


def foreign_dirs(own: Sequence[str], others: Sequence[str]) -> list[str]:
    """Of ``others`` (resolved directories of other engines), those to hide from an engine
    whose own directories are ``own``.

    Kept visible: what lies in the system's or Python's directories (every engine runs
    on those), and what is, or holds, one of the engine's own directories or the
    referee's code (hiding it would hide those too). Another engine's directory inside
    the engine's own, or inside the referee's code, is hidden.
    """
    runtime = runtime_dirs()
    needed = [*own, *runtime, code_root()]
    return sorted(
        {
            d
            for d in others
            if not _under(d, runtime) and not any(n == d or _under(n, [d]) for n in needed)
        }
    )


def layout_for(
    argv: Sequence[str],
    cwd: str | None,
    env: Mapping[str, str] | None,
    settings: SandboxSettings,
) -> Layout:
    """What the sandbox of this engine shows of this host (reads the file system)."""
    system = _system()
    system_dirs = _system_dirs()
    root = code_root()
    visible: list[str] = []
    for real in [root, *_python_dirs()]:
        if real not in visible and not _under(real, system_dirs) and os.path.isdir(real):
            visible.append(real)
    for real in program_dirs(argv, cwd, (env or {}).get("PATH")):  # resolved already
        if real not in visible and not _under(real, system_dirs) and os.path.isdir(real):
            visible.append(real)
    # What does not exist yet has nothing to show (and bwrap cannot mount over it).
    hidden = [resolved(h) for h in settings.hidden]
    hidden += _homes(os.environ.get("HOME"))
    return Layout(
        system=system,
        visible=tuple(visible),
        masked=masks(visible, [h for h in hidden if os.path.isdir(h)]),
        masked_files=masks(visible, [h for h in hidden if os.path.isfile(h)]),
        python=sys.executable,
        warden=os.path.join(root, "protocol", "sandbox", "warden.py"),
        code_root=root,
        cwd=resolved(cwd) if cwd else SCRATCH,
        as_root=os.geteuid() == 0,
        compiled_warden=_real(compiled.path()),
    )


def keepable(layout: Layout) -> bool:
    """Whether a kept sandbox (``protocol.keeper``) can show this layout: the compiled
    warden can be had (``warden.py`` has no ``keep`` mode), and there are not more
    directories to show again inside the scratch file systems than it takes."""
    return layout.compiled_warden is not None and len(shown_in_scratch(layout)) <= MAX_SHOWN


@functools.lru_cache(maxsize=4)
def _real(path: str | None) -> str | None:
    """The compiled warden's file, resolved once (``warden_inside`` compares it with the
    resolved directories the sandbox shows)."""
    return None if path is None else resolved(path)


@functools.lru_cache(maxsize=16)
def _located(program: str, path: str | None) -> str:
    """``program`` found on ``path`` once (the spawn then tries no other directory);
    itself when not found (the spawn's error names it)."""
    return shutil.which(program, path=path) or program


def info_whole(info: bytes) -> bool:
    """Whether ``info`` (what bwrap wrote on its info pipe so far) is its whole JSON
    object: bwrap writes it at once, so the reader need not wait for the pipe's end."""
    try:
        return isinstance(json.loads(info), dict)
    except ValueError:
        return False


def cloexec_pipe() -> tuple[int, int]:
    """A pipe whose two ends no spawned program inherits unless passed to it."""
    return os.pipe2(os.O_CLOEXEC)


def give_pipes(fds: tuple[int, ...], owner: int) -> None:
    """Root mode: make the engine's user the owner of its standard streams' pipes (``fds``:
    our ends; a pipe's two ends are one file).

    A pipe the referee made as root is root's, mode 0600. The engine, ``nobody``, reads
    and writes its inherited descriptors all the same, but opening ``/dev/stderr``
    (``/proc/self/fd/2``: a new open of the pipe, permissions checked) was refused: a
    shell engine's ``echo … > /dev/stderr`` failed with "Permission denied".
    """
    for fd in fds:
        os.fchown(fd, owner, owner)


def read_available(fd: int) -> tuple[bytes, bool]:
    """What the pipe ``fd`` holds now (never waits; ``fd`` is left non-blocking), and
    whether its end was reached (every writer gone)."""
    chunks = []
    os.set_blocking(fd, False)
    try:
        while chunk := os.read(fd, 4096):
            chunks.append(chunk)
    except OSError:  # BlockingIOError: nothing more yet
        return b"".join(chunks), False
    return b"".join(chunks), True


class SandboxLaunch:
    """The command line and descriptors of one sandboxed start.

    Use: ``launch = SandboxLaunch(...)``; spawn ``launch.argv`` with
    ``pass_fds=launch.pass_fds``; then ``launch.spawned()``; in root mode
    ``launch.map_user(info)`` with what bwrap wrote on ``launch.info_fd``; after the
    exit, ``launch.finish()``; ``close()`` in any case.

    ``held``: the sandbox is started ahead of its game. It is set up, then its warden
    waits; ``go()`` starts the engine. Closed without ``go()``, the sandbox ends
    without starting anything.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None,
        env: Mapping[str, str] | None,
        settings: SandboxSettings,
        max_memory_mb: int | None,
        max_cpu_seconds: int | None,
        bwrap: str = "bwrap",
        held: bool = False,
        kept: bool = False,
    ) -> None:
        layout = layout_for(argv, cwd, env, settings)
        if kept and not keepable(layout):
            raise ValueError("this engine's sandbox cannot be kept (see keepable)")
        self.as_root = layout.as_root
        self._mine: list[int] = []
        self._theirs: list[int] = []
        self.report_fd = self._open()
        report_w = self._theirs[-1]
        self.info_fd = self.block_fd = -1
        info_w = block_r = None
        if self.as_root:
            self.info_fd = self._open()
            info_w = self._theirs[-1]
            block_r, self.block_fd = cloexec_pipe()
            self._theirs.append(block_r)
            self._mine.append(self.block_fd)
        self.hold_fd = -1
        """Held: our end of the pipe whose first byte starts the engine (-1: none, or
        used)."""
        hold_r = None
        if held:
            hold_r, self.hold_fd = cloexec_pipe()
            self._theirs.append(hold_r)
            self._mine.append(self.hold_fd)
        self.control: socket.socket | None = None
        """Kept: our end of the keeper's control socket (``protocol.keeper``)."""
        keep_fd = None
        if kept:
            self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            keep_fd = theirs.detach()
            self._theirs.append(keep_fd)
        config = warden_config(
            settings,
            report_fd=report_w,
            max_memory_mb=max_memory_mb,
            max_cpu_seconds=max_cpu_seconds,
            as_root=self.as_root,
            hold_fd=hold_r,
            keep_fd=keep_fd,
            shown=shown_in_scratch(layout),
        )
        self.argv = bwrap_argv(
            layout, settings, config, argv, environment(layout, env),
            bwrap=_located(bwrap, os.environ.get("PATH")), info_fd=info_w, block_fd=block_r,
            kept=kept,
        )  # fmt: skip
        self.pass_fds = tuple(self._theirs)
        self.ready = False
        """The warden said the sandbox is up (set by ``finish``)."""
        self.status: int | None = None
        """The engine's returncode as the warden saw it (set by ``finish``)."""
        self.breach: warden.Breach | None = None
        """The limit that ended the engine, if one did (set by ``finish``)."""
        self.child: int | None = None
        """Root mode: the sandbox's process 1 (the warden) on the host, from bwrap's info
        (set by ``map_user``)."""

    def _open(self) -> int:
        """A pipe: our read end (returned), its write end for the child."""
        ours, theirs = cloexec_pipe()
        self._mine.append(ours)
        self._theirs.append(theirs)
        return ours

    def spawned(self) -> None:
        """Close the child's ends in this process (the child has its copies)."""
        for fd in self._theirs:
            os.close(fd)
        self._theirs.clear()

    def map_user(self, info: bytes) -> None:
        """Root mode: write the new user namespace's maps, then let bwrap go on.

        ``info`` is everything bwrap wrote on the info pipe.

        :raises OSError: the maps cannot be written (bwrap died, or the kernel refused).
        :raises ValueError: ``info`` is not bwrap's JSON.
        """
        child = int(json.loads(info)["child-pid"])
        self.child = child
        maps = f"0 0 1\n{SANDBOX_UID} {SANDBOX_UID} 1\n".encode()
        for name in ("uid_map", "gid_map"):
            fd = os.open(f"/proc/{child}/{name}", os.O_WRONLY)
            try:
                os.write(fd, maps)  # one write: the kernel takes a map whole or not at all
            finally:
                os.close(fd)
        os.write(self.block_fd, b"1")

    def emptied(self) -> bool:
        """Whether the sandbox is known to hold no process any more: its process 1, the
        warden, has been reaped (root mode, where its host pid is known; False otherwise,
        and while it lives or is a zombie).

        The kernel ends every process of a PID namespace, and waits for them, before
        its process 1's exit completes; what the sandbox started cannot leave its
        namespace. So nothing of it is left to find among the referee's orphans. (A pid
        reused since only makes this False: the caller then looks as before.)
        """
        return self.child is not None and not os.path.exists(f"/proc/{self.child}")

    def go(self) -> None:
        """Held: let the warden start the engine (once; never raises: a sandbox that died
        meanwhile shows as an engine that does not answer)."""
        fd, self.hold_fd = self.hold_fd, -1
        if fd < 0:
            return
        with contextlib.suppress(OSError):
            os.write(fd, b"g")
        with contextlib.suppress(OSError):
            os.close(fd)
        self._mine.remove(fd)

    def finish(self) -> None:
        """Read the warden's report, once the sandbox has ended (never blocks)."""
        report, _ = read_available(self.report_fd)
        self.ready, self.status, self.breach = warden.parse_report(
            report.decode(errors="replace")
        )

    def close(self) -> None:
        """Close every descriptor still open (idempotent)."""
        for fd in self._mine + self._theirs:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._mine.clear()
        self._theirs.clear()
        if self.control is not None:
            self.control.close()


def _unavailable(reason: str) -> SandboxUnavailable:
    return SandboxUnavailable(
        f"cannot use the bwrap sandbox: {reason} (it needs the package {PACKAGE}"
        " and a kernel that allows user namespaces)"
    )


def _read_all(fd: int, deadline: float) -> bytes:
    data = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        data += chunk
    return data


_probed: set[tuple[int, str]] = set()


def probe(bwrap: str = "bwrap") -> None:
    """Check, once per process, that a sandbox starts here and runs a program in it.

    :raises SandboxUnavailable: one line naming the package to install.
    """
    key = (os.getpid(), bwrap)  # a fork probes again; so does another bwrap
    if key in _probed:
        return
    if shutil.which(bwrap) is None:
        raise _unavailable("bwrap is not installed")
    check_sandbox(bwrap)
    _probed.add(key)


def check_sandbox(bwrap: str = "bwrap") -> None:
    """Start a sandbox that runs ``true`` and check that it ends as it should (blocks).

    If it fails with the compiled warden and works with the Python one, the process
    uses the Python warden from then on (``compiled.disabled``).

    :raises SandboxUnavailable: it did not.
    """
    try:
        _check_once(bwrap)
    except SandboxUnavailable:
        if compiled.path() is None:
            raise
        with compiled.disabled():
            _check_once(bwrap)


def _check_once(bwrap: str) -> None:
    launch = SandboxLaunch(
        ["true"], cwd=None, env=None, settings=SandboxSettings(),
        max_memory_mb=None, max_cpu_seconds=None, bwrap=bwrap,
    )  # fmt: skip
    deadline = time.monotonic() + PROBE_TIMEOUT
    try:
        try:
            process = subprocess.Popen(
                launch.argv, pass_fds=launch.pass_fds, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
            )  # fmt: skip
        except OSError as exc:
            raise _unavailable(f"{bwrap}: {exc.strerror}") from None
        launch.spawned()
        with process:
            try:
                if launch.as_root:
                    launch.map_user(_read_all(launch.info_fd, deadline))
                _, err = process.communicate(timeout=max(0.1, deadline - time.monotonic()))
            except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as exc:
                process.kill()
                _, err = process.communicate()
                if not err.strip():
                    raise _unavailable(f"the sandbox did not start ({exc})") from None
        launch.finish()
        if not launch.ready or launch.status != 0:
            lines = err.decode(errors="replace").strip().splitlines()
            reason = lines[-1] if lines else f"bwrap exited with code {process.returncode}"
            raise _unavailable(reason)
    finally:
        launch.close()
