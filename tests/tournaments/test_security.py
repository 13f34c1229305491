"""Hostile configs and engines: output stays in the output directory, engines never go
through a shell, records and configs are data only, and per-entrant resource limits
turn a memory hog into a crash forfeit."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.core import Termination
from referee.record.stream import read_records
from tests.tournaments.local import bot_factory
from tournaments.event.config import ConfigError, parse_config
from tournaments.event.plan import Plan
from tournaments.runner.run import run_tournament
from tournaments.store.journal import read_journal

ROOT = Path(__file__).resolve().parents[2]
HOSTILE_NAMES = ["../../escaped", "/etc/passwd", "a/b\\c", "..", "logs/../../x", "~root"]


def plan_of(data: dict[str, Any]) -> Plan:
    return Plan.from_config(parse_config(data, "test"), "test")


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def test_entrant_names_never_leave_the_output_directory(tmp_path: Path) -> None:
    """Names are data: they appear in records and tables, never in a file name."""
    sandbox = tmp_path / "sandbox"
    out = sandbox / "deep" / "out"
    entrants = [
        {"name": name, "command": f"random --seed {i}"} for i, name in enumerate(HOSTILE_NAMES)
    ]
    plan = plan_of(
        {"game": "trike", "options": {"size": 7}, "entrants": entrants, "games": 8,
         "transcripts": "all"}
    )  # fmt: skip
    before = files_under(tmp_path)
    trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), workers=0))
    created = files_under(tmp_path) - before
    assert created and all(out in p.parents for p in created), sorted(map(str, created))
    names = {str(p.relative_to(out)) for p in created}
    allowed = re.compile(
        r"^(journal\.jsonl|index\.jsonl|tally\.json|games\.tgn|results\.json|lock|logs/transcripts-\d+\.log)$"
    )
    assert all(allowed.match(n) for n in names), names
    seats = {seat for record in read_records(out / "games.tgn") for seat in record.seats}
    assert seats <= set(HOSTILE_NAMES) and len(seats) > 2
    assert {n for g in read_journal(out).games.values() for n in g.seats} == seats


@pytest.mark.parametrize("bad", ["nul\x00name", "esc\x1b[2Jname", "bell\x07", "line\nbreak"])
def test_control_characters_in_names_are_refused(bad: str) -> None:
    entrants = [{"name": bad, "command": "random"}, {"command": "random"}]
    with pytest.raises(ConfigError, match=r"^test: entrants\[0\]\.name: ") as info:
        parse_config({"game": "trike", "entrants": entrants}, "test")
    assert "\n" not in str(info.value)


FORBIDDEN = {
    "shell=True": re.compile(r"shell\s*=\s*True"),
    "os.system/os.popen": re.compile(r"\bos\.(system|popen|exec[lv]p?e?)\b"),
    "eval/exec": re.compile(r"(?<![.\w])(eval|exec)\s*\("),
    "pickle/marshal/shelve": re.compile(r"\b(pickle|marshal|shelve|dill)\b"),
    "yaml": re.compile(r"\byaml\b"),
}


ALLOWED = {
    # The wire codec compiles each dataclass's writer and reader, as ``dataclasses``
    # compiles ``__init__``: the source holds the class's field names (identifiers,
    # checked) and nothing of the data it will read.
    ("tournaments/event/wire.py", "exec(_code(source, names), namespace)"),
    (
        "tournaments/event/wire.py",
        'exec(_code("\\n".join(lines) + "\\n", [f.name for f in fields]), namespace)',
    ),
    # The sandbox's process 1 forks and becomes the engine: an argv, no shell.
    ("protocol/sandbox/warden.py", "os.execvp(argv[0], list(argv))"),
    # The faulty test engine's setsid-scrub mode re-executes itself with a scrubbed
    # environment: an argv and the bot's own constant SLEEPER, no shell, no data.
    (
        "bots/faulty_bot.py",
        'os.execve(sys.executable, [sys.executable, "-c", SLEEPER, *sys.argv[1:]], env)',
    ),
}


def test_no_shell_and_no_code_from_data_in_the_source() -> None:
    """Engines start from an argv (never a shell); records, configs and journals are
    parsed as data (TOML, JSON, the record grammar), never evaluated or unpickled."""
    offenders = []
    for package in ("protocol", "referee", "tournaments", "bots"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if (str(path.relative_to(ROOT)), line.strip()) in ALLOWED:
                    continue
                for what, pattern in FORBIDDEN.items():
                    if pattern.search(line):
                        offenders.append(f"{path.relative_to(ROOT)}:{number}: {what}: {line}")
    assert offenders == []


HOG = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "rgp":
        print("id name hog"); print("rgpok", flush=True)
    elif word == "newgame":
        print("ok", flush=True)
    elif word == "ping":
        print("pong " + line.split()[1], flush=True)
    elif word == "go":
        hog = bytearray(2 * 1024 ** 3)  # over the limit: MemoryError, exit status 1
        print("move swap", flush=True)
    elif word == "quit":
        break
"""


def test_an_entrant_over_its_memory_limit_loses_by_crash(tmp_path: Path) -> None:
    script = tmp_path / "hog.py"
    script.write_text(HOG)
    plan = plan_of(
        {
            "game": "trike",
            "options": {"size": 7},
            "games": 2,
            "tc": "20+0.1",
            "entrants": [
                {"name": "hog", "command": f"{sys.executable} {script}", "max_memory_mb": 300,
                 "max_cpu_seconds": 60},
                {"name": "fair", "command": "random --seed 3"},
            ],
        }
    )  # fmt: skip
    assert plan.entrants[0].max_memory_mb == 300 and plan.entrants[0].max_cpu_seconds == 60
    out = tmp_path / "out"
    # One worker process: the limits also travel through the worker's setup message.
    result = trio.run(lambda: run_tournament(plan, out, concurrency=1, workers=1))
    games = sorted(result.finished.values(), key=lambda g: g.number)
    assert len(games) == 2
    for game in games:
        outcome = game.outcome
        assert outcome.termination is Termination.CRASH, outcome
        assert outcome.culprit is not None and game.seats[outcome.culprit] == "hog"
        assert "exited with code 1" in outcome.reason
