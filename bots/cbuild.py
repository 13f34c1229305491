"""Build the bundled C engines on first use with the system C compiler.

The binary goes to a per-user cache keyed by the source's hash, so a changed
source is rebuilt and concurrent builders never see a half-written file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from protocol.errors import EngineSetupError

C_SOURCES = Path(__file__).with_name("c")
CFLAGS = ("-O2", "-std=c99", "-Wall", "-Wextra", "-Werror")


class BuildError(EngineSetupError):
    """The engine could not be built; the message is one line (a ``UserError``: the
    user can install a compiler, or name another engine)."""


def find_compiler() -> str | None:
    """The C compiler to use: ``$CC``, else ``cc``, ``gcc`` or ``clang`` on PATH."""
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return candidate
    return None


def cache_dir() -> Path:
    """Where built engines live: ``$REFEREE_CACHE`` or ``$XDG_CACHE_HOME/referee``."""
    root = os.environ.get("REFEREE_CACHE")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "referee"


def build_c_engine(name: str) -> Path:
    """Compile ``bots/c/<name>.c`` if needed and return the executable's path.

    :raises BuildError: no such source, no compiler, the cache folder cannot be
        written, or the compiler failed.
    """
    source = C_SOURCES / f"{name}.c"
    if not source.is_file():
        raise BuildError(f"no bundled C engine named {name!r}")
    digest = hashlib.sha256(source.read_bytes() + " ".join(CFLAGS).encode()).hexdigest()[:16]
    target = cache_dir() / f"{name}-{digest}"
    if target.is_file() and os.access(target, os.X_OK):
        return target
    compiler = find_compiler()
    if compiler is None:
        raise BuildError(f"cannot build {name}: no C compiler found (set CC or install cc)")
    try:  # the cache is the user's ($REFEREE_CACHE, $XDG_CACHE_HOME): say which
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}-", dir=target.parent)
    except OSError as exc:
        raise BuildError(
            f"cannot build {name}: cannot write {target.parent}: {exc.strerror or exc}"
        ) from None
    os.close(fd)
    try:
        done = subprocess.run(
            [compiler, *CFLAGS, "-o", tmp, str(source)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["unknown error"])[0]
            raise BuildError(f"cannot build {name}: {first}")
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
