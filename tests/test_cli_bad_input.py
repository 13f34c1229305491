"""Every command against bad input: one line ``referee: error: ...``, exit status 2, no
traceback.

The cases run ``tournaments.cli.app.main`` in this process: that function *is* the
console script (checked below against the installed entry point, and a few cases
also through the real ``referee`` executable). Placeholders in the arguments:
``{missing}`` a path that does not exist, ``{dir}`` a directory, ``{empty}`` an empty
file, ``{binary}`` a file of non-UTF-8 bytes, ``{file}`` a small text file, ``{bindir}``
and ``{emptydir}`` output directories whose journal is binary or empty.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import trio

import tournaments.cli.app as app_module
from bots.cbuild import BuildError
from protocol.errors import EngineSetupError
from protocol.sandbox.host import SandboxUnavailable
from referee.errors import PathError, UnknownGameError, UserError
from referee.record import RecordSyntaxError, TagError
from tests.clirun import cli
from tournaments.cli.app import BUG_LINE, app, main
from tournaments.cli.signals import run_until_signalled
from tournaments.cluster.client import ClusterError
from tournaments.event.config import ConfigError
from tournaments.event.openings import OpeningError
from tournaments.event.wire import to_json
from tournaments.html.paged.writer import ReportError
from tournaments.play.worker import WorkerError
from tournaments.store.journal import JournalError

BAD_ENGINE = "/nonexistent/engine"

CASES: list[tuple[str, tuple[str, ...], str]] = [
    # (id, arguments, a fragment of the one error line)
    ("unknown-command", ("nosuch",), "No such command"),
    ("games-extra-argument", ("games", "extra"), "unexpected extra argument"),
    ("games-unknown-flag", ("games", "--bogus"), "No such option: --bogus"),
    ("perft-unknown-game", ("perft", "chess", "1"), "unknown game 'chess'"),
    ("perft-unknown-option", ("perft", "trike", "1", "--option", "bogus=1"), "bogus"),
    ("perft-bad-option-syntax", ("perft", "trike", "1", "--option", "size"), "key=value"),
    ("perft-bad-depth", ("perft", "trike", "x"), "DEPTH"),
    ("perft-bad-start", ("perft", "trike", "1", "--start", "\x00\xff"), ""),
    ("perft-bad-players", ("perft", "trike", "1", "--players", "5"), "5"),
    ("play-missing-game", ("play",), "Missing argument 'GAME'"),
    ("play-unknown-game", ("play", "chess", "-e", "random", "-e", "random"), "unknown game"),
    ("play-unknown-option", ("play", "trike", "-e", "random", "-e", "random", "--option",
                             "bogus=1"), "bogus"),
    ("play-unknown-flag", ("play", "trike", "--bogus"), "No such option"),
    ("play-bad-tc", ("play", "trike", "-e", "random", "-e", "random", "--tc", "fast"), "fast"),
    ("play-negative-tc", ("play", "trike", "-e", "random", "-e", "random", "--tc", "-1+0"), ""),
    ("play-tc-and-movetime", ("play", "trike", "-e", "random", "-e", "random", "--tc", "1+0",
                              "--movetime", "5"), "give either --tc or --movetime"),
    ("play-engine-cannot-start", ("play", "trike", "-e", "random", "-e", BAD_ENGINE),
     BAD_ENGINE),
    ("play-engine-not-a-program", ("play", "trike", "-e", "random", "-e", "{noexec}", "--games",
                                   "2"), "no game could be played"),
    ("play-engine-unbalanced-quote", ("play", "trike", "-e", "random", "-e", "'x"), "'x"),
    ("play-one-engine", ("play", "trike", "-e", "random"), "1"),
    ("play-out-is-directory", ("play", "trike", "-e", "random", "-e", "random",
                               "--out", "{dir}"), "cannot write records to {dir}: Is a directory"),
    ("play-out-in-missing-directory", ("play", "trike", "-e", "random", "-e", "random",
                                       "--out", "{missing}/x.tgn"),
     "cannot write records to {missing}/x.tgn: No such file or directory"),
    ("play-engine-builtin-unbalanced-quote", ("play", "trike", "-e", "random", "-e",
                                             "greedy 'x"), "cannot parse engine command"),
    ("play-engine-empty", ("play", "trike", "-e", "random", "-e", " "), "empty engine command"),
    ("play-out-in-kernel-fs", ("play", "trike", "-e", "random", "-e", "random", "--out",
                               "/sys/kernel/x.tgn"), "cannot write records to /sys/kernel/x.tgn"),
    ("adjudicate-missing", ("adjudicate", "{missing}"), "{missing}"),
    ("adjudicate-directory", ("adjudicate", "{dir}"), "{dir}"),
    ("adjudicate-empty", ("adjudicate", "{empty}"), "{empty}"),
    ("adjudicate-binary", ("adjudicate", "{binary}"), "{binary}:1:1: invalid UTF-8"),
    ("adjudicate-text", ("adjudicate", "{file}"), "{file}:1:1:"),
    ("adjudicate-html-in-missing-dir", ("adjudicate", "{file}", "--html", "{missing}/x.html"),
     "{file}"),
    ("adjudicate-record-html-under-file", ("adjudicate", "{record}", "--html",
                                           "{file}/x.html"), "cannot write {file}/x.html: "),
    ("check-engine-cannot-start", ("check-engine", "trike", "--", BAD_ENGINE), BAD_ENGINE),
    ("check-engine-directory", ("check-engine", "trike", "--", "{dir}"), "{dir}"),
    ("check-engine-binary-file", ("check-engine", "trike", "--", "{binary}"), "{binary}"),
    ("check-engine-unknown-game", ("check-engine", "chess", "--", "random"), "unknown game"),
    ("check-engine-unknown-option", ("check-engine", "trike", "--option", "bogus=1", "--",
                                     "random"), "bogus"),
    ("check-engine-negative-timeout", ("check-engine", "trike", "--timeout", "-1", "--",
                                       "random"), "--timeout"),
    # planned all at once before the first game: --games 100000000 hung, deaf to SIGTERM
    ("check-engine-too-many-games", ("check-engine", "trike", "--games", "100000000", "--",
                                     "random"), "less than or equal to 1000"),
    ("bench-bad-tc", ("bench", "--concurrency", "1", "--tc", "fast"), "fast"),
    # --tc was ignored without --concurrency: minutes of the default runs, none at that clock
    ("bench-tc-alone", ("bench", "--tc", "fast"), "--tc sets the clock of the --concurrency"),
    ("bench-unknown-engine", ("bench", "--concurrency", "1", "--engine", BAD_ENGINE),
     BAD_ENGINE),
    ("tournament-config-missing", ("tournament", "{missing}", "--out", "{missing}"),
     "{missing}"),
    ("tournament-config-directory", ("tournament", "{dir}", "--out", "{missing}"), "{dir}"),
    ("tournament-config-empty", ("tournament", "{empty}", "--out", "{missing}"),
     "game: field required"),
    ("tournament-config-binary", ("tournament", "{binary}", "--out", "{missing}"),
     "{binary}"),
    ("tournament-config-not-toml", ("tournament", "{file}", "--out", "{missing}"), "{file}"),
    ("tournament-unknown-game", ("tournament", "--game", "chess", "-e", "random", "-e",
                                 "random", "--out", "{missing}"), "unknown game"),
    ("tournament-unknown-option", ("tournament", "--game", "trike", "-e", "random", "-e",
                                   "random", "--option", "bogus=1", "--out", "{missing}"),
     "options"),
    ("tournament-bad-tc", ("tournament", "--game", "trike", "-e", "random", "-e", "random",
                           "--tc", "fast", "--out", "{missing}"), "tc"),
    ("tournament-engine-cannot-start", ("tournament", "--game", "trike", "-e", "random", "-e",
                                        BAD_ENGINE, "--out", "{missing}"),
     "entrants[1].command"),
    ("tournament-out-is-file", ("tournament", "--game", "trike", "-e", "random", "-e",
                                "random", "--out", "{file}"), "{file}"),
    ("tournament-out-under-file", ("tournament", "--game", "trike", "-e", "random", "-e",
                                   "random", "--out", "{file}/sub"), "{file}"),
    ("tournament-openings-binary", ("tournament", "--game", "trike", "-e", "random", "-e",
                                    "random", "--openings", "{binary}", "--out", "{missing}"),
     "openings"),
    ("tournament-openings-directory", ("tournament", "--game", "trike", "-e", "random", "-e",
                                       "random", "--openings", "{dir}", "--out", "{missing}"),
     "openings"),
    ("tournament-resume-records-are-a-directory", ("tournament", "--resume", "--out",
                                                   "{gamesdir}"),
     "cannot write {gamesdir}/games.tgn: Is a directory"),
    ("tournament-resume-empty-journal", ("tournament", "--resume", "--out", "{emptydir}"),
     "nothing to resume"),
    ("tournament-resume-binary-journal", ("tournament", "--resume", "--out", "{bindir}"),
     "journal"),
    ("standings-missing", ("standings", "{missing}"), "{missing}"),
    ("standings-file", ("standings", "{file}"), "{file}"),
    ("standings-binary-journal", ("standings", "{bindir}"), "journal"),
    ("standings-empty-journal", ("standings", "{emptydir}"), "{emptydir}"),
    ("standings-bad-format", ("standings", "{dir}", "--format", "xml"), "xml"),
    ("serve-missing", ("serve", "{missing}", "--port", "0"), "{missing}: no such directory"),
    ("serve-file", ("serve", "{file}", "--port", "0"), "{file}: no such directory"),
    ("serve-bad-port", ("serve", "{dir}", "--port", "70000"), "--port"),
    ("show-missing", ("show", "{missing}"), "{missing}"),
    ("show-directory", ("show", "{dir}"), "{dir}"),
    ("show-empty", ("show", "{empty}"), "{empty}"),
    ("show-binary", ("show", "{binary}"), "{binary}:1:1: invalid UTF-8"),
    ("show-text", ("show", "{file}"), "{file}:1:1:"),
    ("show-bad-game-number", ("show", "{file}", "--game", "x"), "--game"),
    ("report-missing", ("report", "{missing}"), "{missing}"),
    ("report-file", ("report", "{file}"), "{file}"),
    ("report-binary-journal", ("report", "{bindir}"), "journal"),
    ("report-empty-journal", ("report", "{emptydir}"), "{emptydir}"),
    ("moves-unknown-game", ("moves", "chess"), "unknown game 'chess'"),
    ("moves-unparsable-move", ("moves", "trike", "--moves", "zz9"), "ply 1 (move 1 of --moves)"),
    ("moves-illegal-move", ("moves", "trike", "--moves", "e3", "e3"), "ply 2"),
    ("moves-bad-players", ("moves", "trike", "--players", "5"), "not 5"),
    ("moves-unknown-option", ("moves", "trike", "--option", "bogus=1"), "unknown option 'bogus'"),
    ("moves-bad-start", ("moves", "trike", "--start", "nonsense"), "bad trike position"),
    ("rules-unknown-game", ("rules", "chess"), "unknown game 'chess'"),
    ("rules-unknown-flag", ("rules", "trike", "--bogus"), "No such option: --bogus"),
]  # fmt: skip


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "dir").mkdir()
    (tmp_path / "empty.tgn").write_bytes(b"")
    (tmp_path / "binary.bin").write_bytes(b"\xff\xfe\x00\x01garbage\x80\n" * 20)
    (tmp_path / "file.txt").write_text("just some words\nnot a record = [\n")
    # A game (its verdict: invalid-record), so that adjudicate goes on to its --html.
    (tmp_path / "game.tgn").write_text('[Game "trike"]\n[Players "2"]\n[Result "*"]\n\n*\n')
    noexec = tmp_path / "noexec"  # executable bits, but no program: exec fails (ENOEXEC)
    noexec.write_bytes(b"\x7fELF\x00garbage")
    noexec.chmod(0o755)
    for name, data in (("bindir", b"\xff\x00\xfe\n\x81\x82\n"), ("emptydir", b"")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "journal.jsonl").write_bytes(data)
    return {
        "missing": str(tmp_path / "missing"),
        "dir": str(tmp_path / "dir"),
        "empty": str(tmp_path / "empty.tgn"),
        "binary": str(tmp_path / "binary.bin"),
        "file": str(tmp_path / "file.txt"),
        "bindir": str(tmp_path / "bindir"),
        "emptydir": str(tmp_path / "emptydir"),
        "noexec": str(noexec),
        "record": str(tmp_path / "game.tgn"),
        "gamesdir": str(_event_with_records_in_the_way(tmp_path / "gamesdir")),
    }


def _event_with_records_in_the_way(out: Path) -> Path:
    """A tournament directory whose ``games.tgn`` is a directory: a journal with its
    header line (as a run writes it), and no game yet."""
    from tournaments.event.config import parse_config
    from tournaments.event.plan import Plan
    from tournaments.results.summary import EventInfo
    from tournaments.store.journal import JOURNAL
    from tournaments.store.writer import Journal

    entrants = [{"command": "random"}, {"command": "random"}]
    plan = Plan.from_config(parse_config({"game": "trike", "entrants": entrants}))
    config = plan.config.model_dump(mode="json")
    with Journal.open(out, config, to_json(EventInfo.from_plan(plan)), resume=False):
        pass
    assert (out / JOURNAL).is_file()
    (out / "games.tgn").unlink()
    (out / "games.tgn").mkdir()
    return out


@pytest.mark.parametrize(("args", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_and_status_2(
    args: tuple[str, ...],
    fragment: str,
    places: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = tuple(a.format(**places) for a in args)
    code, _, err = cli(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), err
    assert "Traceback" not in err
    assert fragment.format(**places) in lines[0]


def test_every_command_has_a_case() -> None:
    """A new command must come with its bad-input cases here."""
    registered = {
        cmd.name or (cmd.callback.__name__ if cmd.callback else "")
        for cmd in app.registered_commands
    }
    covered = {args[0] for _, args, _ in CASES}
    assert registered - covered == set()


def test_the_console_script_is_main() -> None:
    scripts = importlib.metadata.entry_points(group="console_scripts")
    assert [e.value for e in scripts if e.name == "referee"] == ["tournaments.cli:main"]


@pytest.mark.parametrize(
    "args", [("nosuch",), ("adjudicate", "/nonexistent/x.tgn"), ("play", "trike", "--tc")]
)
def test_the_installed_executable_gives_one_line(args: tuple[str, ...]) -> None:
    exe = shutil.which("referee")
    command = [exe] if exe else [sys.executable, "-m", "tournaments"]
    done = subprocess.run(
        [*command, *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), done.stderr


@pytest.mark.parametrize(
    "bug",
    [
        RuntimeError("no such state"),
        KeyError("seat"),
        ValueError("a points table of 2 places for 3 seats"),
        TypeError("unsupported operand"),
        FileNotFoundError(2, "No such file or directory", "/tmp/x"),
        BaseExceptionGroup("a trio nursery", [ValueError("bad ply"), OSError(5, "I/O")]),
    ],
    ids=lambda bug: type(bug).__name__,
)
def test_a_bug_shows_its_traceback_and_asks_for_a_report(
    bug: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exception that is not a user error, raised inside a command, is not one line:
    its traceback, then the line asking to report it, and exit status 1 (not 2). A
    ``ValueError`` or ``OSError`` is no user error: only ``UserError`` is (a bad
    argument or a missing file is turned into one where it is met)."""

    def broken(*args: object, **kwargs: object) -> int:
        raise bug

    monkeypatch.setattr(app_module, "perft", broken)
    code, _, err = cli(capsys, "perft", "trike", "1")
    assert code == 1
    assert "Traceback (most recent call last):" in err
    assert f"{type(bug).__name__}" in err and "in broken" in err
    assert str(bug.args[0]) in err
    assert err.rstrip().splitlines()[-1] == BUG_LINE
    assert "referee: error:" not in err


USER_ERRORS: list[Exception] = [
    UserError("the depth is too deep for this board"),
    PathError("cannot read games.tgn: No such file or directory"),
    UnknownGameError("unknown game 'chess'"),
    RecordSyntaxError("games.tgn", 3, 7, "expected a tag line"),
    TagError("Players must be 2 or 3"),
    ConfigError("demo.toml: entrants[2].command: field required"),
    EngineSetupError('cannot parse engine command "\'x": No closing quotation'),
    SandboxUnavailable("cannot use the bwrap sandbox: bwrap is not installed"),
    BuildError("cannot build trike_engine: no C compiler found"),
    JournalError("out/journal.jsonl:3: unreadable journal line"),
    OpeningError("openings.txt:2: not a move"),
    ReportError("cannot write out/report.html: Is a directory"),
    ClusterError("cannot reach the scheduler at tcp://h:8786"),
]
"""One error of each kind of input: each is a ``UserError``, printed as one line."""


@pytest.mark.parametrize("error", USER_ERRORS, ids=lambda error: type(error).__name__)
def test_every_kind_of_user_error_is_one_line(
    error: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(*args: object, **kwargs: object) -> int:
        raise error

    monkeypatch.setattr(app_module, "perft", refused)
    code, _, err = cli(capsys, "perft", "trike", "1")
    assert (code, err) == (2, f"referee: error: {error}\n")
    assert isinstance(error, UserError) and isinstance(error, ValueError)  # see errors.py


def test_user_errors_in_a_trio_group_are_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A nursery that failed only of user errors (two engines refused at once) is one
    line: the first of them."""

    def refused(*args: object, **kwargs: object) -> int:
        raise ExceptionGroup("nursery", [PathError("cannot read a"), ConfigError("b")])

    monkeypatch.setattr(app_module, "perft", refused)
    code, _, err = cli(capsys, "perft", "trike", "1")
    assert (code, err) == (2, "referee: error: cannot read a\n")


def test_debug_shows_the_traceback_of_a_user_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(*args: object, **kwargs: object) -> int:
        raise PathError("cannot read x.tgn: No such file or directory")

    monkeypatch.setattr(app_module, "perft", refused)
    monkeypatch.setattr(app_module, "_debug", False)  # both put back after the test
    monkeypatch.setenv("REFEREE_DEBUG", "0")
    monkeypatch.setattr(sys, "argv", ["referee", "--debug", "perft", "trike", "1"])
    with pytest.raises(PathError):
        main()


def test_a_user_error_raised_inside_a_command_stays_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(*args: object, **kwargs: object) -> int:
        raise UserError("the depth is too deep for this board")

    monkeypatch.setattr(app_module, "perft", refused)
    code, _, err = cli(capsys, "perft", "trike", "1")
    assert (code, err) == (2, "referee: error: the depth is too deep for this board\n")


def test_a_reader_that_leaves_is_no_error(tmp_path: Path) -> None:
    """``referee … | head``: standard output's reader closes the pipe before the command
    writes. Not an error and not a bug: no traceback, no line at all, exit status 1 (the
    broken pipe is click's to handle, before ``main`` sees any ``OSError``)."""
    command = [sys.executable, "-m", "tournaments", "games"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # before the child has written anything
        err = child.stderr.read().decode()
        status = child.wait(timeout=60)
    assert (status, err) == (1, "")


def test_serving_on_an_address_in_use_is_one_line(
    places: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The address is the user's: one taken by another program is one line naming it."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = cli(capsys, "serve", places["dir"], "--port", str(port))
    assert code == 2, err
    assert err == f"referee: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_a_builtin_engine_that_cannot_be_built_is_one_line(
    places: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build cache is the user's (``REFEREE_CACHE``): under a file, the C engine
    cannot be built, and the line names the folder (or the missing compiler)."""
    monkeypatch.setenv("REFEREE_CACHE", f"{places['file']}/cache")
    code, _, err = cli(capsys, "play", "trike", "-e", "trike-c", "-e", "random")
    assert code == 2, err
    assert err.startswith("referee: error: ") and err.count("\n") == 1
    assert "cannot build trike_engine: " in err
    if shutil.which("cc") or shutil.which("gcc"):
        assert f"cannot write {places['file']}/cache: Not a directory" in err


def test_a_bug_beside_user_errors_in_a_trio_run_is_shown_as_a_bug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tasks of one run that fail at once, one of a user error, one of a bug: the bug's
    traceback and the report line, not the other task's one line."""

    async def work() -> int:
        await trio.lowlevel.checkpoint()
        # As a nursery gathers them, the user error first (the order is trio's to choose).
        user = PathError("cannot read a.tgn: No such file or directory")
        raise ExceptionGroup("a nursery", [user, KeyError("seat")])

    def broken(*args: object, **kwargs: object) -> int:
        return run_until_signalled(work)

    monkeypatch.setattr(app_module, "perft", broken)
    code, _, err = cli(capsys, "perft", "trike", "1")
    assert code == 1, err
    assert "KeyError: 'seat'" in err and err.rstrip().splitlines()[-1] == BUG_LINE
    assert "referee: error:" not in err


@pytest.mark.parametrize("bug", [None, "Traceback (most recent call last):\nKeyError: 'seat'\n"])
def test_a_worker_process_failure_is_one_line_unless_a_bug(
    bug: str | None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A worker killed (or failed of a user error) is one line; one that failed of a bug
    shows the worker's traceback and the report line (``WorkerError.bug``)."""
    import tournaments.cli.play as play_module

    async def failed(*args: object, **kwargs: object) -> None:
        await trio.lowlevel.checkpoint()
        raise WorkerError("worker 1 stopped unexpectedly (exit status 1): KeyError: 'seat'", bug)

    monkeypatch.setattr(play_module, "run_match", failed)
    code, _, err = cli(capsys, "play", "trike", "-e", "random", "-e", "random", "--games", "1")
    first = "worker 1 stopped unexpectedly (exit status 1): KeyError: 'seat'"
    if bug is None:
        assert (code, err) == (2, f"referee: error: {first}\n")
    else:
        assert code == 1, err
        assert f"WorkerError: {first}\n{bug}" in err  # the worker's own traceback
        assert err.rstrip().splitlines()[-1] == BUG_LINE and "referee: error:" not in err


def test_an_error_quoting_a_huge_argument_is_cut(capsys: pytest.CaptureFixture[str]) -> None:
    """A 100,000-character position token was quoted whole: one line of 100 KB. The line
    is cut at ``ERROR_LINE_LIMIT`` characters and says how much was left out."""
    token = "x" * 100_000
    code, _, err = cli(capsys, "perft", "trike", "1", "--start", token)
    assert code == 2
    line = err.rstrip("\n")
    assert "\n" not in line and line.startswith("referee: error: bad trike position 'xxx")
    assert line.endswith(" more characters)")
    assert len(line) < app_module.ERROR_LINE_LIMIT + 100
