"""How to start an engine: ``EngineSpec``, pure data.

An engine is always started from an argument vector, never through a shell:
``EngineSpec.from_command`` splits a command line with POSIX ``shlex`` rules.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from protocol.errors import EngineSetupError
from protocol.sandbox import SandboxSettings


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """The command, working directory, environment and options of one engine."""

    name: str
    """A human name for messages and transcripts (not sent to the engine)."""
    argv: tuple[str, ...]
    """The program and its arguments; ``argv[0]`` is looked up on ``PATH`` if it has no ``/``."""
    cwd: str | None = None
    """The working directory, or None for the referee's own."""
    env: Mapping[str, str] | None = field(default=None, hash=False)
    """Extra environment variables, merged over the referee's environment at start."""
    options: tuple[tuple[str, str], ...] = ()
    """Engine options, sent as ``setoption name <n> value <v>`` after the handshake."""
    max_memory_mb: int | None = None
    """Address-space limit of the engine process, MiB (``RLIMIT_AS``); None for none."""
    max_cpu_seconds: int | None = None
    """CPU-time limit of the engine process, seconds (``RLIMIT_CPU``); None for none."""
    nodes: int | None = None
    """A node limit sent with every ``go`` (``go nodes <n>``; fastchess's ``nodes=``)."""
    depth: int | None = None
    """A depth limit sent with every ``go`` (``go depth <d>``)."""
    restart: bool = False
    """A fresh process for every game (else one is reused until it fails)."""
    sandbox: SandboxSettings | None = None
    """Run the engine in the bubblewrap sandbox with these settings (``protocol.sandbox``);
    None runs it as a plain process. In the sandbox ``max_memory_mb`` bounds the resident
    memory of all its processes together and ``max_cpu_seconds`` their CPU time, both
    checked by the warden (each process's own limits stay as a backstop)."""

    def __post_init__(self) -> None:
        if not self.argv or not self.argv[0]:
            raise ValueError(f"engine {self.name!r}: empty command")
        for label, limit in (
            ("memory", self.max_memory_mb),
            ("CPU", self.max_cpu_seconds),
            ("node", self.nodes),
            ("depth", self.depth),
        ):
            if limit is not None and limit <= 0:
                raise ValueError(f"engine {self.name!r}: the {label} limit must be positive")

    @property
    def required_features(self) -> tuple[str, ...]:
        """The handshake ``feature`` names this spec needs: ``nodes`` and/or ``depth``."""
        return tuple(
            name
            for name, limit in (("nodes", self.nodes), ("depth", self.depth))
            if limit is not None
        )

    def resource_limits(self) -> list[tuple[int, int]]:
        """``(resource.RLIMIT_*, value)`` pairs to apply to the process at start."""
        import resource

        limits = []
        if self.max_memory_mb is not None:
            limits.append((resource.RLIMIT_AS, self.max_memory_mb * 1024 * 1024))
        if self.max_cpu_seconds is not None:
            limits.append((resource.RLIMIT_CPU, self.max_cpu_seconds))
        return limits

    @classmethod
    def from_command(
        cls,
        cmd: str,
        name: str | None = None,
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        options: Iterable[tuple[str, str]] = (),
    ) -> EngineSpec:
        """Split ``cmd`` like a POSIX shell would (quotes, backslashes), without running one.

        ``name`` defaults to the file name of the program.

        :raises EngineSetupError: ``cmd`` is empty or its quotes are unbalanced (a
            ``UserError``: the command is the user's; one-line message).
        """
        try:
            argv = tuple(shlex.split(cmd, posix=True))
        except ValueError as exc:
            raise EngineSetupError(f"cannot parse engine command {cmd!r}: {exc}") from None
        if not argv or not argv[0]:
            raise EngineSetupError(f"empty engine command {cmd!r}")
        return cls(
            name=name if name is not None else os.path.basename(argv[0]) or argv[0],
            argv=argv,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            options=tuple(options),
        )

    def command_line(self) -> str:
        """The argument vector quoted as one POSIX shell line (for messages and records)."""
        return shlex.join(self.argv)

    def environment(self, base: Mapping[str, str]) -> dict[str, str] | None:
        """``base`` (normally ``os.environ``) with ``env`` merged over it; None if no extras."""
        if not self.env:
            return None
        merged = dict(base)
        merged.update(self.env)
        return merged
