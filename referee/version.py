"""The referee's own version: the installed package's, as ``referee --version`` prints it
and every record's ``Referee`` tag and ``results.json`` keep it."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def referee_version() -> str:
    """The version of the installed ``referee`` package (``pyproject.toml``'s), or
    ``unknown`` when the code runs from a tree that was never installed."""
    try:
        return version("referee")
    except PackageNotFoundError:
        return "unknown"


VERSION = referee_version()
"""Read once per process (the metadata lookup reads files)."""
