"""The ``referee`` command line: the composition root.

Commands are thin: parse options, build plain objects, call the layers below,
print. Every user error (``referee.errors.UserError``: a bad config, record, engine
setup, argument or path, from any layer) ends as one line ``referee: error: ...`` and
exit status 2; any other exception, a ``ValueError`` or ``OSError`` included, is a bug:
its traceback and ``BUG_LINE``, exit status 1. ``--debug`` (or
``REFEREE_DEBUG=1``) shows every traceback.

Reading the app is cheap: every command module imports at its top only typer and the
declarations its signature needs (``options``), and what a command runs inside the
command, when it runs. So ``referee --help``, ``games`` or ``rules`` read no event loop,
runner, pydantic model or page, ``perft``, ``moves`` and ``check-engine`` (run in loops
by engine authors) no config model, ``play`` no page or live server, and the hundreds of
``referee`` processes a test run starts do not each pay for every command
(``tests/architecture/test_lazy_imports.py``).
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from referee.core import DEFAULT_MAX_PLIES
from referee.errors import UserError, leaves
from referee.perft import divide, perft
from tournaments.cli.adjudicate import adjudicate_command
from tournaments.cli.help_text import readable
from tournaments.cli.options import (
    ENGINE_HELP,
    PLAY_NOT_STARTED,
    DepthOption,
    DrawOption,
    EachOption,
    NodesOption,
    ResignOption,
    SandboxCpuOption,
    SandboxMemoryOption,
    SandboxOption,
    SandboxProcsOption,
    TcOption,
    written_path,
)
from tournaments.cli.report import report_command
from tournaments.cli.rules import moves_command, rules_command
from tournaments.cli.serve import serve_command
from tournaments.cli.show import show_command
from tournaments.cli.signals import stoppable
from tournaments.cli.tournament import standings_command, tournament_command

if TYPE_CHECKING:
    from protocol.spec import EngineSpec
    from referee.core import Game



def _typer() -> typer.Typer:
    """A ``Typer`` with the root's settings: ``app``, and the root ``cli_command`` builds."""
    return typer.Typer(
        name="referee",
        help="Referee and tournament runner for the Tri- family of abstract board games.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )


app = _typer()
"""Every command, registered below; ``cli_command`` makes the tree ``main`` runs of it."""

_debug = False


def _print_version(value: bool) -> None:
    if value:
        from referee.version import VERSION  # reads the package's metadata: only here

        typer.echo(f"referee {VERSION}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks on errors.")] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="Print the referee's version and exit.",
        ),
    ] = False,
) -> None:
    global _debug
    _debug = debug or os.environ.get("REFEREE_DEBUG") == "1"
    if _debug:
        os.environ["REFEREE_DEBUG"] = "1"  # worker processes show their tracebacks too


def _game(name: str, options: list[str] | None) -> Game[Any, Any]:
    from referee.registry import make_game
    from tournaments.cli.rules import parse_rule_options

    return make_game(name, parse_rule_options(options))


@app.command("games")
def games_command() -> None:
    """List every game with its player counts and rule options (defaults first)."""
    from tabulate import tabulate

    from referee.registry import GAMES

    rows: list[list[str]] = []
    for cls in GAMES:
        title = cls.name + (f" ({', '.join(cls.aliases)})" if cls.aliases else "")
        counts = ",".join(str(n) for n in cls.player_counts)
        for i, spec in enumerate(cls.option_specs):
            rows.append(
                [
                    title if i == 0 else "",
                    counts if i == 0 else "",
                    spec.name,
                    spec.default,
                    spec.describe(),
                ]
            )
        if not cls.option_specs:
            rows.append([title, counts, "-", "-", "-"])
    typer.echo(tabulate(rows, headers=["Game", "Players", "Option", "Default", "Values"]))


@app.command("perft")
@stoppable("interrupted (the counts above are complete)")
def perft_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game id or alias.")],
    depth: Annotated[
        int, typer.Argument(metavar="DEPTH", min=0, max=64, help="Complete turns to count.")
    ],
    players: Annotated[int | None, typer.Option("--players", help="Number of seats.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option k=v.")] = None,
    start: Annotated[str | None, typer.Option("--start", help="Encoded start position.")] = None,
    show_divide: Annotated[bool, typer.Option("--divide", help="Per-move counts.")] = False,
) -> None:
    """Count complete turns to DEPTH: one line '<depth> <count>' per depth."""
    game = _game(game_name, option)
    count = players if players is not None else game.player_counts[0]
    state = game.decode(start) if start is not None else game.initial_state(count)
    if show_divide:
        for text, nodes in divide(game, state, depth):
            typer.echo(f"{text} {nodes}")
        typer.echo("")
    for d in range(1, depth + 1):
        typer.echo(f"{d} {perft(state, d)}")


@app.command("play")
@stoppable(PLAY_NOT_STARTED)
def play_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game id or alias.")],
    engine: Annotated[
        list[str], typer.Option("--engine", "-e", metavar="ENGINE", help=ENGINE_HELP)
    ],
    tc: TcOption = None,
    movetime: Annotated[
        int | None, typer.Option("--movetime", min=1, help="Fixed ms per move.")
    ] = None,
    margin: Annotated[int, typer.Option("--margin", min=0, help="Grace per move, ms.")] = 50,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")] = 2,
    seed: Annotated[
        int,
        typer.Option("--seed", min=0, help="Seeds the games and random openings."),
    ] = 1,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option k=v.")] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE.tgn",
            parser=written_path,
            help="Append records to this file.",
        ),
    ] = None,
    max_plies: Annotated[
        int,
        typer.Option(
            "--max-plies", min=1, help="Move limit: the game is then scored as it stands."
        ),
    ] = DEFAULT_MAX_PLIES,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No per-game lines.")] = False,
    nodes: NodesOption = None,
    depth: DepthOption = None,
    each: EachOption = None,
    resign: ResignOption = None,
    draw: DrawOption = None,
    sandbox: SandboxOption = None,
    sandbox_memory: SandboxMemoryOption = None,
    sandbox_cpu: SandboxCpuOption = None,
    sandbox_procs: SandboxProcsOption = None,
    transcripts: Annotated[
        str,
        typer.Option(
            "--transcripts",
            help="Games whose engine transcripts are kept: failures, all or none "
            "(beside --out as NAME.transcripts.log, else in the temporary folder).",
        ),
    ] = "failures",
    concurrency: Annotated[
        int, typer.Option("--concurrency", "-c", min=1, help="Games at once.")
    ] = 1,
    openings: Annotated[
        Path | None,
        typer.Option("--openings", help="File of start move sequences (one per line)."),
    ] = None,
    opening_plies: Annotated[
        int | None, typer.Option("--opening-plies", min=0, help="Random opening plies.")
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="tcp://HOST:PORT",
            help="Play on this Dask scheduler's workers (pip install 'referee[cluster]').",
        ),
    ] = None,
) -> None:
    """Play GAMES games between the engines, seats rotated each game; print standings.

    The match is a one-encounter event played as a tournament's games are: a void game is
    played again (3 times at most), records carry the same tags.
    """
    from tournaments.play import prestart

    # Before the runner's code is read: the workers start up beside it.
    prestart.start_for_flags(concurrency, None, elsewhere=cluster is not None)
    try:
        from tournaments.cli.play import PlayOptions, play_match, play_setup

        options = PlayOptions(
            game=game_name, engine=engine, tc=tc, movetime=movetime, margin=margin,
            games=games, seed=seed, option=option, out=out, max_plies=max_plies,
            quiet=quiet, nodes=nodes, depth=depth, each=each, resign=resign, draw=draw,
            sandbox=sandbox, sandbox_memory=sandbox_memory, sandbox_cpu=sandbox_cpu,
            sandbox_procs=sandbox_procs, transcripts=transcripts, concurrency=concurrency,
            openings=openings, opening_plies=opening_plies, cluster=cluster,
        )  # fmt: skip
        play_match(play_setup(options), options.out, quiet=options.quiet)
    finally:
        prestart.discard()

app.command("adjudicate")(
    stoppable("interrupted (the verdicts above are complete)")(adjudicate_command)
)


MAX_CHECK_GAMES = 1000
"""The most ``check-engine --games``: its games are planned before the first one starts
(``--games 100000000`` planned for minutes, in gigabytes, deaf to Ctrl+C and SIGTERM)."""


@app.command(
    "check-engine",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def check_engine_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game id or alias.")],
    command: Annotated[
        list[str],
        typer.Argument(metavar="-- CMD...", help="The engine's command line, after --."),
    ],
    players: Annotated[int | None, typer.Option("--players", help="Number of seats.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option k=v.")] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.01, help="Seconds per step.")
    ] = 10.0,
    sandbox: SandboxOption = None,
    sandbox_memory: SandboxMemoryOption = None,
    sandbox_cpu: SandboxCpuOption = None,
    sandbox_procs: SandboxProcsOption = None,
    check_games: Annotated[
        int,
        typer.Option(
            "--games",
            min=0,
            max=MAX_CHECK_GAMES,
            help=f"Games against random at the end (at most {MAX_CHECK_GAMES}).",
        ),
    ] = 4,
    quick: Annotated[
        bool, typer.Option("--quick", help="Only the nine basic steps (no coverage steps).")
    ] = False,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of every random choice.")] = 1,
) -> None:
    """Numbered protocol compliance steps; exit 0 only when every step passes.

    Nine basic steps, then (unless --quick) what real games send: every seat and player
    count, position state starts, every rule option, the pie swap and special moves in the
    history, an unknown command, the engine's options, two games in one process, and
    --games games against random. CMD is a built-in engine name, one command string, or
    the program and its arguments after `--`. With --sandbox bwrap every step runs in the
    sandbox.
    """
    from tournaments.checks.check_engine import check_engine
    from tournaments.cli.sandbox import SandboxLimits, confine, require_sandbox, sandbox_mode
    from tournaments.cli.signals import run_until_signalled

    game = _game(game_name, option)
    count = players if players is not None else game.player_counts[0]
    game.check_players(count)
    counts = (count,) if players is not None else tuple(game.player_counts)
    limits = SandboxLimits(sandbox_memory, sandbox_cpu, sandbox_procs)
    [spec] = confine([_command_spec(command)], sandbox_mode(sandbox), (), limits)
    require_sandbox([spec])
    results = run_until_signalled(
        lambda: check_engine(
            game,
            spec,
            players=count,
            step_timeout=timeout,
            seed=seed,
            coverage=not quick,
            counts=counts,
            games=check_games,
        )
    )
    marks = {True: "ok  ", False: "FAIL", None: "skip"}
    for step in results:
        typer.echo(f"{step.number}. {marks[step.passed]} {step.name}: {step.detail}")
    passed = sum(1 for step in results if step.passed)
    typer.echo(f"{passed}/{len(results)} steps passed")
    raise typer.Exit(0 if passed == len(results) else 1)


def _command_spec(command: list[str]) -> EngineSpec:
    """One argument: a built-in name or a command line; several: the argv itself."""
    from protocol.spec import EngineSpec
    from tournaments.event.engines import check_runnable, resolve_engine

    if len(command) == 1:
        spec = resolve_engine(command[0])
    else:
        spec = EngineSpec(name=os.path.basename(command[0]), argv=tuple(command))
    check_runnable(spec)
    return spec


@app.command("bench")
@stoppable("interrupted (the figures above are complete)", as_ctrl_c=True)
def bench_command(
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Games of the match figure.")
    ] = 100,
    engine: Annotated[str, typer.Option("--engine", help="Engine on both seats.")] = "trike-c",
    rules_plies: Annotated[
        int, typer.Option("--rules-plies", min=1000, help="Plies of the rules figure.")
    ] = 100_000,
    concurrency: Annotated[
        list[int] | None,
        typer.Option("--concurrency", "-c", min=1, help="Only tournament runs at these."),
    ] = None,
    tc: Annotated[
        str | None,
        typer.Option("--tc", help="Clock of the --concurrency tournament runs (default 60+1)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", min=0, help="Worker processes of the tournament figure (0: none)."
        ),
    ] = None,
    tournament_games: Annotated[
        int, typer.Option("--tournament-games", min=1, help="Games of the tournament figure.")
    ] = 1000,
) -> None:
    """Measure plies/s and the referee's per-ply overhead: a match, and tournaments.

    Without --concurrency: rules, a match, and tournaments at concurrency 1 and 2
    (60+1) and 8 (1+0.01). With it: tournaments at those concurrencies only.
    """
    from tournaments.bench.throughput import DEFAULT_TOURNAMENTS, run_benchmarks, tournament_lines
    from tournaments.cli.tournament_setup import check_clock_options

    if tc is not None and not concurrency:  # the default runs have clocks of their own
        raise UserError("--tc sets the clock of the --concurrency runs: give --concurrency too")
    check_clock_options(tc, None)
    if concurrency:
        runs = [(c, tc or "60+1") for c in concurrency]
        for line in tournament_lines(tournament_games, engine, runs, workers):
            typer.echo(line)
        return
    for line in run_benchmarks(games=games, engine=engine, rules_plies=rules_plies):
        typer.echo(line)
    for line in tournament_lines(tournament_games, engine, DEFAULT_TOURNAMENTS, workers):
        typer.echo(line)


app.command("tournament")(tournament_command)
app.command("standings")(standings_command)
app.command("show")(show_command)
app.command("report")(report_command)
app.command("serve")(serve_command)
app.command("rules")(rules_command)
app.command("moves", context_settings={"allow_interspersed_args": True})(moves_command)


ERROR_LINE_LIMIT = 2000
"""Characters of an error line printed: the messages quote the input (a position token, a
move, a path), and a 100 KB argument made a 100 KB line. An engine failure's message,
the longest by design (its stderr and protocol lines), stays under it."""


def _fail(message: str) -> NoReturn:
    """Print ``referee: error: MESSAGE`` (cut to ``ERROR_LINE_LIMIT`` characters); exit 2."""
    if len(message) > ERROR_LINE_LIMIT:
        cut = len(message) - ERROR_LINE_LIMIT
        message = f"{message[:ERROR_LINE_LIMIT]}… ({cut:,} more characters)"
    typer.echo(f"referee: error: {message}", err=True)
    raise SystemExit(2)


class _CommandsOnDemand(MutableMapping[str, Any]):
    """The root group's commands by name, each made (typer reads its signature, evaluates
    its annotations and builds its options) and given readable help on its first lookup.

    Making all thirteen takes tens of milliseconds (typer evaluates every annotation and
    builds every option), in each of the hundreds of ``referee`` processes a test run
    starts, and a run needs one: ``referee play`` makes only ``play``; the root's
    ``--help`` lists, and so makes, them all.
    """

    def __init__(self, infos: list[Any]) -> None:
        self._infos: dict[str, Any] = {info.name: info for info in infos}
        self._made: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._made:
            one = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
            one.registered_commands.append(self._infos[name])  # KeyError: no such command
            self._made[name] = readable(typer.main.get_command(one))  # one command: itself
        return self._made[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._made[name] = command
        self._infos.setdefault(name, None)

    def __delitem__(self, name: str) -> None:
        del self._infos[name]
        self._made.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


def cli_command() -> Any:
    """The whole command tree as ``main`` runs it, with readable help (``help_text``):
    the root group, whose commands are made when looked up (``_CommandsOnDemand``)."""
    root = _typer()
    root.registered_callback = app.registered_callback
    group = readable(typer.main.get_command(root))  # a group of no command yet
    group.commands = _CommandsOnDemand(app.registered_commands)
    return group


def main() -> None:
    """Console-script entry: run the app, turning user errors into one line.

    Click's own usage errors (unknown option, missing or bad argument) are one line
    too (not click's boxed usage text): the app runs outside click's standalone mode.
    """
    try:
        code = cli_command()(standalone_mode=False, prog_name="referee")
    except SystemExit:
        raise
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("referee: interrupted", err=True)
        raise SystemExit(130) from None
    except typer.TyperException as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # bare `referee`: the help
            typer.echo(_click_message(error), err=True)
            raise SystemExit(2) from None
        if _debug:
            raise
        _fail(_usage_line(error))
    except UserError as error:  # every error of input, of every layer
        if _debug:
            raise
        _fail(_one_line(error))
    except BaseException as error:  # an ExceptionGroup from trio wraps the same errors
        if _debug:
            raise
        if not isinstance(error, BaseExceptionGroup):
            _report_bug()  # anything else is a bug: its traceback and where to report it
        inner = leaves(error)
        if inner and all(isinstance(e, UserError) for e in inner):
            _fail(_one_line(inner[0]))
        _report_bug()
    raise SystemExit(code if isinstance(code, int) else 0)


BUG_LINE = (
    "referee: internal error: this is a bug, not a problem with your input; please report"
    " it with the traceback above"
)
"""What ``main`` prints under the traceback of an exception that is not a user error."""


def _report_bug() -> NoReturn:
    """Print the exception being handled with its traceback, then ``BUG_LINE``; exit 1."""
    traceback.print_exc()
    typer.echo(BUG_LINE, err=True)
    raise SystemExit(1)


def _one_line(error: BaseException) -> str:
    """The first line of an error's message (its class name if it has none)."""
    text = str(error)
    return text.splitlines()[0] if text.strip() else type(error).__name__


def _click_message(error: Exception) -> str:
    format_message = getattr(error, "format_message", None)
    return str(format_message() if callable(format_message) else error)


def _usage_line(error: Exception) -> str:
    """A click usage error as one line, with where to find the usage."""
    message = " ".join(_click_message(error).split())
    ctx = getattr(error, "ctx", None)
    path = getattr(ctx, "command_path", None) or "referee"
    return f"{message} (see '{path} --help')"


if __name__ == "__main__":  # pragma: no cover
    main()
