"""The positions ``check-engine`` asks an engine about, found from the rules (pure, seeded).

An ``Ask`` is one move request as a game would send it: a player count, the rule
options, a start (the initial position or an encoded one, ``position state``) and the
moves since. Every generator here is deterministic for its seed and plays only legal
moves (random playouts with the rules); none needs to know a particular game, so a new
game is covered as soon as it is registered:

* ``seat_asks``: every seat of every player count, from the start;
* ``state_asks``: ``position state`` starts as ``tournaments.event.openings`` makes them,
  with and without moves after them;
* ``option_asks``: each non-default value of each rule option (``option_values``: every
  choice of an enumerated option; the minimum and the default plus one of a number);
* ``swap_asks``: histories with the pie ``swap`` (games where a move is named ``swap``);
* ``special_asks``: the fixed histories of ``histories.SPECIAL_HISTORIES`` (each game's
  special moves, whatever the seed: a Trichess castling and en passant, which look like
  plain moves, among them), then a history ending in each kind of move the playouts met
  (kinds by the shape of the move's text: ``c3xd4`` and ``c3-c5/W`` differ, so captures,
  chains, promotions and setup moves each get one) and in an extra move (a seat moving
  twice);
* ``game_plans``: the settings of the real games against ``random``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import AnyGame, OptionSpec, State
from referee.errors import RulesError
from referee.registry import make_game
from tournaments.checks.coverage.histories import SPECIAL_HISTORIES
from tournaments.event.openings import OpeningError, derive_seed, random_opening

AnyState = State[Any]

PLAYOUT_PLIES = 200
"""The longest random playout searched for special moves."""
MAX_SPECIAL = 10
"""At most this many special histories (the rarest kinds of move first)."""
OPTION_PLIES = (0, 1, 3, 6)
"""Option asks are made after this many complete turns (times the player count)."""


@dataclass(frozen=True, slots=True)
class Ask:
    """One move request: ``position state|start … moves …`` for the seat to move."""

    label: str
    """What it checks, for people: ``seat 2 of 3 from the start``."""
    game: str
    players: int
    options: tuple[tuple[str, str], ...]
    """The rule options that differ from the defaults (the game fills in the rest)."""
    start: str | None
    """The encoded start position, or None for the initial position."""
    moves: tuple[str, ...]

    def make_game(self) -> AnyGame:
        return make_game(self.game, dict(self.options))

    def state(self, game: AnyGame) -> AnyState:
        """The position the engine is asked about (the moves are legal: they were played).

        :raises RulesError: only for a bug here (an ask is built from played moves).
        """
        state: AnyState = (
            game.decode(self.start) if self.start is not None else game.initial_state(self.players)
        )
        for text in self.moves:
            state = state.play(game.parse_move(state, text))
        return state


def _playout(
    game: AnyGame, state: AnyState, rng: random.Random, plies: int
) -> Iterator[tuple[AnyState, str, AnyState]]:
    """``(before, move text, after)`` for up to ``plies`` random legal moves from ``state``."""
    for _ in range(plies):
        if state.outcome() is not None:
            return
        moves = state.legal_moves()
        if not moves:
            return
        move = moves[rng.randrange(len(moves))]
        text = game.format_move(state, move)
        after = state.play(move)
        yield state, text, after
        state = after


def seat_asks(name: str, counts: Sequence[int], seed: int) -> list[Ask]:
    """For every player count and seat: a request to that seat, from the initial position
    (seat 1 with no move; seat k after the random moves of the seats before it)."""
    asks: list[Ask] = []
    for players in counts:
        game = make_game(name, {})
        for seat in range(players):
            rng = random.Random(derive_seed(seed, "seat", players, seat))
            texts: list[str] = []
            state = game.initial_state(players)
            for before, text, after in _playout(game, state, rng, 4 * players):
                if before.to_move == seat:
                    break
                texts.append(text)
                state = after
            if state.to_move != seat or state.outcome() is not None:
                continue
            label = f"seat {seat + 1} of {players} from the start"
            if texts:
                label += f" after {' '.join(texts)}"
            asks.append(Ask(label, name, players, (), None, tuple(texts)))
    return asks


def state_asks(name: str, counts: Sequence[int], seed: int) -> list[Ask]:
    """For every player count: ``position state`` starts from random openings of one turn
    and of two turns and a ply, alone and followed by one and two moves."""
    asks: list[Ask] = []
    game = make_game(name, {})
    for players in counts:
        for plies in (players, 2 * players + 1):
            try:
                opening = random_opening(game, players, plies, derive_seed(seed, "state", plies))
            except OpeningError:
                continue
            if opening.start is None:
                continue
            rng = random.Random(derive_seed(seed, "after", players, plies))
            state = game.decode(opening.start)
            texts: list[str] = []
            for extra in range(3):
                if extra:
                    step = next(_playout(game, state, rng, 1), None)
                    if step is None or step[2].outcome() is not None:
                        break
                    texts.append(step[1])
                    state = step[2]
                label = (
                    f"{players} players, position state after the {plies}-ply opening "
                    f"{' '.join(opening.moves)}" + (f", then {' '.join(texts)}" if texts else "")
                )
                asks.append(Ask(label, name, players, (), opening.start, tuple(texts)))
    return asks


def option_values(specs: Sequence[OptionSpec]) -> list[tuple[str, str]]:
    """Every ``(option, value)`` of the sweep: each choice of an enumerated option but its
    default; the minimum and the default plus one of a number (those the option takes)."""
    values: list[tuple[str, str]] = []
    for spec in specs:
        if spec.choices:
            candidates = [c for c in spec.choices if c != spec.default]
        else:
            above = int(spec.default) + 1 if spec.default.isdigit() else (spec.minimum or 0) + 50
            candidates = [str(c) for c in (spec.minimum, above) if c is not None]
        for value in candidates:
            try:
                value = spec.validate(value)
            except RulesError:
                continue
            if value != spec.default and (spec.name, value) not in values:
                values.append((spec.name, value))
    return values


def option_asks(name: str, counts: Sequence[int], seed: int) -> list[Ask]:
    """For each value of the sweep (with the smallest player count): requests from the
    start and after one, three and six random turns under that option."""
    players = counts[0]
    asks: list[Ask] = []
    for option, value in option_values(make_game(name, {}).option_specs):
        game = make_game(name, {option: value})
        rng = random.Random(derive_seed(seed, "option", option, value))
        state = game.initial_state(players)
        texts: list[str] = []
        wanted = [turns * players for turns in OPTION_PLIES]
        for ply in range(wanted[-1] + 1):
            if state.outcome() is not None:
                break
            if ply in wanted:
                after = f" after {ply} plies" if ply else " from the start"
                asks.append(
                    Ask(
                        f"{option}={value}{after}",
                        name,
                        players,
                        ((option, value),),
                        None,
                        tuple(texts),
                    )
                )
            step = next(_playout(game, state, rng, 1), None)
            if step is None:
                break
            texts.append(step[1])
            state = step[2]
    return asks


def swap_asks(name: str, counts: Sequence[int], seed: int) -> list[Ask]:
    """Histories with the pie ``swap`` (where some legal move is named ``swap`` within the
    first two turns): right after it, and a move later. Empty for games without one."""
    asks: list[Ask] = []
    for players in counts:
        game = make_game(name, {})
        rng = random.Random(derive_seed(seed, "swap", players))
        for _ in range(3):
            state = game.initial_state(players)
            texts: list[str] = []
            for _ply in range(2 * players):
                if state.outcome() is not None:
                    break
                named = {game.format_move(state, m): m for m in state.legal_moves()}
                if "swap" in named:
                    state = state.play(named["swap"])
                    texts.append("swap")
                    break
                step = next(_playout(game, state, rng, 1), None)
                if step is None:
                    break
                texts.append(step[1])
                state = step[2]
            if texts and texts[-1] == "swap" and state.outcome() is None:
                asks.append(
                    Ask(
                        f"{players} players after {' '.join(texts)}",
                        name,
                        players,
                        (),
                        None,
                        tuple(texts),
                    )
                )
                step = next(_playout(game, state, rng, 1), None)
                if step is not None and step[2].outcome() is None:
                    more = (*texts, step[1])
                    asks.append(
                        Ask(
                            f"{players} players after {' '.join(more)}",
                            name,
                            players,
                            (),
                            None,
                            more,
                        )
                    )
                break
    return asks


def move_kind(text: str) -> str:
    """The shape of a move's text: a cell name (letters, then a number) as ``#``, other
    numbers as ``9``, lower-case letters as ``a``, capitals as ``A`` (``c3xd4`` is ``#x#``,
    ``b2-e2/E`` is ``#-#/A``, a chain ``D2-l20-x20`` is ``#-#-#``, ``swap`` is ``aaaa``)."""
    shape = re.sub(r"[A-Za-z]\d+", "#", text)
    return re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d+", "9", shape)))


EXTRA_MOVE = "an extra move (the seat that moved moves again)"


def fixed_special_asks(name: str, counts: Sequence[int]) -> list[Ask]:
    """For each of the game's ``SPECIAL_HISTORIES`` with one of ``counts`` players: a
    request right after its special move, and one after the move that follows it (the
    first legal move in the rules' order), so the special move is also deeper in the
    history than the last move."""
    asks: list[Ask] = []
    for history in SPECIAL_HISTORIES:
        if history.game != name or history.players not in counts:
            continue
        where = f"{history.players} players" + "".join(f", {o}={v}" for o, v in history.options)
        label = f"{history.what} ({history.moves[-1]}), {where}, at ply {len(history.moves)}"
        ask = Ask(label, name, history.players, history.options, None, history.moves)
        asks.append(ask)
        game = ask.make_game()
        state = ask.state(game)
        moves = state.legal_moves()
        if moves and state.play(moves[0]).outcome() is None:
            text = game.format_move(state, moves[0])
            asks.append(
                Ask(f"{label}, then {text}", name, history.players, history.options, None,
                    (*history.moves, text))
            )  # fmt: skip
    return asks


def special_asks(name: str, counts: Sequence[int], seed: int) -> list[Ask]:
    """The fixed histories of ``fixed_special_asks`` (always), then histories that end in
    each kind of move the playouts met (the rarest first, at most ``MAX_SPECIAL``) and in
    an extra move (the seat that moved moves again), under the default options and each
    value of the sweep."""
    sweep = option_values(make_game(name, {}).option_specs)
    settings: list[tuple[tuple[str, str], ...]] = [(), *(((o, v),) for o, v in sweep)]
    found: dict[str, Ask] = {}
    seen: dict[str, int] = {}
    for players in counts:
        for options in settings:
            game = make_game(name, dict(options))
            where = f"{players} players" + "".join(f", {o}={v}" for o, v in options)
            for playout in range(1 if options else 3):
                rng = random.Random(derive_seed(seed, "special", players, str(options), playout))
                texts: list[str] = []
                state = game.initial_state(players)
                for before, text, after in _playout(game, state, rng, PLAYOUT_PLIES):
                    texts.append(text)
                    kinds = {move_kind(text): f"a move like {text}"}
                    if after.to_move is not None and after.to_move == before.to_move:
                        kinds[EXTRA_MOVE] = EXTRA_MOVE
                    for key, label in kinds.items():
                        seen[key] = seen.get(key, 0) + 1
                        if key not in found and after.outcome() is None:
                            found[key] = Ask(
                                f"{label}, {where}, at ply {len(texts)}",
                                name,
                                players,
                                options,
                                None,
                                tuple(texts),
                            )
    # The rarest kinds first: the common ones are in every other step's histories anyway.
    keys = sorted(found, key=lambda key: (seen[key], key))
    return [*fixed_special_asks(name, counts), *(found[key] for key in keys[:MAX_SPECIAL])]


@dataclass(frozen=True, slots=True)
class GamePlan:
    """One real game against ``random``."""

    players: int
    seat: int
    """The checked engine's seat, 0-based."""
    options: tuple[tuple[str, str], ...]
    opening: tuple[str, ...]
    start: str | None
    seed: int


def game_plans(name: str, counts: Sequence[int], games: int, seed: int) -> list[GamePlan]:
    """``games`` games cycling through the player counts and seats, each under random
    options (each option at its default or a value of the sweep, even odds) and a random
    opening of up to two turns."""
    base = make_game(name, {})
    values = option_values(base.option_specs)
    plans: list[GamePlan] = []
    rng = random.Random(derive_seed(seed, "games"))
    for index in range(games):
        players = counts[index % len(counts)]
        seat = (index // len(counts)) % players
        chosen: dict[str, str] = {}
        for spec in base.option_specs:
            choices = [v for o, v in values if o == spec.name]
            if choices and rng.random() < 0.5:
                chosen[spec.name] = rng.choice(choices)
        game = make_game(name, chosen)
        plies = rng.randrange(2 * players + 1)
        try:
            opening = random_opening(game, players, plies, derive_seed(seed, "opening", index))
        except OpeningError:
            opening = random_opening(game, players, 0, 0)
        plans.append(
            GamePlan(
                players,
                seat,
                tuple(chosen.items()),
                opening.moves,
                opening.start,
                derive_seed(seed, "game", index),
            )
        )
    return plans
