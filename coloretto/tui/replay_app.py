"""The Textual app of ``coloretto replay``: one recorded game on the table."""

from __future__ import annotations

from coloretto.play.replay import Replay
from coloretto.tui.base_app import GuardedApp
from coloretto.tui.screens.replay import ReplayScreen


class ReplayApp(GuardedApp):
    """A recorded game, stepped through from the keyboard (``q`` quits)."""

    TITLE = "Coloretto replay"

    def __init__(self, replay: Replay, step: int = 0, *, note: str = "") -> None:
        super().__init__()
        self.replay = replay
        self.step = step
        self.note = note
        """Said under the notice's first line (say, the files of the history passed over)."""

    def on_mount(self) -> None:
        """The table at ``step`` (the deal, by default)."""
        self.push_screen(ReplayScreen(self.replay, self.step, note=self.note))
