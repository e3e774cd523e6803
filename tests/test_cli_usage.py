"""Usage errors name the sub-command, and the full-screen commands refuse to write their
escape codes into a pipe: real ``python -m coloretto`` processes, output captured."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from coloretto.cli.main import build_parser
from coloretto.engine import Rules, new_game, to_record
from tests.conftest import play_out
from tests.conftest import run_coloretto as coloretto


def one_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == ""
    assert "\x1b" not in done.stderr
    (line,) = done.stderr.splitlines()
    return line


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["replay", "--bogus"], "coloretto replay: error: unrecognized arguments: --bogus"),
        (["play", "--players", "3", "-x"], "coloretto play: error: unrecognized arguments: -x"),
        (["stats", "extra"], "coloretto stats: error: unrecognized arguments: extra"),
        (["save", "a", "b"], "coloretto save: error: unrecognized arguments: b"),
        (["score"], "coloretto score: error: give the number of cards you hold"),
    ],
)
def test_usage_errors_name_the_sub_command(tmp_path: Path, argv: list[str], start: str) -> None:
    assert one_error(coloretto(tmp_path, *argv)).startswith(start)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    game = play_out(new_game(Rules(players=3), seed=2), 2)
    path.write_text(json.dumps(to_record(game, ["Ana", "Ben", "Cy"])))
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "RECORD"],
        ["replay"],
        ["play", "--players", "3"],
        ["play", "--load", "SAVE"],
        ["play", "--resume"],
    ],
)
def test_a_full_screen_command_refuses_a_pipe(
    tmp_path: Path, record: Path, argv: list[str]
) -> None:
    home = tmp_path / "home"
    (home / "history").mkdir(parents=True)
    (home / "saves").mkdir()
    game = new_game(Rules(players=3), seed=2).apply("draw").apply("place 1")
    history = to_record(play_out(game, 3), ["Ana", "Ben", "Cy"])
    (home / "history" / "old.json").write_text(json.dumps(history))
    (home / "saves" / "now.json").write_text(json.dumps(to_record(game, ["Ana", "Ben", "Cy"])))
    files = {"RECORD": str(record), "SAVE": str(home / "saves" / "now.json")}
    argv = [files.get(a, a) for a in argv]
    line = one_error(coloretto(home, *argv))
    assert f"coloretto {argv[0]}: error: coloretto {argv[0]} is full-screen" in line
    assert "needs a terminal" in line


def test_plain_coloretto_in_a_pipe_prints_the_usage(tmp_path: Path) -> None:
    done = coloretto(tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: coloretto")
    assert "\x1b" not in done.stdout


def test_play_comes_first_in_the_help() -> None:
    commands = build_parser().format_help().split("commands:")[1].split()
    assert commands[1] == "play", commands[:4]
