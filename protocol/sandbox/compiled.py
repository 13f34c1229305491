"""The compiled warden (``warden.c``): built on first use and cached, else ``warden.py``.

A sandboxed engine starts once per game, and its warden with it: the Python warden
costs 10 to 20 ms of CPU per start, the compiled one about a millisecond. So the
sandbox runs the compiled warden when it can, and the Python one, which does the same
job, when it cannot:

* ``path()`` builds ``warden.c`` with the system's C compiler (``$CC``, ``cc``,
  ``gcc`` or ``clang``) the first time it is asked in a cache directory, linked
  statically where the system has a static C library (``STATIC``: no dynamic loader
  runs at each start, about 0.4 ms of CPU less per sandbox) and dynamically where it
  has none, keyed by the source's and the flags' hash (``$REFEREE_CACHE``, else
  ``$XDG_CACHE_HOME/referee``, else ``~/.cache/referee``: where the bundled C engines
  are built too). The binary is
  checked before it is used (run outside a sandbox, it must refuse, as process 1 only
  may run it) and moved into place whole, so concurrent builders never see half a
  file. No compiler, a failed build, an unwritable cache: ``None`` (the Python warden),
  decided once per process, never an error.
* ``REFEREE_WARDEN=python`` in the environment always chooses the Python warden (the
  tests run both).
* ``disabled()``: ``protocol.sandbox.host.check_sandbox`` turns the compiled warden off
  for the rest of the process when a sandbox fails with it and works with warden.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).with_name("warden.c")
FLAGS = ("-O2", "-std=gnu99", "-Wall", "-Wextra")
"""No ``-Werror``: a new warning from another compiler must not cost the fast warden."""
STATIC = "-static"
"""Tried first: a static warden starts without the dynamic loader (its relocations and
the libraries' mappings are most of a small program's start). Without a static C
library (``libc.a``: Debian's ``libc6-dev`` has it, Fedora's needs ``glibc-static``) the
link fails and the warden is linked dynamically."""
CHOICE_VARIABLE = "REFEREE_WARDEN"
"""``python`` forces the Python warden; anything else (or nothing): the compiled one if it
can be had."""
BUILD_SECONDS = 120.0
"""The longest a build may take (a loaded machine; it normally takes under a second)."""
REFUSAL = b"warden: not process 1 of a sandbox"
"""How the compiled warden answers outside a sandbox: the check that it runs here."""

_UNKNOWN = "unknown"
_built: str | None = _UNKNOWN
"""The binary's path, None when it cannot be had, ``_UNKNOWN`` before the first look."""
_off = False
"""Set by ``disabled``: the compiled warden failed in a sandbox where warden.py works."""


def cache_directory() -> Path:
    """Where the compiled warden is kept (see the module docstring)."""
    explicit = os.environ.get("REFEREE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "referee"


def _compiler() -> str | None:
    names = (os.environ.get("CC"), "cc", "gcc", "clang")
    return next((name for name in names if name and shutil.which(name)), None)


def _refuses_outside(binary: str) -> bool:
    """Whether ``binary`` runs here and refuses, as it must outside a sandbox."""
    try:
        done = subprocess.run([binary], capture_output=True, timeout=BUILD_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 2 and done.stderr.startswith(REFUSAL)


def build() -> str | None:
    """The compiled warden's path, compiled now if the cache has none; None if it cannot
    be had (no compiler, the build or its check failed, no writable cache). Never raises.

    Linked statically where that works, else dynamically (``STATIC``)."""
    return _build((*FLAGS, STATIC)) or _build(FLAGS)


def _build(flags: tuple[str, ...]) -> str | None:
    """``build`` with these compiler flags (the cache key includes them)."""
    digest = hashlib.sha256(SOURCE.read_bytes() + " ".join(flags).encode()).hexdigest()[:16]
    try:
        directory = cache_directory()
        target = directory / f"warden-{digest}"
        if target.is_file() and os.access(target, os.X_OK):
            return str(target)
        compiler = _compiler()
        if compiler is None:
            return None
        directory.mkdir(parents=True, exist_ok=True)
        fd, scratch = tempfile.mkstemp(prefix=".warden-", dir=directory)
    except (OSError, RuntimeError):  # RuntimeError: Path.home() with no home
        return None
    os.close(fd)
    try:
        done = subprocess.run(
            [compiler, *flags, "-o", scratch, str(SOURCE)],
            capture_output=True, timeout=BUILD_SECONDS, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            return None
        os.chmod(scratch, 0o755)  # the sandbox's user (nobody, in root mode) runs it too
        if not _refuses_outside(scratch):
            return None
        os.replace(scratch, target)
        return str(target)
    except (OSError, subprocess.SubprocessError):
        return None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(scratch)


def path() -> str | None:
    """The compiled warden to run, or None for the Python one (builds it the first time)."""
    global _built
    if _off or os.environ.get(CHOICE_VARIABLE) == "python":
        return None
    if _built == _UNKNOWN:
        _built = build()
    return _built


@contextlib.contextmanager
def disabled() -> Iterator[None]:
    """Use the Python warden inside the block; keep it so if the block succeeds."""
    global _off
    before = _off
    _off = True
    try:
        yield
    except BaseException:
        _off = before
        raise
