"""``referee rules``: a game's page (or the index) from the clone, or from the copy an
installed wheel carries."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from referee.registry import GAME_NAMES
from tests.clirun import cli
from tournaments.cli import rules

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_game_it_prints_the_index(capsys) -> None:
    code, out, err = cli(capsys, "rules")
    assert code == 0 and err == ""
    assert out == (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")


def test_path_prints_the_file_name(capsys) -> None:
    code, out, _ = cli(capsys, "rules", "--path")
    assert code == 0 and Path(out.strip()) == ROOT / "docs" / "rules" / "README.md"


def test_an_unknown_game_is_one_error_line(capsys) -> None:
    code, out, err = cli(capsys, "rules", "chess")
    assert code == 2 and out == "" and "unknown game 'chess'" in err and err.count("\n") == 1


@pytest.fixture
def pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    packaged, clone = tmp_path / "packaged", tmp_path / "clone"
    clone.mkdir()
    (clone / "README.md").write_text("clone index\n", encoding="utf-8")
    (clone / "trike.md").write_text("clone trike\n", encoding="utf-8")
    monkeypatch.setattr(rules, "PACKAGED_PAGES", packaged)
    monkeypatch.setattr(rules, "CLONE_PAGES", clone)
    return packaged, clone


def test_a_clone_reads_its_docs_folder_and_aliases_find_the_page(capsys, pages) -> None:
    assert cli(capsys, "rules", "pure-trike")[1] == "clone trike\n"
    assert cli(capsys, "rules", "TRIKE")[1] == "clone trike\n"


def test_an_installed_copy_is_read_first(capsys, pages) -> None:
    packaged, _ = pages
    packaged.mkdir()
    (packaged / "README.md").write_text("packaged index\n", encoding="utf-8")
    (packaged / "trike.md").write_text("packaged trike\n", encoding="utf-8")
    assert cli(capsys, "rules")[1] == "packaged index\n"
    assert cli(capsys, "rules", "trike")[1] == "packaged trike\n"


def test_a_missing_page_or_folder_is_one_error_line(capsys, pages) -> None:
    code, _, err = cli(capsys, "rules", "triablo")
    assert code == 2 and "no rules page for triablo" in err and err.count("\n") == 1
    (pages[1] / "README.md").unlink()
    code, _, err = cli(capsys, "rules")
    assert code == 2 and "the rules pages are missing" in err


def test_the_wheel_carries_the_pages_where_the_command_looks() -> None:
    """pyproject.toml copies docs/rules into the wheel at the place ``PACKAGED_PAGES``
    names (relative to the installed packages), and that place is inside a package the
    wheel holds."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    target = wheel["force-include"]["docs/rules"]
    assert Path(target) == rules.PACKAGED_PAGES.relative_to(ROOT)
    assert Path(target).parts[0] in wheel["packages"]
    assert rules.CLONE_PAGES == ROOT / "docs" / "rules"


def test_every_page_is_a_game_printed_by_the_command_and_linked_from_the_index(capsys) -> None:
    folder = ROOT / "docs" / "rules"
    index = (folder / "README.md").read_text(encoding="utf-8")
    pages = sorted(p for p in folder.glob("*.md") if p.name != "README.md")
    assert pages, "no rules page"
    for page in pages:
        assert page.stem in GAME_NAMES, f"{page.name} is not named after a game id"
        assert f"]({page.name})" in index, f"the index does not link {page.name}"
        code, out, _ = cli(capsys, "rules", page.stem)
        assert code == 0 and out == page.read_text(encoding="utf-8")
