"""``coloretto bots``: each level in one plain sentence with one measured figure, then the
installed bots, each with one measured figure; no research prose, no dates."""

from __future__ import annotations

import json
import re

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
    assert "beats it in 99.6% of two-player games" in words
    assert "wins 63.0% of four-player games" in words
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
