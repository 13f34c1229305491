"""Openings: start move sequences from a file or drawn at random, checked by the rules.

Pure apart from ``read_openings`` reading its file (``event.files``: 64 MiB at most). An
``Opening`` is a sequence of canonical moves from the game's initial position and the
encoded position it leads to, which the runner gives the engines as the start
(``position state …``) and records as the ``Start`` tag, with the moves in an
``Opening`` tag.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.core import AnyGame
from referee.errors import RulesError, UserError
from tournaments.event.files import TooLarge, read_input_text

RANDOM_OPENING_TRIES = 100
"""Draws per random opening before giving up on one that leaves the game unfinished."""


class OpeningError(UserError):
    """A bad openings file or an impossible random opening; one line."""


@dataclass(frozen=True, slots=True)
class Opening:
    """A start for one block of games."""

    moves: tuple[str, ...] = ()
    """Canonical moves from the initial position."""
    start: str | None = None
    """The encoded position after ``moves`` (None when there are none)."""


def derive_seed(*parts: int | str) -> int:
    """A 31-bit seed from the parts (stable across runs and platforms)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") & 0x7FFFFFFF


def play_opening(game: AnyGame, players: int, moves: Sequence[str]) -> Opening:
    """Check ``moves`` from the initial position and encode where they lead.

    :raises OpeningError: an unreadable or illegal move, or one that ends the game.
    """
    state = game.initial_state(players)
    for ply, text in enumerate(moves, start=1):
        if state.outcome() is not None:
            raise OpeningError(f"the game is over before move {ply} {text!r}")
        try:
            state = state.play(game.parse_move(state, text))
        except RulesError as exc:
            raise OpeningError(f"move {ply} {text!r}: {exc}") from None
    if state.outcome() is not None:
        raise OpeningError("the opening ends the game")
    if not moves:
        return Opening()
    return Opening(tuple(moves), game.encode(state))


def random_opening(game: AnyGame, players: int, plies: int, seed: int) -> Opening:
    """``plies`` uniformly random legal moves, seeded; never one that ends the game.

    :raises OpeningError: no such opening found (the game is too short).
    """
    if plies == 0:
        return Opening()
    rng = random.Random(seed)
    for _ in range(RANDOM_OPENING_TRIES):
        state = game.initial_state(players)
        texts: list[str] = []
        for _ply in range(plies):
            moves = state.legal_moves()
            if not moves:
                break
            move = moves[rng.randrange(len(moves))]
            texts.append(game.format_move(state, move))
            state = state.play(move)
        if len(texts) == plies and state.outcome() is None:
            return Opening(tuple(texts), game.encode(state))
    raise OpeningError(f"no {plies}-ply opening leaves a {game.name} game unfinished")


def read_openings(path: Path, game: AnyGame, players: int) -> list[Opening]:
    """The openings of a file: one per line, moves separated by blanks; ``#`` comments.

    :raises OpeningError: unreadable, over 64 MiB, empty, or a bad line
        (``file:line: problem``).
    """
    try:
        lines = read_input_text(path).splitlines()
    except OSError as exc:
        raise OpeningError(f"{path}: cannot read openings: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, TooLarge) as exc:
        raise OpeningError(f"{path}: cannot read openings: {exc}") from None
    openings: list[Opening] = []
    for number, line in enumerate(lines, start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            openings.append(play_opening(game, players, words))
        except OpeningError as exc:
            raise OpeningError(f"{path}:{number}: {exc}") from None
    if not openings:
        raise OpeningError(f"{path}: no openings in the file")
    return openings


@dataclass(frozen=True, slots=True)
class OpeningBook:
    """Which opening each block plays: from a list (in order or shuffled) or random."""

    game: AnyGame
    players: int
    seed: int
    book: tuple[Opening, ...] = ()
    """The file's openings; empty for random openings or none."""
    plies: int = 0
    """Random opening plies when ``book`` is empty."""
    order: tuple[int, ...] = ()
    """Book indexes in playing order (a permutation), cycled."""

    @classmethod
    def build(
        cls,
        game: AnyGame,
        players: int,
        seed: int,
        *,
        book: Sequence[Opening] = (),
        plies: int = 0,
        shuffle: bool = False,
    ) -> OpeningBook:
        """A book; ``shuffle`` orders it by a generator seeded with ``seed``."""
        order = list(range(len(book)))
        if shuffle:
            random.Random(derive_seed(seed, "book")).shuffle(order)
        return cls(game, players, seed, tuple(book), plies, tuple(order))

    def opening(self, block: int) -> Opening:
        """The opening of block ``block`` (0-based).

        :raises OpeningError: a random opening cannot be found.
        """
        if self.book:
            return self.book[self.order[block % len(self.book)]]
        if self.plies:
            return random_opening(
                self.game, self.players, self.plies, derive_seed(self.seed, "opening", block)
            )
        return Opening()
