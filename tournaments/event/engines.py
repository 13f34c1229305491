"""Turning ``--engine`` arguments into engine specs, with the built-in bots by name.

A built-in name (``random``, ``greedy``, ``mcts``, ``trike-c``) needs no path; anything
else is a command line split as a shell splits words but never run through a shell. A
built-in name may be followed by the bot's own arguments (``greedy --seed 2``).
``NAME=COMMAND`` gives the entrant an explicit name.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace

from bots.cbuild import build_c_engine
from protocol.errors import EngineSetupError
from protocol.sandbox.host import covered_scratch, foreign_dirs, program_dirs
from protocol.spec import EngineSpec


def _python_bot(name: str) -> Callable[[], tuple[str, ...]]:
    return lambda: (sys.executable, "-m", "bots", name)


def _c_bot(name: str) -> Callable[[], tuple[str, ...]]:
    return lambda: (str(build_c_engine(name)),)


BUILTIN_ENGINES: dict[str, Callable[[], tuple[str, ...]]] = {
    "random": _python_bot("random"),
    "greedy": _python_bot("greedy"),
    "mcts": _python_bot("mcts"),
    "trike-c": _c_bot("trike_engine"),
}
"""Engines reachable by name; the value builds the command line on demand."""

_NAMED = re.compile(r"^([A-Za-z0-9_.+-]+)=(.+)$", re.DOTALL)


def resolve_engine(text: str) -> EngineSpec:
    """An ``EngineSpec`` from one ``--engine`` argument.

    :raises EngineSetupError: an empty or unbalanced command (one-line message).
    :raises bots.cbuild.BuildError: a built-in C engine that cannot be built.
    """
    text = text.strip()
    name: str | None = None
    match = _NAMED.match(text)
    if match and not os.path.exists(text):
        name, text = match.group(1), match.group(2).strip()
    if text in BUILTIN_ENGINES:
        return EngineSpec(name=name or text, argv=BUILTIN_ENGINES[text]())
    first, _, rest = text.partition(" ")
    if first in BUILTIN_ENGINES and not os.path.exists(first):
        # A built-in with arguments: "greedy --seed 2".
        extra = EngineSpec.from_command(rest, name=first).argv if rest.strip() else ()
        return EngineSpec(name=name or first, argv=BUILTIN_ENGINES[first]() + extra)
    return EngineSpec.from_command(text, name=name)


def unique_names(specs: Sequence[EngineSpec]) -> list[EngineSpec]:
    """Rename repeated entrant names ``x``, ``x#2``, ``x#3`` so standings stay apart."""
    seen: dict[str, int] = {}
    renamed: list[EngineSpec] = []
    for spec in specs:
        count = seen.get(spec.name, 0) + 1
        seen[spec.name] = count
        if count > 1:
            spec = replace(spec, name=f"{spec.name}#{count}")
        renamed.append(spec)
    return renamed


def check_runnable(spec: EngineSpec) -> None:
    """Refuse an engine whose program cannot be started, before any game.

    A program with a ``/`` is looked up relative to the engine's working directory,
    one without on ``PATH`` (the engine's own ``PATH`` if its environment sets one),
    as the spawn will. Whether it then speaks the protocol is the game's business.

    :raises EngineSetupError: one line naming the program.
    """
    program = spec.argv[0]
    if spec.cwd is not None and not os.path.isdir(spec.cwd):
        raise EngineSetupError(f"cannot run {program!r}: no directory {spec.cwd!r}")
    if os.sep in program:
        found: str | None = os.path.join(spec.cwd or os.curdir, program)
    else:
        found = shutil.which(program, path=(spec.env or {}).get("PATH"))
    if found is None or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise EngineSetupError(f"cannot run {program!r}: not an executable file")


SANDBOX_USER = "nobody"
"""Who runs engines in the sandbox when the referee runs as root (``SANDBOX_UID``)."""


def anchor_paths(spec: EngineSpec, base: str) -> EngineSpec:
    """``spec`` with its relative program and script paths made absolute, for the sandbox.

    In the sandbox an engine starts in ``/scratch`` (or its ``cwd``), not where the
    referee was started: ``./engine`` or ``python3 engine.py`` would name nothing there.
    The program (when it holds a ``/``) and every argument that names an existing file
    are resolved against the engine's ``cwd``, else ``base`` (the current directory for
    ``-e``, the config file's folder for a config). Built-in names and options are left
    as they are.
    """
    root = spec.cwd or base
    argv = list(spec.argv)
    if os.sep in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.abspath(os.path.join(root, argv[0]))
    for i, arg in enumerate(argv[1:], start=1):
        if arg and not arg.startswith("-") and not os.path.isabs(arg):
            candidate = os.path.join(root, arg)
            if os.path.isfile(candidate):
                argv[i] = os.path.abspath(candidate)
    return spec if tuple(argv) == spec.argv else replace(spec, argv=tuple(argv))


def _files(spec: EngineSpec) -> list[tuple[str, bool]]:
    """The engine's program and script files on the host: ``(path, must run)``."""
    program = spec.argv[0]
    found = (
        os.path.join(spec.cwd or os.curdir, program)
        if os.sep in program
        else shutil.which(program, path=(spec.env or {}).get("PATH"))
    )
    files = [(found, True)] if found else []
    # The script is the first argument naming a file (as ``program_dirs`` has it); the
    # files later arguments name are the engine's business.
    script = next((a for a in spec.argv[1:] if os.path.isabs(a) and os.path.isfile(a)), None)
    return files + ([(script, False)] if script else [])


def check_sandbox_access(spec: EngineSpec, *, as_root: bool | None = None) -> None:
    """Refuse a sandboxed engine whose program or script the sandbox's user cannot use.

    As root the sandbox runs engines as ``nobody``: each file, and the directory that
    holds it, must be open to others (read, and run for the program; the directory:
    search; the sandbox makes the directories above it itself). Otherwise it runs as the
    referee's user, whom ``os.access`` asks about.

    :raises EngineSetupError: one line naming the file and the fix.
    """
    if spec.sandbox is None:
        return
    _refuse_scratch_dirs(spec)
    root = os.geteuid() == 0 if as_root is None else as_root
    for path, run in _files(spec):
        path = os.path.realpath(path)
        if not root:
            if not os.access(path, os.R_OK | (os.X_OK if run else 0)):
                need = "read and run" if run else "read"
                raise EngineSetupError(f"cannot run {path!r} in the sandbox: you cannot {need} it")
            continue
        mode = os.stat(path).st_mode
        wanted = stat.S_IROTH | (stat.S_IXOTH if run else 0)
        if mode & wanted != wanted:
            fix = "o+rx" if run else "o+r"
            raise EngineSetupError(
                f"cannot run {path!r} in the sandbox: its user ({SANDBOX_USER}) cannot"
                f" {'read and run' if run else 'read'} it: make it readable by others"
                f" (chmod {fix} {shlex.quote(path)})"
            )
        # The directory is mounted as it is; the sandbox makes the ones above it itself.
        parent = os.path.dirname(path)
        if not os.stat(parent).st_mode & stat.S_IXOTH:
            raise EngineSetupError(
                f"cannot run {path!r} in the sandbox: its user ({SANDBOX_USER}) cannot"
                f" enter {parent!r}: make it searchable by others"
                f" (chmod o+rx {shlex.quote(parent)})"
            )


def _refuse_scratch_dirs(spec: EngineSpec) -> None:
    """Refuse an engine whose working directory, program or script lies directly in a
    directory the sandbox has its own empty scratch at, or above one
    (``protocol.sandbox.host.covered_scratch``).

    :raises EngineSetupError: one line naming the directory and the fix.
    """
    covered = covered_scratch(_dirs(spec))
    if covered is not None:
        found, scratch = covered
        raise EngineSetupError(
            f"cannot run engine {spec.name!r} in the sandbox from {found!r}: the"
            f" sandbox has its own empty {scratch} there; put the engine in a"
            f" folder of its own (e.g. {scratch}/{spec.name})"
        )


def _dirs(spec: EngineSpec) -> list[str]:
    return program_dirs(spec.argv, spec.cwd, (spec.env or {}).get("PATH"))


def hide_each_other(specs: Sequence[EngineSpec]) -> tuple[EngineSpec, ...]:
    """The entrants, each sandboxed one with the others' directories hidden from it.

    An entrant's directories are its working directory, its program's and its script's
    (``protocol.sandbox.host.program_dirs``); what every sandbox shows anyway (the
    system, Python, the referee's code) and the entrant's own stay visible.
    """
    if all(spec.sandbox is None for spec in specs):
        return tuple(specs)  # nothing to hide from: no directory need be resolved
    dirs = [_dirs(spec) for spec in specs]
    # How many entrants use each directory: another entrant uses ``d`` when more use it
    # than ``i`` alone (a pass over the field, not over every other entrant per entrant).
    users: dict[str, int] = {}
    for found in dirs:
        for d in set(found):
            users[d] = users.get(d, 0) + 1
    hidden: list[EngineSpec] = []
    for i, spec in enumerate(specs):
        if spec.sandbox is not None:
            own = set(dirs[i])
            others = [d for d, count in users.items() if count > (d in own)]
            extra = [d for d in foreign_dirs(dirs[i], others) if d not in spec.sandbox.hidden]
            spec = replace(spec, sandbox=replace(spec.sandbox, hidden=(*spec.sandbox.hidden,
                                                                        *extra)))  # fmt: skip
        hidden.append(spec)
    return tuple(hidden)


def hide_path(spec: EngineSpec, path: str | os.PathLike[str] | None) -> EngineSpec:
    """``spec`` with ``path`` (the event's output) hidden from it, if it is sandboxed."""
    if spec.sandbox is None or path is None:
        return spec
    real = os.path.realpath(path)
    if real in spec.sandbox.hidden:
        return spec
    return replace(spec, sandbox=replace(spec.sandbox, hidden=(*spec.sandbox.hidden, real)))
