"""The warden's pure parts: its orders, what counts as a breach, its report."""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.sandbox.warden import (
    MIB,
    Breach,
    Config,
    Sample,
    Watchdog,
    check,
    diagnose_exit,
    format_verdict,
    parse_report,
    parse_stat,
    wait_for_go,
)

CONFIG = Config(
    report=4,
    max_processes=8,
    rlimits={"CPU": 5, "FSIZE": 2 * MIB, "NPROC": 9},
    max_memory=100 * MIB,
    max_cpu=5.0,
    watch=("/scratch", "/tmp"),
    max_files=100,
    drop=(65534, 65534),
    hold=6,
)
QUIET = Sample(tasks=3, resident=20 * MIB, cpu=0.5)


KEPT = Config(
    report=4, max_processes=8, watch=("/scratch", "/tmp"), keep=7, scratch=2 * MIB,
    show=("/tmp/engines/a", "/tmp/b"),
)  # fmt: skip
"""A kept sandbox's orders: its control socket, and the size of each game's scratch."""


@pytest.mark.parametrize("config", [CONFIG, KEPT], ids=["held", "kept"])
def test_orders_survive_the_command_line(config: Config) -> None:
    again = Config.from_args(config.to_args())
    for name in Config.__slots__:
        assert getattr(again, name) == getattr(config, name), name


def test_a_kept_sandbox_has_a_scratch_size_and_no_hold() -> None:
    with pytest.raises(ValueError, match="scratch size and no hold"):
        Config(report=4, max_processes=8, keep=7)
    with pytest.raises(ValueError, match="scratch size and no hold"):
        Config(report=4, max_processes=8, keep=7, scratch=MIB, hold=6)


@pytest.mark.parametrize(
    "args",
    [["report=3"], ["report=3", "max_processes=2", "bogus=1"], ["report=3", "max_processes"],
     ["report=3", "max_processes=2", "rlimit.STACK=1"]],
)  # fmt: skip
def test_bad_orders_are_refused(args: list[str]) -> None:
    with pytest.raises((ValueError, KeyError)):
        Config.from_args(args)


def test_a_quiet_sandbox_breaks_no_limit() -> None:
    assert check(CONFIG, QUIET) is None


@pytest.mark.parametrize(
    ("sample", "limit", "words"),
    [
        (Sample(8, 20 * MIB, 0.5), "process", "process limit (8 processes and threads)"),
        (Sample(3, 101 * MIB, 0.5), "memory", "memory limit (resident 101 MiB over 100 MiB)"),
        (Sample(3, 20 * MIB, 5.5), "cpu", "CPU time limit (5.5 s over 5 s)"),
        (Sample(3, 20 * MIB, 0.5, ("/tmp",)), "scratch", "scratch limit (/tmp full)"),
    ],
)
def test_each_limit_is_named(sample: Sample, limit: str, words: str) -> None:
    breach = check(CONFIG, sample)
    assert breach is not None and (breach.limit, breach.detail) == (limit, words)


def test_at_the_edge() -> None:
    assert check(CONFIG, Sample(7, 100 * MIB, 5.0)) is None  # one fork left, at the memory
    assert check(CONFIG, Sample(8, 0, 0.0)) is not None  # no fork left


def test_an_exit_by_itself_is_blamed_on_a_limit_only_with_evidence() -> None:
    after = Sample(0, 0, 0.0)
    assert diagnose_exit(CONFIG, 1, 0.1, after) is None
    assert diagnose_exit(CONFIG, -signal.SIGKILL, 0.1, after) is None  # killed, not by CPU
    assert diagnose_exit(CONFIG, -signal.SIGKILL, 4.4, after) is None
    cpu = diagnose_exit(CONFIG, -signal.SIGKILL, 4.6, after)  # the hard limit, counted low
    assert cpu is not None and cpu.limit == "cpu"
    xcpu = diagnose_exit(CONFIG, -signal.SIGXCPU, 0.1, after)  # the soft limit's signal
    assert xcpu is not None and xcpu.limit == "cpu"
    big = diagnose_exit(CONFIG, -signal.SIGXFSZ, 0.1, after)
    assert big is not None and big.detail == "scratch limit (a file over 2 MiB)"
    # Its forks were failing: what it left fills the limit but for itself.
    left = diagnose_exit(CONFIG, 1, 0.1, Sample(7, 0, 0.0))
    assert left is not None and left.limit == "process"
    assert diagnose_exit(CONFIG, 1, 0.1, Sample(6, 0, 0.0)) is None


def test_stat_lines_with_awkward_names() -> None:
    fields = ["S"] + ["0"] * 10 + ["150", "50"] + ["0"] * 4 + ["3", "0", "0", "0", "42"]
    line = "17 (a b) (c)) " + " ".join(fields) + " 0 0\n"
    assert parse_stat(line) == (3, 200, 42)


@given(
    status=st.integers(-64, 255),
    breach=st.none() | st.builds(Breach, st.sampled_from(["memory", "process", "cpu",
                                                           "scratch"]), st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1)),
)  # fmt: skip
def test_verdicts_read_back(status: int, breach: Breach | None) -> None:
    ready, got, back = parse_report("ready\n" + format_verdict(status, breach))
    assert ready and got == status
    if breach is None:
        assert back is None
    else:
        assert back is not None and (back.limit, back.detail) == (breach.limit, breach.detail)


def test_no_verdict_when_the_warden_said_nothing() -> None:
    assert parse_report("") == (False, None, None)
    ready, status, breach = parse_report("ready\nexit x -\n")
    assert ready and status is None and breach is None


def test_the_watchdog_sees_the_referee_s_end_of_the_report_pipe_close() -> None:
    ours, theirs = os.pipe()
    try:
        dog = Watchdog(theirs)
        assert not dog.referee_gone()
        os.write(theirs, b"ready\n")  # a report the referee has not read yet is no death
        assert not dog.referee_gone()
        os.close(ours)
        assert dog.referee_gone()
    finally:
        os.close(theirs)


def test_a_held_sandbox_starts_its_engine_only_on_the_referee_s_go() -> None:
    hold, go = os.pipe()
    ours, report = os.pipe()
    try:
        os.write(go, b"g")
        assert wait_for_go(hold, report)  # the go
        os.close(go)
        assert not wait_for_go(hold, report)  # the referee closed its end: not needed
    finally:
        for fd in (hold, ours, report):
            os.close(fd)


def test_a_held_sandbox_starts_nothing_once_the_referee_is_gone() -> None:
    hold, go = os.pipe()
    ours, report = os.pipe()
    try:
        os.close(ours)  # the referee died: its end of the report pipe is closed
        assert not wait_for_go(hold, report)  # though its end of the hold pipe looks open
    finally:
        for fd in (hold, go, report):
            os.close(fd)
