"""What every app of the game does: a "please enlarge" notice while the terminal is too
small, and unexpected errors logged to a file, never shown to the player as a traceback."""

from __future__ import annotations

import gc

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.geometry import Size

from coloretto.play.config import GameConfig
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.screens.dialogs import TooSmallScreen

MIN_WIDTH = 80
MIN_HEIGHT = 24
"""The smallest terminal the table fits in; a smaller one shows a notice instead."""


class GuardedApp(App[None]):
    """A Textual app with the game's guards; ``keeper`` knows where the log file is. It
    gives its screens their ``AppServices`` (``coloretto.tui.services``)."""

    CSS_PATH = ["app.tcss"]  # noqa: RUF012 (Textual's convention)
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, keeper: Keeper | None = None) -> None:
        super().__init__()
        self.keeper = keeper or Keeper()
        """Saves the game, keeps the history and the statistics, logs incidents."""

    def on_unmount(self) -> None:
        """The app is closing: let go of the game it held (see ``Keeper.claim``)."""
        self.keeper.release()

    def on_ready(self) -> None:
        """The first screen is up: check the terminal's size; the garbage collector on
        again, if the start had it off (``coloretto.cli.play_command.starting_up``)."""
        self.check_size()
        if not gc.isenabled():
            gc.freeze()  # what the start made lives on: the collections to come skip it
            gc.enable()

    def data_dir(self) -> DataDir:
        """Where the saves, the history and the last setup are kept."""
        return self.keeper.data

    def last_setup(self) -> GameConfig | None:
        """The setup of the last game started here, if one is kept."""
        return self.keeper.last_setup()

    def remember(self, config: GameConfig) -> None:
        """Keep ``config`` as the setup the setup screen offers next time."""
        self.keeper.remember(config)

    def discard(self, session_id: str) -> str | None:
        """Discard the game in progress ``session_id`` for good; what went wrong, if any."""
        return self.keeper.discard(session_id)

    def quit_question(self) -> str | None:
        """What the quit dialog asks: its usual question."""
        return None

    def leave(self) -> None:
        """Quit."""
        self.exit()

    def save_now(self) -> str:
        """Save what there is to save after an unexpected error; says so in words (or "")."""
        return ""

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error: save the game, log the details, and say so in one message.

        Textual's one funnel for every unhandled error (handlers, timers, workers); it has
        no public hook for them (Textual issues 2818, 5325, 5931), so this stays private,
        pinned by a test that makes a real error behind a key."""
        self.keeper.log.error("unexpected error", exc_info=error)
        saved = self.save_now()
        if self.is_headless:  # under test: let the test see the error
            super()._handle_exception(error)
            return
        self.exit(
            return_code=1,
            message=f"Sorry, Coloretto hit an unexpected error ({type(error).__name__}: "
            f"{error}).{saved} The details are in {self.keeper.data.log}.",
        )

    def on_resize(self, event: events.Resize) -> None:
        """Show the "please enlarge" notice while the terminal is too small."""
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        """Put the notice on top while the terminal is smaller than the table; remove it
        once the terminal is big enough."""
        size = size or self.size
        screen = self.screen
        if size.width < MIN_WIDTH or size.height < MIN_HEIGHT:
            if isinstance(screen, TooSmallScreen):
                screen.show(size)
            else:
                self.push_screen(TooSmallScreen(MIN_WIDTH, MIN_HEIGHT))
        elif isinstance(screen, TooSmallScreen):
            self.pop_screen()

    def get_key_display(self, binding: Binding) -> str:
        """How the footer names a key (Textual's hook): the game screen names its row keys
        after the rows there are, the tutorial's the one row its step asks for."""
        key_display = getattr(self.screen, "key_display", None)  # the tutorial's is imported late
        if callable(key_display) and (shown := key_display(binding)):
            return str(shown)
        return super().get_key_display(binding)
