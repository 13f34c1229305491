"""Tournaments shared by the report tests (played once per session: they are read-only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.events import MATCH, THREE, play


@pytest.fixture(scope="session")
def match_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(MATCH, tmp_path_factory.mktemp("report") / "match")


@pytest.fixture(scope="session")
def three_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(THREE, tmp_path_factory.mktemp("report") / "three")
