"""The setup screen of plain ``coloretto``: the same choices as ``coloretto play``."""

from __future__ import annotations

from dataclasses import replace

from textual.widgets import Input, Select, Static

from coloretto.engine import Rules
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.screens import GameScreen, SetupScreen

from .conftest import SIZE, asynctest, text_of
from .test_cli_play import config_of


@asynctest
async def test_the_defaults_start_a_game_against_three_bots() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(pilot.app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        config = screen.session.config
        assert config.rules == Rules(players=4)
        assert [p.name for p in config.players] == ["You", "Bot 1", "Bot 2", "Bot 3"]
        assert {p.bot for p in config.players[1:]} == {"normal"}
        assert config.delay == 0.6


@asynctest
async def test_choosing_a_hotseat_match_on_the_gray_side() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Select).value = 3
        await pilot.pause()
        screen.query_one("#humans", Select).value = 2
        screen.query_one("#scoring", Select).value = "gray"
        screen.query_one("#level", Select).value = "easy"
        screen.query_one("#delay", Select).value = 0.0
        await pilot.click("#names")
        await pilot.press(*"Ana, Ben")
        screen.query_one("#games", Input).focus()  # focusing selects the text: typing replaces it
        await pilot.press("3")
        await pilot.click("#seed")
        await pilot.press(*"42")
        await pilot.press("enter")  # Enter in a text field starts the game
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        config = game.session.config
        assert config.rules == Rules(players=3, scoring="gray", games=3)
        assert [(p.name, p.bot) for p in config.players] == [
            ("Ana", None),
            ("Ben", None),
            ("Bot 1", "easy"),
        ]
        assert config.seed == 42
        assert config.delay == 0


@asynctest
async def test_impossible_choices_are_explained() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#variant", Select).value = "ghost"
        await pilot.press("ctrl+s")
        assert isinstance(pilot.app.screen, SetupScreen)
        assert "the ghost variant is for 2 players, not 4" in text_of(
            screen.query_one("#setup-error", Static)
        )
        screen.query_one("#players", Select).value = 2
        screen.query_one("#names", Input).value = "Ana, Ana"
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert "2 names given for 1 person" in text_of(screen.query_one("#setup-error", Static))


@asynctest
async def test_the_setup_screen_starts_from_given_choices() -> None:
    config = GameConfig.build(Rules(players=2, variant="ghost"), names=["Ana"], seed=7)
    app = ColorettoApp(config, setup=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#variant", Select).value == "ghost"
        assert screen.query_one("#names", Input).value == "Ana"
        assert screen.query_one("#seed", Input).value == "7"


@asynctest
async def test_typed_names_are_cleaned_as_names_from_files_are() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#humans", Select).value = 2
        screen.query_one("#names", Input).value = "Zoe\u0308\u200b, \x1b[31mBen\u202e"
        await pilot.press("ctrl+s")
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        assert [p.name for p in game.session.config.players][:2] == ["Zo\u00eb", "Ben"]


@asynctest
async def test_named_seats_keep_their_bot_level_and_an_odd_pace_is_kept() -> None:
    config = config_of("--setup", "--seat", "Ana", "--seat", "Ben", "--seat", "bot:hard")
    config = replace(config, delay=0.05)
    app = ColorettoApp(config, setup=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#level", Select).value == "hard"
        delay = screen.query_one("#delay", Select)
        assert delay.value == 0.05
        assert "0.05 s per move" in text_of(delay.query_one("#label", Static))
        await pilot.press("ctrl+s")
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        assert [p.bot for p in game.session.config.players] == [None, None, "hard"]
        assert game.session.config.delay == 0.05
