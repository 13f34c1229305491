"""Golden files: compare a generated text with its checked-in copy, or rewrite it; and the
seeded random playthrough every game's golden files hold."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.core import Game


def check_golden(path: Path, text: str) -> None:
    """Assert ``text`` equals the file at ``path``; with ``UPDATE_GOLDEN=1``, write it first."""
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1"
    assert text == path.read_text(), f"{path} differs: check, then run with UPDATE_GOLDEN=1"


def playthrough(
    game: Game[Any, Any],
    players: int,
    seed: int,
    *,
    name_players: bool = False,
    to_move: bool = True,
    legal_note: Callable[[Any], str] | None = None,
    move_note: Callable[[Any, Any], str] | None = None,
    scores: bool = True,
) -> str:
    """A seeded random game, ply by ply, as the text of a golden file.

    Each ply shows the encoded state, the diagram, (``to_move``) the seat to move and
    the number of legal moves, then the random move; the last line is the outcome.
    The keywords keep each game's established file format: ``name_players`` puts the
    seat count in the header, ``legal_note(state)`` and ``move_note(state, move)``
    append game-specific text to the ``legal`` and ``move`` lines, ``scores`` shows the
    outcome's scores.
    """
    rng = random.Random(seed)
    state = game.initial_state(players)
    seats = f" players {players}" if name_players else ""
    out = [f"# {game.name} {game.options_text()}{seats} seed {seed}"]
    while True:
        out += [f"ply {state.ply}", f"state {game.encode(state)}", game.render(state)]
        seat = state.to_move
        if to_move:
            out.append(f"to_move {'-' if seat is None else seat + 1}")
        moves = state.legal_moves()
        out.append(f"legal {len(moves)}{legal_note(state) if legal_note else ''}")
        if seat is None:
            break
        move = rng.choice(moves)
        note = move_note(state, move) if move_note else ""
        out += [f"move {game.format_move(state, move)}{note}", ""]
        state = state.play(move)
    outcome = state.outcome()
    assert outcome is not None
    shown = f" scores {','.join(f'{s:g}' for s in outcome.scores)}" if scores else ""
    ranks = ",".join(map(str, outcome.ranks))
    out.append(f"outcome {outcome.termination.value} ranks {ranks}{shown}: {outcome.reason}")
    return "\n".join(out) + "\n"
