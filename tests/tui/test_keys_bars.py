"""Every screen shows its keys on a ``KeysBar``, in the same frame as what they belong to:
a dialog's keys in its first frame, the lobby's as soon as the host starts choosing whom
to remove, the join screen's with its form (Textual's footer showed them a refresh late)."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.screen import Screen

from coloretto.engine import Rules
from coloretto.online.client.remote_table import LobbyChanged
from coloretto.tui.screens.dialogs import (
    ConfirmDiscard,
    ConfirmQuit,
    ConfirmRematch,
    HelpScreen,
    MovesScreen,
    RulesScreen,
)
from coloretto.tui.screens.join import JoinScreen
from coloretto.tui.screens.lobby import LobbyScreen
from coloretto.tui.widgets import KeysBar

from .conftest import SIZE, asynctest
from .frames import first_frame, record_frames


class Over(App[None]):
    """A bare app that opens ``screen`` once it is up."""

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__()
        self.opening = screen

    def on_mount(self) -> None:
        """Open the screen."""
        self.push_screen(self.opening)


DIALOGS = [
    (lambda: HelpScreen(3), "Esc closes this help", ["esc Close"]),
    (RulesScreen, "Rules", ["esc Close"]),
    (lambda: MovesScreen([]), "All moves", ["esc Close"]),
    (ConfirmQuit, "Quit the game?", ["y Quit", "n Keep playing"]),
    (lambda: ConfirmDiscard("a game"), "Discard this game", ["y Discard", "n Keep it"]),
    (ConfirmRematch, "Start a new game", ["y Rematch", "n Back to the scores"]),
]


@pytest.mark.parametrize(
    ("dialog", "text", "keys"),
    DIALOGS,
    ids=["help", "rules", "moves", "quit", "discard", "rematch"],
)
@asynctest
async def test_a_dialogs_keys_show_in_its_first_frame(
    dialog: type[Screen[object]], text: str, keys: list[str]
) -> None:
    app = Over(dialog())
    frames = record_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen.query_one("#keys"), KeysBar)
        shown = first_frame(frames, text)
        for key in keys:
            assert key in shown


@asynctest
async def test_the_lobbys_keys_change_in_the_same_frame_as_its_message() -> None:
    lobby = LobbyScreen(host=True, join_hint="coloretto join {room}")
    app = Over(lobby)
    frames = record_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seats = (("Ana", True), ("Ben", True), None)
        lobby.show(LobbyChanged("K7PQ2M", seats, Rules(players=3), "easy", here=0))
        await pilot.pause()
        assert "s" in [shown for shown, _, _ in lobby.query_one(KeysBar).keys]
        seen = len(frames)
        await pilot.press("x")
        await pilot.pause()
        shown = first_frame(frames, "Remove whom?", seen)
        assert "Esc Remove nobody" in shown
        assert "s Start the game" not in shown
        seen = len(frames)
        await pilot.press("escape")
        await pilot.pause()
        shown = first_frame(frames, "Nobody removed.", seen)
        assert "s Start the game" in shown
        assert "Esc Remove nobody" not in shown


@asynctest
async def test_the_join_screens_keys_show_with_its_form() -> None:
    app = Over(JoinScreen("example.org:7797", "Bob"))
    frames = record_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen.query_one("#keys"), KeysBar)
        assert "esc Quit" in first_frame(frames, "Join a room on example.org:7797")
