"""``referee show``: one position of a record as ASCII or SVG.

Most cases call the console script's ``main`` in-process (it is what turns errors
into one line); one runs the real process end to end.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.record import build_record, format_record
from referee.registry import make_game
from tests.clirun import RefereeCli
from tests.pictures.positions import CASES, mid_game, move_texts, start
from tournaments.cli.app import main
from tournaments.cli.show import replay


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games: the seeded Trike and Whistling Captures mid-games of ``positions``."""
    texts = []
    for case in (CASES[0], CASES[2]):
        game, _ = start(case)
        record = build_record(game, ["a", "b"], move_texts(case), None)
        texts.append(format_record(record))
    path = tmp_path_factory.mktemp("show") / "games.tgn"
    path.write_text("".join(texts))
    return path


def referee(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``referee ARGS`` run in this process."""
    monkeypatch.setattr(sys, "argv", ["referee", *args])
    with pytest.raises(SystemExit) as done:
        main()
    out, err = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0 if code is None else 1), out, err


def test_ascii_shows_the_final_position_by_default(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    case = CASES[0]
    game, state, last = mid_game(case)
    code, out, err = referee(capsys, monkeypatch, "show", str(record_file))
    assert code == 0, err
    text = game.format_move(last.before, last.move)
    where = f"ply {case.plies}, move {case.plies} of the record"
    assert out == game.render(state) + f"\nlast move: {text} ({where})\n"


def test_ascii_at_ply_zero_is_the_start(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, state = start(CASES[0])
    code, out, err = referee(capsys, monkeypatch, "show", str(record_file), "--ply", "0")
    assert code == 0, err
    assert out == game.render(state) + "\nlast move: none (start position)\n"


def test_svg_of_the_second_game_marks_the_chain_end_to_end(
    record_file: Path, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    out = tmp_path / "pos.svg"
    done = referee_cli("show", str(record_file), "--game", "2", "--svg", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote {out}\n"
    picture = out.read_text()
    classes = [(e.get("class") or "") for e in ET.fromstring(picture).iter()]
    assert "captured" in classes and "last-move" in classes
    assert "whistling-captures, ply 12" in picture


def one_line_error(code: int, err: str, message: str) -> None:
    assert code == 2
    assert err.startswith("referee: error: ") and message in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "3"), "holds 2 game(s): no game 3"),
        (("--game", "0"), "holds 2 game(s): no game 0"),
        (("--ply", "11"), "--ply 11 is outside 0..10"),
        (("--ply", "-1"), "--ply -1 is outside 0..10"),
    ],
)
def test_bad_game_or_ply_is_one_line(
    record_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    message: str,
) -> None:
    code, _, err = referee(capsys, monkeypatch, "show", str(record_file), *args)
    one_line_error(code, err, message)


def test_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "none.tgn"
    code, _, err = referee(capsys, monkeypatch, "show", str(missing))
    one_line_error(code, err, f"cannot read {missing}: No such file or directory")


def test_unwritable_svg_is_one_line(
    record_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = tmp_path / "no-such-dir" / "x.svg"
    code, _, err = referee(capsys, monkeypatch, "show", str(record_file), "--svg", str(target))
    one_line_error(code, err, f"cannot write {target}")


def test_show_reads_no_further_than_its_game(
    record_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``show`` read and judged the whole file first: game 1 of a 79 MB file took 39 s and
    437 MB, and a broken game anywhere hid every other. It reads up to its game; the file's
    own problems before it, and a missing game, are still one line."""
    path = tmp_path / "tail.tgn"
    path.write_text(record_file.read_text() + '[Game "trike"\n\nnot a record at all\n')
    code, out, err = referee(capsys, monkeypatch, "show", str(path), "--game", "2")
    assert code == 0 and "last move:" in out, err
    code, _, err = referee(capsys, monkeypatch, "show", str(path), "--game", "3")
    one_line_error(code, err, f"{path}:")
    empty = tmp_path / "empty.tgn"
    empty.write_text("")
    code, _, err = referee(capsys, monkeypatch, "show", str(empty))
    one_line_error(code, err, f"{empty}: no game records in the file")
    code, _, err = referee(capsys, monkeypatch, "show", str(record_file), "--game", "3")
    one_line_error(code, err, f"{record_file} holds 2 game(s): no game 3")


HEAD = (
    '[Game "{game}"]\n[Options ""]\n[RulesVersion "1"]\n[Players "2"]\n[Seat1 "a"]\n'
    '[Seat2 "b"]\n[Result "*"]\n[Termination "void"]\n\n'
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not a record\n", "bad.tgn:1:1: expected a tag line"),
        (HEAD.format(game="trike") + "1. e3 zz9 *\n", "move 2 'zz9' does not replay"),
        (HEAD.format(game="trike") + "1. e3 e3 *\n", "move 2 'e3' does not replay"),
        (HEAD.format(game="chess") + "*\n", "the record cannot be set up: unknown game"),
    ],
)
def test_malformed_record_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    message: str,
) -> None:
    path = tmp_path / "bad.tgn"
    path.write_text(text)
    code, _, err = referee(capsys, monkeypatch, "show", str(path))
    one_line_error(code, err, message)


def test_plies_count_from_the_game_start_with_or_without_the_opening_moves() -> None:
    """A record that starts after 4 plies shows plies 4.. of the game; with an ``Opening``
    tag also the plies before its ``Start``, replayed from the opening's moves."""
    game = make_game("trike")
    states = [game.initial_state(2)]
    texts: list[str] = []
    for _ in range(8):
        move = states[-1].legal_moves()[0]
        texts.append(game.format_move(states[-1], move))
        states.append(states[-1].play(move))
    bare = build_record(game, ["a", "b"], texts[4:], None, start=game.encode(states[4]))
    shown = replay(bare, 6)
    assert (shown.state, shown.ply, shown.index, shown.last_text) == (states[6], 6, 2, texts[5])
    assert replay(bare, None).state == states[8]
    with pytest.raises(ValueError, match=r"--ply 3 is outside 4\.\.8"):
        replay(bare, 3)
    opened = build_record(
        game, ["a", "b"], texts[4:], None, {"Opening": " ".join(texts[:4])}, game.encode(states[4])
    )
    shown = replay(opened, 3)
    assert (shown.state, shown.ply, shown.index, shown.last_text) == (states[3], 3, 0, texts[2])
    assert replay(opened, 0).state == states[0] and replay(opened, 0).last_text is None
    wrong = build_record(
        game, ["a", "b"], texts[4:], None, {"Opening": " ".join(texts[:3])}, game.encode(states[4])
    )
    with pytest.raises(ValueError, match="Opening tag does not lead to its Start"):
        replay(wrong, 1)
