"""The bubblewrap sandbox for untrusted engines: its settings and its command line (pure).

The package: this module (settings, ``Layout``, the ``bwrap`` command line), ``host``
(the layout on this machine, one start's pipes, ``probe``), ``warden`` (the
sandbox's process 1, run by path with the standard library only) and ``kept`` (one game
of a kept sandbox: a sandbox set up once for a player, whose process 1, the compiled
warden, starts each game fresh in namespaces of its own; ``protocol.keeper``).

An engine whose ``EngineSpec.sandbox`` is set runs as
``bwrap OPTIONS /warden KEY=VALUE... -- ENGINE ARGV``: the warden is the sandbox's
process 1, compiled from ``warden.c`` (``protocol.sandbox.compiled``) and shown at
``COMPILED_WARDEN`` (or at its own path where the sandbox shows its directory anyway:
``warden_inside``), or, where it cannot be built, ``python -I -S warden.py`` (the
reference, ``protocol.sandbox.warden``), which does the same. What it sees and may do:

* new user, PID, network, IPC and UTS namespaces (and cgroup, where the kernel has
  them): no network at all (only a loopback of its own), no other process, no
  System V IPC or abstract socket of the host;
* a root file system of its own with, read-only, the host's system directories
  (``SYSTEM_PATHS``), the directories of the Python that runs the warden, the
  referee's own code, and the engine's program directories; nothing else of the host
  (not the referee user's home, not the event's output directory, not the other
  entrants), and those ``hidden`` paths are covered by an empty read-only file
  system where they lie inside a shown directory;
* three writable, size-limited tmpfs: ``/scratch`` (its ``HOME``, and its working
  directory unless it has one), ``/tmp`` and ``/dev/shm``, each empty at the start
  and gone with the sandbox; the root itself is remounted read-only;
* a fresh ``/proc`` (its own processes only) and a minimal ``/dev``: the devices of
  ``DEVICES`` and the ``fd``, ``stdin``, ``stdout`` and ``stderr`` links, no terminal
  (bwrap's ``--dev`` adds ``full``, ``tty``, a ``devpts`` and a ``tmpfs`` under them:
  each mount costs bwrap a reading of the whole mount table, and a sandbox starts
  every game);
* an environment of its own: ``PATH``, ``HOME``, ``TMPDIR``, ``LANG``, ``PYTHONPATH``
  (the referee's code, for the built-in bots) and the spec's ``env``; nothing of the
  referee's;
* it dies with the referee: the warden kills the sandbox when the referee's end of
  its report pipe closes (not bwrap's ``--die-with-parent``, which fires when the
  referee *thread* that started bwrap exits: ``warden.Watchdog``), and everything it
  started dies with its process 1.

*Root mode.* An engine must not run as root: root is exempt from ``RLIMIT_NPROC``
and owns every root-owned file it can see. When the referee runs as root, bwrap is
given ``--userns-block-fd``/``--info-fd``: the referee writes the new user
namespace's maps itself (``0 0 1`` and ``SANDBOX_UID``), bwrap sets up the mounts as
root of that namespace (so it can read what root can), and the warden becomes
``SANDBOX_UID`` before it starts the engine. Otherwise bwrap maps the referee's own
user and ``--disable-userns`` forbids nested user namespaces.

Nothing here touches the host: ``protocol.sandbox.host`` finds the ``Layout`` on this
machine, opens the pipes and runs the command.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from protocol.sandbox.warden import Config

PACKAGE = "bubblewrap"
"""The Debian (and Ubuntu, Fedora, Arch) package that provides ``bwrap``."""
SANDBOX_UID = 65534
"""Root mode: the user (and group) engines run as on the host (``nobody``)."""
SYSTEM_PATHS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Host paths shown read-only when they exist (a symbolic link is copied as one)."""
SCRATCH = "/scratch"
"""The engine's private scratch directory (``HOME``) inside the sandbox."""
WRITABLE = (SCRATCH, "/tmp", "/dev/shm")
"""The size-limited tmpfs of the sandbox, watched by the warden."""
COMPILED_WARDEN = "/warden"
"""Where the compiled warden is shown in the sandbox (read-only, a file of its own)."""
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")
"""The host's devices shown in the sandbox's ``/dev`` (the only writable binds: writing
to them reaches no file)."""
DEVICE_LINKS = (
    ("/proc/self/fd", "/dev/fd"),
    ("/proc/self/fd/0", "/dev/stdin"),
    ("/proc/self/fd/1", "/dev/stdout"),
    ("/proc/self/fd/2", "/dev/stderr"),
)
"""``(target, link)``: the usual links of ``/dev``, into the engine's own ``/proc``."""
HOSTNAME = "sandbox"
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
MAX_OPEN_FILES = 1024
"""``RLIMIT_NOFILE`` in the sandbox (the referee may have raised its own limit)."""
BYTES_PER_FILE = 4096
"""The scratch file systems hold at most one file per this many bytes of their size."""
ADDRESS_SPACE_FACTOR = 2
"""Each process's address space may reach this many times ``max_memory_mb``: a hard
backstop behind the warden's check of the resident memory of all processes."""
MIB = 1024 * 1024
DEFAULT_MAX_MEMORY_MB = 2048
"""A sandboxed engine's memory limit (resident, all its processes, ``memfd`` files
included) when its spec sets none: the sandbox always limits memory."""
DEFAULT_MAX_CPU_SECONDS = 3600
"""A sandboxed engine's CPU limit per game (all its processes) when its spec sets none."""


@dataclass(frozen=True, slots=True)
class SandboxSettings:
    """How one engine is confined, beyond its ``EngineSpec`` memory and CPU limits."""

    max_processes: int = 64
    """Processes and threads the engine may have at once, itself included."""
    max_scratch_mb: int = 64
    """Size of each writable file system (``/scratch``, ``/tmp``, ``/dev/shm``), MiB."""
    hidden: tuple[str, ...] = ()
    """Absolute host paths the engine must never see (the event's output directory,
    the other entrants' directories); the referee user's home is always hidden."""

    def __post_init__(self) -> None:
        if self.max_processes < 1:
            raise ValueError("the sandbox's process limit must be positive")
        if self.max_scratch_mb < 1:
            raise ValueError("the sandbox's scratch size must be positive")
        for path in self.hidden:
            if not os.path.isabs(path):
                raise ValueError(f"a hidden path must be absolute: {path!r}")


@dataclass(frozen=True, slots=True)
class Layout:
    """What the sandbox shows of this host, resolved (``protocol.sandbox.host.layout_for``)."""

    system: tuple[tuple[str, str | None], ...]
    """``(path, None)`` for a directory to show read-only, ``(path, target)`` for a
    symbolic link to copy (``/bin -> usr/bin`` on merged-/usr systems)."""
    visible: tuple[str, ...]
    """Host directories shown read-only at the same path (outside ``system``)."""
    masked: tuple[str, ...]
    """Hidden host directories inside a shown one: covered by an empty file system."""
    masked_files: tuple[str, ...]
    """Hidden host files inside a shown directory: covered by an empty file."""
    python: str
    """The interpreter that runs the warden (visible inside)."""
    warden: str
    """The warden's file (visible inside)."""
    code_root: str
    """The directory holding the referee's packages (``PYTHONPATH`` inside)."""
    cwd: str
    """The engine's working directory inside."""
    as_root: bool
    """The referee runs as root: root mode (see the module docstring)."""
    compiled_warden: str | None = None
    """The compiled warden on the host (``protocol.sandbox.compiled``), resolved, run in
    place of ``python warden`` where ``warden_inside`` says; None: the Python warden."""


def _inside(path: str, directory: str) -> bool:
    return path != directory and path.startswith(directory.rstrip("/") + "/")


def masks(visible: Sequence[str], hidden: Sequence[str]) -> tuple[str, ...]:
    """The hidden paths that lie inside a visible directory, outermost first (pure)."""
    found = {h for h in hidden if any(_inside(h, v) or h == v for v in visible)}
    return tuple(sorted(found, key=lambda p: (p.count("/"), p)))


def parents(paths: Sequence[str]) -> list[str]:
    """The ancestors of ``paths`` (``/`` left out), each once, parents first (pure)."""
    found: list[str] = []
    for path in paths:
        parts = path.strip("/").split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            parent = "/" + "/".join(parts[:depth])
            if parent not in found:
                found.append(parent)
    return sorted(found, key=lambda p: (p.count("/"), p))


def warden_config(
    settings: SandboxSettings,
    *,
    report_fd: int,
    max_memory_mb: int | None,
    max_cpu_seconds: int | None,
    as_root: bool,
    hold_fd: int | None = None,
    keep_fd: int | None = None,
    shown: Sequence[str] = (),
) -> Config:
    """The warden's orders for an engine with these limits (pure).

    ``hold_fd``: a sandbox started ahead of its game, whose engine starts when a byte
    arrives on that descriptor (``warden.wait_for_go``). ``keep_fd``: a kept sandbox
    (``protocol.keeper``), whose games are asked for on that socket; ``shown``: the
    directories it shows inside its scratch file systems (``shown_in_scratch``), which
    each game shows again over its fresh ones.

    A limit of None is the default (``DEFAULT_MAX_MEMORY_MB``, ``DEFAULT_MAX_CPU_SECONDS``);
    the address-space backstop applies only to a memory limit given explicitly (some
    runtimes reserve far more address space than they use).
    """
    backstop = max_memory_mb is not None
    if max_memory_mb is None:
        max_memory_mb = DEFAULT_MAX_MEMORY_MB
    if max_cpu_seconds is None:
        max_cpu_seconds = DEFAULT_MAX_CPU_SECONDS
    scratch = settings.max_scratch_mb * MIB
    rlimits = {
        # One more for the warden, which counts in the same user namespace; and in a
        # kept sandbox of an ordinary user, the keeper too (the same user there).
        "NPROC": settings.max_processes + (1 if keep_fd is None or as_root else 2),
        "FSIZE": scratch,
        "NOFILE": MAX_OPEN_FILES,
        "CORE": 0,
    }
    if backstop:
        rlimits["AS"] = max_memory_mb * MIB * ADDRESS_SPACE_FACTOR
    rlimits["CPU"] = max_cpu_seconds
    return Config(
        report=report_fd,
        max_processes=settings.max_processes,
        rlimits=rlimits,
        max_memory=max_memory_mb * MIB,
        max_cpu=float(max_cpu_seconds),
        watch=WRITABLE,
        max_files=max(64, scratch // BYTES_PER_FILE),
        drop=(SANDBOX_UID, SANDBOX_UID) if as_root else None,
        hold=hold_fd,
        keep=keep_fd,
        scratch=scratch if keep_fd is not None else None,
        show=shown if keep_fd is not None else (),
    )


def shown_in_scratch(layout: Layout) -> tuple[str, ...]:
    """The directories the sandbox shows inside one of its scratch file systems
    (``WRITABLE``: an engine's folder under ``/tmp``), outermost only (pure): a kept
    sandbox's games cover those with fresh ones and show these again on top (what lies
    inside them, shown or covered, comes with them)."""
    inside = [v for v in layout.visible if any(_inside(v, w) for w in WRITABLE)]
    return tuple(v for v in inside if not any(_inside(v, o) for o in inside))


def environment(layout: Layout, extra: Mapping[str, str] | None) -> dict[str, str]:
    """The engine's whole environment inside the sandbox (pure)."""
    env = {
        "PATH": DEFAULT_PATH,
        "HOME": SCRATCH,
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONPATH": layout.code_root,
        "PYTHONDONTWRITEBYTECODE": "1",  # the code it sees is read-only anyway
    }
    env.update(extra or {})
    return env


def warden_inside(layout: Layout) -> str:
    """Where the sandbox runs the compiled warden (pure): at its own path when that lies
    in a directory the sandbox shows anyway (the engines' cache, which holds the built-in
    engines: a sandboxed built-in engine's), else at ``COMPILED_WARDEN``, shown alone.

    A bind costs bubblewrap a mount and a reading of the whole mount table, about 0.2 ms
    of CPU per start on the machines of ``benchmarks/README.md``; the file is the same,
    read-only either way. A warden under a hidden (masked) path is shown alone.
    """
    path = layout.compiled_warden
    if path is None:
        return COMPILED_WARDEN
    shown = any(_inside(path, v) for v in layout.visible)
    covered = path in layout.masked_files or any(_inside(path, m) for m in layout.masked)
    return path if shown and not covered else COMPILED_WARDEN


def bwrap_argv(
    layout: Layout,
    settings: SandboxSettings,
    config: Config,
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    bwrap: str = "bwrap",
    info_fd: int | None = None,
    block_fd: int | None = None,
    kept: bool = False,
) -> list[str]:
    """The whole command line: bwrap, its options, the warden and the engine (pure).

    ``info_fd`` and ``block_fd`` are for root mode (``layout.as_root``): bwrap writes
    the sandbox's pid on the first and waits on the second until the referee has
    written the user namespace's maps. ``kept``: a kept sandbox, whose warden keeps
    ``CAP_SYS_ADMIN`` and ``CAP_NET_ADMIN`` in the sandbox's user namespace to make each
    game's namespaces and file systems and bring up its loopback interface (each game
    drops them, and every other, before its engine starts).
    """
    if layout.as_root and (info_fd is None or block_fd is None):
        raise ValueError("root mode needs the info and block descriptors")
    cmd = [bwrap, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
           "--unshare-uts", "--unshare-cgroup-try", "--hostname", HOSTNAME,
           "--as-pid-1"]  # fmt: skip
    if layout.as_root:
        cmd += ["--userns-block-fd", str(block_fd), "--info-fd", str(info_fd),
                "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                "--cap-add", "CAP_SYS_RESOURCE"]  # fmt: skip
    else:
        cmd += ["--disable-userns"]
        if kept:
            cmd += ["--cap-drop", "ALL"]
    if kept:
        cmd += ["--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_NET_ADMIN"]
    cmd += _mounts(layout, settings)
    cmd += ["--clearenv"]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    if layout.compiled_warden is not None:
        warden = [warden_inside(layout)]
    else:
        warden = [layout.python, "-I", "-S", layout.warden]
    return [*cmd, "--", *warden, *config.to_args(), "--", *argv]


@functools.lru_cache(maxsize=32)
def _mounts(layout: Layout, settings: SandboxSettings) -> tuple[str, ...]:
    """bwrap's options that build the sandbox's file system, and its working directory
    (pure; made once per layout: a sandbox starts every game, and the same engine's
    layout repeats)."""
    cmd: list[str] = []
    for path, target in layout.system:
        cmd += ["--symlink", target, path] if target is not None else ["--ro-bind", path, path]
    if layout.compiled_warden is not None and warden_inside(layout) == COMPILED_WARDEN:
        cmd += ["--ro-bind", layout.compiled_warden, COMPILED_WARDEN]
    # The writable file systems first: a shown directory may lie under /tmp.
    cmd += ["--proc", "/proc", "--perms", "0755", "--dir", "/dev"]
    for device in DEVICES:
        cmd += ["--dev-bind", device, device]
    for target, link in DEVICE_LINKS:
        cmd += ["--symlink", target, link]
    size = str(settings.max_scratch_mb * MIB)
    for path in WRITABLE:
        cmd += ["--perms", "1777", "--size", size, "--tmpfs", path]
    # bwrap makes missing parents of a mount point private (0700): the engine, another
    # user in root mode, could not reach what is mounted there.
    outermost = [v for v in layout.visible if not any(_inside(v, w) for w in layout.visible)]
    for parent in parents(outermost):
        if parent not in WRITABLE:  # those exist already, and stay 1777
            cmd += ["--perms", "0755", "--dir", parent]
    for path in layout.visible:
        cmd += ["--ro-bind", path, path]
    for path in layout.masked:
        # Empty, read-only, and what it covered of the visible directories comes back.
        cmd += ["--perms", "0555", "--size", "4096", "--tmpfs", path]
        for inner in layout.visible:
            if _inside(inner, path):
                cmd += ["--ro-bind", inner, inner]
        cmd += ["--remount-ro", path]
    for path in layout.masked_files:
        cmd += ["--ro-bind", "/dev/null", path]
    cmd += ["--remount-ro", "/", "--chdir", layout.cwd]
    return tuple(cmd)
