"""``--sandbox`` of ``play``, ``tournament`` and ``check-engine``: engines in bubblewrap.

``bwrap`` runs every engine of the command in the sandbox (``protocol.sandbox``,
``docs/SECURITY.md``); ``none`` runs them as plain processes. Before the first engine
starts, ``require_sandbox`` checks that bubblewrap works on this machine, so a missing
package is one line, not a void game per engine.

``--sandbox-memory MIB``, ``--sandbox-cpu SECONDS`` and ``--sandbox-procs N`` set the
sandbox's limits for every engine of the command (``SandboxLimits``, read once here):
``check-engine`` passes them to ``confine``, ``play`` and ``tournament`` to
``with_limits`` (over every entrant's config keys, as ``--sandbox`` is). Without them
the sandbox's defaults hold (2048 MiB, 3600 s, 64 processes). They limit the sandbox
only: given without one (no ``--sandbox bwrap``, no sandboxed entrant), they are
refused in one line rather than silently ignored.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, cast

from protocol.sandbox import SandboxSettings
from protocol.sandbox.host import probe
from protocol.spec import EngineSpec
from referee.errors import UserError
from tournaments.event.engines import (
    anchor_paths,
    check_sandbox_access,
    hide_each_other,
    hide_path,
)

if TYPE_CHECKING:  # only named here: check-engine reads this module and no config model
    from tournaments.event.config import SandboxMode, TournamentConfig

MODES = ("none", "bwrap")

@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """The ``--sandbox-*`` limits of one command; None keeps the default (or the config's)."""

    memory_mb: int | None = None
    cpu_seconds: int | None = None
    processes: int | None = None

    @property
    def flags(self) -> list[str]:
        """The flags given, for messages."""
        named = zip(
            ("--sandbox-memory", "--sandbox-cpu", "--sandbox-procs"),
            (self.memory_mb, self.cpu_seconds, self.processes),
            strict=True,
        )
        return [flag for flag, value in named if value is not None]

    def apply(self, spec: EngineSpec) -> EngineSpec:
        """``spec`` with these limits, if it is sandboxed (unchanged otherwise)."""
        if spec.sandbox is None:
            return spec
        settings = spec.sandbox
        if self.processes is not None:
            settings = replace(settings, max_processes=self.processes)
        return replace(
            spec,
            sandbox=settings,
            max_memory_mb=self.memory_mb if self.memory_mb is not None else spec.max_memory_mb,
            max_cpu_seconds=(
                self.cpu_seconds if self.cpu_seconds is not None else spec.max_cpu_seconds
            ),
        )

    def refuse_unsandboxed(self, specs: Iterable[EngineSpec]) -> None:
        """:raises UserError: limits were given but no engine runs in the sandbox."""
        if self.flags and all(spec.sandbox is None for spec in specs):
            raise UserError(
                f"{', '.join(self.flags)}: a limit of the sandbox, but no engine runs in it: "
                'add --sandbox bwrap (or sandbox = "bwrap" in the config)'
            )


def with_limits(config: TournamentConfig, limits: SandboxLimits) -> TournamentConfig:
    """``config`` with every entrant's sandbox limits set to the ``--sandbox-*`` flags
    given (entrants' own keys lose, as with ``--sandbox``; kept for ``--resume``)."""
    update = {
        key: value
        for key, value in (
            ("max_memory_mb", limits.memory_mb),
            ("max_cpu_seconds", limits.cpu_seconds),
            ("max_processes", limits.processes),
        )
        if value is not None
    }
    if not update:
        return config
    entrants = [entrant.model_copy(update=update) for entrant in config.entrants]
    return config.model_copy(update={"entrants": entrants})


def sandbox_override_notes(
    config: TournamentConfig, mode: SandboxMode | None, limits: SandboxLimits
) -> list[str]:
    """A note for each entrant's key of ``config`` that ``--sandbox`` (``mode``) or a
    ``--sandbox-*`` flag (``limits``) replaces with a different value (``with_sandbox``,
    ``with_limits``: the flags win over every entrant's keys); none for a key the entrant
    leaves unset."""
    given = [
        (key, flag, value)
        for key, flag, value in (
            ("sandbox", "--sandbox", mode),
            ("max_memory_mb", "--sandbox-memory", limits.memory_mb),
            ("max_cpu_seconds", "--sandbox-cpu", limits.cpu_seconds),
            ("max_processes", "--sandbox-procs", limits.processes),
        )
        if value is not None
    ]
    notes = []
    for entrant in config.entrants:
        for key, flag, value in given:
            own = getattr(entrant, key)
            if own is not None and own != value:
                shown = f'"{own}"' if isinstance(own, str) else own
                who = entrant.name or entrant.command
                notes.append(f"{flag} {value} overrides entrant {who}'s {key} = {shown}")
    return notes


def sandbox_mode(value: str | None) -> SandboxMode | None:
    """The ``--sandbox`` value, checked. :raises UserError: not ``none`` or ``bwrap``."""
    if value is None:
        return None
    if value not in MODES:
        raise UserError(f"bad --sandbox {value!r} (expected none or bwrap)")
    return cast("SandboxMode", value)


def confine(
    specs: Sequence[EngineSpec],
    mode: SandboxMode | None,
    hidden: Iterable[os.PathLike[str]] = (),
    limits: SandboxLimits = SandboxLimits(),
) -> list[EngineSpec]:
    """The engines of an ad-hoc command in ``mode`` (unchanged for None or ``none``), each
    sandboxed one with ``limits``, its relative paths made absolute (``anchor_paths``,
    against the current directory), hiding the others' directories and the ``hidden``
    paths.

    :raises UserError: ``limits`` without the sandbox; the sandbox's user cannot read or
        run an engine's program or script (``check_sandbox_access``; one line naming the
        file and the fix).
    """
    if mode != "bwrap":
        limits.refuse_unsandboxed(specs)
        return list(specs)
    here = os.getcwd()
    boxed = hide_each_other(
        [
            anchor_paths(limits.apply(replace(spec, sandbox=SandboxSettings())), here)
            for spec in specs
        ]
    )
    for spec in boxed:
        check_sandbox_access(spec)
    for path in hidden:
        boxed = tuple(hide_path(spec, path) for spec in boxed)
    return list(boxed)


def require_sandbox(specs: Iterable[EngineSpec]) -> None:
    """Check that the sandbox works here if an engine needs it.

    :raises protocol.sandbox.host.SandboxUnavailable: one line naming the package.
    """
    if any(spec.sandbox is not None for spec in specs):
        probe()
