"""``coloretto replay`` and ``coloretto review`` with trouble in the data directory: an
unreadable file in the history, a game named by its id, a data directory that is a file."""

from __future__ import annotations

import os
import random
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from coloretto.cli.main import main
from coloretto.engine import Match, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.review import ANALYSIS_KEY
from coloretto.play.session import Session
from coloretto.store.history import history_path
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.saves import save_path
from coloretto.tui.replay_app import ReplayApp
from tests.conftest import random_play


def finish(data: DataDir, session_id: str, seed: int = 21, *, problem: bool = False) -> Any:
    """A finished 3-player game (Ana against two bots) kept as the game keeps one: the
    record's path (or, with ``problem``, what the keeper said when it finished)."""
    rules = Rules(players=3)
    game = random_play(Match.start(rules, seed).game, random.Random(seed), 10_000)
    assert game.is_over
    players = (Player("Ana"), Player("Bot 1", "easy"), Player("Bot 2", "hard"))
    session = Session(GameConfig(rules, players), Match(rules, seed, game), session_id)
    keeper = Keeper(data)
    assert keeper.save(session) is None
    said = keeper.finish(session)
    keeper.release()
    if problem:
        return said
    assert said is None
    return history_path(data, session_id)


def aged(path: Path, seconds_ago: float) -> Path:
    """``path``, last modified ``seconds_ago``."""
    when = time.time() - seconds_ago
    os.utime(path, (when, when))
    return path


@pytest.fixture
def replayed(monkeypatch: pytest.MonkeyPatch, terminal: None) -> list[ReplayApp]:
    """The replays ``coloretto replay`` would have shown (not run: no terminal in tests)."""
    apps: list[ReplayApp] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, **kw: apps.append(self))
    return apps


def test_replay_passes_over_unreadable_files_for_the_newest_finished_game(
    replayed: list[ReplayApp], capsys: pytest.CaptureFixture[str]
) -> None:
    data = DataDir.default()
    aged(finish(data, "20261121-101010-aaaaaa", seed=3), 300)
    good = aged(finish(data, "20261121-101011-bbbbbb", seed=4), 200)
    (data.history / "zzz.json").write_text("[\n")
    aged(data.history / "zzz.json", 0)
    (data.history / "yyy.json").write_text("{}")
    aged(data.history / "yyy.json", 10)
    assert main(["replay"]) == 0
    (app,) = replayed
    assert app.replay.name == good.name
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "skipped zzz.json, yyy.json in the history" in err
    assert "coloretto replay --list says why" in err


def test_review_passes_over_an_unreadable_file_for_the_newest_finished_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = DataDir.default()
    aged(finish(data, "20261121-101010-aaaaaa"), 100)
    (data.history / "zzz.json").write_text("[\n")
    # greedy cannot analyse: the review stops there, after choosing the game
    assert main(["review", "--bot", "greedy", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "skipped zzz.json in the history" in err
    assert "cannot analyse" in err
    assert "not valid JSON" not in err


def test_replay_and_review_say_so_when_no_finished_game_can_be_read(
    capsys: pytest.CaptureFixture[str], terminal: None
) -> None:
    data = DataDir.default().ensure()
    (data.history / "zzz.json").write_text("[\n")
    for command in ("replay", "review"):
        assert main([command]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert f"coloretto {command}: error: no finished game in {data.history} can be read" in err
        assert "coloretto replay --list says what is wrong" in err


def test_replay_takes_the_id_of_a_finished_game(
    replayed: list[ReplayApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = DataDir.default()
    path = finish(data, "20261121-101010-aaaaaa")
    monkeypatch.chdir(tmp_path)  # no file of that name here
    assert main(["replay", "20261121-101010-aaaaaa"]) == 0
    (app,) = replayed
    assert app.replay.name == path.name


@pytest.mark.parametrize(
    ("wanted", "says"),
    [
        ("20261121-999999-ffffff", "no such file, nor a finished game of that id in "),
        ("../history/20261121-101010-aaaaaa", "no such file"),
        ("20261122-101010-cccccc", "is a game in progress: coloretto play --resume "),
    ],
)
@pytest.mark.usefixtures("terminal")
def test_replay_of_an_id_that_names_no_finished_game_says_so(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    wanted: str,
    says: str,
) -> None:
    data = DataDir.default()
    finish(data, "20261121-101010-aaaaaa")
    save_path(data, "20261122-101010-cccccc").write_text("{}")
    monkeypatch.chdir(tmp_path)
    assert main(["replay", wanted]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert says in err


def test_reviewing_an_older_game_leaves_the_game_finished_last_as_it_was(
    replayed: list[ReplayApp], capsys: pytest.CaptureFixture[str]
) -> None:
    data = DataDir.default()
    older = aged(finish(data, "20261121-101010-aaaaaa", seed=3), 300)
    newer = aged(finish(data, "20261121-101011-bbbbbb", seed=4), 200)
    (data.history / "zzz.json").write_text("[\n")  # broken, but newer than both games
    aged(data.history / "zzz.json", 100)
    played = older.stat().st_mtime_ns
    review = ["review", older.stem, "--bot", "search:iterations=2", "--jobs", "1"]
    assert main(review) == 0
    assert ANALYSIS_KEY in read_record(older).meta  # the analysis is written into it
    assert older.stat().st_mtime_ns == played  # still when it was played
    capsys.readouterr()

    assert main(["replay"]) == 0  # the game finished last is still the newer one
    (app,) = replayed
    assert app.replay.name == newer.name
    assert "skipped zzz.json in the history" in capsys.readouterr().err
    assert main(["replay", "--list"]) == 0
    listed = capsys.readouterr().out
    order = [listed.index(name) for name in ("zzz.json", newer.name, older.name)]
    assert order == sorted(order), listed
    when = datetime.fromtimestamp(played / 1e9).strftime("%Y-%m-%d %H:%M")
    day, hour = listed.split(older.name)[1].splitlines()[:2]  # the Date, on two lines
    assert [day.split()[0], hour.split()[0]] == when.split()  # when it was played
