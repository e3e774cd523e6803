"""``coloretto join`` without a code: the room's code and one's name, typed in, then Enter;
or Ctrl+L, the lobby: a public table picked from the server's list (``TablesScreen``), or
a new public table opened there (``n``), hosted with the name typed here.

A code that is not one is refused here, on the screen; a room the server does not know
brings this screen back with the server's words (see ``OnlineApp``).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Static

from coloretto.online.wire.protocol import Host, room_code, seat_name
from coloretto.play.config import MAX_NAME
from coloretto.store.text import printable
from coloretto.tui.screens.new_table import NewTable, RatedCheck
from coloretto.tui.screens.tables import TablesFetch, TablesScreen
from coloretto.tui.widgets import KeysBar, Notice, TextInput

MAX_TYPED_CODE = 16
"""Room for a code typed with spaces around it (the code itself has six characters)."""


class JoinScreen(Screen[None]):
    """Type the room's code (and one's name, unless watching); Enter or the button joins."""

    DEFAULT_CSS = """
    JoinScreen { align: center middle; }
    #join { width: 60; height: auto; border: round $primary; padding: 0 1; }
    #join-title { text-style: bold; margin-bottom: 1; }
    #join Input { margin-bottom: 1; }
    #join-button { width: 100%; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("ctrl+l", "lobby", "Lobby", key_display="^L", id="join-lobby"),
        Binding("escape", "quit_join", "Quit", id="quit-join"),
    ]

    class Submitted(Message):
        """A room code (checked) and a name (``""`` when watching) to join with."""

        def __init__(self, code: str, name: str) -> None:
            super().__init__()
            self.code = code
            self.name = name

    class HostRequested(Message):
        """A new public table to open and sit at as its host (asked for in the lobby)."""

        def __init__(self, host: Host) -> None:
            super().__init__()
            self.host = host

    def __init__(
        self,
        server: str,
        name: str | None,
        *,
        code: str = "",
        problem: str = "",
        tables: TablesFetch | None = None,
        rated_check: RatedCheck | None = None,
    ) -> None:
        super().__init__()
        self.tables = tables
        """How to ask the server for its public tables (``None``: no lobby here)."""
        self.rated_check = rated_check
        """Whether a new table may be rated (``None``: the lobby opens no new tables)."""
        self.server = server
        self.player_name = name
        """The name the field starts with; ``None``: watching, no name asked."""
        self.code = code
        self.problem = problem
        """Why the last try failed (the server's words), shown at once."""

    def compose(self) -> ComposeResult:
        """The title, the code and name fields, the button, the message line and the keys."""
        with Vertical(id="join"):
            yield Static(f"Join a room on {printable(self.server, 80)}", id="join-title")
            yield Label("Room code (as the host was shown it)")
            yield TextInput(
                self.code, placeholder="e.g. K7PQ2M", max_length=MAX_TYPED_CODE, id="join-code"
            )
            if self.player_name is not None:
                yield Label("Your name at the table")
                yield TextInput(
                    self.player_name, placeholder="your name", max_length=MAX_NAME, id="join-name"
                )
            yield Button("Join (Enter)", variant="primary", id="join-button")
        yield Notice(id="join-notice")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """The keys go to the code field (the name's, for a code given without a name);
        the last try's problem shows."""
        field = "#join-name" if self.code and self.player_name == "" else "#join-code"
        self.query_one(field, Input).focus()
        if self.problem:
            self.say(self.problem)

    def say(self, text: str) -> None:
        """Why we cannot join (yet), under the form."""
        self.query_one(Notice).say(text, "error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field joins."""
        event.stop()
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The Join button joins."""
        event.stop()
        self.submit()

    def submit(self) -> None:
        """Join with what is typed, once it is a room code and a name."""
        code_field = self.query_one("#join-code", Input)
        try:
            code = room_code(code_field.value)
        except ValueError as error:
            self.say(f"{error}: type the code the host was shown.")
            code_field.focus()
            return
        name = ""
        if self.player_name is not None:
            name_field = self.query_one("#join-name", Input)
            name = seat_name(name_field.value)
            if not name:
                self.say("Type your name: the others see it at the table.")
                name_field.focus()
                return
        self.post_message(self.Submitted(code, name))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The lobby's key only when the server's tables can be asked for."""
        return action != "lobby" or self.tables is not None

    def action_lobby(self) -> None:
        """Ctrl+L: the server's public tables; the one picked is joined, a new one asked
        for is hosted."""
        if self.tables is None:
            return

        def picked(choice: str | NewTable | None) -> None:
            if isinstance(choice, NewTable):
                self.host(choice)
            elif choice is not None:
                self.query_one("#join-code", Input).value = choice
                self.submit()

        lobby = TablesScreen(self.server, self.tables, rated_check=self.rated_check)
        self.app.push_screen(lobby, picked)

    def host(self, table: NewTable) -> None:
        """Open ``table`` with the name typed (else the one the form started with)."""
        name = ""
        if self.player_name is not None:
            typed = self.query_one("#join-name", Input).value
            name = seat_name(typed) or seat_name(self.player_name)
        if not name:
            self.say("Type your name first (the others see it at the table), then Ctrl+L, n.")
            if self.player_name is not None:
                self.query_one("#join-name", Input).focus()
            return
        self.post_message(self.HostRequested(table.host(name)))

    def action_quit_join(self) -> None:
        """Escape: quit without joining."""
        self.app.exit()
