"""The Textual app of ``coloretto host`` and ``coloretto join``: the room, then the same
game screen, keys, hints, move log and score screen as a game played here."""

from __future__ import annotations

from textual.binding import Binding

from coloretto.online.client import GameStarted, LobbyChanged, Refused, RemoteTable, RoomEvent
from coloretto.play.keeper import Keeper
from coloretto.play.table import TableNews
from coloretto.tui.base_app import GuardedApp
from coloretto.tui.messages import GameOver
from coloretto.tui.screens import EndScreen, GameScreen, TooSmallScreen
from coloretto.tui.screens.end import EndChoice
from coloretto.tui.screens.lobby import LobbyScreen


class OnlineEndScreen(EndScreen):
    """The score screen of an online game: back to the board, or quit."""

    CSS_PATH = "screens/end.tcss"

    def _keys_text(self) -> str:
        return f"b: back to the board · q: quit (seed {self.session.seed})"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only "board" and "quit": the next game is another room."""
        return action != "choose" or parameters[0] in {"board", "quit"}


class OnlineApp(GuardedApp):
    """A seat at a room of a game server (``table``); ``host`` when we opened the room."""

    TITLE = "Coloretto online"
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("ctrl+c", "leave", "Quit", show=False, priority=True, id="ctrl-c"),
    ]

    def __init__(self, table: RemoteTable, *, host: bool, keeper: Keeper | None = None) -> None:
        super().__init__(keeper or table.keeper)
        self.table = table
        self.host = host
        self.refusal: str | None = None
        """Why the server would not seat us, if it would not."""

    def on_mount(self) -> None:
        """The room (until the game starts), and the connection to the server."""
        server = self.table.server.removeprefix("ws://")
        self.lobby = LobbyScreen(self.host, f"coloretto join {{room}} --server {server}")
        self.push_screen(self.lobby)
        self.table.subscribe(self._on_room_event)
        self.run_worker(self.table.run(), name="connection", exit_on_error=False)

    def _on_room_event(self, event: RoomEvent) -> None:
        if isinstance(event, LobbyChanged) and self.screen is self.lobby:
            self.lobby.show(event)
        elif isinstance(event, GameStarted):
            self.switch_screen(GameScreen(self.table))
        elif isinstance(event, Refused):
            self.refusal = event.message
            self.exit(return_code=2)  # the command says why
        elif isinstance(event, TableNews) and self.screen is self.lobby:
            self.lobby.say(event.text)

    def on_lobby_screen_start_requested(self) -> None:
        """The host starts the game."""
        self.table.start()

    def on_game_over(self, message: GameOver) -> None:
        """The score screen; ``b`` goes back to the board, ``q`` quits."""

        def chosen(choice: EndChoice | None) -> None:
            if choice == "quit":
                self.leave()

        if isinstance(self.screen, TooSmallScreen):
            self.pop_screen()
        self.push_screen(OnlineEndScreen(message.session), chosen)
        self.check_size()

    @property
    def quit_question(self) -> str:
        """What the quit dialog asks at an online table."""
        table = self.table
        if table.player is None:
            return "Stop watching? The game goes on."
        if table.finished:
            return "Leave the table? The game is kept in your history (coloretto replay)."
        return (
            "Leave the table? The game goes on without you (a bot plays for you after "
            f"{table.away_after:g} s); coloretto join {table.room} takes your seat back."
        )

    def leave(self) -> None:
        """Quit; the game goes on at the server, and the message says how to come back."""
        self.exit(message=self.table.suspend())

    def action_leave(self) -> None:
        """Ctrl+C: quit at once."""
        self.leave()
