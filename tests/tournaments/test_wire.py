"""The one codec of what travels to worker processes and Dask tasks (``event.wire``).

Any ``Job`` and ``SlotSetup`` with every field set survives ``to_json`` → JSON text →
``from_json``; every field of every type inside them travels (by introspection, so a
field added to one of them is covered with no change here or in the codec); a message
that does not read is one ``WireError`` line naming where.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.sandbox import SandboxSettings
from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import Outcome, Termination
from referee.score_rules import DrawRule, ResignRule, ScoreRules
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.wire import WireError, from_json, to_json, writer_without
from tournaments.play.worker import Assignment, Failed, Hello, Played
from tournaments.results.game import GameReport

small = st.integers(min_value=1, max_value=10**6)
seconds = st.floats(min_value=0, max_value=1e5, allow_nan=False, allow_infinity=False)
texts = st.text(max_size=12)
words = st.text(min_size=1, max_size=12)
pairs = st.lists(st.tuples(words, texts), max_size=3).map(tuple)


@st.composite
def time_controls(draw: st.DrawFn) -> TimeControl:
    kind = draw(st.sampled_from(["clock", "sessions", "hourglass", "fixed", "untimed"]))
    common: dict[str, Any] = {"margin": draw(seconds), "untimed_limit": draw(seconds)}
    if kind == "clock":
        return TimeControl(base=draw(seconds), increment=draw(seconds), **common)
    if kind == "sessions":
        return TimeControl(base=draw(seconds), increment=draw(seconds), moves=draw(small), **common)
    if kind == "hourglass":
        return TimeControl(base=draw(seconds), hourglass=True, **common)
    if kind == "fixed":
        return TimeControl(movetime=draw(seconds), **common)
    return TimeControl(**common)


sandboxes = st.builds(
    SandboxSettings,
    max_processes=small,
    max_scratch_mb=small,
    hidden=st.lists(words.map(lambda w: "/" + w), max_size=3).map(tuple),
)
engines = st.builds(
    EngineSpec,
    name=texts,
    argv=st.lists(texts, max_size=3).map(tuple).flatmap(
        lambda rest: words.map(lambda first: (first, *rest))
    ),
    cwd=st.none() | texts,
    env=st.none() | st.dictionaries(words, texts, max_size=3),
    options=pairs,
    max_memory_mb=st.none() | small,
    max_cpu_seconds=st.none() | small,
    nodes=st.none() | small,
    depth=st.none() | small,
    restart=st.booleans(),
    sandbox=st.none() | sandboxes,
)
score_rules = st.builds(
    ScoreRules,
    resign=st.none() | st.builds(ResignRule, small, st.integers(0, 999)),
    draw=st.none() | st.builds(DrawRule, st.integers(0, 500), small, st.integers(0, 1000)),
)
jobs = st.builds(
    Job,
    number=small,
    round=small,
    block=st.integers(0, 100),
    table=st.lists(st.integers(0, 8), min_size=1, max_size=4).map(tuple),
    seed=st.integers(0, 2**63),
    opening=st.lists(words, max_size=4).map(tuple),
    start=st.none() | texts,
)


@st.composite
def setups(draw: st.DrawFn) -> SlotSetup:
    entrants = tuple(draw(st.lists(engines, min_size=1, max_size=3)))
    per_seat = draw(st.booleans())
    return SlotSetup(
        game=draw(words),
        options=draw(pairs),
        players=draw(st.integers(2, 4)),
        entrants=entrants,
        tc=draw(time_controls()),
        max_plies=draw(small),
        adjudication=draw(st.none() | score_rules),
        start_timeout=draw(seconds),
        event=draw(texts),
        out=draw(st.none() | texts),
        transcripts=draw(st.sampled_from(["all", "failures", "none"])),
        live=draw(st.booleans()),
        wait=draw(seconds),
        tcs=tuple(draw(time_controls()) for _ in entrants) if per_seat else (),
        feed_moves=draw(st.booleans()),
        keep_feed=draw(st.booleans()),
        transcript_file=draw(st.none() | texts),
    )


def _travel(value: Any) -> Any:
    """What the other process reads: the value as JSON text and back."""
    return from_json(type(value), json.loads(json.dumps(to_json(value))))


@settings(max_examples=50)  # the fast tier: seconds under load, not tens
@given(jobs)
def test_any_job_survives_the_trip(job: Job) -> None:
    assert _travel(job) == job


@settings(max_examples=50)
@given(setups())
def test_any_slot_setup_survives_the_trip(setup: SlotSetup) -> None:
    back = _travel(setup)
    assert back == setup
    # equality skips EngineSpec.env (hash=False keeps it in eq, but say it outright)
    assert [e.env for e in back.entrants] == [e.env for e in setup.entrants]


def _carried(cls: type) -> set[type]:
    """Every dataclass reachable from ``cls``'s field types, ``cls`` included."""
    found: set[type] = set()
    todo: list[Any] = [cls]
    while todo:
        hint = todo.pop()
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            if hint not in found:
                found.add(hint)
                todo.extend(typing.get_type_hints(hint).values())
        else:
            todo.extend(typing.get_args(hint))
    return found


FULL_SETUP = SlotSetup(
    game="trike",
    options=(("size", "7"),),
    players=2,
    entrants=(
        EngineSpec(
            "a", ("a", "-x"), cwd="/d", env={"K": "v"}, options=(("Hash", "16"),),
            max_memory_mb=64, max_cpu_seconds=9, nodes=800, depth=9, restart=True,
            sandbox=SandboxSettings(max_processes=3, max_scratch_mb=5, hidden=("/h",)),
        ),
        EngineSpec("b", ("b",)),
    ),
    tc=TimeControl(base=60, increment=0.5, moves=40, margin=0.08, untimed_limit=7),
    max_plies=300,
    adjudication=ScoreRules(ResignRule(3, 50), DrawRule(40, 4, 20)),
    start_timeout=2.5, event="e", out="/o", transcripts="failures", live=True, wait=0.25,
    tcs=(TimeControl(base=20, hourglass=True, margin=0.01), TimeControl(movetime=0.1)),
    feed_moves=False, keep_feed=True, transcript_file="/t.log",
)  # fmt: skip
FULL_JOB = Job(number=7, round=2, block=1, table=(1, 0), seed=99, opening=("e5",), start="x")
FULL_REPORT = GameReport(
    number=7, round=2, block=1, table=(1, 0), seats=("b", "a"),
    outcome=Outcome(Termination.TIMEOUT, (2, 1), (0.0, 1.0), culprit=0, reason="late"),
    plies=3, record="[Game \"trike\"]\n", overheads=(0.000125,), round_trips=(0.5, 0.25),
    transcript="/o/logs/transcripts-1.log",
)  # fmt: skip


def _values(value: Any) -> list[Any]:
    """Every dataclass value inside ``value`` (itself included)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = [getattr(value, f.name) for f in dataclasses.fields(value)]
        return [value, *(v for item in inner for v in _values(item))]
    if isinstance(value, tuple):
        return [v for item in value for v in _values(item)]
    return []


def test_every_field_of_every_carried_type_is_set_and_travels() -> None:
    """By introspection: a field added to any type a worker's message carries (an entrant's
    ``EngineSpec``, its ``SandboxSettings``, a ``TimeControl``, the setup itself) is
    written under its name and read back, with no codec change; and the full examples
    here set every field off its default, so a new field fails this test until it is
    set here too (and so is proved to travel)."""
    carried = _carried(Hello) | _carried(Assignment) | _carried(Played) | _carried(Failed)
    assert {EngineSpec, SandboxSettings, TimeControl, ScoreRules, Job, SlotSetup} <= carried
    assert {GameReport, Outcome} <= carried
    values = _values(Hello(FULL_SETUP, 3)) + _values(Assignment(1, FULL_JOB))
    values += _values(Played(2, FULL_REPORT)) + _values(Failed("ValueError: x", "Traceback"))
    assert {type(v) for v in values} == carried
    for value in values:
        data = to_json(value)
        names = [f.name for f in dataclasses.fields(value)]
        assert list(data) == names
        back = from_json(type(value), json.loads(json.dumps(data)))
        for field in dataclasses.fields(value):
            assert getattr(back, field.name) == getattr(value, field.name), field.name
            if field.default is not dataclasses.MISSING:
                off = [v for v in values if type(v) is type(value)]
                assert any(getattr(v, field.name) != field.default for v in off), (
                    f"set {type(value).__name__}.{field.name} in this test's full example"
                )


def test_a_new_entrant_field_travels_with_no_codec_change() -> None:
    threads = dataclasses.field(default=1)
    Wider = dataclasses.make_dataclass(
        "Wider", [("threads", int, threads)], bases=(EngineSpec,), frozen=True
    )
    spec = Wider("a", ("a",), nodes=5, threads=4)
    data = json.loads(json.dumps(to_json(spec)))
    assert data["threads"] == 4 and data["nodes"] == 5
    assert from_json(Wider, data) == spec
    # a message written before the field existed reads with its default
    assert from_json(Wider, {"name": "a", "argv": ["a"]}).threads == 1


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.pop("tc"), "SlotSetup: missing field 'tc'"),
        (lambda d: d.update(bogus=1), "SlotSetup: SlotSetup has no field 'bogus'"),
        (lambda d: d["entrants"][1].update(nodes="5"), "SlotSetup.entrants[1].nodes: expected int"),
        (lambda d: d["tcs"][0].update(base=True), "SlotSetup.tcs[0].base: expected float"),
        (lambda d: d["entrants"][0]["env"].update(K=3), "SlotSetup.entrants[0].env['K']"),
        (lambda d: d.update(options=[["a"]]), "SlotSetup.options[0]: expected a list of 2"),
        (lambda d: d.update(adjudication={"resign": 3}), "SlotSetup.adjudication"),
        (lambda d: d.update(entrants={}), "SlotSetup.entrants: expected a list"),
    ],
)
def test_a_message_that_does_not_read_names_where(edit: Any, where: str) -> None:
    data = json.loads(json.dumps(to_json(FULL_SETUP)))
    edit(data)
    with pytest.raises(WireError) as caught:
        from_json(SlotSetup, data)
    assert str(caught.value).startswith(where), str(caught.value)
    assert "\n" not in str(caught.value)


def test_keyword_only_fields_and_left_out_defaults_read() -> None:
    Keyed = dataclasses.make_dataclass(
        "Keyed", [("a", int), ("b", str, dataclasses.field(default="x"))], kw_only=True
    )
    assert from_json(Keyed, {"b": "y", "a": 1}) == Keyed(a=1, b="y")
    assert from_json(Keyed, {"a": 2}) == Keyed(a=2)
    Mixed = dataclasses.make_dataclass(
        "Mixed", [("k", int, dataclasses.field(kw_only=True)), ("p", str)]
    )  # a keyword-only field before a positional one: __init__ takes it last
    assert from_json(Mixed, {"k": 1, "p": "x"}) == Mixed("x", k=1)
    assert _travel(Mixed("y", k=2)) == Mixed("y", k=2)


@dataclasses.dataclass(frozen=True)
class Kinds:
    """One field of each other kind the codec knows."""

    ending: Termination
    mode: typing.Literal["all", "none"]
    pair: tuple[int, str]
    counts: dict[str, int]
    either: int | str
    anything: Any


def test_enums_literals_pairs_mappings_unions_and_any_travel() -> None:
    value = Kinds(Termination.VOID, "none", (3, "x"), {"a": 1}, "s", {"k": [1, None]})
    assert _travel(value) == value
    assert to_json(value)["ending"] == Termination.VOID.value
    data = to_json(value)
    for key, bad, expected in [
        ("ending", "bogus", "Termination"),
        ("mode", "some", "'all' or 'none'"),
        ("pair", [3, 4], "str"),
        ("counts", {"a": 1.5}, "int"),
        ("either", 1.5, "int | str"),
    ]:
        with pytest.raises(WireError, match=f"^Kinds\\.{key}.*expected {expected}"):
            from_json(Kinds, {**data, key: bad})


@dataclasses.dataclass(frozen=True)
class Chain:
    """A dataclass that holds itself."""

    label: str
    rest: Chain | None = None


def test_a_dataclass_that_holds_itself_travels() -> None:
    chain = Chain("a", Chain("b", Chain("c")))
    assert _travel(chain) == chain
    with pytest.raises(WireError, match=r"^Chain\.rest\.rest\.label: expected str, not 3$"):
        from_json(Chain, {"label": "a", "rest": {"label": "b", "rest": {"label": 3}}})


def test_a_value_without_a_json_form_is_refused() -> None:
    Loose = dataclasses.make_dataclass("Loose", [("anything", Any)], frozen=True)
    with pytest.raises(TypeError, match="PosixPath"):
        to_json(Loose(Path("/x")))
    with pytest.raises(TypeError, match="set"):
        to_json({"e5"})
    with pytest.raises(TypeError, match="str keys"):
        to_json({1: "a"})


def test_the_values_own_checks_still_run_when_read() -> None:
    data = to_json(FULL_JOB)
    setup = to_json(FULL_SETUP)
    setup["entrants"][0]["argv"] = []
    with pytest.raises(ValueError, match="empty command"):
        from_json(SlotSetup, setup)
    assert from_json(Job, data) == FULL_JOB


class Tenths:
    """A ``JsonForm``: a float as a whole number of tenths."""

    def write(self, value: float) -> int:
        return round(value * 10)

    def read(self, data: Any) -> float:
        if type(data) is not int:
            raise TypeError("not whole tenths")
        return data / 10


@dataclasses.dataclass(frozen=True)
class Formed:
    """A field with a form of its own, one plain."""

    length: typing.Annotated[float, Tenths()]
    note: typing.Annotated[str, "no form here"] = ""


def test_a_field_with_a_form_of_its_own_is_written_and_read_by_it() -> None:
    value = Formed(2.5, "n")
    assert to_json(value) == {"length": 25, "note": "n"}
    assert _travel(value) == value
    with pytest.raises(WireError, match=r"^Formed\.length: expected Tenths, not 2\.5$"):
        from_json(Formed, {"length": 2.5})
    with pytest.raises(WireError, match=r"^Formed\.note: expected str, not 1$"):
        from_json(Formed, {"length": 1, "note": 1})


def test_a_writer_may_leave_out_fields_with_defaults() -> None:
    write = writer_without(Job, ("opening", "start"))
    data = write(FULL_JOB)
    assert "opening" not in data and "start" not in data
    assert from_json(Job, data) == dataclasses.replace(FULL_JOB, opening=(), start=None)
    assert to_json(FULL_JOB)["opening"] == ["e5"]  # the whole writer is unchanged
    with pytest.raises(TypeError, match=r"Job\.seed"):
        writer_without(Job, ("seed",))  # no default: a reader could not rebuild it
    with pytest.raises(TypeError, match=r"Job\.colour"):
        writer_without(Job, ("colour",))


def _tuples(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(map(_tuples, data))
    if isinstance(data, dict):
        return {key: _tuples(value) for key, value in data.items()}
    return data


def test_arrays_read_from_tuples_as_msgpack_gives_them() -> None:
    assert from_json(SlotSetup, _tuples(to_json(FULL_SETUP))) == FULL_SETUP
    assert from_json(Job, _tuples(to_json(FULL_JOB))) == FULL_JOB
