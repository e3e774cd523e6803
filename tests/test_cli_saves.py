"""``coloretto play --resume`` / ``--load FILE`` and ``coloretto save FILE`` from the shell:
clear one-line errors, files never changed behind the player's back."""

from __future__ import annotations

import json
import os
import random
from datetime import datetime
from pathlib import Path

import pytest

from coloretto.cli.main import main
from coloretto.engine import Match, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.saving import SavedGame, read_session, session_record
from coloretto.play.session import Session
from coloretto.play.table import LocalTable
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record
from coloretto.store.saves import games_in_progress, latest_save, save_path
from coloretto.store.saves import save as save_record
from coloretto.tui.app import ColorettoApp
from tests.conftest import random_play


def in_progress(actions: int = 5, rules: Rules | None = None) -> Session:
    rules = rules or Rules(players=3)
    game = random_play(Match.start(rules, 21).game, random.Random(4), actions)
    players = (Player("Ana"), Player("Bot 1", "easy"), Player("Bot 2", "hard"))
    config = GameConfig(rules, players[: rules.players])
    return Session(config, Match(rules, 21, game), "20261121-101010-abcdef")


def save(data: DataDir, session: Session) -> Path:
    return save_record(data, session.id, session_record(session))


def write(path: Path, session: Session) -> None:
    record = session_record(session)
    write_record(path, record.state, record.seats, record.meta)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, terminal: None) -> list[ColorettoApp]:
    """Apps that ``coloretto play`` would have run (not run: no terminal in tests)."""
    apps: list[ColorettoApp] = []
    monkeypatch.setattr(ColorettoApp, "run", lambda self, **kw: apps.append(self))
    return apps


def error_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_resume_continues_the_saved_game(started: list[ColorettoApp]) -> None:
    saved = in_progress()
    save(DataDir.default(), saved)
    assert main(["play", "--resume"]) == 0
    (app,) = started
    assert app.session is not None
    assert app.session.game == saved.game
    assert app.session.id == saved.id
    assert [p.bot for p in app.session.config.players] == [None, "easy", "hard"]


def test_resume_id_continues_that_game(
    started: list[ColorettoApp],
) -> None:
    data = DataDir.default()
    older, newer = in_progress(5), in_progress(9)
    older.id, newer.id = "20261120-101010-aaaaaa", "20261121-101010-bbbbbb"
    save(data, older)
    path = save(data, newer)
    os.utime(path, (path.stat().st_atime, path.stat().st_mtime + 60))  # played last
    assert main(["play", "--resume", older.id]) == 0
    assert main(["play", "--resume"]) == 0
    first, second = started
    assert first.session is not None
    assert second.session is not None
    assert (first.session.id, first.session.game) == (older.id, older.game)
    assert (second.session.id, second.session.game) == (newer.id, newer.game)


def test_quitting_names_the_other_games_in_progress_and_who_plays_them() -> None:
    data = DataDir.default()
    playing, other = in_progress(5), in_progress(9)
    other.id = "20261121-101010-bbbbbb"
    path = save(data, other)
    when = datetime(2026, 11, 21, 10, 10).timestamp()
    os.utime(path, (when, when))
    broken = save_path(data, "20261120-101010-cccccc")
    broken.write_text("{")
    os.utime(broken, (when - 60, when - 60))
    message = LocalTable(playing, Keeper(data)).suspend()
    assert message == (
        "Your game is saved: coloretto play --resume continues it.\n"
        "Also in progress (coloretto play --resume ID continues one):\n"
        f"  {other.id}: Ana, Bot 1 and Bot 2, round {other.game.round}, saved 21 Nov at 10:10\n"
        f"  (1 other save in {data.saves} cannot be read)\n"
        "coloretto saves delete ID discards one you gave up."
    )


def test_quitting_offers_no_unreadable_save_to_resume() -> None:
    data = DataDir.default().ensure()
    playing = in_progress(5)
    for name in ("20261120-101010-cccccc", "20261120-101010-dddddd"):
        save_path(data, name).write_text("{")
    message = LocalTable(playing, Keeper(data)).suspend()
    assert message is not None
    assert "cccccc" not in message
    assert message == (
        "Your game is saved: coloretto play --resume continues it.\n"
        f"The 2 other saves in {data.saves} cannot be read."
    )


def test_one_rule_for_which_files_in_saves_are_games(started: list[ColorettoApp]) -> None:
    data = DataDir.default()
    kept = save(data, in_progress(5))
    odd = data.saves / "weird name.json"
    odd.write_text(kept.read_text())
    later = kept.stat().st_mtime + 60
    os.utime(odd, (later, later))  # touched last, but no game by the rule
    assert latest_save(data) == kept  # what the setup screen's Resume and coloretto save use
    assert games_in_progress(data) == [kept.stem]
    assert Keeper(data).in_progress().lines() == [SavedGame.read(kept).line()]  # type: ignore[union-attr]
    assert main(["play", "--resume"]) == 0
    (app,) = started
    assert app.session is not None
    assert app.session.id == kept.stem


def test_quitting_describes_five_other_games_and_counts_the_rest() -> None:
    data = DataDir.default()
    for i in range(7):
        other = in_progress(i)
        other.id = f"20261121-10101{i}-bbbbbb"
        save(data, other)
    message = LocalTable(in_progress(), Keeper(data)).suspend()
    assert message is not None
    lines = message.splitlines()
    assert len(lines) == 2 + 5 + 2, lines
    assert all(": Ana, Bot 1 and Bot 2, round " in line for line in lines[2:7])
    assert lines[-2:] == ["  and 2 more", "coloretto saves delete ID discards one you gave up."]


@pytest.mark.parametrize("wanted", ["20261120-101010-cccccc", "../../outside", "x" * 300])
def test_resume_of_a_game_not_in_progress_lists_those_that_are(
    capsys: pytest.CaptureFixture[str], wanted: str
) -> None:
    save(DataDir.default(), in_progress())
    err = error_of(capsys, ["play", "--resume", wanted])
    assert "there is no game in progress called " in err
    assert (
        ": run `coloretto play` to start a new game, or `coloretto play --resume ID` for one "
        "of these: 20261121-101010-abcdef: Ana, Bot 1 and Bot 2, round"
    ) in err


def test_resume_of_an_unreadable_save_names_the_games_one_could_resume(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = DataDir.default()
    other = save(data, in_progress())
    broken = save_path(data, "20261125-100001-bbbbbb")
    broken.write_text("{}")
    later = other.stat().st_mtime + 60
    os.utime(broken, (later, later))
    err = error_of(capsys, ["play", "--resume"])
    assert f"cannot resume {broken}: format: expected 'coloretto-record/1', found null" in err
    assert "the file is left as it is: run `coloretto play` to start a new game, or " in err
    assert "`coloretto play --resume ID` for one of these: 20261121-101010-abcdef: Ana" in err
    assert "starts a new game" not in err
    assert broken.read_text() == "{}"


def test_resume_of_a_game_held_by_another_window_names_the_others(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, terminal: None
) -> None:
    data = DataDir.default()
    held, other = in_progress(5), in_progress(9)
    other.id = "20261120-101010-cccccc"
    save(data, other)
    path = save(data, held)
    later = path.stat().st_mtime + 60
    os.utime(path, (later, later))
    monkeypatch.setattr(
        Keeper, "claim", lambda self, s: "the game is being played in another window (pid 1)"
    )
    assert main(["play", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "cannot resume: the game is being played in another window (pid 1); run " in err
    assert "for one of these: 20261120-101010-cccccc: Ana, Bot 1 and Bot 2, round" in err
    assert held.id not in err


def test_resume_without_a_save_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert "there is no game in progress to resume" in error_of(capsys, ["play", "--resume"])


def test_resume_refuses_options_that_describe_another_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    save(DataDir.default(), in_progress())
    err = error_of(capsys, ["play", "--resume", "--players", "5", "--seed", "3"])
    assert "leave out --players, --seed" in err


def test_resume_refuses_a_damaged_save_and_leaves_it_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = save(DataDir.default(), in_progress())
    path.write_text(path.read_text()[:100])
    before = path.read_bytes()
    err = error_of(capsys, ["play", "--resume"])
    assert str(path) in err
    assert "not valid JSON" in err
    assert "the file is left as it is" in err
    assert path.read_bytes() == before


def test_load_plays_on_from_a_file_without_changing_it(
    tmp_path: Path, started: list[ColorettoApp]
) -> None:
    saved = in_progress(9)
    path = tmp_path / "mine.json"
    write(path, saved)
    before = path.read_bytes()
    assert main(["play", "--load", str(path)]) == 0
    (app,) = started
    assert app.session is not None
    assert app.session.game == saved.game
    assert app.session.id != saved.id  # its saves go to the data directory
    assert path.read_bytes() == before


def test_load_refuses_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = in_progress(100_000)
    path = tmp_path / "done.json"
    write(path, saved)
    err = error_of(capsys, ["play", "--load", str(path)])
    assert f"coloretto replay {path}" in err


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "not valid JSON"),
        ("[1, 2", "not valid JSON"),
        (json.dumps({"format": "coloretto-record/7"}), "'coloretto-record/7'"),
        (
            json.dumps({"format": "coloretto-record/1", "rules": {"players": 1}}),
            "rules.players: expected a whole number from 2 to 5",
        ),
    ],
)
def test_load_refuses_a_bad_file_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    err = error_of(capsys, ["play", "--load", str(path)])
    assert f"cannot load {path}" in err
    assert says in err
    assert path.read_text() == content


def test_load_of_a_save_with_a_malformed_action_says_what_an_action_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "badact.json"
    write(path, in_progress())
    record = json.loads(path.read_text())
    record["actions"] = [{"bogus": 1}]
    path.write_text(json.dumps(record))
    err = error_of(capsys, ["play", "--load", str(path)])
    assert f'cannot load {path}: actions[0]: expected an action like {{"player": 0' in err
    assert "None" not in err


def test_load_and_resume_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert "not allowed with" in error_of(capsys, ["play", "--resume", "--load", "x.json"])


def test_save_copies_the_game_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = in_progress()
    save(DataDir.default(), saved)
    target = tmp_path / "copy.json"
    assert main(["save", str(target)]) == 0
    assert f"coloretto play --load {target}" in capsys.readouterr().out
    assert session_record(read_session(target)) == session_record(saved)
    err = error_of(capsys, ["save", str(target)])
    assert "exists already (--force overwrites it)" in err
    assert main(["save", str(target), "--force"]) == 0


def test_save_without_a_game_in_progress_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = error_of(capsys, ["save", str(tmp_path / "x.json")])
    assert "there is no game in progress to save" in err


def test_an_unexpected_error_is_one_line_and_logged(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    data_home: Path,
    terminal: None,
) -> None:
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something broke")

    monkeypatch.setattr(ColorettoApp, "run", boom)
    assert main(["play", "--players", "3"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unexpected error (RuntimeError: something broke)" in err
    assert "Traceback" in (data_home / "coloretto.log").read_text()
