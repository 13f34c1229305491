"""Tournaments shared by the report tests (played once per session: they are read-only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.report.events import MATCH, THREE, play


@pytest.fixture(scope="session")
def match_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(MATCH, tmp_path_factory.mktemp("report") / "match")


@pytest.fixture(scope="session")
def three_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(THREE, tmp_path_factory.mktemp("report") / "three")


def errors(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Console entries that are errors (uncaught exceptions, console.error, CSP blocks)."""
    return [e for e in entries if e.get("level") == "SEVERE"]
