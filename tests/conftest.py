"""Shared test helpers. Keep this small: add helpers here only when several packages need them.

Tiers. ``pytest`` runs the whole suite; ``pytest -m "not slow"`` is the fast tier (every
module's unit tests, under two minutes on two cores). A test is ``slow`` when it has one of
the kinds below, given by this rule (``pytest_collection_modifyitems``):

* ``cluster``: every test under ``tests/cluster/`` (a real Dask scheduler and workers);
* ``browser``: every test that uses the ``browser`` fixture (headless chromium);
* ``sandbox``: every test that uses a ``bwrap`` fixture (the one here, or a module's own
  of that name), or is marked so (engines run under bubblewrap);
* ``processes``: marked by hand, per test or per file (``pytestmark``): real matches,
  tournaments or engine batteries that start many processes;
* ``marathon``: marked by hand: thousands of random games, deep perft, big fuzz and
  memory runs.

A new test under ``tests/cluster/`` or on the ``browser``/``bwrap`` fixtures lands in its
tier by itself; any other test that runs longer than ``SLOW_SECONDS`` without a mark is
named at the end of the run, to be marked (or made cheaper).

No ``pytest-xdist``: many tests measure deadlines and margins (move times, start and
signal timeouts, the live server's cuts) and many start engine processes; two test
workers on two cores would take the CPU those margins assume, so ``-n 2`` is not safe
for this suite as it stands. Run the tiers one after the other instead. A marathon
that only computes (random games, deep perft) shares its own parts among the cores
instead (``tests/cores.py``), while no other test runs.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.clirun import RefereeCli, referee_here
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


@pytest.fixture
def referee_cli(capsys: pytest.CaptureFixture[str]) -> RefereeCli:
    """``referee ARGS… [cwd=…]`` run in this process (``tests.clirun.referee_here``),
    answered as ``run_referee`` answers: for tests of what a command does, where the
    referee's own process (its signals, exit, stderr) is not the point."""
    return functools.partial(referee_here, capsys)


@pytest.fixture(scope="session")
def bwrap() -> None:
    """Skip (with the reason) where bubblewrap cannot run a sandbox; a test that asks for
    it is in the ``sandbox`` tier."""
    from protocol.sandbox.host import SandboxUnavailable, probe

    try:
        probe()
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(params=["compiled", "python"])
def warden(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test's sandboxes with each warden in turn: the compiled one (skipped where
    it cannot be built) and the Python one (``REFEREE_WARDEN=python``, which the engines'
    referee subprocesses inherit)."""
    from protocol.sandbox import compiled

    if request.param == "python":
        monkeypatch.setenv(compiled.CHOICE_VARIABLE, "python")
    else:
        monkeypatch.delenv(compiled.CHOICE_VARIABLE, raising=False)
        if compiled.path() is None:
            pytest.skip("the compiled warden cannot be built here (no C compiler?)")
    return str(request.param)


TIERS = ("marathon", "browser", "cluster", "sandbox", "processes")
"""The kinds of slow test (each registered in pyproject.toml); any of them makes ``slow``."""
SLOW_SECONDS = 3.0
"""An unmarked test slower than this is named in the run's summary."""
_TESTS = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    """Give SIGINT its usual meaning back when the run was started with it ignored.

    A shell without job control starts a background command (``pytest &`` in a script)
    with SIGINT ignored, and an ignored signal stays ignored across ``exec``: every
    ``referee`` a test starts would then ignore the Ctrl+C the test sends it, as a
    well-behaved Unix program should, and the signal tests would wait in vain. With a
    handler installed here, a child starts with SIGINT at its default again.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the project's modules to bytecode once, before any test starts a process.

    The suite starts well over a thousand Python processes (``referee`` commands,
    workers, bots). Where ``PYTHONDONTWRITEBYTECODE`` is set (as on the machines this
    suite runs on) none of them writes its ``__pycache__``, so each one compiled every
    module it read from source again: about a third of a worker's start. A process still
    reads bytecode that exists and is current; ``compileall`` writes it (only for a
    module whose bytecode is missing or stale), whatever that variable says.
    """
    import compileall

    for package in ("protocol", "referee", "bots", "tournaments", "tests"):
        compileall.compile_dir(ROOT / package, quiet=2)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test's tier by the rule in this module's docstring."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if _TESTS / "cluster" in Path(item.path).parents:
            item.add_marker(pytest.mark.cluster)
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if "bwrap" in fixtures:
            item.add_marker(pytest.mark.sandbox)
        if any(item.get_closest_marker(kind) for kind in TIERS):
            item.add_marker(pytest.mark.slow)


_unmarked_slow: list[tuple[str, float]] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > SLOW_SECONDS and "slow" not in report.keywords:
        _unmarked_slow.append((report.nodeid, report.duration))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _unmarked_slow:
        terminalreporter.section("slow tests without a tier mark")
        terminalreporter.write_line(
            f"these took over {SLOW_SECONDS:g} s: mark them (tests/conftest.py says how) "
            "or make them cheaper"
        )
        for nodeid, seconds in sorted(_unmarked_slow, key=lambda x: -x[1]):
            terminalreporter.write_line(f"{seconds:7.2f}s {nodeid}")
