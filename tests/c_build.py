"""The bundled C engines for the tests, built by ``bots.cbuild`` (skip when impossible)."""

from __future__ import annotations

from pathlib import Path

from bots.cbuild import build_c_engine, find_compiler


def build_trike_engine() -> Path | None:
    """``bots/c/trike_engine.c`` compiled, or None without a C compiler.

    :raises bots.cbuild.BuildError: a compiler exists but the source does not compile.
    """
    if find_compiler() is None:
        return None
    return build_c_engine("trike_engine")
