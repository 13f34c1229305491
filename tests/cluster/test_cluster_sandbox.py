"""The sandbox on Dask workers: the settings travel with the jobs, and the preflight
refuses a worker where bubblewrap cannot run, naming the package."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from protocol.sandbox import PACKAGE
from protocol.sandbox import host as sandbox_host
from protocol.sandbox.host import SandboxUnavailable, probe
from referee.core import Termination
from tests.cluster.dask_procs import dask_cluster, wait_gone
from tests.hostile import ENGINE, ROOT
from tournaments.cluster.local import LoopbackCluster
from tournaments.cluster.task import check_entrants
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.event.wire import to_json
from tournaments.runner.run import run_tournament

pytest.importorskip("distributed")

MARKER = "sandboxed-only"  # the hostile engine's mode: it plays only inside a sandbox


def make_plan(address: str | None) -> Plan:
    command = shlex.join([sys.executable, str(ENGINE), MARKER])
    data: dict[str, Any] = {
        "game": "trike",
        "options": {"size": 7},
        "sandbox": "bwrap",
        "entrants": [
            {"name": "boxed", "command": command, "env": {"PYTHONPATH": str(ROOT)}},
            {"name": "rand", "command": "random --seed 3"},
        ],
        "games": 4,
        "tc": "60+1",
        "transcripts": "all",
        "cluster": {"address": address, "batch": 2, "connect_timeout": 10},
    }
    return Plan.from_config(parse_config(data))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoopbackCluster]:
    try:
        probe()
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))
    with dask_cluster(tmp_path_factory.mktemp("dask"), workers=2) as running:
        yield running
    assert not wait_gone(MARKER), "engines outlived their workers"


def test_the_preflight_names_the_package_where_bwrap_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What each worker runs in the preflight, here with no bwrap on the PATH."""
    plan = make_plan(None)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sandbox_host, "_probed", set())  # not checked yet in this process
    commands = [e.command for e in plan.config.entrants]
    problems = check_entrants(to_json(plan.slot_setup(tmp_path)), commands)
    assert len(problems) == 1
    assert problems[0].startswith("cannot use the bwrap sandbox: bwrap is not installed")
    assert PACKAGE in problems[0]


@pytest.mark.cluster
async def test_sandboxed_entrants_play_in_the_sandbox_on_the_workers(
    tmp_path: Path, cluster: LoopbackCluster
) -> None:
    result = await run_tournament(make_plan(cluster.address), tmp_path / "out")
    assert result.complete and len(result.played) == 4
    for game in result.finished.values():
        # Outside a sandbox this engine exits at once: every game would be void.
        assert game.outcome.termination is not Termination.VOID
        assert game.outcome.culprit is None, game.outcome.reason
    logs = "\n".join(p.read_text() for p in sorted((tmp_path / "out" / "logs").glob("*.log")))
    assert "boxed" in logs and "not in a sandbox" not in logs
