"""What a finished event tells a person: which referee judged it (``referee --version``,
``results.json`` and every record's ``Referee`` tag say the same version, the installed
package's), and its standings as a page to open in a browser."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

from referee.record import read_records
from referee.version import VERSION
from tests.clirun import cli
from tests.report.events import MATCH, play
from tournaments.html.page import STYLE


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


def test_standings_as_html_is_a_whole_styled_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = play(MATCH, tmp_path / "event")
    status, out, _ = cli(capsys, "standings", str(event), "--format", "html")
    assert status == 0
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert f"<style>{STYLE}</style>" in out  # the report's style: tables with borders
    assert "th, td { border: 1px solid" in STYLE
    assert "<table>" in out and "Report &lt;test&gt; &amp; match" in out  # escaped name
