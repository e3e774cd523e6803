"""``coloretto tutorial``: the app opens the tutorial at once; ``n`` at its end starts a
real game against easy bots, ``q`` quits."""

from __future__ import annotations

from coloretto.play.config import DEFAULT_DELAY
from coloretto.play.keeper import Keeper
from coloretto.tui.app import ColorettoApp
from coloretto.tui.screens.tutorial import FAST_PACE, open_tutorial


class TutorialApp(ColorettoApp):
    """The game's app, the tutorial over its setup screen; ``pace`` and ``fast_pace`` are
    the seconds between two of the others' moves (0: at once)."""

    def __init__(
        self,
        keeper: Keeper | None = None,
        *,
        pace: float = DEFAULT_DELAY,
        fast_pace: float = FAST_PACE,
    ) -> None:
        super().__init__(keeper=keeper)
        self.pace = pace
        self.fast_pace = fast_pace

    def on_mount(self) -> None:
        """The tutorial over the setup screen (which the game's app opens first: Textual
        calls its ``on_mount`` after this one); ``q`` at its end quits."""
        self.call_later(open_tutorial, self, quits=True, pace=self.pace, fast_pace=self.fast_pace)
