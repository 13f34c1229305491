"""Which referee judged an event: ``referee --version``, ``results.json`` and every
record's ``Referee`` tag say the same version, the installed package's."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

from referee.record import read_records
from referee.version import VERSION
from tests.clirun import cli
from tests.report.events import MATCH, play


def test_the_version_is_the_installed_package_s(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "--version")
    assert status == 0 and out == f"referee {version('referee')}\n"
    assert version("referee") == VERSION


def test_results_and_every_record_name_the_version(tmp_path: Path) -> None:
    event = play(MATCH, tmp_path / "event")
    results = json.loads((event / "results.json").read_text())
    assert results["referee"] == VERSION
    records = read_records(event / "games.tgn")
    assert len(records) == 4
    assert all(record.tag("Referee") == VERSION for record in records)
