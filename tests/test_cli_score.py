"""``coloretto score``, the score calculator for games played with real cards."""

from __future__ import annotations

import json
import re

import pytest

from coloretto import __version__
from coloretto.cli.main import main
from tests.conftest import run_coloretto


def run_ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the command in-process; it must succeed. Returns what it printed."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err == ""
    return out


def run_bad(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the command in-process; it must fail with status 2. Returns its one-line message."""
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2, f"exit status {exit_info.value.code!r}, stderr: {err!r}"
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected a one-line message, got: {err!r}"
    assert "error" in lines[0]
    return lines[0]


def total_of(table_text: str) -> int:
    """The total in the readable table (the number on the "Total" line)."""
    totals = [line for line in table_text.splitlines() if "Total" in line]
    assert len(totals) == 1, table_text
    numbers = re.findall(r"-?\d+", totals[0])
    assert numbers, totals[0]
    return int(numbers[-1])


# ------------------------------------------------------------------ good input


def test_rule_book_example_prints_41(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(capsys, "score", "6", "4", "3", "2", "--jokers", "1", "--plus2", "1")
    assert total_of(out) == 41


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(capsys, "score", "6", "4", "3", "2", "--jokers", "1", "--plus2", "1", "--json")
    result = json.loads(out)
    assert result["total"] == 41
    assert result["scoring"] == "brown"
    assert result["plus2"] == 1
    # Colours are numbered from 1 in the order given: the joker goes to the 4 (colour 2).
    assert result["jokers"] == [2]
    by_colour = {s["colour"]: s for s in result["sets"]}
    assert by_colour[2] == {"colour": 2, "cards": 4, "jokers": 1, "points": 15, "plus": True}
    assert by_colour[4]["plus"] is False
    assert by_colour[4]["points"] == -3
    assert sorted(s["colour"] for s in result["sets"] if s["plus"]) == [1, 2, 3]
    assert sum(s["points"] for s in result["sets"]) + 2 * result["plus2"] == 41


def test_gray_side(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(capsys, "score", "--scoring", "gray", "3", "3", "3", "4", "--jokers", "1")
    assert total_of(out) == 18
    result = json.loads(
        run_ok(capsys, "score", "--scoring", "gray", "3", "3", "3", "4", "--jokers", "1", "--json")
    )
    assert result["total"] == 18
    assert result["scoring"] == "gray"
    # On the gray side the joker goes to the minus colour: 5 cards cost 6, 4 would cost 7.
    assert result["jokers"] == [4]


def test_gray_side_example_from_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("score", "4", "3", "3", "3", "--jokers", "1", "--plus2", "1", "--scoring", "gray")
    assert json.loads(run_ok(capsys, *argv, "--json"))["total"] == 20


def test_no_cards_scores_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert json.loads(run_ok(capsys, "score", "0", "--json"))["total"] == 0
    assert json.loads(run_ok(capsys, "score", "--jokers", "1", "--json"))["total"] == 1


def test_four_plus_colours(capsys: pytest.CaptureFixture[str]) -> None:
    # 4 plus colours (the four-rows variant): 2 blue becomes a plus colour, 21+10+6+3.
    out = run_ok(capsys, "score", "6", "4", "3", "2", "--plus", "4", "--json")
    assert json.loads(out)["total"] == 40


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["score", "6", "-1", "3"], "negative"),
        (["score", "-3"], "negative"),
        (["score", "6", "10"], "10"),
        (["score", "six"], "six"),
        (["score", "6", "4.5"], "4.5"),
        (["score", "1", "1", "1", "1", "1", "1", "1", "1"], "8"),
        (["score", "1", "1", "1", "--colours", "2"], "3"),
        (["score", "6", "--jokers", "4"], "--jokers"),
        (["score", "6", "--jokers", "-1"], "--jokers"),
        (["score", "6", "--jokers", "x"], "--jokers"),
        (["score", "6", "--plus2", "11"], "--plus2"),
        (["score", "6", "--frobnicate"], "--frobnicate"),
        (["--frobnicate"], "--frobnicate"),
        (["score", "6", "--scoring", "purple"], "purple"),
        (["score", "6", "--scoring"], "--scoring"),
        (["score", "6", "--colours", "8"], "--colours"),
        (["score", "6", "--plus", "5"], "--plus"),
        (["frobnicate"], "frobnicate"),
        (["score"], "coloretto score: error: give the number of cards"),
        (["score", "--json"], "coloretto score: error: give the number of cards"),
        (["score", "6", "--frobnicate"], "coloretto score: error: unrecognized arguments"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    message = run_bad(capsys, *argv)
    assert needle in message


# ------------------------------------------------------------------ the program itself


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code in (0, None)
    out, _ = capsys.readouterr()
    assert out.strip() == f"coloretto {__version__}"


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(capsys)
    assert "usage: coloretto" in out
    assert "score" in out


def test_score_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "--help"])
    assert exit_info.value.code in (0, None)
    out, _ = capsys.readouterr()
    assert "--jokers" in out
    assert "--plus2" in out


def test_as_a_real_process() -> None:
    done = run_coloretto(
        None, "score", "6", "4", "3", "2", "--jokers", "1", "--plus2", "1", columns=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert total_of(done.stdout) == 41
    done = run_coloretto(
        None, "score", "6", "4", "3", "2", "--jokers", "1", "--plus2", "1", "--json", columns=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 41


def test_bad_input_in_a_real_process() -> None:
    done = run_coloretto(None, "score", "6", "10", columns=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
