"""Shared test helpers. Keep this small: add helpers here only when several packages need them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.report.webdriver import Browser, BrowserUnavailable

# No per-example deadline: a loaded 2-core machine can take a second for what usually
# takes a millisecond, and a test must not fail for that. In CI (CI=true) the examples
# are derandomized, so a run there repeats exactly; locally every run explores anew.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI", "").lower() in ("1", "true") else "dev")

ROOT = Path(__file__).resolve().parent.parent
"""The repository root: the working directory bots are started in."""


def bot_argv(*args: str) -> tuple[str, ...]:
    """The argument vector of a built-in bot: ``bot_argv("faulty", "--crash")``."""
    return (sys.executable, "-m", "bots", *args)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless chromium for the session (skipped, with the reason, without one)."""
    try:
        started = Browser.start()
    except BrowserUnavailable as exc:
        pytest.skip(f"no headless chromium: {exc}")
    with started:
        yield started
