"""Tournament configuration: pydantic models read from TOML (or JSON), validated once.

Every model is frozen and forbids unknown keys. ``load_config(path)`` and
``parse_config(data, source)`` raise ``ConfigError`` whose text is one line naming
the key, e.g. ``config.toml: entrants[2].command: field required`` (list indexes
count from 0, as in the file's arrays).

The file format is documented in ``tournaments/README.md``.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from referee.core import DEFAULT_MAX_PLIES
from referee.errors import UserError
from referee.score_rules import DrawRule, ResignRule, ScoreRules
from tournaments.event.cluster_settings import ClusterConfig
from tournaments.event.files import TooLarge, read_input_text

OptionValue = str | int | float | bool
SandboxMode = Literal["none", "bwrap"]
"""How engines run: as plain processes, or in the bubblewrap sandbox (``protocol.sandbox``)."""


class ConfigError(UserError):
    """A configuration problem; ``str()`` is one line naming the file and the key."""


class _Model(BaseModel):
    # strict: a number must be written as a number (``concurrency = true`` or ``seed =
    # "3"`` is refused with the key named, never read as 1 or 3); an integer is still a
    # valid float.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def _option_text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def option_texts(options: Mapping[str, OptionValue]) -> dict[str, str]:
    """Option values as the text the rules and engines see (``true`` → ``yes``)."""
    return {key: _option_text(value) for key, value in options.items()}


class EntrantConfig(_Model):
    """One entrant: a built-in engine name or a command line, and how to run it."""

    name: str | None = Field(default=None, min_length=1, max_length=100)
    """Entrant name in tables and records; defaults to the engine's name."""
    command: str = Field(min_length=1)
    """A built-in name (``random``, ``greedy``, ``mcts``, ``trike-c``, with arguments allowed:
    ``greedy --seed 2``) or a command line, split like a shell but never run by one."""
    cwd: str | None = None
    """Working directory (relative to the config file)."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra environment variables."""
    options: dict[str, OptionValue] = Field(default_factory=dict)
    """Engine options, sent as ``setoption`` after the handshake."""
    max_memory_mb: int | None = Field(default=None, ge=1)
    """Address-space limit of the engine process in MiB (``RLIMIT_AS``): over it, the
    engine's allocations fail and it loses by crash."""
    max_cpu_seconds: int | None = Field(default=None, ge=1)
    """CPU-time limit of the engine process in seconds (``RLIMIT_CPU``), over its whole
    life (an engine is reused across games): over it, it is killed and loses by crash.
    In the sandbox: of all its processes together, per game."""
    nodes: int | None = Field(default=None, ge=1)
    """A node limit sent with every ``go`` (``go nodes N``, fastchess's ``nodes=``); the
    engine must declare ``feature nodes`` or the event is refused before its first game."""
    depth: int | None = Field(default=None, ge=1)
    """A depth limit sent with every ``go`` (``go depth D``); needs ``feature depth``."""
    tc: str | None = None
    """This entrant's own time control (time odds), in any form of the event's ``tc``;
    default: the event's. Its games' ``TimeControl`` tags then name each seat's."""
    restart: bool = False
    """A fresh engine process for every game (cutechess's ``restart=on``); by default a
    process is reused across games and restarted only after a failure."""
    sandbox: SandboxMode | None = None
    """``bwrap`` runs this engine in the sandbox, ``none`` as a plain process; default:
    the event's ``sandbox``."""
    max_processes: int | None = Field(default=None, ge=1, le=100_000)
    """In the sandbox: processes and threads the engine may have at once (default 64)."""
    max_scratch_mb: int | None = Field(default=None, ge=1, le=1_048_576)
    """In the sandbox: size of each of its writable file systems (``/scratch``, ``/tmp``,
    ``/dev/shm``) in MiB (default 64)."""

    @field_validator("name")
    @classmethod
    def _one_line_name(cls, value: str | None) -> str | None:
        # Names go into records, tables and transcripts (never into file names); a control
        # character (NUL, ESC, a line break) would garble them.
        if value is not None and (
            value != value.strip() or any(not c.isprintable() and c != " " for c in value)
        ):
            raise ValueError(
                "a name is one line of printable characters without leading or trailing blanks"
            )
        return value


class OpeningsConfig(_Model):
    """Where start positions come from; each opening is played once per seat arrangement."""

    file: str | None = None
    """A file of start move sequences: one opening per line, moves separated by blanks,
    ``#`` starts a comment (relative to the config file)."""
    plies: int = Field(default=0, ge=0, le=100)
    """Random opening plies (seeded) when no file is given; 0 plays from the start."""
    order: Literal["sequential", "random"] = "sequential"
    """Book order: in file order, or shuffled by the tournament seed."""


class ResignConfig(_Model):
    """Score adjudication by resignation (cutechess ``-resign``)."""

    movecount: int = Field(ge=1)
    """Consecutive turns of every engine at the table."""
    share: int = Field(ge=0, le=999)
    """The losing seat's share in every engine's score is at most this, in thousandths."""


class DrawConfig(_Model):
    """Score adjudication by draw (cutechess ``-draw``)."""

    movenumber: int = Field(ge=0)
    """Not before this many plies."""
    movecount: int = Field(ge=1)
    """Consecutive turns of every engine at the table."""
    spread: int = Field(ge=0, le=1000)
    """Every share of every score is within this of an equal split, in thousandths."""


class AdjudicationConfig(_Model):
    """When the referee ends a game itself."""

    max_plies: int = Field(default=DEFAULT_MAX_PLIES, ge=1)
    """Move limit; the game is then scored by the game's own ``score_unfinished``."""
    resign: ResignConfig | None = None
    """End a game the engines' scores agree is lost for one seat (``referee.score_rules``)."""
    draw: DrawConfig | None = None
    """End a game the engines' scores agree is even."""

    def score_rules(self) -> ScoreRules | None:
        """The score rules of this table, or None when neither rule is set."""
        rules = ScoreRules(
            None if self.resign is None else ResignRule(self.resign.movecount, self.resign.share),
            None
            if self.draw is None
            else DrawRule(self.draw.movenumber, self.draw.movecount, self.draw.spread),
        )
        return rules or None


class SprtConfig(_Model):
    """A sequential probability ratio test that stops a two-entrant match."""

    elo0: float
    elo1: float
    alpha: float = Field(default=0.05, gt=0, lt=1)
    beta: float = Field(default=0.05, gt=0, lt=1)
    model: Literal["normalized", "logistic"] = "normalized"


class TournamentConfig(_Model):
    """A whole tournament."""

    event: str = Field(default="referee tournament", min_length=1)
    """The ``Event`` tag of every record."""
    game: str = Field(min_length=1)
    """Game id or alias."""
    options: dict[str, OptionValue] = Field(default_factory=dict)
    """Rule options (``size = 9``, ``pie = true`` means ``yes``)."""
    players: int | None = Field(default=None, ge=2)
    """Seats per game; defaults to the game's smallest player count."""
    format: Literal["round-robin", "gauntlet", "swiss", "knockout"] = "round-robin"
    challengers: int = Field(default=1, ge=1)
    """Gauntlet: the first this-many entrants are the challengers."""
    seat_order: Literal["all", "cyclic"] = "all"
    """Three or more seats: every seat permutation per opening, or the cyclic rotations."""
    rounds: int = Field(default=1, ge=1)
    """Repetitions of the schedule (Swiss: rounds)."""
    games: int | None = Field(default=None, ge=1)
    """Total games instead of rounds (not for Swiss); the schedule repeats until then."""
    games_per_encounter: int | None = Field(default=None, ge=1)
    """Games per pairing or triple per round; default one per seat arrangement."""
    tc: str | None = None
    """Time control (seconds): ``BASE+INC``, ``MOVES/BASE+INC``, ``hourglass:BASE``,
    ``movetime=S`` or ``inf``; default ``10+0.1``. Read by ``referee.clock`` when the plan
    is made (``Plan.from_config``), the one parser of a time control."""
    movetime_ms: int | None = Field(default=None, ge=1)
    """Fixed time per move in milliseconds instead of ``tc``."""
    margin_ms: int = Field(default=50, ge=0)
    """Grace per move before a reply is late."""
    concurrency: int = Field(default=1, ge=1, le=1024)
    """Games played at once."""
    workers: int | None = Field(default=None, ge=0, le=256)
    """Worker processes (each its own event loop); default: none for concurrency 1,
    else one per core up to the concurrency. 0 plays every game in one loop."""
    seed: int = Field(default=1, ge=0, le=2**53)
    """Seeds the game seeds, random openings and the book order."""
    start_timeout: float = Field(default=10.0, gt=0)
    """Seconds an engine may take to start and to answer ``newgame``."""
    transcripts: Literal["all", "failures", "none"] = "failures"
    """Engine transcripts kept in ``logs/`` (``tournaments.store.transcripts``): of games
    ended by a failure (forfeit, void, adjudication), of every game, or of none."""
    points: list[float] | None = None
    """Tournament points per place (1st, 2nd, …); tied seats share the average of the
    places they span. Default: 1 for first, 0 for last, even steps between."""
    out: str | None = None
    """Output directory (relative to the working directory)."""
    sandbox: SandboxMode = "none"
    """Every entrant's default: ``bwrap`` runs engines in the bubblewrap sandbox
    (``docs/SECURITY.md``); an entrant's own ``sandbox`` key wins."""
    openings: OpeningsConfig = Field(default_factory=OpeningsConfig)
    adjudication: AdjudicationConfig = Field(default_factory=AdjudicationConfig)
    sprt: SprtConfig | None = None
    cluster: ClusterConfig = Field(default_factory=ClusterConfig)
    """A Dask cluster to play the games on (``tournaments/cluster/client.py``)."""
    entrants: list[EntrantConfig] = Field(min_length=2)


def with_sandbox(config: TournamentConfig, mode: SandboxMode) -> TournamentConfig:
    """``config`` with every entrant in ``mode`` (``--sandbox``: entrants' own keys lose)."""
    entrants = [entrant.model_copy(update={"sandbox": None}) for entrant in config.entrants]
    return config.model_copy(update={"sandbox": mode, "entrants": entrants})


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _location(loc: Sequence[int | str]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part) is None:
            # A key from the file with odd characters (a line break, a dot): quoted, so
            # the message stays one unambiguous line.
            text += f"[{part!r}]"
        else:
            text += f".{part}" if text else part
    return text


def _message(error: Mapping[str, Any]) -> str:
    kind = error.get("type", "")
    if kind == "missing":
        return "field required"
    if kind == "extra_forbidden":
        return "unknown key"
    if kind in ("int_type", "float_type") and isinstance(error.get("input"), bool):
        return f"expected a number, not {str(error['input']).lower()}"
    message = str(error.get("msg", "invalid value"))
    message = message.removeprefix("Value error, ")
    return message[:1].lower() + message[1:]


def _strip_tags(loc: Sequence[int | str]) -> list[int | str]:
    # Unions add a member name to the location ("options.size.str"): drop those.
    kinds = {"str", "int", "float", "bool"}
    return [part for part in loc if not (isinstance(part, str) and part in kinds)]


def _lone_surrogate(value: Any, loc: list[int | str]) -> list[int | str] | None:
    """Where ``value`` holds a string (or key) that is not valid Unicode, or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return loc
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and _lone_surrogate(key, []) is not None:
                return [*loc, key]  # _location quotes it with repr: ASCII escapes
            found = _lone_surrogate(item, [*loc, key])
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _lone_surrogate(item, [*loc, index])
            if found is not None:
                return found
    return None


def parse_config(data: Mapping[str, Any], source: str = "config") -> TournamentConfig:
    """Validate a config mapping.

    :raises ConfigError: one line: ``source: key: problem``.
    """
    broken = _lone_surrogate(data, [])
    if broken is not None:  # JSON's "\udcff" escapes: pydantic would not say where
        where = _location(broken)
        prefix = f"{source}: {where}: " if where else f"{source}: "
        raise ConfigError(prefix + "not valid Unicode (a lone surrogate escape)")
    try:
        return TournamentConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = _location(_strip_tags(first["loc"]))
        prefix = f"{source}: {where}: " if where else f"{source}: "
        raise ConfigError(prefix + _message(first)) from None


def read_config_data(path: Path) -> dict[str, Any]:
    """The raw mapping of a ``.toml`` or ``.json`` file.

    :raises ConfigError: unreadable, over 64 MiB, or malformed (one line with the position).
    """
    try:
        text = read_input_text(path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, TooLarge) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"{path}: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a table of settings at the top")
    return data


def load_config(path: Path, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read, apply command-line ``overrides`` (top-level keys), resolve relative paths
    against the file's directory (``with_file_paths``), and validate.

    :raises ConfigError: see ``parse_config``.
    """
    data = read_config_data(path)
    data.update(overrides or {})
    return parse_config(with_file_paths(data, path), str(path))


def with_file_paths(data: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """``data`` (a config file's settings, overrides included) with its relative paths
    (the openings file, the entrants' ``cwd``) resolved against the folder of ``path``,
    the file: a config means the same wherever the command runs. Absolute paths (the
    command line's, resolved where it runs) stay as they are."""
    result = dict(data)
    base = path.resolve().parent
    openings = result.get("openings")
    if isinstance(openings, dict) and isinstance(openings.get("file"), str):
        result["openings"] = {**openings, "file": str(base / openings["file"])}
    entrants = result.get("entrants")
    if isinstance(entrants, list):
        result["entrants"] = [
            {**e, "cwd": str(base / e["cwd"])} if isinstance(e, dict) and "cwd" in e else e
            for e in entrants
        ]
    return result
