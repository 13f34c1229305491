"""The report in a real headless chromium (Debian's chromium and chromedriver, driven over
WebDriver): it loads without console errors, a game steps forward and back with the
buttons and the arrow keys, and the crosstable it shows is ``results.json``'s.

Skipped, with the reason, when chromium or chromedriver is missing or cannot start
(``.ci/run`` installs both when apt is available).
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.adjudicate_stream import adjudicate_file
from tests.report.conftest import errors as _errors
from tests.report.webdriver import Browser
from tournaments.cli.adjudicate import write_adjudication_page
from tournaments.html.report import build_report
from tournaments.store.event_dir import read_event
from tournaments.store.journal import RESULTS


def _state(browser: Browser, game: str) -> tuple[str, str]:
    """The move counter and the board markup of ``game`` (a CSS selector)."""
    value = browser.execute(
        "var el = document.querySelector(arguments[0]);"
        "return [el.querySelector('.ply').textContent, el.querySelector('.board').innerHTML];",
        game,
    )
    return str(value[0]), str(value[1])


def test_report_in_chromium(browser: Browser, match_dir: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(build_report(read_event(match_dir)))
    browser.get(page.as_uri())
    assert _errors(browser.console()) == []

    # The crosstable the browser shows is results.json's.
    results = json.loads((match_dir / RESULTS).read_text())
    shown = browser.execute(
        "return Array.from(document.querySelectorAll('table.crosstable td[data-entrant]'))"
        ".map(td => [td.dataset.entrant, td.dataset.opponent, td.textContent]);"
    )
    expected = [
        [c["entrant"], c["opponent"], f"{c['points']:g}/{c['games']}"]
        for c in results["crosstable"]
    ]
    assert sorted(shown) == sorted(expected) and expected
    names = browser.execute(
        "return Array.from(document.querySelectorAll('table.standings tbody tr'))"
        ".map(tr => tr.cells[1].textContent);"
    )
    assert names == [row["name"] for row in results["standings"]]

    # Step the first game with the buttons, the arrow keys, Home and End, and a click.
    game = 'details.game[data-game="0"]'
    browser.click(f"{game} > summary")
    # The first picture is drawn by the details element's toggle event, a later task.
    browser.wait_for(f"document.querySelector('{game} .ply').textContent !== ''")
    counter, start = _state(browser, game)
    plies = int(counter.split("/")[1])
    assert counter == f"move 0/{plies}" and plies >= 3 and "<svg" in start
    browser.click(f'{game} button[data-step="next"]')
    counter, one = _state(browser, game)
    assert counter == f"move 1/{plies}" and one != start and "<svg" in one
    browser.press("ArrowRight")
    counter, two = _state(browser, game)
    assert counter == f"move 2/{plies}" and two not in (start, one)
    browser.press("ArrowLeft")
    assert _state(browser, game) == (f"move 1/{plies}", one)
    browser.press("End")
    counter, last = _state(browser, game)
    assert counter == f"move {plies}/{plies}" and last not in (start, one, two)
    browser.press("ArrowRight")  # past the end: stays
    assert _state(browser, game) == (f"move {plies}/{plies}", last)
    browser.press("Home")
    assert _state(browser, game) == (f"move 0/{plies}", start)
    browser.click(f'{game} button[data-step="last"]')
    assert _state(browser, game) == (f"move {plies}/{plies}", last)
    browser.click(f'{game} .moves span[data-ply="2"]')
    assert _state(browser, game) == (f"move 2/{plies}", two)
    current = browser.execute(
        "return document.querySelector(arguments[0] + ' .moves span.current').dataset.ply;", game
    )
    assert current == "2"

    # The list of games links to each game and opens it.
    second = browser.execute("return document.querySelectorAll('details.game')[1].id;")
    assert not browser.execute(f"return document.getElementById('{second}').open;")
    browser.click(f'table.games a[href="#{second}"]')
    assert browser.execute(f"return document.getElementById('{second}').open;") is True
    assert _errors(browser.console()) == []


def test_adjudication_page_in_chromium(browser: Browser, match_dir: Path, tmp_path: Path) -> None:
    source = match_dir / "games.tgn"
    page = tmp_path / "verdicts.html"
    write_adjudication_page(source, adjudicate_file(source), page)
    browser.get(page.as_uri())
    assert _errors(browser.console()) == []
    verdicts = browser.execute(
        "return Array.from(document.querySelectorAll('tbody tr'))"
        ".map(tr => tr.cells[2].textContent);"
    )
    assert verdicts == ["confirmed"] * 4
