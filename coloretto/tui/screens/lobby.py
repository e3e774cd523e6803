"""The room before an online game starts: its code, who has joined, and (for the host)
the key that starts the game, bots taking the free seats."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from coloretto.online.client import LobbyChanged
from coloretto.play.words import rules_in_words
from coloretto.tui.widgets import Notice

DOT = "\N{MIDDLE DOT}"


class LobbyScreen(Screen[None]):
    """Who sits at the table while the host waits for friends; ``s`` or Enter starts."""

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    #lobby { width: 76; height: auto; border: round $primary; padding: 0 1; }
    #lobby-seats { margin: 1 0; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("s,enter", "start", "Start the game", id="start-online"),
        Binding("q", "quit_lobby", "Quit", id="quit-lobby"),
    ]

    class StartRequested(Message):
        """The host pressed the key that starts the game."""

    def __init__(self, host: bool, join_hint: str) -> None:
        super().__init__()
        self.host = host
        self.join_hint = join_hint
        """How a friend joins, e.g. ``coloretto join CODE --server HOST:PORT``."""
        self.lobby: LobbyChanged | None = None

    def compose(self) -> ComposeResult:
        """The room's code and rules, its seats, the message line and the keys."""
        with Vertical(id="lobby"):
            yield Static("Connecting to the server…", id="lobby-title")
            yield Static(id="lobby-seats")
            yield Static(id="lobby-how")
        yield Notice(id="lobby-notice")
        yield Footer(compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the host starts the game."""
        return self.host or action != "start"

    def show(self, lobby: LobbyChanged) -> None:
        """Show who sits where now."""
        self.lobby = lobby
        self.query_one("#lobby-title", Static).update(
            Text.assemble(
                ("Room ", "bold"),
                (lobby.room, "bold reverse"),
                f"  {DOT} ",
                rules_in_words(lobby.rules),
                f", a match of {lobby.rules.games} games" if lobby.rules.games > 1 else "",
            )
        )
        lines = []
        for number, seat in enumerate(lobby.seats, start=1):
            if seat is None:
                lines.append(Text(f"  {number}. (free: a bot at level {lobby.bot} plays)", "dim"))
            else:
                name, present = seat
                you = " (you)" if number - 1 == lobby.here else ""
                lines.append(Text(f"  {number}. {name}{you}" + ("" if present else "  (away)")))
        self.query_one("#lobby-seats", Static).update(Text("\n").join(lines))
        how = f"Friends join with:  {self.join_hint.format(room=lobby.room)}\n"
        games = lobby.rules.games
        first = f"game 1 of {games}" if games > 1 else "the game"
        host = lobby.seats[0][0] if lobby.seats and lobby.seats[0] else "the host"
        how += (
            "Press s or Enter to start: bots take the free seats."
            if self.host
            else f"Waiting for {host} to start {first}…"  # as between a match's games
        )
        self.query_one("#lobby-how", Static).update(Text(how))  # a name is no markup

    def say(self, text: str, kind: str = "info") -> None:
        """A message under the room (a lost connection, a refusal)."""
        self.query_one(Notice).say(text, "error" if kind == "error" else "info")

    def action_start(self) -> None:
        """``s``: the host starts the game."""
        if self.lobby is None:
            self.say("Not connected yet: wait a moment.", "error")
            return
        self.post_message(self.StartRequested())

    def action_quit_lobby(self) -> None:
        """``q``: leave the room."""
        leave = getattr(self.app, "leave", self.app.exit)
        leave()

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do."""
        if event.key in self.app.active_bindings:
            return
        event.stop()
        keys = "s or Enter starts the game, q quits" if self.host else "q quits"
        self.say(f"Waiting in the room: {keys}.", "error")
