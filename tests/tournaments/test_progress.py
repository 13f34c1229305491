"""The live progress display: game lines always, a redrawn progress line on terminals only."""

from __future__ import annotations

import dataclasses
import io
import json

from referee.core import Outcome, Termination
from tournaments.cli.progress import ProgressDisplay, clock, game_line, progress_line
from tournaments.results.game import GameReport
from tournaments.runner.run import Progress
from tournaments.store.journal import game_line as game_line_of_journal
from tournaments.store.journal import report_of

RECORD = '[Game "trike"]\n[Result "1-0"]\n[Score "2,1"]\n\n1. e3 1-0\n\n'


def _report(number: int) -> GameReport:
    outcome = Outcome(Termination.RULES, (1, 2), (2.0, 1.0), None, "pawn trapped")
    return GameReport(number, 1, 0, (0, 1), ("a", "b"), outcome, 27, RECORD)


def _progress(done: int) -> Progress:
    return Progress(done, 10, done, 2.0 * done, "a", float(done), done)


def test_lines() -> None:
    assert clock(75) == "1:15" and clock(3725) == "1:02:05"
    line = game_line(_report(3), 10)
    assert line == "Game 3/10 (round 1): a vs b: 1-0 [2,1] (rules, 27 plies) pawn trapped"
    record = RECORD.replace("\n\n", '\n[Opening "a1 swap"]\n\n', 1)
    opened = dataclasses.replace(_report(4), record=record)
    assert "(rules, 27 plies after a 2-ply opening) pawn trapped" in game_line(opened, 10)
    bar = progress_line(_progress(5))
    assert bar.startswith("[##########----------] 5/10 50% 0:10 ETA 0:10")
    assert bar.endswith("leader a 5/5")


def test_a_failed_game_s_line_names_its_transcript_and_the_report_keeps_it() -> None:
    crash = Outcome(Termination.CRASH, (2, 1), (0.0, 1.0), 0, "seat 1 (a): exited")
    failed = dataclasses.replace(_report(5), outcome=crash, transcript="/ev/logs/t-7.log")
    assert game_line(failed, 10).endswith("\n  transcript of game 5: /ev/logs/t-7.log")
    assert "transcript" not in game_line(dataclasses.replace(failed, transcript=""), 10)
    clean = dataclasses.replace(_report(6), transcript="/ev/logs/t-7.log")  # "all" keeps it
    assert "transcript" not in game_line(clean, 10)  # only failures point at theirs
    entry = json.loads(game_line_of_journal(failed))
    assert entry.pop("type") == "game" and report_of(entry) == failed


def test_terminal_gets_a_redrawn_progress_line() -> None:
    out = io.StringIO()
    display = ProgressDisplay(out, tty=True)
    display.game(_report(1), _progress(1))
    display.game(_report(2), _progress(2))
    display.clear()
    text = out.getvalue()
    assert text.count("\r\x1b[K") == 2
    assert text.count("Game ") == 2 and "ETA" in text


def test_pipe_gets_game_lines_only_and_quiet_nothing() -> None:
    out = io.StringIO()
    display = ProgressDisplay(out, tty=False)
    display.game(_report(1), _progress(1))
    display.clear()
    assert out.getvalue() == game_line(_report(1), 10) + "\n"
    quiet = io.StringIO()
    ProgressDisplay(quiet, tty=False, quiet=True).game(_report(1), _progress(1))
    assert quiet.getvalue() == ""
