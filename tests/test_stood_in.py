"""Games where a bot stood in for a person away (online) are marked in the history and
left out of that person's statistics, as Board Game Arena leaves them out."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from coloretto.cli.main import main
from coloretto.engine import Match, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.session import Session
from coloretto.play.statistics import STOOD_IN_KEY, count_history
from coloretto.store.history import history_path
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.stats import MIGRATIONS, GameResult, LeftOut, PlayerResult, Stats
from tests.conftest import random_play


def online_game(seed: int, names: tuple[str, ...] = ("Ana", "Ben")) -> Session:
    """A finished 3-player game: the people ``names``, then a bot."""
    rules = Rules(players=3)
    game = random_play(Match.start(rules, seed).game, random.Random(seed), 10_000)
    assert game.is_over
    players = (*(Player(name) for name in names), Player("Bot 1", "easy"))
    return Session(
        GameConfig(rules, players), Match(rules, seed, game), f"20261201-1200{seed:02d}-abcdef"
    )


def keep(data: DataDir, session: Session, stood_in: tuple[int, ...] = ()) -> Path:
    keeper = Keeper(data)
    assert keeper.finish(session, stood_in=stood_in) is None
    keeper.release()
    return history_path(data, session.id)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DataDir:
    monkeypatch.setenv("COLORETTO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "160")
    return DataDir.default()


def test_a_game_a_bot_stood_in_is_marked_and_left_out_of_that_persons_figures(
    home: DataDir,
) -> None:
    marked = keep(home, online_game(1), stood_in=(1,))  # a bot played for Ben while away
    keep(home, online_game(2))
    assert read_record(marked).meta[STOOD_IN_KEY] == [1]
    summary = Stats(home.stats).summary()
    assert summary.games == 2
    assert {p.player: p.games for p in summary.people} == {"Ana": 2, "Ben": 1}
    assert summary.left_out == (LeftOut("Ben", 1),)
    assert Stats(home.stats).summary(player="ben").left_out == (LeftOut("Ben", 1),)
    assert Stats(home.stats).summary(player="ben").games == 1


def test_the_recount_keeps_the_mark(home: DataDir) -> None:
    keep(home, online_game(3), stood_in=(0, 1))
    home.stats.unlink()
    done = count_history(home)
    assert (done.added, done.games) == (1, 1)
    summary = Stats(home.stats).summary()
    assert summary.people == ()
    assert summary.left_out == (LeftOut("Ana", 1), LeftOut("Ben", 1))


def test_stats_says_how_many_games_were_left_out_and_why(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    keep(home, online_game(4), stood_in=(0,))
    keep(home, online_game(5), stood_in=(0,))
    keep(home, online_game(6))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "3 finished games recorded." in out
    assert "Ana: 1 game, " in out
    assert "Ana: 2 games left out, where a bot stood in while Ana was away (online)." in out
    assert "Ben: 3 games, " in out
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["left_out"] == [{"player": "Ana", "games": 2}]
    assert main(["stats", "--player", "ana"]) == 0
    assert "Ana: 2 games left out" in capsys.readouterr().out


def test_stats_for_a_person_whose_every_game_was_left_out(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    keep(home, online_game(7), stood_in=(0,))
    assert main(["stats", "--player", "Ana"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "Ana: 1 game left out, where a bot stood in while Ana was away (online)."


def test_replay_list_marks_the_person_a_bot_stood_in_for(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    keep(home, online_game(8), stood_in=(1,))
    assert main(["replay", "--list"]) == 0
    out = capsys.readouterr().out
    ana, ben = (next(line for line in out.splitlines() if name in line) for name in ("Ana", "Ben"))
    assert ben.rstrip().endswith("*")
    assert "*" not in ana
    assert "* a bot stood in for that person while they were away (online): the game is" in out


def test_a_bad_mark_in_a_record_is_passed_over(home: DataDir) -> None:
    path = keep(home, online_game(9))
    record = json.loads(path.read_text())
    record["meta"][STOOD_IN_KEY] = [5, "0", None, True]
    path.write_text(json.dumps(record))
    home.stats.unlink()
    count_history(home)
    assert Stats(home.stats).summary().left_out == ()


def test_a_bot_cannot_be_stood_in_for() -> None:
    with pytest.raises(ValueError, match="a bot stands in for a person only"):
        PlayerResult("Bot 1", "easy", 3, 0.0, stood_in=True)


def test_a_version_4_database_is_upgraded_with_nobody_stood_in_for(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    with closing(sqlite3.connect(path)) as raw, raw:
        for migrate in MIGRATIONS[:4]:
            migrate(raw)
        raw.execute("PRAGMA application_id = 0x436F6C6F")
        raw.execute("PRAGMA user_version = 4")
        raw.execute(
            "INSERT INTO games VALUES (?, ?, 2, 'brown', 'classic', 'standard')",
            ("old", "2026-01-01T00:00:00+00:00"),
        )
        raw.executemany(
            "INSERT INTO results (game_id, player, name, bot, score, win)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [("old", 0, "Ana", None, 9, 1.0), ("old", 1, "B", "easy", 3, 0.0)],
        )
    db = Stats(path)
    summary = db.summary()
    assert [(p.player, p.games) for p in summary.people] == [("Ana", 1)]
    assert summary.left_out == ()
    assert db.schema_version() == 6


def test_game_result_marks_the_players_stood_in_for() -> None:
    session = online_game(10)
    result = GameResult.of(
        "g", session.game, [("Ana", None), ("Ben", None), ("Bot 1", "easy")], stood_in={1}
    )
    assert [r.stood_in for r in result.results] == [False, True, False]
