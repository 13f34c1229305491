"""``report --out`` and ``adjudicate --html`` treat the folders of their page alike: a
missing folder is made (a record file's is not: ``play --out``), a file in its way is a
one-line error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import cli


def _page_args(command: str, match_dir: Path, page: Path) -> tuple[str, ...]:
    if command == "report":
        return ("report", str(match_dir), "--out", str(page))
    return ("adjudicate", str(match_dir / "games.tgn"), "--html", str(page))


@pytest.mark.parametrize("command", ["report", "adjudicate"])
def test_a_missing_folder_of_the_page_is_made(
    command: str, match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "missing" / "dir" / "page.html"
    code, _, err = cli(capsys, *_page_args(command, match_dir, page))
    assert (code, err) == (0, "")
    assert page.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("command", ["report", "adjudicate"])
def test_a_file_in_the_way_of_the_folder_is_one_line(
    command: str, match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("kept")
    page = tmp_path / "file" / "dir" / "page.html"
    code, _, err = cli(capsys, *_page_args(command, match_dir, page))
    assert code == 2
    assert err.startswith(f"referee: error: cannot write {page}: ") and err.count("\n") == 1
    assert "Not a directory" in err
    assert (tmp_path / "file").read_text() == "kept"
