"""The Textual app: a game (or match) of Coloretto against bots and/or people at one keyboard.

Nothing is lost: the game is saved after every action (see ``Keeper``), a terminal that is
closed or a ``kill`` leaves that save behind, and an unexpected error is logged, not shown
as a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding

from coloretto.engine import RecordError
from coloretto.play.config import GameConfig
from coloretto.play.keeper import Keeper
from coloretto.play.saving import first_run, load_session
from coloretto.play.session import Session
from coloretto.play.table import LocalTable
from coloretto.tui.base_app import GuardedApp
from coloretto.tui.messages import GameOver, ResumeGame, StartGame
from coloretto.tui.screens.dialogs import TooSmallScreen
from coloretto.tui.screens.game import GameScreen

if TYPE_CHECKING:
    from coloretto.tui.screens.end import EndChoice
    from coloretto.tui.screens.setup import SetupScreen

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that end the game tidily (the game is saved already; SIGHUP: the terminal is gone)."""

SHUTDOWN_GRACE = 3.0
"""Seconds a tidy exit on SIGTERM may take before the process ends regardless."""


class ColorettoApp(GuardedApp):
    """Coloretto in the terminal.

    With a ``config`` (or a resumed ``session``) the game starts at once; without one (or
    with ``setup=True``) the setup screen comes first, filled in from ``config`` when given.
    """

    TITLE = "Coloretto"
    CSS_PATH = ["app.tcss", "screens/game.tcss"]  # noqa: RUF012 (Textual's convention)
    """The game screen's styles with the app's, parsed once at the start: a screen's own
    style sheet, read when it first shows, has Textual parse every style sheet again and
    restyle every widget (20 ms of the first screen)."""
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("ctrl+c", "leave", "Quit", show=False, priority=True, id="ctrl-c"),
    ]

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        setup: bool = False,
        session: Session | None = None,
        keeper: Keeper | None = None,
    ) -> None:
        super().__init__(keeper)
        self.config = config if session is None else session.config
        self.show_setup = setup or (config is None and session is None)
        self.session: Session | None = session
        """The session being played."""
        self.table: LocalTable | None = None
        """The table the game screen plays at."""

    # ------------------------------------------------------------------ screens

    def on_mount(self) -> None:
        """The setup screen, or straight into the game; catch the signals that end us."""
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for number in _SIGNALS:
                with contextlib.suppress(NotImplementedError):  # event loops without signals
                    loop.add_signal_handler(number, self._signalled, number)
        if self.show_setup or (self.config is None and self.session is None):
            self.push_screen(self._setup_screen(self.config))
        elif self.session is not None:
            self.push_screen(self._game_screen(self.session))
        elif self.config is not None:  # coloretto play: the tutorial offered on the first run
            new_here = first_run(self.keeper.data)
            self.push_screen(self._game_screen(Session(self.config), new_here=new_here))

    def _setup_screen(self, config: GameConfig | None) -> SetupScreen:
        from coloretto.tui.screens.setup import SetupScreen  # noqa: PLC0415 (when shown)

        return SetupScreen(config)

    def _game_screen(self, session: Session, *, new_here: bool = False) -> GameScreen:
        self.session = session
        self.config = session.config
        self.table = LocalTable(session, self.keeper)
        return GameScreen(self.table, new_here=new_here)

    def on_start_game(self, message: StartGame) -> None:
        """Start the game chosen on the setup screen."""
        self.switch_screen(self._game_screen(Session(message.config)))

    def on_resume_game(self, message: ResumeGame) -> None:
        """Resume the game saved in ``message.path`` (from the setup screen)."""
        from coloretto.tui.screens.setup import SetupScreen  # noqa: PLC0415 (shown already)

        try:
            session = load_session(message.path)
            problem = self.keeper.claim(session)
        except RecordError as error:
            problem = str(error)
        if problem is not None:
            if isinstance(self.screen, SetupScreen):
                self.screen.show_error(f"cannot resume: {problem}")
            return
        self.switch_screen(self._game_screen(session))

    def on_game_over(self, message: GameOver) -> None:
        """The score screen; what comes after depends on the key pressed there."""
        from coloretto.tui.screens.end import EndScreen  # noqa: PLC0415 (when shown)

        session = self.session
        if session is None or message.view is not session:
            return  # a game that is not on the table any more

        def chosen(choice: EndChoice | None) -> None:
            if choice == "next" and session.has_next_game:
                session.next_game()
                self.switch_screen(self._game_screen(session))
            elif choice == "rematch":
                self.switch_screen(self._game_screen(session.rematch()))
            elif choice == "setup":  # a new deal: the seed is not carried over
                self.switch_screen(self._setup_screen(replace(session.config, seed=None)))
            elif choice == "quit":
                self.leave()

        if isinstance(self.screen, TooSmallScreen):
            self.pop_screen()  # the notice goes back on top of the score screen
        self.push_screen(EndScreen(session), chosen)
        self.check_size()

    # ------------------------------------------------------------------ leaving

    def leave(self) -> None:
        """Quit; the game in progress is saved already, and the message says how to resume."""
        self.exit(message=None if self.table is None else self.table.suspend())

    def action_leave(self) -> None:
        """Ctrl+C: quit at once (nothing is lost: the game is saved)."""
        self.leave()

    def _signalled(self, number: int) -> None:
        """SIGTERM: quit tidily (within a few seconds, whatever happens). SIGHUP: the
        terminal is gone, and with it anything worth tidying: save and go at once."""
        name = signal.Signals(number).name
        self.keeper.log.info("quitting on %s", name)
        if name == "SIGHUP":
            self.save_now()
            logging.shutdown()
            os._exit(128 + number)
        watchdog = threading.Timer(SHUTDOWN_GRACE, os._exit, (128 + number,))
        watchdog.daemon = True
        watchdog.start()
        self.leave()

    def save_now(self) -> str:
        """After an unexpected error: save the game in progress."""
        session = self.session
        if session is not None and not session.match.is_over and not self.keeper.save(session):
            return " Your game is saved: coloretto play --resume continues it."
        return ""
