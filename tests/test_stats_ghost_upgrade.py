"""Ghost games counted before the variant was scored individually kept their team totals:
the upgrade takes them out, and ``coloretto stats`` counts them again from the history, as
the score screen ranks them now."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from coloretto.cli.main import main
from coloretto.engine import Match, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.session import Session
from coloretto.store import stats as stats_module
from coloretto.store.paths import DataDir
from coloretto.store.stats import Stats, schema_version
from tests.conftest import random_play

BEFORE = 5
"""The schema version before ghost games were taken out."""


def finished_ghost_game(data: DataDir, seed: int) -> Session:
    """A finished two-player ghost game (Ana against a bot), kept in the history."""
    rules = Rules(players=2, variant="ghost")
    game = random_play(Match.start(rules, seed).game, random.Random(seed), 10_000)
    assert game.is_over
    players = (Player("Ana"), Player("Bot 1", "easy"))
    session = Session(
        GameConfig(rules, players), Match(rules, seed, game), f"20261121-10101{seed}-aaaaaa"
    )
    keeper = Keeper(data)
    assert keeper.save(session) is None
    assert keeper.finish(session) is None
    keeper.release()
    return session


def counted_as_a_team_before(path: Path) -> None:
    """Turn the database back into one of schema version 5 holding every game as the
    program before individual scoring counted a ghost game: the team's total."""
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE recount_due")
        raw.execute("UPDATE results SET score = score + 100, win = 1 - win")
        raw.execute(f"PRAGMA user_version = {BEFORE}")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DataDir:
    monkeypatch.setenv("COLORETTO_HOME", str(tmp_path / "home"))
    return DataDir.default()


def rows(path: Path) -> list[tuple[str, float, int]]:
    with sqlite3.connect(path) as raw:
        return raw.execute(
            "SELECT name, win, score FROM results ORDER BY game_id, player"
        ).fetchall()


def test_ghost_games_counted_as_teams_are_counted_again_individually(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions = [finished_ghost_game(home, seed) for seed in (3, 4)]
    now = rows(home.stats)
    assert [score for _, _, score in now] == [
        total
        for s in sessions
        for total in s.game.outcome().totals  # type: ignore[union-attr]
    ]
    counted_as_a_team_before(home.stats)
    assert rows(home.stats) != now
    stats = Stats(home.stats)
    assert stats.count() == 0  # upgraded: the ghost games are out
    assert stats.schema_version() == schema_version() == len(stats_module.MIGRATIONS)
    assert stats.recount_due()
    assert main(["stats"]) == 0
    out, err = capsys.readouterr()
    assert "counted 2 finished games" in err
    assert "2 finished games recorded." in out
    assert rows(home.stats) == now  # as the score screen ranks them
    assert not stats.recount_due()
    assert main(["stats"]) == 0
    assert "counted" not in capsys.readouterr().err  # once


def test_a_new_database_needs_no_recount(home: DataDir) -> None:
    finished_ghost_game(home, 5)
    stats = Stats(home.stats)
    assert stats.count() == 1
    assert not stats.recount_due()
