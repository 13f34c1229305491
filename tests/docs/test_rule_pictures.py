"""Every picture of the rules pages is what the referee's picture code draws now, and every
picture a page shows is listed in ``tests/docs/rule_pictures.py`` (so it can be redrawn).

Redraw them all after a change:
``UPDATE_GOLDEN=1 python -m pytest tests/docs/test_rule_pictures.py``.
"""

from __future__ import annotations

import re

import pytest

from tests.docs.rule_pictures import IMG, PICTURES, Picture, draw
from tests.golden import check_golden

PAGES = IMG.parent


@pytest.mark.parametrize("picture", PICTURES, ids=[p.file for p in PICTURES])
def test_picture_matches_the_code(picture: Picture) -> None:
    check_golden(IMG / picture.file, draw(picture))


def test_file_names_are_unique_svg_names() -> None:
    names = [p.file for p in PICTURES]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9-]+\.svg", name) for name in names)


def test_every_picture_a_page_shows_is_in_the_table() -> None:
    listed = {p.file for p in PICTURES}
    shown = {
        (page.name, name)
        for page in PAGES.glob("*.md")
        for name in re.findall(r"\(img/([^)\s]+)\)", page.read_text(encoding="utf-8"))
    }
    missing = sorted(f"{page} shows img/{name}" for page, name in shown if name not in listed)
    assert not missing, "not in tests/docs/rule_pictures.py: " + "; ".join(missing)


def test_every_file_in_img_is_in_the_table() -> None:
    listed = {p.file for p in PICTURES}
    stray = sorted(path.name for path in IMG.glob("*") if path.name not in listed)
    assert not stray, f"files in docs/rules/img/ that no table row draws: {stray}"
