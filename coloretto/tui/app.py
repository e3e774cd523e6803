"""The Textual app: a game (or match) of Coloretto against bots and/or people at one keyboard."""

from __future__ import annotations

from textual.app import App

from coloretto.tui.config import GameConfig
from coloretto.tui.messages import GameOver, StartGame
from coloretto.tui.screens import EndScreen, GameScreen, SetupScreen
from coloretto.tui.screens.end import EndChoice
from coloretto.tui.session import Session


class ColorettoApp(App[None]):
    """Coloretto in the terminal.

    With a ``config`` the game starts at once; without one (or with ``setup=True``) the
    setup screen comes first, filled in from ``config`` when given.
    """

    CSS_PATH = "app.tcss"
    TITLE = "Coloretto"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, config: GameConfig | None = None, *, setup: bool = False) -> None:
        super().__init__()
        self.config = config
        self.show_setup = setup or config is None
        self.session: Session | None = None
        """The session being played."""

    def on_mount(self) -> None:
        """The setup screen, or straight into the game."""
        if self.show_setup or self.config is None:
            self.push_screen(SetupScreen(self.config))
        else:
            self.push_screen(self._game_screen(Session(self.config)))

    def _game_screen(self, session: Session) -> GameScreen:
        self.session = session
        self.config = session.config
        return GameScreen(session)

    def on_start_game(self, message: StartGame) -> None:
        """Start the game chosen on the setup screen."""
        self.switch_screen(self._game_screen(Session(message.config)))

    def on_game_over(self, message: GameOver) -> None:
        """The score screen; what comes after depends on the key pressed there."""
        session = message.session

        def chosen(choice: EndChoice | None) -> None:
            if choice == "next" and session.has_next_game:
                session.next_game()
                self.switch_screen(self._game_screen(session))
            elif choice == "rematch":
                self.switch_screen(self._game_screen(session.rematch()))
            elif choice == "setup":
                self.switch_screen(SetupScreen(session.config))
            elif choice == "quit":
                self.exit()

        self.push_screen(EndScreen(session), chosen)
