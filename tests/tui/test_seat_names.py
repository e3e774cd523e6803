"""One rule names the seats (``coloretto.play.config.name_players``): the command line, the
setup screen and the online rooms give the same table the same names."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from coloretto.engine import Rules
from coloretto.online.server.rooms import Room
from coloretto.online.wire.protocol import Host
from coloretto.play.config import GameConfig, name_players
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import GameScreen, SetupScreen
from coloretto.tui.widgets.choice import Choice

from .conftest import SIZE, asynctest
from .test_cli_play import config_of

LIKE_A_BOT = ("Bot 1", "Bot 2", "Bot 3", "Bot 4")
"""A person named "Bot 1" and three bots: the bots skip the number the person has."""

HOTSEAT = ("Player 1", "Player 2", "Bot 1")
"""Two people who gave no name and a bot."""


async def setup_screen_names(players: int, humans: int, names: str) -> tuple[str, ...]:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Choice).value = players
        await pilot.pause()
        screen.query_one("#humans", Choice).value = humans
        screen.query_one("#names", Input).value = names
        await pilot.press("ctrl+s")
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen), "the setup screen refused the names"
        return tuple(p.name for p in game.view.config.players)


@asynctest
async def test_a_person_named_like_a_bot_gets_the_same_table_everywhere() -> None:
    cli = config_of("--seat", "Bot 1", "--seat", "bot", "--seat", "bot", "--seat", "bot")
    assert tuple(p.name for p in cli.players) == LIKE_A_BOT
    assert await setup_screen_names(4, 1, "Bot 1") == LIKE_A_BOT
    room, _ = Room.open("ABC234", Host.of("Bot 1", Rules(players=4), "easy", 0.0, 5.0))
    assert room.session.seat_names == LIKE_A_BOT


@asynctest
async def test_people_without_names_are_numbered_alike_everywhere() -> None:
    cli = config_of("--players", "3", "--humans", "2")
    assert tuple(p.name for p in cli.players) == HOTSEAT
    assert await setup_screen_names(3, 2, "") == HOTSEAT
    built = GameConfig.build(Rules(players=3), humans=2, names=["", " "])
    assert tuple(p.name for p in built.players) == HOTSEAT


def test_the_rule_numbers_people_and_bots_in_seat_order() -> None:
    named = name_players([None, "", None, "bot 2", ""], ["easy", "hard"])
    assert [(p.name, p.bot) for p in named] == [
        ("Bot 1", "easy"),
        ("Player 1", None),
        ("Bot 3", "hard"),
        ("bot 2", None),
        ("Player 3", None),
    ]
    assert [p.name for p in name_players(["", None], ["easy"])] == ["You", "Bot 1"]
    assert [p.name for p in name_players(["B0T 1", None], ["easy"], str.upper)] == [
        "B0T 1",
        "Bot 1",
    ]


def test_the_rule_wants_one_bot_spec_a_bot_seat() -> None:
    with pytest.raises(ValueError, match="2 bot seats need as many bots, not 1"):
        name_players([None, None, "Ana"], ["easy"])
