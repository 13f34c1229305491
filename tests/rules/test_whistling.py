"""Whistling Captures rules: every rule and option of docs/rules/whistling-captures.md.

Positions are drawn as the source and ``WhistlingCaptures.render`` draw them: the row
number, then each cell under its column letter (``x`` seat 1, ``o`` seat 2, ``.``
empty). Pictures may leave out rows; ``diagram`` reads each stone by its column.
"""

from __future__ import annotations

import random
import time

import pytest

from referee.core import Termination
from referee.errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
)
from referee.games.hex import OPPOSITE, bits, nearer_to_some
from referee.games.whistling import CRUSH, WhistlingCaptures, WhistlingState
from referee.games.whistling.chains import CaptureSearch
from referee.games.whistling.notation import BOARD, CELLS, LETTERS, NAMES, encode
from referee.registry import find_game_class, make_game


def diagram(
    game: WhistlingCaptures, picture: str, *, seat: int = 0, quiet: int = 0, ply: int = 10
) -> WhistlingState:
    """The position drawn in ``picture`` (rows ``NN`` + cells at column ``3 + L``) with
    ``seat`` (0-based) to move; goes through ``decode``."""
    stones = [0, 0]
    for line in picture.splitlines():
        if not line[:3].strip().isdigit():
            continue
        row = int(line[:3])
        for column, ch in enumerate(line[3:]):
            if ch in "xo":
                stones["xo".index(ch)] |= 1 << CELLS[f"{LETTERS[column]}{row}"]
            else:
                assert ch in " .", f"bad character {ch!r} in row {row}"
    return game.decode(encode((stones[0], stones[1]), seat, quiet, ply + (ply - seat) % 2))


def texts(game: WhistlingCaptures, state: WhistlingState) -> list[str]:
    return [game.format_move(state, m) for m in state.legal_moves()]


def play(game: WhistlingCaptures, state: WhistlingState, *moves: str) -> WhistlingState:
    for text in moves:
        state = state.play(game.parse_move(state, text))
    return state


def at(state: WhistlingState, cell: str) -> str:
    slot = CELLS[cell]
    return "x" if state.stones[0] >> slot & 1 else ("o" if state.stones[1] >> slot & 1 else ".")


def legal(game: WhistlingCaptures, state: WhistlingState, text: str) -> bool:
    return state.is_legal(game.parse_move(state, text))


# --- options and registry ---------------------------------------------------------------


def test_options_names_defaults_and_order() -> None:
    game = WhistlingCaptures()
    assert game.options == {"closer-applies-to-captures": "yes", "no-capture-draw": "40"}
    assert game.options_text() == "closer-applies-to-captures=yes,no-capture-draw=40"
    assert WhistlingCaptures.player_counts == (2,)
    assert WhistlingCaptures.version == "1"
    assert find_game_class("whistling-captures") is WhistlingCaptures
    assert (
        make_game("whistling-captures", {"no-capture-draw": "0"}).options["no-capture-draw"] == "0"
    )


@pytest.mark.parametrize(
    "options",
    [{"closer-applies-to-captures": "YES"}, {"no-capture-draw": "x"}, {"closer-metric": "steps"}],
)
def test_bad_options_are_rejected(options: dict[str, str]) -> None:
    with pytest.raises(InvalidOptionError):
        WhistlingCaptures(options)


def test_only_two_players() -> None:
    with pytest.raises(InvalidOptionError):
        WhistlingCaptures().initial_state(3)


# --- cells and the start ------------------------------------------------------------------


def test_cell_names_rules_file_3_2() -> None:
    assert len(NAMES) == 331
    assert BOARD.coords[CELLS["u11"]] == (0, 0)
    rows: dict[int, list[str]] = {}
    for name, slot in CELLS.items():
        column, row = LETTERS.index(name[0]), int(name[1:])
        assert (column + row) % 2 == 1 and abs(row - 11) <= column <= 40 - abs(row - 11)
        q, r = BOARD.coords[slot]
        assert (r, q) == (row - 11, (column - row - 9) // 2)
        rows.setdefault(row, []).append(name)
    assert rows[1][0] == "k1" and rows[1][-1] == "E1"
    assert rows[11][0] == "a11" and rows[11][-1] == "O11"
    assert rows[21][0] == "k21" and rows[21][-1] == "E21"
    assert [len(rows[n]) for n in range(1, 22)] == [*range(11, 22), *range(20, 10, -1)]


START = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
 1           . . . . x x . . . . .
 2          . . . . x x x . . . . .
 3         . . . . . x x . . . . . .
 4        . . . . . . . . . . . . . .
 5       . . . . . . . . . . . . . o o
 6      o o . . . . . . . . . . . o o o
 7     o o o . . . . . . . . . . . o o .
 8    . o o . . . . . . . . . . . . . . .
 9   . . . . . . . . . . . . . . . . . . .
10  . . . . . . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . . . . . . . .
12  . . . . . . . . . . . . . . . . . . . .
13   . . . . . . . . . . . . . . . . . . .
14    . . . . . . . . . . . . . . . x x .
15     . x x . . . . . . . . . . . x x x
16      x x x . . . . . . . . . . . x x
17       x x . . . . . . . . . . . . .
18        . . . . . . . . . . . . . .
19         . . . . . . o o . . . . .
20          . . . . . o o o . . . .
21           . . . . . o o . . . .
"""

SEED_DIAGRAM = """
___abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO_
1            . . . . x x . . . . .
2           . . . . x x x . . . . .
3          . . . . . x x . . . . . .
4         . . . . . . . . . . . . . .
5        . . . . . . . . . . . . . o o
6       o o . . . . . . . . . . . o o o
7      o o o . . . . . . . . . . . o o .
8     . o o . . . . . . . . . . . . . . .
9    . . . . . . . . . . . . . . . . . . .
10  . . . . . . . . . . . . . . . . . . . .
11 . . . . . . . . . . . . . . . . . . . . .
12  . . . . . . . . . . . . . . . . . . . .
13   . . . . . . . . . . . . . . . . . . .
14    . . . . . . . . . . . . . . . x x .
15     . x x . . . . . . . . . . . x x x
16      x x x . . . . . . . . . . . . x
17       x x . . . . . . . . . . . . .
18        . . . . . . . . . . . . . .
19         . . . . . . o o . . . . .
20          . . . . . o o o . . x .
21           . . . . . o o . . . .
___abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO_
"""
"""The seed's example diagram, as printed there (O to move)."""


def test_start_position_rules_file_3_3() -> None:
    game = WhistlingCaptures()
    start = game.initial_state(2)
    assert start == diagram(game, START, ply=0)
    assert start.to_move == 0 and start.ply == 0 and start.quiet == 0
    assert start.stones[0].bit_count() == start.stones[1].bit_count() == 21
    assert game.render(start).splitlines()[:22] == START.strip("\n").splitlines()
    # rosettes: each centre with its six neighbours
    for seat, centres in ((0, ("t2", "I15", "h16")), (1, ("H6", "g7", "v20"))):
        for centre in centres:
            rosette = BOARD.adjacent[CELLS[centre]] | 1 << CELLS[centre]
            assert start.stones[seat] & rosette == rosette


def test_start_symmetries() -> None:
    start = WhistlingCaptures().initial_state(2)
    where, slot_of = BOARD.coords, BOARD.slot_of
    x = {where[s] for s in bits(start.stones[0])}
    o = {where[s] for s in bits(start.stones[1])}
    assert {(-q - r, q) for q, r in x} == x and {(-q - r, q) for q, r in o} == o  # 120°
    assert {(-q, -r) for q, r in x} == o  # 180° swaps the players
    assert all(c in slot_of for c in x | o)


def test_start_has_no_capture_and_h16_d20_is_a_first_move() -> None:
    """The designer's example: X's first move H16-D20."""
    game = WhistlingCaptures()
    start = game.initial_state(2)
    assert start.max_capture() == 0
    moves = texts(game, start)
    assert len(moves) == 306 and "H16-D20" in moves
    assert all(len(move) == 2 for move in start.legal_moves())  # plain slides only


def test_seed_diagram_is_the_start_after_h16_d20() -> None:
    game = WhistlingCaptures()
    after = play(game, game.initial_state(2), "H16-D20")
    assert after == diagram(game, SEED_DIAGRAM, seat=1, quiet=1, ply=1)


def test_source_example_rules_file_3_7() -> None:
    """From the start with H16 moved to D20, O's only legal move is w19-G19-o1,
    taking D20 (first leg, east) and s3 and r2 (second leg, north-west)."""
    game = WhistlingCaptures()
    state = play(game, game.initial_state(2), "H16-D20")
    assert state.max_capture() == 3
    assert texts(game, state) == ["w19-G19-o1"]
    assert not state.captures().crush_exists()
    # the chain stopped after its first leg takes only one stone: illegal
    assert not legal(game, state, "w19-G19")
    after = play(game, state, "w19-G19-o1")
    assert (at(after, "D20"), at(after, "s3"), at(after, "r2")) == (".", ".", ".")
    assert (at(after, "o1"), at(after, "w19"), at(after, "G19")) == ("o", ".", ".")
    assert after.stones[0].bit_count() == 18 and after.stones[1].bit_count() == 21
    assert after.quiet == 0 and after.to_move == 0
    # the result does not depend on the closer option
    other = WhistlingCaptures({"closer-applies-to-captures": "no"})
    assert texts(other, play(other, other.initial_state(2), "H16-D20")) == ["w19-G19-o1"]


# --- captures -----------------------------------------------------------------------------

CRUSH_OR_WHISTLE = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
10  . . . . . . . . . . o w . . . . . . . .
11 . . . . . . . . . . x . . . . . . . . . .
12  . . . . . . . . . . . . . . . . . . . .
13   . . . . . . . . . . . . . . . . . . .
14    . . . . . . . . o . . . . . . . . .
"""


def test_crush_counts_one_and_free_choice_among_maxima() -> None:
    game = WhistlingCaptures()
    state = diagram(game, CRUSH_OR_WHISTLE.replace("o w", "o ."))
    # M = 1: the crush of v10 and the south-west whistle past t14 are both legal
    assert texts(game, state) == ["u11xv10", "u11-q15"]
    crushed = play(game, state, "u11xv10")
    assert (at(crushed, "u11"), at(crushed, "v10"), crushed.quiet) == (".", "x", 0)
    whistled = play(game, state, "u11-q15")
    assert (at(whistled, "t14"), at(whistled, "v10"), at(whistled, "q15")) == (".", "o", "x")
    # a crush is one step onto an adjacent enemy only
    for text in ("u11xt14", "u11xu11", "u11xs11", "u11-v10"):
        assert not legal(game, state, text), text


TWO_IN_ONE_LEG = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
10  . . . . . . . . . . o . . . . . . . . .
11 . . . . . . . . . . x . . . . . . . . . .
12  . . . . . . . . . . . . . . . . . . . .
13   . . . . . . . . . . . . . . . . . . .
14    . . . . . . . . o . . . . . . . . .
15     . . . . . . . . . . . . . . . . .
16      . . . . . . o . . . . . . . . .
"""


def test_maximum_capture_is_compulsory() -> None:
    game = WhistlingCaptures()
    state = diagram(game, TWO_IN_ONE_LEG)
    # one south-west leg past t14 and r16 takes two: the crush (one) is illegal
    assert state.max_capture() == 2
    assert texts(game, state) == ["u11-o17", "u11-n18", "u11-m19"]
    assert not legal(game, state, "u11xv10")
    assert not legal(game, state, "u11-q15")  # takes t14 only
    with pytest.raises(IllegalMoveError):
        play(game, state, "u11xv10")
    after = play(game, state, "u11-n18")
    assert (at(after, "t14"), at(after, "r16"), at(after, "v10")) == (".", ".", "o")


REVERSAL = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
10  . . . . . . . . . . o . o . . . . . . .
11 . . . . . . . . . . x . . . . . . . . . .
12  . . . . . . . . . . . . . . . . . . . .
"""


def test_chain_with_reversal_over_its_start_when_closer_rule_is_off() -> None:
    """East past z10 to C11 or beyond, then back west over u11 past v10."""
    game = WhistlingCaptures({"closer-applies-to-captures": "no"})
    state = diagram(game, REVERSAL)
    assert state.max_capture() == 2
    moves = texts(game, state)
    assert len(moves) == 70
    assert moves[:3] == ["u11-C11-s11", "u11-C11-q11", "u11-C11-o11"]
    assert all(m.startswith(("u11-C11-", "u11-E11-", "u11-G11-", "u11-I11-",
                             "u11-K11-", "u11-M11-", "u11-O11-")) for m in moves)  # fmt: skip
    after = play(game, state, "u11-C11-s11")
    assert after.stones[1] == 0 and after.outcome() is not None
    # every leg must capture, each pivot must change direction, and M must be reached
    assert not legal(game, state, "u11-C11")  # stops early
    assert not legal(game, state, "u11-A11-C11")  # "split leg": no change of direction
    assert not legal(game, state, "u11-C11-C9")  # the second leg takes nothing
    assert not legal(game, state, "u11-C11-s11-q11")  # third leg: same direction
    assert not legal(game, state, "u11-C11-s11-s13")  # third leg takes nothing


def test_closer_rule_on_the_whole_chain_by_default() -> None:
    """Each two-capture chain above ends farther from v10 and z10 than u11 is."""
    game = WhistlingCaptures()
    state = diagram(game, REVERSAL)
    assert state.max_capture() == 1
    assert texts(game, state) == ["u11xv10", "u11-C11"]
    assert not legal(game, state, "u11-C11-s11")
    assert not legal(game, state, "u11-E11")  # east past z10, ends beyond: not closer


BEHIND = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
11 . . . . . . . . . . x . . . . . . . . . .
12  . . . . . . . . o . . . . . . . . . . .
"""


@pytest.mark.parametrize(("closer", "maximum", "moves"), [("yes", 0, 4), ("no", 1, 16)])
def test_closer_rule_option_on_a_single_leg(closer: str, maximum: int, moves: int) -> None:
    """West past r12 captures it but ends no closer: a plain move is then required."""
    game = WhistlingCaptures({"closer-applies-to-captures": closer})
    state = diagram(game, BEHIND)
    assert state.max_capture() == maximum
    assert len(state.legal_moves()) == moves
    assert legal(game, state, "u11-o11") == (closer == "no")
    assert legal(game, state, "u11-s11") == (closer == "yes")  # plain, nearer to r12


THROUGH_A_VICTIM = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
11 . . . . . . . . . . x . . . . . . . . . .
12  . . . . . . . . o . . . . . . . . . . .
13   . . . . . . o . . . . . o . . . . . .
"""


def test_victims_leave_the_board_at_the_end_of_each_leg() -> None:
    """u11-p16-l12-D12: the first leg takes r12, whose cell the last leg then crosses."""
    game = WhistlingCaptures()
    state = diagram(game, THROUGH_A_VICTIM)
    assert state.max_capture() == 3
    assert "u11-p16-l12-D12" in texts(game, state)
    first = BOARD.line[CELLS["u11"]][CELLS["p16"]]
    assert BOARD.sweeps[CELLS["u11"]][first[0]][first[1]] >> CELLS["r12"] & 1
    last = BOARD.line[CELLS["l12"]][CELLS["D12"]]
    assert BOARD.paths[CELLS["l12"]][last[0]][last[1]] >> CELLS["r12"] & 1
    after = play(game, state, "u11-p16-l12-D12")
    assert after.stones[1] == 0 and at(after, "D12") == "x"


def test_every_maximal_chain_is_legal_and_nothing_else() -> None:
    game = WhistlingCaptures()
    state = diagram(game, THROUGH_A_VICTIM)
    moves = state.legal_moves()
    assert len(moves) == 34
    for move in moves:
        assert state.captures().chain_count(move) == 3
        for cut in range(2, len(move)):
            assert not state.is_legal(move[:cut])  # shorter prefixes take fewer
        reverse_last = (*move[:-1], move[-2])
        assert not state.is_legal(reverse_last)


MANY_CHAINS = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
 6      . . . . . . . . . . o . . . . .
 7     . . . . . . . . . . . . o . . . .
 8    . . . . . . . . . . . . o o . . . .
 9   . . . . . . . . . . . . . . . . . . .
10  . . . . . . . . . . . . . . . . . . . .
11 . . . o . . . . . . x . . . . . . . . . .
12  . . . . . . . . . . . . . . . . . . . .
13   . . . . . . . . . . . . o o . . . . .
14    . . . . o . o . . . . . . . . . . .
15     . . . o o . . . . . . . . . . . .
16      . . . . . . . . . . . . o . . .
17       . . . . . . . . . o . . . . .
18        . . . . o . . . . . . . . .
"""


def test_maximum_without_listing_millions_of_chains() -> None:
    """This position has 8,069,625 maximal chains (each takes all 14 stones); the
    maximum and the legality of one chain are found without listing them."""
    game = WhistlingCaptures()
    state = diagram(game, MANY_CHAINS)
    started = time.process_time()
    assert state.max_capture() == 14
    chain = state.captures().first_chain()
    assert chain is not None and len(chain) >= 8
    assert state.is_legal(chain) and not state.is_legal(chain[:-1])
    after = state.play(chain)
    assert after.stones[1] == 0 and after.outcome() is not None
    assert state._moves is None  # the list was never built
    assert time.process_time() - started < 5


# --- the end ------------------------------------------------------------------------------

FAR = """
   abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO
11 x . . . . . . . . . . . . . . . . . . . o
"""


def test_a_seat_without_stones_loses() -> None:
    game = WhistlingCaptures()
    state = diagram(game, REVERSAL.replace(". o . o", ". o . ."), seat=0)
    over = play(game, state, "u11xv10")
    outcome = over.outcome()
    assert outcome is not None and outcome.termination is Termination.RULES
    assert outcome.ranks == (1, 2) and outcome.scores == ()
    assert outcome.reason == "seat 2 has no stones left"
    assert over.to_move is None and over.legal_moves() == ()
    swapped = diagram(game, REVERSAL.replace("o . o", "o . .").replace("x", "X").replace(
        "o", "x").replace("X", "o"), seat=1)  # fmt: skip
    done = play(game, swapped, "u11xv10")
    assert done.outcome() is not None and done.outcome().ranks == (2, 1)  # type: ignore[union-attr]


@pytest.mark.parametrize("limit", [40, 7])
def test_no_capture_draw(limit: int) -> None:
    game = WhistlingCaptures({"no-capture-draw": str(limit)})
    state = diagram(game, FAR, quiet=limit - 2, ply=limit)
    state = play(game, state, "a11-c11")
    assert state.to_move == 1 and state.quiet == limit - 1
    state = play(game, state, "O11-M11")
    assert state.to_move is None and state.quiet == limit
    outcome = state.outcome()
    assert outcome is not None and outcome.ranks == (1, 1)
    assert outcome.reason == f"draw: {limit} plies without a capture"


def test_no_capture_draw_off() -> None:
    game = WhistlingCaptures({"no-capture-draw": "0"})
    state = diagram(game, FAR, quiet=200, ply=200)
    state = play(game, state, "a11-c11", "O11-M11", "c11-e11")
    assert state.to_move == 1 and state.quiet == 203


def test_score_unfinished_scores_and_ranks_by_stones() -> None:
    game = WhistlingCaptures()
    assert game.score_unfinished(game.initial_state(2)) == ((1, 1), (21.0, 21.0))
    assert game.score_unfinished(diagram(game, REVERSAL)) == ((2, 1), (1.0, 2.0))
    assert game.evaluate(diagram(game, REVERSAL)) == (1.0, 2.0)


# --- notation -----------------------------------------------------------------------------


def test_parse_cells_as_one_letter_then_digits() -> None:
    game = WhistlingCaptures()
    state = game.initial_state(2)
    assert game.parse_move(state, "x20xw19") == (CELLS["x20"], CELLS["w19"], CRUSH)
    assert game.parse_move(state, "x20-x18") == (CELLS["x20"], CELLS["x18"])
    assert game.parse_move(state, "w19-G19-o1") == (CELLS["w19"], CELLS["G19"], CELLS["o1"])
    assert game.parse_move(state, "c11xd10") == (CELLS["c11"], CELLS["d10"], CRUSH)
    for move in [(CELLS["x20"], CELLS["w19"], CRUSH), (CELLS["H16"], CELLS["D20"])]:
        assert game.parse_move(state, game.format_move(state, move)) == move


@pytest.mark.parametrize(
    "text",
    ["", "u11", "u11-", "-u11", "u11--v12", "U11-v12", "u011-v12", "u11-v12 ", " u11-v12",
     "a1-b2", "u12-u14", "P11-O11", "u11xv10xw11", "u11xv10-w11", "u11-v10xw11", "u11x",
     "xu11", "u11_v10", "u11–v10", "u22-u20", "u0-u2", "u11 v10"],
)  # fmt: skip
def test_parse_move_rejects_non_canonical(text: str) -> None:
    game = WhistlingCaptures()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(2), text)


def test_format_move_rejects_garbage() -> None:
    game = WhistlingCaptures()
    for move in [(0,), (0, 1), (CELLS["u11"], "v10"), (CELLS["u11"], CELLS["v10"], 7)]:
        with pytest.raises(InvalidMoveError):
            game.format_move(game.initial_state(2), move)  # type: ignore[arg-type]


def test_is_legal_rejects_malformed_moves() -> None:
    state = WhistlingCaptures().initial_state(2)
    for move in [(), (1,), "u11", (CELLS["s1"], "u3"), (-1, 2), (10**9, 3), (0, 1, CRUSH)]:
        assert not state.is_legal(move)  # type: ignore[arg-type]


def test_encoding_example_and_round_trip() -> None:
    game = WhistlingCaptures()
    start = game.initial_state(2)
    assert game.encode(start) == (
        "....xx...../....xxx...../.....xx....../............../.............oo/oo..........."
        "ooo/ooo...........oo./.oo.............../.................../..................../"
        "...................../..................../.................../...............xx./"
        ".xx...........xxx/xxx...........xx/xx............./............../......oo...../"
        ".....ooo..../.....oo....:1:0:0"
    )
    rng = random.Random(6)
    state = start
    while state.to_move is not None:
        again = game.decode(game.encode(state))
        assert again == state and hash(again) == hash(state) and again.to_move == state.to_move
        state = state.play(rng.choice(state.legal_moves()))
    assert game.decode(game.encode(state)) == state


START_ROWS = WhistlingCaptures().encode(WhistlingCaptures().initial_state(2)).split(":")[0]


def _rows(x: str = "", o: str = "") -> str:
    text = encode(
        (sum(1 << CELLS[c] for c in x.split()), sum(1 << CELLS[c] for c in o.split())), 0, 0, 0
    )
    return text.split(":")[0]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "junk",
        f"{START_ROWS}:1:0",
        f"{START_ROWS}:1:0:0:0",
        f"{START_ROWS.rsplit('/', 1)[0]}:1:0:0",
        f"{START_ROWS[:-1]}:1:0:0",
        f"{START_ROWS[:-1]}X:1:0:0",
        f"{START_ROWS[:-1]}é:1:0:0",
        f"{START_ROWS}:2:0:0",
        f"{START_ROWS}:0:0:0",
        f"{START_ROWS}:1:1:0",
        f"{START_ROWS}:1:40:40",
        f"{START_ROWS}:-:41:41",
        f"{START_ROWS}:-:0:0",
        f"{START_ROWS}:1:0:00",
        f"{START_ROWS}:1:0:+2",
        f"{_rows('u11', '')}:-:0:2",  # seat 2 lost its stones on its own move
        f"{_rows('', '')}:-:0:1",
        f"{_rows(' '.join(NAMES[s] for s in BOARD.cells[:22]), 'u11')}:1:0:0",  # 22 stones
    ],
)
def test_decode_rejects(text: str) -> None:
    with pytest.raises(InvalidPositionError):
        WhistlingCaptures().decode(text)


def test_decode_accepts_a_finished_game() -> None:
    game = WhistlingCaptures()
    assert game.decode(f"{_rows('u11', '')}:-:0:1").outcome() is not None
    assert game.decode(f"{START_ROWS}:-:40:40").outcome().ranks == (1, 1)  # type: ignore[union-attr]


def test_render_status_lines() -> None:
    game = WhistlingCaptures()
    assert game.render(game.initial_state(2)).splitlines()[-1] == (
        "ply 0, seat 1 (X) to move, 0 plies without capture"
    )
    state = diagram(game, REVERSAL, seat=1, quiet=5, ply=9)
    assert game.render(state).splitlines()[-1] == (
        "ply 9, seat 2 (O) to move, 5 plies without capture"
    )


# --- consistency over random games ----------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"closer-applies-to-captures": "no"}])
def test_is_legal_agrees_with_legal_moves(options: dict[str, str]) -> None:
    """Every legal move, and perturbations of them, against ``legal_moves``."""
    game = WhistlingCaptures(options)
    rng = random.Random(12)
    for _ in range(4):
        state = game.initial_state(2)
        while state.to_move is not None:
            moves = state.legal_moves()
            legal_set = set(moves)
            fresh = game.decode(game.encode(state))  # nothing cached
            candidates: set[tuple[int, ...]] = set(moves)
            for move in moves[:40]:
                if move[-1] == CRUSH:
                    candidates.add(move[:2])
                    continue
                candidates.add(move[:-1] if len(move) > 2 else move)
                candidates.add((*move, move[-2]))
                start = move[0]
                d, _ = BOARD.line[start][move[1]]
                ray = BOARD.rays[start][OPPOSITE[d]]
                if ray:
                    candidates.add((start, ray[0]))
                for n in bits(BOARD.adjacent[start]):
                    candidates.add((start, n, CRUSH))
            for move in candidates:
                assert fresh.is_legal(move) == (move in legal_set), game.format_move(state, move)
            state = state.play(rng.choice(moves))


@pytest.mark.parametrize("options", [{}, {"closer-applies-to-captures": "no"}])
def test_is_legal_on_fresh_states_and_the_six_copy_layout(options: dict[str, str]) -> None:
    """``is_legal`` on states with nothing cached (its no-search shortcuts for plain moves
    and crushes), and ``spread`` kept up to date by ``play``."""
    game = WhistlingCaptures(options)
    spread = game.rules.rotations.spread
    rng = random.Random(21)
    for _ in range(3):
        state = game.initial_state(2)
        while state.to_move is not None:
            assert state.spread == (spread(state.stones[0]), spread(state.stones[1]))
            moves = state.legal_moves()
            legal_set = set(moves)
            text = game.encode(state)
            mine = state.stones[state.turn]
            candidates = set(rng.sample(moves, min(3, len(moves))))
            for s in rng.sample(bits(mine), min(3, mine.bit_count())):
                candidates.update((s, t, CRUSH) for t in bits(BOARD.adjacent[s]))
                candidates.update((s, ray[0]) for ray in BOARD.rays[s] if ray)
            for move in candidates:
                assert game.decode(text).is_legal(move) == (move in legal_set), game.format_move(
                    state, move
                )
            state = state.play(rng.choice(moves))


def test_played_states_equal_decoded_ones() -> None:
    """``play`` builds states without the dataclass ``__init__``: every field (and the
    hash and caches) as ``decode`` makes them."""
    game = WhistlingCaptures()
    rng = random.Random(5)
    state = game.initial_state(2)
    while state.to_move is not None and state.ply < 120:
        state = state.play(rng.choice(state.legal_moves()))
        again = game.decode(game.encode(state))
        assert state == again and hash(state) == hash(again)
        assert (state.turn, state.rules, state.spread) == (again.turn, again.rules, again.spread)
        assert state.legal_moves() == again.legal_moves()


def test_closer_rule_for_any_chain_end_is_euclidean() -> None:
    """``CaptureSearch.closer`` off the lines of the start (its half-plane test, then the
    disc masks) agrees with ``nearer_to_some``."""
    rng = random.Random(8)
    cells = list(BOARD.cells)
    for _ in range(40):
        picked = rng.sample(cells, 12)
        mine, theirs = 1 << picked[0], sum(1 << y for y in picked[1:])
        search = CaptureSearch(BOARD, mine, theirs, True)
        enemies = [BOARD.coords[y] for y in bits(theirs)]
        for end in rng.sample(cells, 30):
            expected = nearer_to_some(BOARD.coords[picked[0]], BOARD.coords[end], enemies)
            assert search.closer(picked[0], end) == expected
