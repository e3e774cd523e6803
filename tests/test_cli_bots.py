"""``coloretto bots``: each level in one plain sentence with one measured figure, then the
installed bots, each with one measured figure; no research prose, no dates."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coloretto.bots.registry import DEFAULT_LEVEL, LEVELS
from coloretto.bots.strength import LEVEL_STRENGTH, MEASURED
from coloretto.cli.main import main

FIGURE = re.compile(r"\d+(?:\.\d+)?%")


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables are read as in an 80-column terminal, whatever runs the tests (rich
    takes the width from ``COLUMNS``, or the terminal, at each ``Console``)."""
    monkeypatch.setenv("COLUMNS", "80")


def bots_output(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["bots", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


@pytest.mark.parametrize("level", list(LEVELS))
def test_each_level_is_one_sentence_with_one_figure(level: str) -> None:
    said = LEVEL_STRENGTH[level]
    assert said.endswith(".")
    assert ". " not in said, "one sentence"
    assert len(FIGURE.findall(said)) <= 2  # the figure, and at most a fair share beside it
    assert FIGURE.search(said), f"{level}: no measured figure"
    assert len(said) < 200
    assert not re.search(r"20\d\d-\d\d|session \d|since \d", said), "no measurement history"


def test_every_built_in_bot_has_one_short_figure() -> None:
    for name, said in MEASURED.items():
        assert len(FIGURE.findall(said)) <= 2, name
        assert len(said) < 120, name
        assert not re.search(r"20\d\d-\d\d", said), name


def test_the_levels_come_first_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    out = bots_output(capsys)
    assert out.index("Difficulty levels") < out.index("Installed bots")
    words = " ".join(out.replace("│", " ").split())  # the table wraps its cells: its words
    for level in LEVELS:
        assert level in words
    assert "beats it in 99.6% of 2,000 two-player games" in words
    assert "wins 63.0% of 400 four-player games" in words
    assert re.search(rf"│ {DEFAULT_LEVEL} +│.*\n│ \(default\) +│", out), "the default is marked"
    for spec in LEVELS.values():
        assert spec in words
    assert "docs/bots.md" in words
    assert all(len(line) <= 80 for line in out.splitlines())
    assert len(out.splitlines()) < 70


def test_json_gives_the_levels_specs_and_sentences(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(bots_output(capsys, "--json"))
    assert data["levels"] == dict(LEVELS)
    assert data["level_strength"] == dict(LEVEL_STRENGTH)
    assert {bot["name"] for bot in data["bots"]} >= set(MEASURED)


COUNTED = re.compile(r"(\d+(?:\.\d+)?%)( of (\d{1,3}(?:,\d{3})*)\b)?")
"""A figure and the games it was measured over, if it says: "63.0% of 400"."""

FAIR_SHARE = "a fair share is 25%"

ROOT = Path(__file__).resolve().parents[1]


def counted(text: str) -> dict[str, str]:
    """Each figure of ``text`` with its game count; every figure but the fair share has one."""
    figures = {}
    for match in COUNTED.finditer(text.replace(FAIR_SHARE, "")):
        figure, _, games = match.groups()
        assert games, f"{figure} says over how many games it was measured: {text!r}"
        assert figures.setdefault(figure, games) == games, text
    return figures


def readme_levels() -> dict[str, str]:
    """The README's table of the levels: each level's "Measured" cell."""
    section = (ROOT / "README.md").read_text().split("## The levels", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| `")]
    return {re.findall(r"`(\w+)`", row[1])[0]: row[3] for row in rows}


def toughest_table() -> dict[str, dict[str, str]]:
    """docs/bots.md's figures of the levels at the toughest table (the gray held-out
    spoilers, in the table of the levels at four players): each level's figure and games
    (the cell's own count, or the table's "N games a table unless the cell says
    otherwise")."""
    text = (ROOT / "docs" / "bots.md").read_text()
    section = text.split("### The levels at four players", 1)[1].split("\n### ", 1)[0]
    default = re.search(r"([\d,]+) games a table unless the cell says otherwise", section)
    assert default is not None
    (row,) = [line.split("|") for line in section.splitlines() if "| held-out spoiler |" in line]
    figures = {}
    for level, cell in (("hard", row[3]), ("normal", row[5])):  # the gray columns
        figure = re.match(r"\s*(\d+\.\d%)", cell)
        games = re.search(r"([\d,]+) games", cell)
        assert figure is not None, cell
        figures[level] = {figure[1]: games[1] if games else default[1]}
    return figures


def test_each_figure_carries_one_game_count_the_same_everywhere(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A figure says over how many games it was measured, beside it, and says the same
    count wherever it is shown: the levels, the bots, the README's table, docs/bots.md."""
    games: dict[str, str] = {}
    for text in [*LEVEL_STRENGTH.values(), *MEASURED.values()]:
        for figure, count in counted(text).items():
            assert games.setdefault(figure, count) == count, f"{figure}: {count} and {games}"
    readme = readme_levels()
    assert set(readme) == set(LEVELS)
    for level, said in LEVEL_STRENGTH.items():
        assert counted(readme[level]) == counted(said), level
    for level, figures in toughest_table().items():
        assert counted(LEVEL_STRENGTH[level]) == figures, f"docs/bots.md: {level}"
    monkeypatch.setenv("COLUMNS", "400")  # a cell on one line: its figure beside its count
    words = " ".join(bots_output(capsys).replace("│", " ").split())
    assert "63.0% of 400 four-player games" in words
    assert "52.0% of 1,000 four-player games" in words
    assert not re.search(r"[\d,]+ games a level|\([\d,]+ games", words), "no count apart"
    assert counted(words) == games
