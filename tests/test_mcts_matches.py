"""Real events of ``mcts`` (a tiny node limit) against ``greedy`` in every game and seat
count, through the console entry: the records carry the search items of every mcts move
and ``referee adjudicate`` confirms every game."""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from protocol.search_info import ForcedWin, Shares
from referee.record import read_records
from referee.registry import GAMES, make_game
from tests.clirun import cli, run_referee

pytestmark = pytest.mark.processes

NODES = 6
"""The node limit of the mcts entrant: tiny, so that the games are quick."""


def _cases() -> list[object]:
    return [
        pytest.param(cls.name, players, id=f"{cls.name}-{players}p")
        for cls in GAMES
        for players in cls.player_counts
    ]


def event(game: str, players: int) -> str:
    """A round robin of mcts and ``players - 1`` greedy bots, ``players`` games with the
    seats rotated, so that mcts sits in every seat."""
    greedy = "".join(
        f'\n[[entrants]]\nname = "greedy-{seed}"\ncommand = "greedy --seed {seed}"\n'
        for seed in range(1, players)
    )
    return f"""
event = "mcts against greedy"
game = "{game}"
players = {players}
format = "round-robin"
seat_order = "cyclic"
games = {players}
tc = "60+1"
concurrency = 1
seed = 5

[[entrants]]
name = "mcts"
command = "mcts"
nodes = {NODES}
{greedy}"""


CASES = [(cls.name, players) for cls in GAMES for players in cls.player_counts]


@pytest.fixture(scope="module")
def events(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, int], tuple[Path, subprocess.CompletedProcess[str]]]:
    """Every case's event (its directory and its run), three at a time: each is a
    chain of short waits between the runner and its engines, and what each plays is
    fixed by its seed and node limit, not by timing (a 60 s clock for six nodes)."""

    def run(case: tuple[str, int]) -> tuple[Path, subprocess.CompletedProcess[str]]:
        folder = tmp_path_factory.mktemp(f"{case[0]}-{case[1]}p")
        config = folder / "event.toml"
        config.write_text(event(*case))
        out = folder / "out"
        return out, run_referee("tournament", str(config), "--out", str(out))

    with ThreadPoolExecutor(max_workers=3) as pool:
        return dict(zip(CASES, pool.map(run, CASES), strict=True))


@pytest.mark.parametrize(("name", "players"), _cases())
def test_mcts_plays_greedy_and_its_records_are_confirmed(
    name: str,
    players: int,
    capsys: pytest.CaptureFixture[str],
    events: dict[tuple[str, int], tuple[Path, subprocess.CompletedProcess[str]]],
) -> None:
    out, ran = events[name, players]
    assert ran.returncode == 0, ran.stdout + ran.stderr
    # A file of a few games is judged in the calling process: here, this one.
    status, judged, err = cli(capsys, "adjudicate", str(out / "games.tgn"), "--json")
    assert status == 0, judged + err
    verdicts = [json.loads(line) for line in judged.splitlines() if line.strip()]
    assert [v["verdict"] for v in verdicts] == ["confirmed"] * players

    records = read_records(out / "games.tgn")
    assert sorted(r.seats.index("mcts") for r in records) == list(range(players))
    searched = 0
    for record in records:
        game = make_game(record.game, record.options)
        state = game.initial_state(players)
        for entry in record.moves:
            seat = state.to_move
            assert seat is not None
            note = entry.note
            if record.seats[seat] == "mcts":
                # Every mcts move: the node limit honoured (1 when there was nothing to
                # search: one legal move, or a win at once), a pv, a score for every seat.
                assert note.nodes in (1, NODES), entry
                assert note.depth is not None and note.depth >= 1
                if isinstance(note.score, Shares):
                    assert len(note.score.values) == players
                else:
                    assert isinstance(note.score, ForcedWin)
                searched += note.nodes == NODES
            else:
                assert note.depth is None and note.nodes is None and note.score is None
            state = state.play(game.parse_move(state, entry.text))
    assert searched > 0
