"""The Textual app of ``coloretto practice``: the puzzles of one reviewed game."""

from __future__ import annotations

from collections.abc import Sequence

from coloretto.play.keeper import Keeper
from coloretto.play.practice import Puzzle
from coloretto.play.replay import Replay
from coloretto.tui.base_app import GuardedApp
from coloretto.tui.screens.practice import Keep, PracticeScreen


class PracticeApp(GuardedApp):
    """The practice screen of one game's puzzles; leaving it quits."""

    TITLE = "Coloretto practice"

    def __init__(
        self, replay: Replay, puzzles: Sequence[Puzzle], keep: Keep | None, keeper: Keeper
    ) -> None:
        super().__init__(keeper)
        self.replay, self.puzzles, self.keep = replay, puzzles, keep

    def on_mount(self) -> None:
        """The first puzzle; leaving the screen quits."""
        screen = PracticeScreen(self.replay, self.puzzles, self.keep)
        self.push_screen(screen, lambda _: self.exit())
