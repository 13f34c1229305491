"""Property tests of the config loader: any input is a config or one ``ConfigError``
line that names where; a valid config survives the journal's JSON round trip.

(``benchmarks/fuzz.py --target config`` runs the same contract for minutes.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.event.config import ConfigError, TournamentConfig, parse_config, read_config_data

pytestmark = pytest.mark.marathon

SOURCE = "prop.toml"
BASE: dict[str, Any] = {
    "event": "e",
    "game": "trike",
    "options": {"size": 7, "pie": True},
    "format": "round-robin",
    "rounds": 2,
    "tc": "5+0.05",
    "concurrency": 2,
    "seed": 3,
    "openings": {"plies": 2, "order": "random"},
    "adjudication": {"max_plies": 300},
    "sprt": {"elo0": 0, "elo1": 5},
    "entrants": [
        {"name": "a", "command": "random", "options": {"Hash": 16}, "max_memory_mb": 64},
        {"command": "greedy --seed 2", "env": {"X": "1"}, "max_cpu_seconds": 9},
    ],
}
KEYS = [key for key in TournamentConfig.model_fields if key != "entrants"] + ["bogus"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["1+0", "inf", "trike", "random", "round-robin", "../x", "\x00"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def check_refusal(error: ConfigError) -> None:
    message = str(error)
    assert message.startswith(f"{SOURCE}: ") and len(message) > len(SOURCE) + 2
    assert "\n" not in message and "\r" not in message


def accepted_or_one_line(data: Any) -> TournamentConfig | None:
    try:
        return parse_config(data, SOURCE)
    except ConfigError as error:
        check_refusal(error)
        return None


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=10), values, max_size=6))
def test_any_mapping_is_a_config_or_one_line(data: dict[str, Any]) -> None:
    accepted_or_one_line(data)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(KEYS), values)
@example(key="options", value={"\n": None})  # found here: a line break in a key's name
@example(key="game", value="trike\udcff")  # JSON's lone surrogate escapes
def test_a_bad_top_level_value_names_its_key(key: str, value: Any) -> None:
    data = {**BASE, key: value}
    try:
        parse_config(data, SOURCE)
    except ConfigError as error:
        check_refusal(error)
        assert str(error).startswith(f"{SOURCE}: {key}"), (key, str(error))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=0, max_value=1),
    st.sampled_from(["name", "command", "cwd", "env", "options", "max_memory_mb",
                     "max_cpu_seconds", "bogus"]),
    values,
)  # fmt: skip
def test_a_bad_entrant_value_names_the_entrant_and_key(index: int, key: str, value: Any) -> None:
    entrants = [dict(e) for e in BASE["entrants"]]
    entrants[index][key] = value
    try:
        parse_config({**BASE, "entrants": entrants}, SOURCE)
    except ConfigError as error:
        check_refusal(error)
        assert str(error).startswith(f"{SOURCE}: entrants[{index}].{key}"), str(error)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(KEYS), values)
def test_a_valid_config_survives_the_journal_round_trip(key: str, value: Any) -> None:
    """``--resume`` re-reads the config the journal stored as JSON: it must be equal."""
    config = accepted_or_one_line({**BASE, key: value})
    if config is not None:
        assert parse_config(config.model_dump(mode="json"), SOURCE) == config


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=200))
def test_any_file_text_is_a_table_or_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "prop.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        data = read_config_data(path)
    except ConfigError as error:
        message = str(error)
        assert message.startswith(f"{path}: ") and "\n" not in message
        return
    assert isinstance(data, dict)


def test_a_lone_surrogate_in_a_key_is_named() -> None:
    """Found by benchmarks/fuzz.py: a JSON key like "\\udcff" gave a message without a key."""
    try:
        parse_config({**BASE, "\udcff": 1}, SOURCE)
    except ConfigError as error:
        check_refusal(error)
        assert str(error) == f"{SOURCE}: ['\\udcff']: not valid Unicode (a lone surrogate escape)"
    else:
        raise AssertionError("accepted")
