"""The seed deals the whole deck: it shows once the game (a match: its last game) is over,
never while cards are still to come; a rematch of a game dealt at random is dealt at random."""

from __future__ import annotations

from dataclasses import replace

from coloretto.play.saving import session_from_record, session_record
from coloretto.play.seed_text import seed_code
from coloretto.play.session import Session
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import EndScreen, GameScreen
from coloretto.tui.screens.dialogs import MovesScreen
from coloretto.tui.widgets import MoveLog, Notice

from .conftest import (
    SIZE,
    asynctest,
    game_screen,
    make_app,
    make_config,
    play_to_end,
    settle,
    text_of,
)

SEED = 575648085


def log_text(screen: GameScreen) -> str:
    return "\n".join(entry.plain for entry in screen.query_one(MoveLog).entries)


@asynctest
async def test_the_seed_shows_only_once_the_game_is_over() -> None:
    app = make_app(3, humans=1, seed=SEED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        assert str(SEED) not in log_text(screen)
        assert log_text(screen).startswith("3 players, brown side; seed secret until the end.")
        await pilot.press("m")  # the move list, as a person sees it
        assert isinstance(pilot.app.screen, MovesScreen)
        await pilot.press("escape")
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        assert f"seed {SEED}." in text_of(end.query_one(Notice))
        assert f"The seed was {SEED}" in log_text(game_screen(pilot))


@asynctest
async def test_a_match_keeps_its_seed_until_its_last_game_is_over() -> None:
    app = make_app(2, humans=0, seed=SEED, games=2)  # game 2 is dealt from the seed too
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        assert "seed secret until the match is over." in text_of(end.query_one(Notice))
        assert str(SEED) not in log_text(game_screen(pilot))
        await pilot.press("n")
        await play_to_end(pilot)
        deal = log_text(game_screen(pilot)).splitlines()[0]
        assert deal == "Game 2 of 2: 2 players, brown side; seed secret until the end."
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        assert end.view.match.is_over
        assert f"seed {SEED}." in text_of(end.query_one(Notice))


@asynctest
async def test_a_rematch_of_a_game_dealt_at_random_is_dealt_at_random() -> None:
    app = ColorettoApp(replace(make_config(2, humans=0), seed=None))
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        seed = end.view.match.seed
        assert isinstance(seed, int)
        assert f"seed {seed_code(seed)}." in text_of(end.query_one(Notice))  # the game is over
        await pilot.press("r", "y")
        await settle(pilot)
        rematch = game_screen(pilot).view
        assert rematch.config.seed is None  # picked at random again, not the seed shown + 1
        assert rematch.match.seed != seed + 1


def test_a_save_keeps_its_seed_and_whether_it_was_given() -> None:
    for given in (None, 7):
        session = Session(replace(make_config(3), seed=given))
        session.apply(session.game.legal_actions()[0])
        resumed = session_from_record(session_record(session))
        assert resumed.seed == session.seed
        assert resumed.match == session.match
        assert resumed.config.seed == given
        assert resumed.shown_seed == "secret until the end"
        rematch = resumed.rematch()
        assert rematch.config.seed == (None if given is None else 8)
