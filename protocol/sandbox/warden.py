"""The warden: process 1 of an engine's sandbox, between bubblewrap and the engine.

``protocol.sandbox`` runs ``bwrap --as-pid-1 ... python -I -S warden.py KEY=VALUE... -- ARGV``,
so this program is the first process of the sandbox's PID namespace. It starts the
engine under the sandbox's limits, watches the sandbox while the engine runs, and
tells the referee on a pipe of its own how the engine ended and which limit, if any,
ended it. Stdlib only, and run with ``-I -S``: it starts in milliseconds and reads
nothing of the engine's.

Its steps:

1. *Root mode* (the referee runs as root; ``drop`` in the config): forbid new user
   namespaces in this one (``user.max_user_namespaces = 0``; the engine cannot undo
   it) and become the unprivileged ``drop`` user, losing every capability. An engine
   of uid 0 would be exempt from ``RLIMIT_NPROC`` and would own every root-owned file
   it can see.
2. Fork the engine, which inherits the three standard streams and nothing else, with
   its resource limits set between ``fork`` and ``exec``. ``RLIMIT_NPROC`` counts the
   processes and threads of one user in one user namespace: here, the engine's and
   the warden's, whatever else runs as that user on the host.
   A sandbox started ahead of its game (``hold`` in the config) waits, set up and with
   its privileges dropped, for one byte on the ``hold`` pipe before it forks the engine
   (``wait_for_go``): the engine starts fresh when its game comes. If that pipe closes
   first (the referee does not need the sandbox after all) or the referee dies, the
   warden exits without starting anything.
3. Write ``ready`` on the report pipe (the referee learns that the sandbox is up),
   then wait for the engine's exit, waking every ``poll`` seconds to sample the
   sandbox (``/proc`` shows only the sandbox here): threads, resident memory and CPU
   time of every process, and how full the writable file systems are. Reaching a
   limit kills every process of the sandbox at once (``kill(-1, SIGKILL)`` from
   process 1 spares only process 1).
4. When the engine has ended, kill what is left, write the verdict line
   ``exit STATUS LIMIT DETAIL`` (``format_verdict``: ``STATUS`` as ``subprocess``
   returncodes, negative for a signal; ``LIMIT`` one of ``LIMITS`` or ``-``) and exit
   with the engine's status (128 + N for signal N). Process 1 exiting ends the PID
   namespace: the kernel kills anything that is still there.

The report pipe is close-on-exec: the engine cannot write a verdict of its own.

``warden.c`` is this program in C (``protocol.sandbox.compiled`` builds it): the same
orders, steps, limits and report, in a millisecond of start-up rather than ten or more.
This module stays the reference and the fallback; a change to one is a change to both.
One mode is the C warden's only: ``keep`` (a kept sandbox, ``protocol.keeper``), in which
process 1 serves game after game, each in new namespaces with the steps above; this
module refuses it, and a player without the C warden gets a sandbox per game.
"""

from __future__ import annotations

import os
import resource
import select
import sys

# The warden starts with every engine, so it imports nothing that costs: no json,
# dataclasses, typing, contextlib or signal (each adds milliseconds to every start;
# typing 13, signal 8). ``_signal`` is the part of ``signal`` without the enums, and
# is loaded at start-up anyway. Mypy takes any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal as _signal
    from collections.abc import Callable, Iterable, Mapping, Sequence
else:
    import _signal

LIMITS = ("memory", "process", "cpu", "scratch")
"""Names of the limits a verdict may give."""

RLIMITS = {
    "AS": resource.RLIMIT_AS,
    "CPU": resource.RLIMIT_CPU,
    "NPROC": resource.RLIMIT_NPROC,
    "FSIZE": resource.RLIMIT_FSIZE,
    "NOFILE": resource.RLIMIT_NOFILE,
    "CORE": resource.RLIMIT_CORE,
}
"""Resource limits by the names the config uses."""

MIB = 1024 * 1024
SIGKILL = _signal.SIGKILL
SIGXCPU = _signal.SIGXCPU
SIGXFSZ = _signal.SIGXFSZ


class Config:
    """The warden's orders, written by ``protocol.sandbox`` as ``key=value`` arguments."""

    __slots__ = ("drop", "hold", "keep", "max_cpu", "max_files", "max_memory", "max_processes",
                 "poll", "report", "rlimits", "scratch", "show", "watch")  # fmt: skip

    def __init__(
        self,
        *,
        report: int,
        max_processes: int,
        rlimits: Mapping[str, int] | None = None,
        max_memory: int | None = None,
        max_cpu: float | None = None,
        watch: Sequence[str] = (),
        max_files: int | None = None,
        poll: float = 0.05,
        drop: tuple[int, int] | None = None,
        hold: int | None = None,
        keep: int | None = None,
        scratch: int | None = None,
        show: Sequence[str] = (),
    ) -> None:
        if keep is not None and (hold is not None or scratch is None):
            raise ValueError("a kept sandbox has a scratch size and no hold")
        self.report = report
        """File descriptor of the report pipe."""
        self.max_processes = max_processes
        """Processes and threads the engine may have at once (itself included)."""
        self.rlimits = dict(rlimits or {})
        """Resource limits of each engine process (keys of ``RLIMITS``), soft = hard."""
        self.max_memory = max_memory
        """Bytes of resident memory of all the engine's processes together."""
        self.max_cpu = max_cpu
        """CPU seconds of all the engine's processes together, the dead ones included."""
        self.watch = tuple(watch)
        """Writable file systems (size-limited tmpfs) that must not fill up."""
        self.max_files = max_files
        """Files (inodes) each watched file system may hold."""
        self.poll = poll
        """Seconds between samples."""
        self.drop = drop
        """Root mode: the (uid, gid) to become before starting the engine."""
        self.hold = hold
        """A sandbox started ahead of its game: the pipe whose first byte lets the engine
        start (``wait_for_go``); None: start it at once."""
        self.keep = keep
        """A kept sandbox (the compiled warden only, ``warden.c``'s ``keep``): the control
        socket on which each game's request comes; ``report`` is then the number each
        game's own report pipe gets. None: one engine, this sandbox's."""
        self.scratch = scratch
        """A kept sandbox: bytes of each game's fresh ``watch`` file systems."""
        self.show = tuple(show)
        """A kept sandbox: directories the sandbox shows inside a ``watch`` path, shown
        again (read-only) over each game's fresh file system there."""

    def to_args(self) -> list[str]:
        """The config as arguments for ``from_args``."""
        args = [f"report={self.report}", f"max_processes={self.max_processes}",
                f"poll={self.poll!r}"]  # fmt: skip
        args += [f"rlimit.{name}={value}" for name, value in self.rlimits.items()]
        args += [f"watch={path}" for path in self.watch]
        args += [f"show={path}" for path in self.show]
        for key in ("max_memory", "max_cpu", "max_files"):
            value = getattr(self, key)
            if value is not None:
                args.append(f"{key}={value!r}")
        if self.drop is not None:
            args.append(f"drop={self.drop[0]}:{self.drop[1]}")
        for key in ("hold", "keep", "scratch"):
            value = getattr(self, key)
            if value is not None:
                args.append(f"{key}={value}")
        return args

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Config:
        """Parse ``to_args``'s output. :raises ValueError: a malformed argument."""
        rlimits: dict[str, int] = {}
        watch: list[str] = []
        show: list[str] = []
        values: dict[str, str] = {}
        for arg in args:
            key, sep, value = arg.partition("=")
            if not sep:
                raise ValueError(f"not key=value: {arg!r}")
            if key.startswith("rlimit."):
                if key[7:] not in RLIMITS:
                    raise ValueError(f"unknown resource limit {key!r}")
                rlimits[key[7:]] = int(value)
            elif key == "watch":
                watch.append(value)
            elif key == "show":
                show.append(value)
            else:
                values[key] = value
        unknown = set(values) - {"report", "max_processes", "poll", "max_memory", "max_cpu",
                                 "max_files", "drop", "hold", "keep", "scratch"}  # fmt: skip
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}")
        drop = None
        if "drop" in values:
            uid, _, gid = values["drop"].partition(":")
            drop = (int(uid), int(gid))
        return cls(
            report=int(values["report"]),
            max_processes=int(values["max_processes"]),
            rlimits=rlimits,
            max_memory=int(values["max_memory"]) if "max_memory" in values else None,
            max_cpu=float(values["max_cpu"]) if "max_cpu" in values else None,
            watch=watch,
            max_files=int(values["max_files"]) if "max_files" in values else None,
            poll=float(values.get("poll", "0.05")),
            drop=drop,
            hold=int(values["hold"]) if "hold" in values else None,
            keep=int(values["keep"]) if "keep" in values else None,
            scratch=int(values["scratch"]) if "scratch" in values else None,
            show=show,
        )


class Sample:
    """The sandbox at one moment (the warden itself left out)."""

    __slots__ = ("cpu", "full", "resident", "tasks")

    def __init__(self, tasks: int, resident: int, cpu: float, full: Sequence[str] = ()) -> None:
        self.tasks = tasks
        """Threads of all processes (what ``RLIMIT_NPROC`` counts)."""
        self.resident = resident
        """Bytes of resident memory, summed over processes, plus what their ``memfd``
        files hold (``memfd_bytes``)."""
        self.cpu = cpu
        """CPU seconds of the live processes plus the reaped ones."""
        self.full = tuple(full)
        """Watched file systems with no free block or no free file left."""


class Breach:
    """A limit reached, and the words that say so."""

    __slots__ = ("detail", "limit")

    def __init__(self, limit: str, detail: str) -> None:
        self.limit = limit
        self.detail = detail

    def __repr__(self) -> str:
        return f"Breach({self.limit!r}, {self.detail!r})"


def _process_limit(config: Config) -> Breach:
    return Breach("process", f"process limit ({config.max_processes} processes and threads)")


def _scratch_limit(full: Sequence[str]) -> Breach:
    return Breach("scratch", f"scratch limit ({', '.join(full)} full)")


def check(config: Config, sample: Sample) -> Breach | None:
    """The first limit ``sample`` reaches, if any (pure).

    Reaching ``max_processes`` counts: the engine's next ``fork`` would fail.
    """
    if sample.tasks >= config.max_processes:
        return _process_limit(config)
    if config.max_memory is not None and sample.resident > config.max_memory:
        return Breach(
            "memory",
            f"memory limit (resident {-(-sample.resident // MIB)} MiB"  # rounded up
            f" over {config.max_memory // MIB} MiB)",
        )
    if config.max_cpu is not None and sample.cpu > config.max_cpu:
        return Breach("cpu", f"CPU time limit ({sample.cpu:.1f} s over {config.max_cpu:g} s)")
    if sample.full:
        return _scratch_limit(sample.full)
    return None


def diagnose_exit(config: Config, status: int, engine_cpu: float, after: Sample) -> Breach | None:
    """Which limit ended an engine that exited by itself, if one did (pure).

    ``status`` is the engine's returncode, ``engine_cpu`` its own CPU seconds and
    ``after`` the sandbox once the engine is gone (its processes may live on). A kill
    by SIGXCPU (``RLIMIT_CPU``'s soft limit), or by SIGKILL with 90% of the CPU limit
    used (the hard limit, a second later: the CPU time the kernel reports is coarser
    than the one it enforces, and may read a little low), is the CPU limit; one by
    SIGXFSZ is ``RLIMIT_FSIZE`` (a file as big as a whole scratch file system); the
    engine's remaining processes at ``max_processes - 1`` mean its forks had started
    to fail.
    """
    cpu_limit = config.rlimits.get("CPU")
    if cpu_limit is not None and (
        status == -SIGXCPU or (status == -SIGKILL and engine_cpu >= 0.9 * cpu_limit)
    ):
        return Breach("cpu", f"CPU time limit ({cpu_limit} s per process)")
    file_limit = config.rlimits.get("FSIZE")
    if file_limit is not None and status == -SIGXFSZ:
        return Breach("scratch", f"scratch limit (a file over {file_limit // MIB} MiB)")
    if after.tasks >= config.max_processes - 1:
        return _process_limit(config)
    if after.full:
        return _scratch_limit(after.full)
    return None


def parse_stat(text: str) -> tuple[int, int, int]:
    """``(threads, cpu ticks, resident pages)`` from a ``/proc/PID/stat`` line (pure).

    The command name is in parentheses and may hold spaces and parentheses: fields
    are counted after the last ``)``.
    """
    fields = text.rsplit(")", 1)[1].split()
    # fields[0] is field 3 (state): utime is field 14, stime 15, num_threads 20, rss 24.
    return int(fields[17]), int(fields[11]) + int(fields[12]), int(fields[21])


def _read_processes(skip: int) -> Iterable[tuple[int, int, int]]:
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == skip:
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                yield parse_stat(f.read())
        except (OSError, IndexError, ValueError):
            continue  # it ended while we looked


def memfd_bytes(skip: int) -> int:
    """Bytes held in ``memfd`` files open in the sandbox's processes, each file once.

    A ``memfd``'s pages are memory, but they count in no process's resident set unless
    mapped: without this an engine could hold gigabytes in them under any memory limit.
    Found among each process's open files (``/proc/PID/fd``, names ``/memfd:...``);
    the size is what the file has allocated (``st_blocks``).
    """
    seen = set()
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == skip:
            continue
        directory = f"/proc/{name}/fd"
        try:
            fds = os.listdir(directory)
        except OSError:
            continue
        for fd in fds:
            path = f"{directory}/{fd}"
            try:
                if not os.readlink(path).startswith("/memfd:"):
                    continue
                st = os.stat(path)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def _full(paths: Sequence[str], max_files: int | None) -> list[str]:
    full = []
    for path in paths:
        try:
            st = os.statvfs(path)
        except OSError:
            continue
        if st.f_bavail == 0 or (max_files is not None and st.f_files - st.f_ffree >= max_files):
            full.append(path)
    return full


def sample(config: Config) -> Sample:
    """Look at the sandbox now (``/proc`` is the sandbox's own)."""
    tasks = ticks = pages = 0
    for threads, cpu, rss in _read_processes(skip=os.getpid()):
        tasks += threads
        ticks += cpu
        pages += rss
    reaped = os.times()
    memfds = memfd_bytes(skip=os.getpid()) if config.max_memory is not None else 0
    return Sample(
        tasks=tasks,
        resident=pages * os.sysconf("SC_PAGE_SIZE") + memfds,
        cpu=ticks / os.sysconf("SC_CLK_TCK") + reaped.children_user + reaped.children_system,
        full=_full(config.watch, config.max_files),
    )


def returncode(wait_status: int) -> int:
    """A wait status as ``subprocess`` returncodes have it (negative: a signal)."""
    if os.WIFSIGNALED(wait_status):
        return -os.WTERMSIG(wait_status)
    return os.waitstatus_to_exitcode(wait_status)


def format_verdict(status: int, breach: Breach | None) -> str:
    """The report's last line: ``exit STATUS LIMIT DETAIL`` (``-`` for no limit)."""
    if breach is None:
        return f"exit {status} -\n"
    return f"exit {status} {breach.limit} {breach.detail}\n"


def parse_report(text: str) -> tuple[bool, int | None, Breach | None]:
    """``(ready, status, breach)`` from what the warden wrote (pure; lenient).

    ``ready``: the sandbox was set up and the engine forked; ``status`` is None if no
    verdict came (the warden was killed, or never started).
    """
    ready, status, breach = False, None, None
    for line in text.splitlines():
        words = line.split(" ", 3)
        if words == ["ready"]:
            ready = True
        elif len(words) >= 3 and words[0] == "exit":
            try:
                status = int(words[1])
            except ValueError:
                continue
            if words[2] in LIMITS:
                breach = Breach(words[2], words[3] if len(words) > 3 else words[2] + " limit")
    return ready, status, breach


def _drop_privileges(uid: int, gid: int) -> None:
    with open("/proc/sys/user/max_user_namespaces", "w") as f:
        f.write("0")
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)  # from uid 0 to another: every capability is gone


def _start(config: Config, argv: Sequence[str]) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:  # the child: limits, then the engine
        _signal.pthread_sigmask(_signal.SIG_SETMASK, [])
        os.closerange(3, 1 << 16)  # bwrap's pipes and ours: the engine gets its 0, 1, 2
        for name, value in config.rlimits.items():
            which = RLIMITS[name]
            hard = resource.getrlimit(which)[1]
            if hard != resource.RLIM_INFINITY:  # only root may raise a hard limit
                value = min(value, hard)
            # CPU: SIGXCPU at the limit names it beyond doubt; SIGKILL a second later
            # if the engine ignores that.
            top = value + 1 if name == "CPU" and value != hard else value
            resource.setrlimit(which, (value, top))
        os.execvp(argv[0], list(argv))
    except BaseException as exc:
        text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        os.write(2, f"sandbox: cannot run {argv[0]}: {text}\n".encode(errors="replace"))
    os._exit(127)


def _reap(engine: int) -> tuple[int, float] | None:
    """Reap every dead child; the engine's returncode and CPU seconds if it was one."""
    found = None
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == engine:
            found = (returncode(status), usage.ru_utime + usage.ru_stime)


def _kill_all() -> None:
    # kill(-1) from process 1 of a PID namespace reaches that namespace only. From any
    # other process it reaches every process the caller may signal: as root, the whole
    # host. ``main`` refuses to run outside process 1; this checks again, for any caller.
    if os.getpid() != 1:
        raise RuntimeError("the warden kills with kill(-1) only as process 1 of a sandbox")
    try:  # noqa: SIM105 (contextlib costs milliseconds to import)
        os.kill(-1, SIGKILL)  # from process 1: everyone in the namespace but us
    except ProcessLookupError:
        pass
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


class Watchdog:
    """Notices the referee's death: nobody reads the report pipe any more.

    The referee holds the pipe's only read end (close-on-exec, so no other program it
    runs keeps a copy), so the kernel closes it when the referee dies, however it dies
    (SIGKILL included), and a ``poll`` of our write end then says ``POLLERR``. This
    replaces bwrap's ``--die-with-parent``, whose parent-death signal fires when the
    *thread* that started bwrap exits: the referee starts engines from short-lived
    worker threads, so it killed engines that thought for more than a few seconds.
    """

    __slots__ = ("_poller",)

    def __init__(self, report: int) -> None:
        self._poller = select.poll()
        self._poller.register(report, 0)  # no event asked: POLLERR and POLLHUP only

    def referee_gone(self) -> bool:
        """Whether the referee has died (never blocks)."""
        return bool(self._poller.poll(0))


def wait_for_go(hold: int, report: int) -> bool:
    """Wait for the referee's go: True once a byte arrives on ``hold``; False when the
    referee closed that pipe (it will not use this sandbox) or died (its end of either
    pipe closed), so that nothing is started."""
    poller = select.poll()
    poller.register(hold, select.POLLIN)  # POLLHUP too: the referee's end is closed
    poller.register(report, 0)  # POLLERR: the referee is gone (``Watchdog``)
    while True:
        try:
            events = poller.poll()
        except InterruptedError:
            continue
        if any(fd == report for fd, _ in events):
            return False
        try:
            return os.read(hold, 1) != b""
        except InterruptedError:
            continue
        except OSError:
            return False


def watch(
    config: Config,
    engine: int,
    look: Callable[[Config], Sample] = sample,
    referee_gone: Callable[[], bool] | None = None,
) -> tuple[int, Breach | None]:
    """Wait for the engine, sampling; its returncode and the limit that ended it, if one.

    When ``referee_gone()`` turns true (every ``poll`` seconds at most), the sandbox
    is killed: nobody is left to play the game or to read the verdict.
    """
    while True:
        _signal.sigtimedwait([_signal.SIGCHLD], config.poll)
        if referee_gone is not None and referee_gone():
            _kill_all()
            return -SIGKILL, None
        ended = _reap(engine)
        if ended is not None:
            status, engine_cpu = ended
            return status, diagnose_exit(config, status, engine_cpu, look(config))
        breach = check(config, look(config))
        if breach is not None:
            _kill_all()
            return -SIGKILL, breach


def _report(fd: int, text: str) -> None:
    try:  # noqa: SIM105 (contextlib costs milliseconds to import)
        os.write(fd, text.encode(errors="replace"))
    except OSError:
        pass  # the referee is gone: nobody to tell


def main(args: Sequence[str]) -> int:
    """``warden.py KEY=VALUE... -- ARGV...``: run ``ARGV`` as the sandbox's engine.

    Refuses (status 2) unless it is process 1 of its PID namespace: only there does its
    ``kill(-1)`` stay inside the sandbox.
    """
    if os.getpid() != 1:
        os.write(2, b"warden: not process 1 of a sandbox; refusing to run\n")
        return 2
    try:
        split = list(args).index("--")
        config = Config.from_args(args[:split])
        argv = args[split + 1 :]
        if not argv:
            raise ValueError("no engine command")
        if config.keep is not None:
            raise ValueError("a kept sandbox needs the compiled warden")
    except (ValueError, KeyError) as exc:
        os.write(2, f"warden: bad arguments: {exc}\n".encode())
        return 2
    os.set_inheritable(config.report, False)
    if config.drop is not None:
        _drop_privileges(*config.drop)
    if config.hold is not None:
        os.set_inheritable(config.hold, False)
        if not wait_for_go(config.hold, config.report):
            return 0  # not used: no engine, no report
    _signal.pthread_sigmask(_signal.SIG_BLOCK, [_signal.SIGCHLD])
    engine = _start(config, argv)
    _report(config.report, "ready\n")
    status, breach = watch(config, engine, referee_gone=Watchdog(config.report).referee_gone)
    _kill_all()
    _report(config.report, format_verdict(status, breach))
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
