"""Saves on disk: what is written after every action, read back, and refused when damaged."""

from __future__ import annotations

import json
import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from coloretto.engine import DRAW, Match, RecordError, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.saving import read_session, session_record
from coloretto.play.session import Session
from coloretto.store.history import history_path, keep_finished
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record
from coloretto.store.saves import latest_save, save, save_path
from tests.conftest import random_play


def saved_game(
    rules: Rules | None = None, *, actions: int = 7, seed: int = 11, match: Match | None = None
) -> Session:
    rules = rules or Rules(players=3)
    if match is None:
        match = Match.start(rules, seed)
        match = replace(match, game=random_play(match.game, random.Random(seed), actions))
    players = (Player("Ana"), *(Player(f"Bot {i}", "easy") for i in range(1, 3)))
    config = GameConfig(rules, players, match.seed, 0.2, "greedy", "easy")
    return Session(config, match, "s-1")


def store(data: DataDir, session: Session) -> Path:
    return save(data, session.id, session_record(session))


def test_a_save_restores_the_session_exactly(tmp_path: Path) -> None:
    saved = saved_game()
    path = store(DataDir(tmp_path), saved)
    assert path == save_path(DataDir(tmp_path), "s-1")
    assert session_record(read_session(path)) == session_record(saved)


def test_a_card_drawn_but_not_placed_is_still_in_hand_after_loading(tmp_path: Path) -> None:
    saved = saved_game(actions=0)
    saved.apply(DRAW)
    assert saved.game.drawn_card is not None
    loaded = read_session(store(DataDir(tmp_path), saved))
    assert loaded.game.drawn_card == saved.game.drawn_card
    assert loaded.game.legal_actions() == saved.game.legal_actions()


def test_match_totals_survive_a_save(tmp_path: Path) -> None:
    rules = Rules(players=3, games=3)
    match = Match.start(rules, 5)
    for _ in range(2):
        match = replace(match, game=random_play(match.game, random.Random(1))).next_game()
    saved = saved_game(rules, match=match)
    loaded = read_session(store(DataDir(tmp_path), saved))
    assert loaded.match.results == match.results
    assert loaded.match.totals() == match.totals()
    assert loaded.match.game_number == 3


def test_a_finished_match_moves_to_the_history(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    saved = saved_game(actions=100_000)
    assert saved.game.is_over
    store(data, saved)
    kept = keep_finished(data, saved.id, session_record(saved), 1, match_over=True)
    assert kept == history_path(data, saved.id)
    assert latest_save(data) is None
    assert read_session(kept).game == saved.game


def test_the_newest_save_is_resumed(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    old = store(data, saved_game())
    newer = saved_game(seed=3)
    newer.id = "s-2"
    new = store(data, newer)
    os.utime(old, (1, 1))
    assert latest_save(data) == new


def test_a_record_without_a_session_is_a_new_game_for_one_person(tmp_path: Path) -> None:
    game = random_play(Match.start(Rules(players=4), 3).game, random.Random(2), 9)
    path = tmp_path / "arena.json"
    write_record(path, game)
    saved = read_session(path, default_bot="hard")
    assert [p.bot for p in saved.config.players] == [None, "hard", "hard", "hard"]
    assert saved.game == game


# ---------------------------------------------------------------- damaged files


def damaged(tmp_path: Path, change: str) -> Path:
    """A good save, then damaged in one way."""
    path = store(DataDir(tmp_path), saved_game())
    text = path.read_text()
    data = json.loads(text)
    if change == "truncated":
        text = text[: len(text) // 2]
    elif change == "empty":
        text = ""
    elif change == "not json":
        text = "this is not a save\n"
    elif change == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage")
        return path
    elif change == "version":
        data["format"] = "coloretto-record/99"
    elif change == "rules":
        data["rules"]["players"] = 9
    elif change == "illegal action":
        data["actions"][2]["action"] = "take 5"
    elif change == "wrong card":
        entry = next(e for e in data["actions"] if "card" in e)
        entry["card"] = "joker" if entry["card"] != "joker" else "blue"
    elif change == "players":
        data["meta"]["session"]["players"].pop()
    elif change == "match seed":
        data["meta"]["session"]["match"]["seed"] += 1
    elif change == "delay":
        data["meta"]["session"]["delay"] = "slow"
    if change not in {"truncated", "empty", "not json"}:
        text = json.dumps(data)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("truncated", "not valid JSON"),
        ("empty", "not valid JSON"),
        ("not json", "not valid JSON"),
        ("binary", "not a text file"),
        ("version", "format: expected 'coloretto-record/1', found 'coloretto-record/99'"),
        ("rules", "rules.players: expected a whole number from 2 to 5"),
        ("illegal action", "actions[2]"),
        ("wrong card", "the deck gives"),
        ("players", "expected 3 players"),
        ("match seed", "the deal is not game 1 of match"),
        ("delay", "delay: expected seconds"),
    ],
)
def test_a_damaged_save_is_refused_naming_the_file_and_left_untouched(
    tmp_path: Path, change: str, says: str
) -> None:
    path = damaged(tmp_path, change)
    before = path.read_bytes()
    with pytest.raises(RecordError) as error:
        read_session(path)
    assert str(path) in str(error.value)
    assert says in str(error.value)
    assert path.read_bytes() == before


def test_a_failed_write_leaves_the_previous_save_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = DataDir(tmp_path)
    first = saved_game(actions=3)
    path = store(data, first)
    good = path.read_bytes()

    def power_cut(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError, match="No space"):
        store(data, saved_game(actions=9))
    assert path.read_bytes() == good
    assert [p.name for p in data.saves.iterdir()] == [path.name]  # no temporary file left
