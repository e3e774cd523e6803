"""Games given up are discarded: ``coloretto saves`` lists the games in progress and
deletes those named (or ``--all``), with a clear message for an id that names none; a game
being played elsewhere is left alone."""

from __future__ import annotations

import random

import pytest

from coloretto.cli.main import main
from coloretto.engine import Match, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.saving import session_record
from coloretto.play.session import Session
from coloretto.store.lock import hold
from coloretto.store.paths import DataDir
from coloretto.store.saves import games_in_progress, lock_path, save, save_path
from tests.conftest import random_play


def saved(session_id: str, seed: int = 21) -> Session:
    """A game in progress of Ana and two bots, kept as ``session_id``."""
    rules = Rules(players=3)
    game = random_play(Match.start(rules, seed).game, random.Random(seed), 5)
    players = (Player("Ana"), Player("Bot 1", "easy"), Player("Bot 2", "hard"))
    session = Session(GameConfig(rules, players), Match(rules, seed, game), session_id)
    save(DataDir.default(), session.id, session_record(session))
    return session


FIRST, SECOND = "20261121-101010-abcdef", "20261122-101010-abcdef"


def test_no_game_in_progress_is_said_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["saves"]) == 0
    assert capsys.readouterr().out.startswith("No game in progress (in ")


def test_the_games_in_progress_are_listed_with_their_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved(FIRST)
    saved(SECOND)
    (DataDir.default().saves / "20261123-101010-abcdef.json").write_text("{")
    assert main(["saves", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Games in progress (in ")
    listed = [line.split(":")[0].strip() for line in out[1:4]]
    assert set(listed) == {FIRST, SECOND, "20261123-101010-abcdef"}
    assert f"  {FIRST}: Ana, Bot 1 and Bot 2, round 1" in "\n".join(out)
    assert "  20261123-101010-abcdef: cannot be read" in out
    assert "coloretto saves delete ID" in out[-1]


def test_a_game_is_discarded_by_its_id(capsys: pytest.CaptureFixture[str]) -> None:
    saved(FIRST)
    saved(SECOND)
    assert main(["saves", "delete", FIRST]) == 0
    assert capsys.readouterr().out.startswith(f"Discarded {FIRST}: Ana, Bot 1 and Bot 2")
    assert games_in_progress(DataDir.default()) == [SECOND]
    assert not lock_path(DataDir.default(), FIRST).exists()  # nothing left behind


@pytest.mark.parametrize("wrong", ["nope", "../outside", FIRST[:-1]])
def test_an_id_that_names_no_game_is_said_so_and_nothing_is_lost(
    wrong: str, capsys: pytest.CaptureFixture[str]
) -> None:
    saved(FIRST)
    assert main(["saves", "delete", wrong]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"coloretto saves delete: error: there is no game in progress called {wrong}: "
        "coloretto saves list shows them\n"
    )
    assert games_in_progress(DataDir.default()) == [FIRST]


def test_a_game_being_played_is_left_alone(capsys: pytest.CaptureFixture[str]) -> None:
    saved(FIRST)
    saved(SECOND)
    with hold(lock_path(DataDir.default(), FIRST)):  # as by the window playing it
        assert main(["saves", "delete", "--all"]) == 2
    captured = capsys.readouterr()
    assert f"{FIRST} is being played in another window (process " in captured.err
    assert "quit it there first" in captured.err
    assert f"Discarded {SECOND}" in captured.out
    assert games_in_progress(DataDir.default()) == [FIRST]


def test_all_the_games_are_discarded_and_delete_wants_ids_or_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved(FIRST)
    saved(SECOND)
    with pytest.raises(SystemExit) as exit:
        main(["saves", "delete"])
    assert exit.value.code == 2
    assert "name the games to discard" in capsys.readouterr().err
    assert main(["saves", "delete", "--all"]) == 0
    assert capsys.readouterr().out.count("Discarded ") == 2
    assert games_in_progress(DataDir.default()) == []


def test_the_keeper_lets_its_own_game_go_to_discard_it() -> None:
    session = saved(FIRST)
    keeper = Keeper()
    assert keeper.claim(session) is None  # this process plays it
    assert keeper.discard(FIRST) is None
    assert not save_path(keeper.data, FIRST).exists()
    assert keeper.discard(FIRST) == f"there is no game in progress called {FIRST}"
