"""EngineSpec (command splitting, environment) and Transcript (bounded, ordered)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import trio

from protocol.codec import parse_command, parse_reply
from protocol.messages import GameOver, Go, NewGame, Position
from protocol.search_info import SearchInfo, Shares, merge, parse_info
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from protocol.transcript import Transcript


def test_from_command_splits_like_a_posix_shell_without_running_one() -> None:
    spec = EngineSpec.from_command("./engines/my\\ bot --name 'two words' \"$HOME\" ;ls")
    assert spec.argv == ("./engines/my bot", "--name", "two words", "$HOME", ";ls")
    assert spec.name == "my bot"
    assert EngineSpec.from_command("x", name="Xavier").name == "Xavier"


@pytest.mark.parametrize("cmd", ["", "   ", "engine 'unbalanced", 'a "b'])
def test_from_command_rejects_empty_and_unbalanced(cmd: str) -> None:
    with pytest.raises(ValueError) as info:
        EngineSpec.from_command(cmd)
    assert "\n" not in str(info.value)


def test_spec_is_hashable_and_environment_merges() -> None:
    spec = EngineSpec.from_command("e --x", env={"A": "1"}, options=[("Depth", "3")])
    assert hash(spec) == hash(
        EngineSpec.from_command("e --x", env={"A": "2"}, options=[("Depth", "3")])
    )
    assert spec.options == (("Depth", "3"),)
    assert spec.environment({"A": "0", "B": "2"}) == {"A": "1", "B": "2"}
    assert EngineSpec.from_command("e").environment({"B": "2"}) is None
    assert spec.command_line() == "e --x"
    with pytest.raises(ValueError):
        EngineSpec(name="x", argv=())


def test_transcript_records_relative_times_in_order() -> None:
    transcript = Transcript(origin=100.0)
    transcript.sent(100.5, "rgp 1")
    transcript.stderr(100.6, "warming up")
    transcript.received(101.25, "rgpok")
    transcript.note(102.0, "started")
    assert transcript.lines() == [
        "    0.500 > rgp 1",
        "    0.600 ! warming up",
        "    1.250 < rgpok",
        "    2.000 # started",
    ]
    with pytest.raises(ValueError):
        transcript.record(0.0, "?", "x")


def test_transcript_is_bounded_and_stderr_cannot_push_out_the_protocol() -> None:
    transcript = Transcript(max_lines=3, max_stderr_lines=2, max_chars=10)
    transcript.sent(0, "rgp 1")
    for i in range(10_000):
        transcript.stderr(i, "spam " * 1000)
    transcript.received(1, "rgpok")
    assert len(transcript) == 4
    assert transcript.dropped == 0
    assert transcript.dropped_stderr == 9_998
    texts = [line.text for line in transcript.entries()]
    assert texts[0] == "rgp 1" and texts[-1] == "rgpok"
    assert texts[1] == "spam spam ... [4990 more chars]"
    for i in range(5):
        transcript.note(2, f"n{i}")
    assert transcript.dropped == 4
    assert transcript.lines()[0].startswith("# 4 earlier protocol lines and 9998 earlier stderr")


def test_sent_lines_records_as_sent_does_line_by_line() -> None:
    texts = ["position start moves a1 b2", "go time 1,2 inc 0,0", "x" * 30]
    one_by_one = Transcript(origin=1.0, max_lines=4, max_chars=20)
    together = Transcript(origin=1.0, max_lines=4, max_chars=20)
    for transcript in (one_by_one, together):
        transcript.received(1.5, "rgpok")
        transcript.stderr(1.75, "hello")
    for text in texts:
        one_by_one.sent(2.0, text)
    together.sent_lines(2.0, texts)
    assert together.entries() == one_by_one.entries()
    assert together.lines() == one_by_one.lines()
    assert (
        together.lines_since(2)
        == one_by_one.lines_since(2)
        == [
            "    1.000 > position start moves... [6 more chars]",
            "    1.000 > go time 1,2 inc 0,0",
            "    1.000 > xxxxxxxxxxxxxxxxxxxx... [10 more chars]",
        ]
    )
    assert (together.mark, together.dropped) == (one_by_one.mark, one_by_one.dropped) == (5, 0)


def test_transcript_dump(tmp_path: Path) -> None:
    transcript = Transcript()
    transcript.sent(0.25, "quit")
    path = tmp_path / "t.log"
    transcript.dump(path)
    assert path.read_text(encoding="utf-8") == "    0.250 > quit\n"
    Transcript().dump(path)
    assert path.read_text(encoding="utf-8") == ""


# --- protocol/SPEC.md stays true ------------------------------------------------------

SPEC = Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md"


def _code_blocks(language: str) -> list[str]:
    text = SPEC.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def test_spec_example_session_is_valid_protocol() -> None:
    (example,) = _code_blocks("text")
    lines = example.splitlines()
    assert len(lines) > 20
    for line in lines:
        direction, _, message = line.partition(" ")
        if direction == ">":
            parse_command(message)
        else:
            assert direction == "<", line
            parse_reply(message)


def test_spec_example_info_items_parse_as_the_text_says() -> None:
    (example,) = _code_blocks("text")
    infos = [line.split(" ", 2)[2] for line in example.splitlines() if line.startswith("< info")]
    parsed = [parse_info(text) for text in infos]
    # Every item of the example is well formed except the one the text calls malformed.
    assert [item.text for info in parsed for item in info.rejected] == ["score 700,200"]
    first_search = merge(merge(parsed[0], parsed[1]), parsed[2])
    assert (first_search.depth, first_search.nodes) == (5, 20000)
    assert first_search.score == Shares((310, 380, 310))


@pytest.mark.parametrize("rules", [False, True])
async def test_spec_minimal_engine_speaks_the_protocol(tmp_path: Path, rules: bool) -> None:
    (code,) = _code_blocks("python")
    if rules:  # give it two legal moves, so that it searches and reports
        code = code.replace("    return []", '    return ["d4", "e5"]', 1)
    script = tmp_path / "minimal.py"
    script.write_text(code, encoding="utf-8")
    spec = EngineSpec(name="minimal", argv=(sys.executable, str(script)))
    async with EngineSession.open(spec, start_timeout=5) as session:
        assert session.engine_id == {"name": "Minimal", "author": "You"}
        assert session.engine_features == {"nodes", "depth"}
        await session.new_game(NewGame("trichess", 3, 1, 5), timeout=5)
        answer = await session.request_move(
            Position(("e3",)), Go(movetime=100, nodes=10), deadline=trio.current_time() + 5
        )
        if rules:
            assert answer.move in ("d4", "e5")
            assert answer.search == SearchInfo(
                depth=1, nodes=2, score=Shares((334, 333, 333)), pv=(answer.move,)
            )
        else:
            assert answer.move is None  # it knows no rules, so it resigns
            assert answer.search == SearchInfo()
        assert await session.ping(5) >= 0
        await session.notify(GameOver("0-1", "resignation"))
    assert session.returncode == 0
