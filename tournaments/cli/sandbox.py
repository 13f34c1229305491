"""``--sandbox`` of ``play``, ``tournament`` and ``check-engine``: engines in bubblewrap.

``bwrap`` runs every engine of the command in the sandbox (``protocol.sandbox``,
``docs/SECURITY.md``); ``none`` runs them as plain processes. Before the first engine
starts, ``require_sandbox`` checks that bubblewrap works on this machine, so a missing
package is one line, not a void game per engine.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Annotated, cast

import typer

from protocol.sandbox import SandboxSettings
from protocol.sandbox.host import probe
from protocol.spec import EngineSpec
from referee.errors import UserError
from tournaments.event.config import SandboxMode
from tournaments.event.engines import (
    anchor_paths,
    check_sandbox_access,
    hide_each_other,
    hide_path,
)

MODES = ("none", "bwrap")

SandboxOption = Annotated[
    str | None,
    typer.Option(
        "--sandbox",
        metavar="none|bwrap",
        help="bwrap: every engine in the bubblewrap sandbox (docs/SECURITY.md).",
    ),
]


def sandbox_mode(value: str | None) -> SandboxMode | None:
    """The ``--sandbox`` value, checked. :raises UserError: not ``none`` or ``bwrap``."""
    if value is None:
        return None
    if value not in MODES:
        raise UserError(f"bad --sandbox {value!r} (expected none or bwrap)")
    return cast(SandboxMode, value)


def confine(
    specs: Sequence[EngineSpec], mode: SandboxMode | None, hidden: Iterable[os.PathLike[str]] = ()
) -> list[EngineSpec]:
    """The engines of an ad-hoc command in ``mode`` (unchanged for None or ``none``), each
    sandboxed one with its relative paths made absolute (``anchor_paths``, against the
    current directory), hiding the others' directories and the ``hidden`` paths.

    :raises UserError: the sandbox's user cannot read or run an engine's program or
        script (``check_sandbox_access``; one line naming the file and the fix).
    """
    if mode != "bwrap":
        return list(specs)
    here = os.getcwd()
    boxed = hide_each_other(
        [anchor_paths(replace(spec, sandbox=SandboxSettings()), here) for spec in specs]
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
