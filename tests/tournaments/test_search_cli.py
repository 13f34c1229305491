"""``referee play``/``tournament`` with engines that report search info (real processes):
node limits and their feature, garbage info items, score adjudication confirmed by
``referee adjudicate`` and a hand-edited ``s=`` disputed by it."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

from referee.record.stream import read_records
from referee.score_rules import TAG
from tests.clirun import cli

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parents[2]
THINKER = "tests/engines/trike_thinker.sh"
SCORED = f"{sys.executable} tests/engines/scored_engine.py"


def scored(name: str, *script: str) -> str:
    return f"{name}={SCORED} " + " ".join(f"--score {item}" for item in script)


class Ran(NamedTuple):
    """What one ``referee`` command did: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


Referee = Callable[..., Ran]


@pytest.fixture
def referee(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Referee:
    """``referee ARGS…`` run in this process (``tests.clirun.cli``), from the repository
    root as the relative engine paths here expect, its engines importing this tree.

    The engines are the real processes; the referee's own process is not what these
    tests look at, and starting one per command cost its interpreter and imports.
    """
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))

    def run(*args: str) -> Ran:
        return Ran(*cli(capsys, *args))

    return run


def adjudicate(referee: Referee, path: Path) -> tuple[int, list[dict[str, object]]]:
    done = referee("adjudicate", str(path), "--json")
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines() if line]


def test_nodes_given_to_an_engine_that_does_not_declare_them_is_refused_in_one_line(
    tmp_path: Path,
    referee: Referee,
) -> None:
    out = tmp_path / "games.tgn"
    done = referee(  # its own limit (the shared --nodes spares it: test_cli_engines)
        "play", "trike", "-e", THINKER, "-e", "cmd=random nodes=50", "--out", str(out)
    )
    assert done.returncode == 2
    # One line; the engine's last protocol lines follow, as on every engine failure.
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(
        "referee: error: engine 'random' does not declare 'feature nodes' in its handshake:"
        " it cannot play with a node limit; last protocol lines: "
    ), line
    assert "Game 1" not in done.stdout
    assert not out.exists() or out.read_text() == ""


def test_a_shell_engine_with_structured_info_and_node_limits_plays(
    tmp_path: Path, referee: Referee
) -> None:
    out = tmp_path / "games.tgn"
    done = referee(
        "play", "trike", "-e", THINKER, "-e", f"garbage={THINKER} garbage",
        "--nodes", "50", "--depth", "2", "--games", "2", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = list(read_records(out))
    assert all(r.termination.value == "rules" for r in records)
    for record in records:
        notes = [move.note for move in record.moves]
        assert all(note.depth == 1 and note.nodes and note.score for note in notes)
    code, verdicts = adjudicate(referee, out)
    assert code == 0 and {v["verdict"] for v in verdicts} == {"confirmed"}


def test_tournament_nodes_per_entrant_and_garbage_noted_in_transcripts(
    tmp_path: Path, referee: Referee
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        f"""
game = "trike"
tc = "10+0.1"
rounds = 1
transcripts = "all"

[[entrants]]
name = "clean"
command = "{ROOT / THINKER}"
nodes = 400

[[entrants]]
name = "garbage"
command = "{ROOT / THINKER} garbage"
nodes = 100
depth = 3
"""
    )
    done = referee("tournament", str(config), "--out", str(tmp_path / "ev"))
    assert done.returncode == 0, done.stderr
    logs = "\n".join(p.read_text() for p in sorted((tmp_path / "ev" / "logs").glob("*")))
    assert "> go nodes 400 time" in logs and "> go nodes 100 depth 3 time" in logs
    assert "# info item 'score 600,300' kept as text: shares sum to 900, not 1000" in logs
    games = list(read_records(tmp_path / "ev" / "games.tgn"))
    assert len(games) == 2 and all(g.termination.value == "rules" for g in games)
    # An entrant with a node limit that cannot honour it: refused before any game.
    config.write_text(config.read_text().replace(f"{ROOT / THINKER} garbage", "random"))
    refused = referee("tournament", str(config), "--out", str(tmp_path / "ev2"))
    assert refused.returncode == 2
    assert "does not declare 'feature nodes'" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "ev2" / "games.tgn").exists()


def _edit_last_score(path: Path, new: str) -> None:
    text = path.read_text()
    spots = list(re.finditer(r"s=[0-9,win]+\}", text))
    last = spots[-1]
    path.write_text(text[: last.start()] + f"s={new}}}" + text[last.end() :])


@pytest.mark.parametrize(
    ("game", "players", "extra", "scripts", "ending"),
    [
        (
            "trike", 2, ["--resign", "movecount=2,share=50"],
            [("0:500,500", "4:960,40")] * 2, ("1-0", "Culprit", "seat 2 is lost"),
        ),
        (
            "triablo", 3, ["--resign", "movecount=2,share=50"],
            [("0:334,333,333", "3:500,480,20")] * 3, ("1/2-1/2-0", "Culprit", "seat 3 is lost"),
        ),
        (
            "trike", 2, ["--draw", "movenumber=10,movecount=3,spread=20"],
            [("0:510,490",)] * 2, ("1/2-1/2", None, "even game"),
        ),
        (
            "tricolor", 3, ["--draw", "movenumber=9,movecount=2,spread=10"],
            [("0:340,330,330",)] * 3, ("1/3-1/3-1/3", None, "even game"),
        ),
    ],
)  # fmt: skip
def test_score_adjudication_ends_real_games_and_adjudicate_confirms_it(
    tmp_path: Path,
    referee: Referee,
    game: str,
    players: int,
    extra: list[str],
    scripts: list[tuple[str, ...]],
    ending: tuple[str, str | None, str],
) -> None:
    out = tmp_path / "games.tgn"
    engines = [arg for i, s in enumerate(scripts) for arg in ("-e", scored(f"e{i + 1}", *s))]
    done = referee("play", game, *engines, *extra, "--games", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(adjudication, " in done.stdout
    (record,) = read_records(out)
    result, culprit, reason = ending
    assert record.result == result and record.termination.value == "adjudication"
    assert (record.tag("Culprit") is not None) == (culprit is not None)
    assert reason in (record.tag("Reason") or "")
    assert record.tag(TAG) == extra[1].join(["resign " if "resign" in extra[0] else "draw ", ""])
    assert len(record.moves) < 30  # ended early, by the rule
    code, verdicts = adjudicate(referee, out)
    assert code == 0 and verdicts[0]["verdict"] == "confirmed"
    # A hand-edited last score no longer justifies the adjudication: disputed.
    spoiler = "1000" + ",0" * (players - 1)  # far from even, and nobody but seat 1 lost
    if culprit is not None:
        spoiler = "500,500" if players == 2 else "334,333,333"
    _edit_last_score(out, spoiler)
    code, verdicts = adjudicate(referee, out)
    assert code == 1 and verdicts[0]["verdict"] == "wrong-result"
    assert "do not justify" in str(verdicts[0]["reason"])


def test_tournament_command_line_nodes_fill_entrants_without_their_own(
    tmp_path: Path, referee: Referee
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        f"""
game = "trike"
tc = "10+0.1"
games = 2
transcripts = "all"

[[entrants]]
name = "own"
command = "{ROOT / THINKER}"
nodes = 400

[[entrants]]
name = "filled"
command = "{ROOT / THINKER}"
"""
    )
    out = tmp_path / "ev"
    done = referee("tournament", str(config), "--nodes", "70", "--depth", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    logs = "\n".join(p.read_text() for p in sorted((out / "logs").glob("*")))
    assert "> go nodes 400 depth 2 time" in logs  # its own nodes kept, the depth filled
    assert "> go nodes 70 depth 2 time" in logs
    header = json.loads((out / "journal.jsonl").read_text().splitlines()[0])
    limits = [(e["nodes"], e["depth"]) for e in header["config"]["entrants"]]
    assert limits == [(400, 2), (70, 2)]  # kept for --resume
    # The shared --nodes skips an entrant that does not declare the feature, and says so;
    # a limit given to that entrant itself refuses the event before any game, in one line.
    spared = referee(
        "tournament", "--game", "trike", "-e", THINKER, "-e", "random", "--nodes", "5",
        "--games", "1", "--max-plies", "4", "--out", str(tmp_path / "ev2"),
    )  # fmt: skip
    assert spared.returncode == 0, spared.stderr
    assert "random does not declare 'feature nodes': it plays without a node limit" in (
        spared.stderr
    )
    refused = referee(
        "tournament", "--game", "trike", "-e", THINKER, "-e", "cmd=random nodes=5",
        "--out", str(tmp_path / "ev3"),
    )  # fmt: skip
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "engine 'random' does not declare 'feature nodes'" in refused.stderr
    assert not (tmp_path / "ev3" / "games.tgn").exists()


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--resign", "movecount=x", "bad resign setting 'movecount=x': expected a whole number"),
        (
            "--resign",
            "movecount=2,share=1000",
            "resign needs movecount ≥ 1 and share from 0 to 999",
        ),
        ("--draw", "movecount=2", "draw needs movenumber, spread"),
        ("--nodes", "0", "Invalid value for '--nodes'"),
    ],
)
def test_tournament_bad_limits_and_rules_are_one_line(
    tmp_path: Path, referee: Referee, flag: str, value: str, message: str
) -> None:
    done = referee(
        "tournament", "--game", "trike", "-e", "random", "-e", "random", flag, value,
        "--out", str(tmp_path / "ev"),
    )  # fmt: skip
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "ev" / "games.tgn").exists()


def test_tournament_resign_and_draw_from_the_command_line(tmp_path: Path, referee: Referee) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        f"""
game = "trike"
tc = "10+0.1"
games = 2

[adjudication]
draw = {{ movenumber = 10, movecount = 3, spread = 20 }}

[[entrants]]
command = "{SCORED} --score 0:500,500 --score 4:960,40"

[[entrants]]
command = "{SCORED} --score 0:500,500 --score 4:960,40"
"""
    )
    out = tmp_path / "ev"
    done = referee(
        "tournament", str(config), "--resign", "movecount=2,share=50", "--max-plies", "300",
        "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = list(read_records(out / "games.tgn"))
    assert len(records) == 2
    for record in records:
        assert record.termination.value == "adjudication" and len(record.moves) < 30
        assert "seat 2 is lost" in (record.tag("Reason") or "")
        # The file's draw rule stays beside the command line's resign rule.
        assert record.tag(TAG) == (
            "resign movecount=2,share=50; draw movenumber=10,movecount=3,spread=20"
        )
    code, verdicts = adjudicate(referee, out / "games.tgn")
    assert code == 0 and {v["verdict"] for v in verdicts} == {"confirmed"}
    header = json.loads((out / "journal.jsonl").read_text().splitlines()[0])
    assert header["config"]["adjudication"] == {
        "max_plies": 300,
        "resign": {"movecount": 2, "share": 50},
        "draw": {"movenumber": 10, "movecount": 3, "spread": 20},
    }
    again = referee("tournament", "--resume", "--out", str(out))  # the settings kept
    assert again.returncode == 0, again.stderr
