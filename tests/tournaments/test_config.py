"""Tournament configs: TOML through pydantic, one-line errors naming the key, plans."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.registry import GAMES
from referee.score_rules import DrawRule, ResignRule, ScoreRules
from tournaments.event import files
from tournaments.event.config import ConfigError, load_config, parse_config
from tournaments.event.jobs import SlotSetup
from tournaments.event.plan import Plan
from tournaments.event.wire import from_json, to_json

EXAMPLES = Path(__file__).resolve().parents[2] / "tournaments" / "examples"
REGISTERED = {cls.name for cls in GAMES}

ENTRANTS = """
[[entrants]]
command = "random"
[[entrants]]
command = "greedy"
"""
BASE = 'game = "trike"\n' + ENTRANTS


def cfg(top: str = "", tables: str = "") -> str:
    """A config: top-level keys first (TOML puts keys after a table inside it)."""
    return 'game = "trike"\n' + top + ENTRANTS + tables


def _load(tmp_path: Path, text: str) -> Plan:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return Plan.from_config(load_config(path), str(path))


def _error(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as info:
        _load(tmp_path, text)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_minimal_config_defaults(tmp_path: Path) -> None:
    plan = _load(tmp_path, BASE)
    assert plan.names == ("random", "greedy")
    assert plan.players == 2
    assert plan.total() == 2  # one pair of games, seats swapped
    assert plan.tc.tag() == "10+0.1"
    assert plan.config.concurrency == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'game = "trike"\n[[entrants]]\ncommand = "random"\n[[entrants]]\nname = "x"\n',
            "config.toml: entrants[1].command: field required",
        ),
        (cfg("colour = 3\n"), "config.toml: colour: unknown key"),
        (
            BASE.replace('command = "greedy"', 'command = "greedy"\nhash = 4'),
            "config.toml: entrants[1].hash: unknown key",
        ),
        (cfg("rounds = 0\n"), "config.toml: rounds: input should be greater than or equal to 1"),
        (cfg('format = "ladder"\n'), "config.toml: format: input should be"),
        (cfg('tc = "fast"\n'), "config.toml: tc: bad time control 'fast'"),
        (cfg(tables="[openings]\nplies = -1\n"), "config.toml: openings.plies: input should be"),
        (
            cfg(tables="[adjudication]\nresign = { movecount = 0, share = 50 }\n"),
            "config.toml: adjudication.resign.movecount: input should be greater",
        ),
        (
            cfg(tables="[adjudication]\ndraw = { movenumber = 4, movecount = 2 }\n"),
            "config.toml: adjudication.draw.spread: field required",
        ),
        (
            BASE.replace('command = "greedy"', 'command = "greedy"\nnodes = 0'),
            "config.toml: entrants[1].nodes: input should be greater than or equal to 1",
        ),
        (cfg(tables="[sprt]\nelo0 = 0\n"), "config.toml: sprt.elo1: field required"),
        (BASE.replace('"trike"', '"chess"'), "config.toml: game: unknown game 'chess'"),
        (cfg("options = { size = 99 }\n"), "config.toml: options: option size=99"),
        (cfg("options = { colour = 1 }\n"), "config.toml: options: unknown option 'colour'"),
        (cfg("players = 3\n"), "config.toml: players: trike is played by 2 players"),
        (cfg('format = "gauntlet"\nchallengers = 2\n'), "config.toml: challengers:"),
        (cfg("points = [1, 0.5, 0]\n"), "config.toml: points: 3 values for 2 places"),
        (cfg(tables="[sprt]\nelo0 = 5\nelo1 = 0\n"), "config.toml: sprt: SPRT: elo0 must be less"),
        (cfg('tc = "1+0"\nmovetime_ms = 5\n'), "config.toml: tc: give either"),
        (cfg('format = "swiss"\ngames = 4\n'), "config.toml: games: a Swiss"),
        (
            BASE.replace('command = "random"', 'name = "a"\ncommand = "random"').replace(
                'command = "greedy"', 'name = "a"\ncommand = "greedy"'
            ),
            "config.toml: entrants[1].name: 'a' is used twice",
        ),
        ('game = "trike"\nentrants = []\n', "config.toml: entrants: list should have at least 2"),
        ("game = trike\n", "config.toml: Invalid value (at line 1, column 8)"),
        (cfg(tables='[openings]\nfile = "missing.txt"\n'), "openings.file:"),
        (
            cfg(tables="[openings]\nplies = 100\n"),
            "config.toml: openings.plies: no 100-ply opening",
        ),
    ],
)
def test_errors_name_the_key(tmp_path: Path, text: str, expected: str) -> None:
    message = _error(tmp_path, text)
    assert message.startswith(str(tmp_path)), message
    assert expected in message, message


@pytest.mark.parametrize(
    ("text", "key", "written"),
    [
        (cfg("concurrency = true\n"), "concurrency", "true"),
        (cfg("rounds = true\n"), "rounds", "true"),
        (cfg("seed = false\n"), "seed", "false"),
        (cfg("games = true\n"), "games", "true"),
        (cfg("start_timeout = true\n"), "start_timeout", "true"),
        (cfg("points = [1, false]\n"), "points[1]", "false"),
        (cfg(tables="[openings]\nplies = true\n"), "openings.plies", "true"),
        (cfg(tables="[adjudication]\nmax_plies = false\n"), "adjudication.max_plies", "false"),
        (cfg(tables="[cluster]\nbatch = true\n"), "cluster.batch", "true"),
        (cfg(tables="[sprt]\nelo0 = false\nelo1 = 5\n"), "sprt.elo0", "false"),
        (BASE.replace('"greedy"', '"greedy"\nnodes = true'), "entrants[1].nodes", "true"),
    ],
)
def test_a_boolean_is_never_a_number(tmp_path: Path, text: str, key: str, written: str) -> None:
    # pydantic's lax mode reads true as 1 and false as 0: the config is strict instead.
    message = _error(tmp_path, text)
    assert f"config.toml: {key}: expected a number, not {written}" in message, message


@pytest.mark.parametrize(
    ("text", "key"),
    [(cfg('concurrency = "2"\n'), "concurrency"), (cfg("rounds = 1.5\n"), "rounds")],
)
def test_a_number_is_written_as_a_whole_number(tmp_path: Path, text: str, key: str) -> None:
    assert f"config.toml: {key}: input should be a valid integer" in _error(tmp_path, text)


def test_whole_numbers_are_still_valid_where_decimals_are(tmp_path: Path) -> None:
    text = cfg("start_timeout = 5\npoints = [1, 0]\n", "[sprt]\nelo0 = 0\nelo1 = 10\n")
    plan = _load(tmp_path, text)
    assert plan.config.start_timeout == 5.0 and plan.config.points == [1.0, 0.0]


def test_node_limits_and_score_adjudication_reach_the_game_slots(tmp_path: Path) -> None:
    text = BASE.replace('command = "greedy"', 'command = "greedy"\nnodes = 800\ndepth = 9')
    text += "[adjudication]\nmax_plies = 300\nresign = { movecount = 3, share = 50 }\n"
    text += "draw = { movenumber = 40, movecount = 4, spread = 20 }\n"
    plan = _load(tmp_path, text)
    assert [(s.nodes, s.depth) for s in plan.entrants] == [(None, None), (800, 9)]
    setup = plan.slot_setup(None)
    assert setup.adjudication == ScoreRules(ResignRule(3, 50), DrawRule(40, 4, 20))
    again = from_json(SlotSetup, json.loads(json.dumps(to_json(setup))))
    assert again == setup
    assert _load(tmp_path, BASE).slot_setup(None).adjudication is None


def test_option_values_and_relative_paths(tmp_path: Path) -> None:
    (tmp_path / "book.txt").write_text("# two openings\ne5\ne5 swap\n\n")
    (tmp_path / "engine").mkdir()
    text = cfg("options = { size = 7, pie = true }\n", '[openings]\nfile = "book.txt"\n')
    engine = 'command = "random"\ncwd = "engine"\noptions = { Hash = 16, Ponder = false }'
    plan = _load(tmp_path, text.replace('command = "random"', engine))
    assert plan.game.options == {"size": "7", "mode": "zero", "pie": "yes"}
    assert plan.entrants[0].cwd == str(tmp_path / "engine")
    assert plan.entrants[0].options == (("Hash", "16"), ("Ponder", "no"))
    first, second = plan.book.opening(0), plan.book.opening(1)
    assert first.moves == ("e5",) and second.moves == ("e5", "swap")
    assert plan.book.opening(2) == first  # the book cycles
    assert first.start is not None and first.start != second.start


def test_openings_file_errors_give_the_line(tmp_path: Path) -> None:
    (tmp_path / "book.txt").write_text("e5\nz9\n")
    message = _error(tmp_path, cfg(tables='[openings]\nfile = "book.txt"\n'))
    assert "book.txt:2: move 1 'z9'" in message


def test_a_config_or_openings_file_too_big_to_be_one_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A config or openings path that leads to a huge file (a record file by mistake, a
    device that never ends) was read whole: ``/dev/zero`` filled the memory (23 GB, then
    the kernel's OOM killer). Only the limit and one byte more are read."""
    assert files.MAX_INPUT_BYTES == 64 << 20
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 1000)
    big = tmp_path / "big.toml"
    big.write_text(BASE + "#" * 1000 + "\n")
    with pytest.raises(ConfigError, match=r"big.toml: cannot read: over 1,000 bytes \(the limit"):
        load_config(big)
    (tmp_path / "book.txt").write_text("e5\n" * 500)
    message = _error(tmp_path, cfg(tables='[openings]\nfile = "book.txt"\n'))
    assert "book.txt: cannot read openings: over 1,000 bytes (the limit for this file)" in message
    zero = Path("/dev/zero")
    if zero.exists():  # a file that never ends
        with pytest.raises(ConfigError, match="/dev/zero: cannot read: over 1,000 bytes"):
            load_config(zero)
        message = _error(tmp_path, cfg(tables='[openings]\nfile = "/dev/zero"\n'))
        assert "/dev/zero: cannot read openings: over 1,000 bytes" in message


def test_each_opening_is_played_once_per_seat_arrangement(tmp_path: Path) -> None:
    plan = _load(tmp_path, cfg("rounds = 3\n", "[openings]\nplies = 2\n"))
    jobs = [plan.job(f) for f in plan.static_fixtures()]
    assert len(jobs) == 6
    by_block: dict[int, list[object]] = {}
    for job in jobs:
        by_block.setdefault(job.block, []).append(job)
        assert len(job.opening) == 2 and job.start is not None
    assert len(by_block) == 3
    for pair in by_block.values():
        assert len(pair) == 2
        a, b = pair
        assert a.start == b.start and a.table == b.table[::-1]  # type: ignore[attr-defined]
    starts = {job.start for job in jobs}
    assert len(starts) == 3  # a different opening per block
    again = _load(tmp_path, cfg("rounds = 3\n", "[openings]\nplies = 2\n"))
    assert [again.job(f) for f in again.static_fixtures()] == jobs  # seeded


def test_parse_config_from_options_only() -> None:
    config = parse_config(
        {"game": "trike", "entrants": [{"command": "random"}, {"command": "random"}]},
        "command line",
    )
    plan = Plan.from_config(config, "command line")
    assert plan.names == ("random", "random#2")
    with pytest.raises(ConfigError, match=r"^command line: game: field required$"):
        parse_config({"entrants": []}, "command line")


def test_demo_config_runs_out_of_the_box() -> None:
    plan = Plan.from_config(load_config(EXAMPLES / "demo-trike.toml"), "demo")
    assert len(plan.entrants) == 4
    assert {n.split("-")[0] for n in plan.names} == {"greedy", "random"}
    assert plan.total() > 0


@pytest.mark.parametrize("game", ["triablo", "trichess"])
def test_three_player_example_configs(game: str) -> None:
    if game not in REGISTERED:
        pytest.skip(f"{game} is not registered yet")
    plan = Plan.from_config(load_config(EXAMPLES / f"demo-{game}.toml"), "demo")
    assert plan.players == 3
    assert len(plan.entrants) == 3
    assert plan.total() == 12
    assert plan.entrants[0].name.startswith("greedy")
