"""One answer to "who won": the score screen, the record, the replay list, the replay
screen and the statistics of one ghost-variant game all name the same person.

The game: ``Rules(players=2, variant="ghost")``, seed 8, Ana and Ben at one keyboard, each
move drawn by ``random.Random(0)``; it ends with seat scores (4, 8, 26, 21). The variant
is scored individually (docs/rules.md): Ben (seat 1, 8 points) beats Ana (seat 0, 4
points); the ghosts (seats 2 and 3) have more points but win nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.text import Text
from textual import _wait as textual_wait
from textual.pilot import Pilot

from coloretto.cli.main import main
from coloretto.engine import Action, ActionKind
from coloretto.play.replay import Replay
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.tui import ColorettoApp
from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.screens import EndScreen
from coloretto.tui.screens.replay import ReplayEndScreen, final_scores
from coloretto.tui.widgets import ScoreCard
from tests.tui.conftest import SIZE, asynctest, game_screen, make_config, settle, text_of

WINNER = "Ben"


@dataclass(frozen=True)
class Played:
    """The game as the score screen showed it, and the data directory it was kept in."""

    home: Path
    seat_scores: tuple[int, ...]
    headline: str
    crowned: list[int]
    """The seats whose score cards are marked as the winner's."""
    by_place: list[int]
    """The seats' score cards, in order."""


def key_of(action: Action) -> str:
    """The key that plays ``action`` on the board."""
    if action.kind is ActionKind.DRAW:
        return "d"
    assert action.row is not None
    return str(action.row + 1)


async def play(pilot: Pilot[None]) -> EndScreen:
    """Play by ``random.Random(0)``'s choices to the score screen."""
    rng = random.Random(0)
    while True:
        await settle(pilot)
        if isinstance(pilot.app.screen, EndScreen):
            return pilot.app.screen
        game = game_screen(pilot).view.game
        await pilot.press(key_of(rng.choice(game.legal_actions())))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The game played once through the app (which keeps it and counts it)."""
    home = tmp_path_factory.mktemp("ghost-home")

    async def run() -> Played:
        config = make_config(2, humans=2, names=["Ana", "Ben"], seed=8, variant="ghost")
        async with ColorettoApp(config).run_test(size=SIZE) as pilot:
            end = await play(pilot)
            cards = list(end.query(ScoreCard))
            return Played(
                home,
                end.view.game.final_scores(),
                text_of(end.query_one("#headline")),
                [card.seat for card in cards if card.has_class("-winner")],
                [card.seat for card in cards],
            )

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLORETTO_HOME", str(home))
        patch.setattr(textual_wait, "SLEEP_GRANULARITY", 0.002)  # as tests/tui's pilot
        patch.setattr(textual_wait, "SLEEP_IDLE", 0.0002)
        return asyncio.run(run())


@pytest.fixture
def kept(played: Played, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The game's record in the history (``coloretto`` reads that data directory)."""
    monkeypatch.setenv("COLORETTO_HOME", str(played.home))
    (path,) = DataDir.default().history.iterdir()
    return path


def test_the_score_screen_crowns_the_person_with_the_best_own_score(played: Played) -> None:
    assert played.seat_scores == (4, 8, 26, 21)
    assert played.headline.startswith(f"{WINNER} wins with 8 points!"), played.headline
    assert "Ana came 2nd of 2 with 4 points." not in played.headline  # nobody alone here
    assert played.crowned == [1]
    assert played.by_place == [1, 0, 2, 3]  # Ben 1st, Ana 2nd, then the ghosts


def test_the_record_names_the_winner(kept: Path) -> None:
    result = json.loads(kept.read_text())["result"]
    assert result["scores"] == [4, 8, 26, 21]
    assert result["places"] == [2, 1]
    assert result["winners"] == [1]
    assert "team_totals" not in result


def test_the_replay_list_names_the_winner(kept: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    won = [line.split() for line in lines if line.rstrip().endswith(" won")]
    assert len(won) == 1
    assert won[0][-3:] == [WINNER, "8", "won"]


def test_the_statistics_count_the_winners_win(
    kept: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--json"]) == 0
    people = json.loads(capsys.readouterr().out)["people"]
    assert {p["player"]: (p["wins"], p["best"]) for p in people} == {
        "Ana": (0, 4),
        WINNER: (1, 8),
    }


def bold_names(scores: Text) -> set[str]:
    """The names in bold in the replay's final scores (``Ana 4 · Ben 8 · …``)."""
    return {
        scores.plain[span.start : span.end].rsplit(" ", 1)[0]
        for span in scores.spans
        if "bold" in str(span.style)
    }


@asynctest
async def test_the_replay_names_the_winner(kept: Path) -> None:
    replay = Replay.from_record(read_record(kept), kept.name)
    assert bold_names(final_scores(replay.view(replay.last))) == {WINNER}
    async with ReplayApp(replay).run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("end", "enter")
        await pilot.pause()
        end = pilot.app.screen
        assert isinstance(end, ReplayEndScreen)
        assert text_of(end.query_one("#headline")).startswith(f"{WINNER} wins with 8 points!")
        crowned = [card.seat for card in end.query(ScoreCard) if card.has_class("-winner")]
        assert crowned == [1]


def test_an_older_record_loads_and_ranks_as_any_other(kept: Path, tmp_path: Path) -> None:
    data = json.loads(kept.read_text())
    result = data["result"]
    del result["places"]
    result.update(winners=[2], team_totals=[30, 29])  # as the ghost's records were written
    older = tmp_path / "older.json"
    older.write_text(json.dumps(data))
    outcome = read_record(older).state.outcome()
    assert outcome is not None
    assert outcome.winners == (1,)
