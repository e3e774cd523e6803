"""The room before an online game starts: its code, who has joined, and (for the host)
the keys that start the game (bots taking the free seats), remove a person from the table
and close it to new players."""

from __future__ import annotations

from datetime import datetime, timedelta

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from coloretto.online.client.remote_table import LobbyChanged
from coloretto.play.words import rules_in_words
from coloretto.tui.keys import LOBBY_KEYS, bindings
from coloretto.tui.services import services
from coloretto.tui.widgets import KeysBar, Notice

DOT = "\N{MIDDLE DOT}"


HOST_ONLY = frozenset(("start", "remove", "lock", "unlock"))
"""The lobby's actions that only the host has."""


class LobbyScreen(Screen[None]):
    """Who sits at the table while the host waits for friends; ``s`` or Enter starts, ``x``
    then a seat's number removes a person, ``l`` closes the table to new players (or opens
    it again)."""

    DEFAULT_CSS = """
    LobbyScreen { align: center middle; }
    #lobby { width: 76; height: auto; border: round $primary; padding: 0 1; }
    #lobby-seats { margin: 1 0; }
    """
    BINDINGS = bindings(LOBBY_KEYS)  # type: ignore[assignment]

    class StartRequested(Message):
        """The host pressed the key that starts the game."""

    class RemoveRequested(Message):
        """The host chose a person to remove from the table (by player number)."""

        def __init__(self, player: int) -> None:
            super().__init__()
            self.player = player

    class LockRequested(Message):
        """The host closes the table to new players (``locked``) or opens it again."""

        def __init__(self, locked: bool) -> None:
            super().__init__()
            self.locked = locked

    def __init__(self, host: bool, join_hint: str) -> None:
        super().__init__()
        self.host = host
        self.join_hint = join_hint
        """How a friend joins, ``{room}`` standing for the room's code, e.g.
        ``coloretto join {room} --server HOST:PORT``."""
        self.lobby: LobbyChanged | None = None
        self.choosing = False
        """True while the host chooses whom to remove (the seats' keys work)."""

    def compose(self) -> ComposeResult:
        """The room's code and rules, its seats, the message line and the keys."""
        with Vertical(id="lobby"):
            yield Static("Connecting to the server…", id="lobby-title")
            yield Static(id="lobby-seats")
            yield Static(id="lobby-how")
        yield Notice(id="lobby-notice")
        yield KeysBar(id="keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The host's keys for the host; while choosing whom to remove, only the seats,
        Esc and q; ``l`` locks an open table and unlocks a locked one."""
        if action in ("seat", "cancel"):
            return self.choosing
        if action in HOST_ONLY and (not self.host or self.choosing):
            return False
        if action in ("lock", "unlock"):
            return (action == "unlock") == (self.lobby is not None and self.lobby.locked)
        return True

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
        games = lobby.rules.games
        first = f"game 1 of {games}" if games > 1 else "the game"
        host = lobby.seats[0][0] if lobby.seats and lobby.seats[0] else "the host"
        if lobby.locked:
            how = "The table is closed to new players"
            how += ": l opens it again.\n" if self.host else f" ({host} closed it).\n"
        else:
            how = f"Friends join with:  {self.join_hint.replace('{room}', lobby.room, 1)}\n"
        if lobby.public:
            how += (
                "A public table"
                + (", rated" if lobby.rated else "")
                + ": coloretto lobby lists it."
            )
            if lobby.fill_in is not None:
                at = datetime.now() + timedelta(seconds=lobby.fill_in)  # the player's clock
                how += f" Bots fill the free seats and the game starts at {at:%H:%M:%S}."
            how += "\n"
        elif lobby.rated:
            how += "A rated table: its games change the players' ratings.\n"
        if lobby.clock is not None:
            how += (
                f"Clock: {lobby.clock.words} ({lobby.clock.name}); when a player's time "
                "runs out a bot plays that move.\n"
            )
        if self.host:
            how += "Press s or Enter to start: bots take the free seats.\nx removes a person; l "
            how += "opens the table again." if lobby.locked else "closes it to new players."
        else:
            how += f"Waiting for {host} to start {first}"  # as between a match's games
            how += ", or for that time…" if lobby.fill_in is not None else "…"
        self.query_one("#lobby-how", Static).update(Text(how))  # a name is no markup
        if self.choosing and not self._others():
            self.choosing = False  # whoever was to be removed has gone
        self.refresh_bindings()

    def _others(self) -> list[int]:
        """The seats (player numbers) of the people besides the host."""
        seats = () if self.lobby is None else self.lobby.seats
        return [player for player, seat in enumerate(seats) if seat is not None and player]

    def say(self, text: str, kind: str = "info") -> None:
        """A message under the room (a lost connection, a refusal)."""
        self.query_one(Notice).say(text, "error" if kind == "error" else "info")

    def action_start(self) -> None:
        """``s``: the host starts the game."""
        if self.lobby is None:
            self.say("Not connected yet: wait a moment.", "error")
            return
        self.post_message(self.StartRequested())

    def action_remove(self) -> None:
        """``x``: the host chooses whom to remove (the seat's number comes next)."""
        others = self._others()
        if not others:
            self.say("Nobody to remove: you are alone at the table.", "error")
            return
        self.choosing = True
        self.refresh_bindings()
        seats = ", ".join(str(player + 1) for player in others)
        self.say(f"Remove whom? Press the number of their seat ({seats}), or Esc.")

    def action_seat(self, number: int) -> None:
        """``2``-``5`` while choosing: remove the person of that seat."""
        player = number - 1
        if player not in self._others() or self.lobby is None:
            self.say(f"Nobody sits in seat {number}: press another seat's number, or Esc.")
            return
        seat = self.lobby.seats[player]
        self.choosing = False
        self.refresh_bindings()
        self.post_message(self.RemoveRequested(player))
        self.say(f"Removing {seat[0] if seat else 'them'} from the table…")

    def action_cancel(self) -> None:
        """Esc while choosing: remove nobody."""
        self.choosing = False
        self.refresh_bindings()
        self.say("Nobody removed.")

    def action_lock(self) -> None:
        """``l``: the host closes the table to new players."""
        self.post_message(self.LockRequested(locked=True))

    def action_unlock(self) -> None:
        """``l`` at a closed table: the host opens it to new players again."""
        self.post_message(self.LockRequested(locked=False))

    def action_quit_lobby(self) -> None:
        """``q``: leave the room."""
        app = services(self.app)
        if app is None:
            self.app.exit()
        else:
            app.leave()

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do."""
        if event.key in self.app.active_bindings:
            return
        event.stop()
        if self.choosing:
            self.say("Press the number of the seat of the person to remove, or Esc.", "error")
            return
        keys = "s or Enter starts the game, x removes a person, l locks or unlocks the table"
        keys = f"{keys}, q quits" if self.host else "q quits"
        self.say(f"Waiting in the room: {keys}.", "error")
