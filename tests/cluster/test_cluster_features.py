"""Node limits on Dask workers: the preflight each worker runs starts every entrant as
the games will and refuses one that does not declare the feature its limit needs, in
one line naming the entrant, before the first game (as a local event refuses it)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tournaments.cluster.task import check_entrants
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.event.wire import to_json

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
SCORED = shlex.join([sys.executable, str(ROOT / "tests" / "engines" / "scored_engine.py")])
"""An instant engine that declares ``feature nodes depth``."""


def _plan(second: str) -> Plan:
    data: dict[str, Any] = {
        "game": "trike",
        "entrants": [
            {"name": "thinker", "command": SCORED, "nodes": 20},
            {"name": "other", "command": second, "nodes": 20},
        ],
        "games": 2,
        "cluster": {"address": "tcp://127.0.0.1:1", "batch": 2},
    }
    return Plan.from_config(parse_config(data))


def test_the_worker_preflight_refuses_an_engine_without_feature_nodes(tmp_path: Path) -> None:
    plan = _plan("random")
    commands = [e.command for e in plan.config.entrants]
    problems = check_entrants(to_json(plan.slot_setup(tmp_path)), commands)
    # The engine's last protocol lines follow (every engine failure carries them).
    [problem] = problems
    assert problem.startswith(
        "entrant 'other': step 1 handshake: engine 'other' does not declare 'feature nodes'"
        " in its handshake: it cannot play with a node limit; last protocol lines: "
    ), problem
    assert "'< rgpok'" in problem


def test_the_worker_preflight_passes_engines_that_declare_it(tmp_path: Path) -> None:
    plan = _plan(f"{SCORED} --seed 2")
    commands = [e.command for e in plan.config.entrants]
    assert check_entrants(to_json(plan.slot_setup(tmp_path)), commands) == []
