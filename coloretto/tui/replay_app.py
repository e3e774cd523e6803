"""The Textual app of ``coloretto replay``: one recorded game on the table."""

from __future__ import annotations

from textual.app import App

from coloretto.tui.screens.replay import Replay, ReplayScreen


class ReplayApp(App[None]):
    """A recorded game, stepped through from the keyboard (``q`` quits)."""

    CSS_PATH = "app.tcss"
    TITLE = "Coloretto replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: Replay, step: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.step = step

    def on_mount(self) -> None:
        """The table at ``step`` (the deal, by default)."""
        self.push_screen(ReplayScreen(self.replay, self.step))
