"""The Textual app of ``coloretto host`` and ``coloretto join``: the room, then the same
game screen, keys, hints, move log and score screen as a game played here (and, for
``coloretto join`` without a code, a screen to type the code first)."""

from __future__ import annotations

import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.markup import escape
from textual.widgets import Static

from coloretto.online.client.remote_table import (
    GameStarted,
    LobbyChanged,
    Rated,
    RemoteTable,
    RoomEvent,
    SeatRefused,
    server_option,
)
from coloretto.online.wire.accounts import load_account
from coloretto.online.wire.protocol import Host
from coloretto.play.config import YOU
from coloretto.play.keeper import Keeper
from coloretto.play.table import TableNews
from coloretto.play.table_view import TableView
from coloretto.tui.base_app import GuardedApp
from coloretto.tui.messages import GameOver
from coloretto.tui.screens import EndScreen, TooSmallScreen
from coloretto.tui.screens.end import EndChoice, rating_lines
from coloretto.tui.screens.join import JoinScreen
from coloretto.tui.screens.lobby import LobbyScreen
from coloretto.tui.screens.online_game import OnlineGameScreen
from coloretto.tui.screens.tables import TablesFetch
from coloretto.tui.table import YOU_MARK
from coloretto.tui.widgets import Notice


def join_hint(server: str) -> str:
    """The command a friend types to join a room at ``server`` (``{room}`` standing for its
    code), as a shell and ``coloretto join`` read it back: ``--server HOST:PORT`` when that
    is the same address, else the whole address (a path behind a proxy, ``wss://``).

    >>> join_hint("ws://example.org:7787")
    'coloretto join {room} --server example.org:7787'
    >>> join_hint("ws://example.org/coloretto")
    'coloretto join {room} --server ws://example.org/coloretto'
    """
    return f"coloretto join {{room}} --server {shlex.quote(server_option(server))}"


@dataclass(frozen=True)
class JoinForm:
    """``coloretto join`` without a code: ask for the code (and the name), then make the
    table with ``table_for(code, name, keeper)``; or open a new public table from the
    lobby, made with ``host_for(opening, keeper)``."""

    server: str
    """The server, as the join screen names it."""
    name: str | None
    """The name the form starts with; ``None``: watching, no name asked."""
    table_for: Callable[[str, str, Keeper], RemoteTable]
    tables: TablesFetch | None = None
    """Asks the server for its public tables, for the lobby (``None``: no lobby)."""
    code: str = ""
    """The code the form starts with (a table picked on a web page)."""
    host_for: Callable[[Host, Keeper], RemoteTable] | None = None
    """Makes the table of a new room (``None``: the lobby opens no new tables)."""


class OnlineEndScreen(EndScreen):
    """The score screen of an online game: back to the board, or quit; in a match, ``n``
    deals the next game for the host (``start_next``, ``None`` for the others, who wait for
    the host). The seat of ``player`` (``None``: watching) is theirs: its card marked
    "(you)", its place said. ``table`` tells when the server deals the next game itself,
    the host having left (counted down on the screen)."""

    CSS_PATH = "screens/end.tcss"

    def __init__(
        self,
        view: TableView,
        player: int | None,
        start_next: Callable[[], None] | None = None,
        table: RemoteTable | None = None,
    ) -> None:
        super().__init__(view)
        self.you = player
        self.start_next = start_next
        self.table = table

    @property
    def next_number(self) -> str:
        """The next game, as the screens say it: ``game 2 of 3``."""
        return f"game {self.view.match.game_number + 1} of {self.view.game.rules.games}"

    @property
    def waiting(self) -> str:
        """What the others wait for between two games of the match: the host, or the
        server once the host has left ("Hana has left: game 2 of 2 starts in 25 s…")."""
        host = self.view.config.players[0].name
        at = None if self.table is None else self.table.machine.next_at
        if at is not None:
            left = max(0, math.ceil(at - time.monotonic()))
            return f"{host} has left: {self.next_number} starts in {left} s…"
        return f"Waiting for {host} to start {self.next_number}…"

    def on_mount(self) -> None:
        """Between two games, count down to the next when the server is to deal it."""
        if self.start_next is None and self.view.has_next_game:
            self.set_interval(1, self.show_waiting)

    def show_waiting(self) -> None:
        """Say again what the next game waits for (the host, or the seconds left)."""
        if self.is_mounted and self.view.has_next_game:
            self.query_one("#headline", Static).update(Text("\n").join(self.headline_lines()))

    def show_headline(self) -> None:
        """Show the headline again (the ratings have come)."""
        if self.is_mounted:
            self.query_one("#headline", Static).update(Text("\n").join(self.headline_lines()))

    def tell(self, text: str) -> None:
        """News from the table (the host has left, is back...), on the message line."""
        if self.is_mounted:
            self.query_one(Notice).say(text, "info")
            self.show_waiting()

    def headline_lines(self) -> list[Text]:
        """Who won; a rated game's rating changes; between two games of a match, what
        comes next (the host's key, or whom the others wait for)."""
        lines = super().headline_lines()
        table = self.table
        if table is not None and table.started and table.view is self.view:
            lines += rating_lines(table.view.rated, self.you)
        if self.view.has_next_game:
            if self.start_next is not None:
                lines.append(Text(f"Press n to start {self.next_number}.", "bold"))
            else:
                lines.append(Text(self.waiting, "italic"))
        return lines

    def headline_names(self) -> Sequence[str]:
        """The names, this player's own "You" ("You came 2nd of 4…", "You win…")."""
        names = list(self.view.seat_names)
        if self.you is not None:
            names[self.you] = YOU
        return names

    def card_name(self, seat: int) -> str:
        """The name, this player's own marked "(you)" as on the board."""
        return super().card_name(seat) + (YOU_MARK if seat == self.you else "")

    def _keys_text(self) -> str:
        if not self.view.has_next_game:
            return "b board · q quit"
        if self.start_next is not None:
            return f"n {self.next_number} · b board · q quit"
        return f"{self.waiting[0].lower()}{self.waiting[1:]} · b board · q quit"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ "board" and "quit"; between two games of a match, "next" for the host (a new
        match is another room)."""
        if action == "choose" and parameters and parameters[0] == "next":
            return self.start_next is not None and self.view.has_next_game
        return action != "choose" or parameters[0] in {"board", "quit"}

    def action_choose(self, choice: EndChoice) -> None:
        """``n`` (the host): ask the server for the next game; every screen moves on to it
        when it comes. Otherwise: leave the score screen with ``choice``."""
        if choice != "next":
            super().action_choose(choice)
        elif self.start_next is not None and self.view.has_next_game:
            self.start_next()
            self.query_one(Notice).say(f"Starting {self.next_number}…")


class OnlineApp(GuardedApp):
    """A seat at a room of a game server (``table``, or a ``JoinForm`` asking which room);
    ``host`` when we opened the room."""

    TITLE = "Coloretto online"
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("ctrl+c", "leave", "Quit", show=False, priority=True, id="ctrl-c"),
    ]

    def __init__(
        self, table: RemoteTable | JoinForm, *, host: bool, keeper: Keeper | None = None
    ) -> None:
        form, seat = (table, None) if isinstance(table, JoinForm) else (None, table)
        super().__init__(keeper or (seat.keeper if seat else None))
        self.form = form
        self._table = seat
        self.host = host
        self.refusal: str | None = None
        """Why the server would not seat us, if it would not."""

    @property
    def table(self) -> RemoteTable:
        """The room's table (once the join screen has its code)."""
        if self._table is None:
            raise RuntimeError("no room chosen yet")
        return self._table

    def on_mount(self) -> None:
        """The join screen, or straight to the room."""
        if self.form is None:
            self.push_screen(self._enter(self.table))
        else:
            form = self.form
            self.push_screen(
                JoinScreen(
                    form.server,
                    form.name,
                    code=form.code,
                    tables=form.tables,
                    rated_check=self._rated_check(),
                )
            )

    def _rated_check(self) -> Callable[[], bool] | None:
        """Whether a new table may be rated (an account is kept for the server); ``None``
        when the form opens no new tables."""
        form = self.form
        if form is None or form.host_for is None:
            return None
        server = form.server

        def account_kept() -> bool:
            try:
                return load_account(self.keeper.data, server) is not None
            except ValueError:
                return True  # a damaged one counts: the server's refusal says what is wrong

        return account_kept

    def _enter(self, table: RemoteTable) -> LobbyScreen:
        """Connect ``table`` to the server; its room's screen (until the game starts)."""
        self.lobby = LobbyScreen(self.host, join_hint(table.server))
        table.subscribe(self._on_room_event)
        self.run_worker(table.run(), name="connection")  # its failure is the app's
        return self.lobby

    def on_join_screen_submitted(self, message: JoinScreen.Submitted) -> None:
        """The join screen has a room code: to the room."""
        assert self.form is not None  # only the form shows the join screen
        self._table = self.form.table_for(message.code, message.name, self.keeper)
        self.switch_screen(self._enter(self._table))

    def on_join_screen_host_requested(self, message: JoinScreen.HostRequested) -> None:
        """A new public table asked for in the lobby: open it, and wait in its room as
        its host."""
        assert self.form is not None  # only the form shows the join screen
        if self.form.host_for is None:
            return
        self.host = True
        self._table = self.form.host_for(message.host, self.keeper)
        self.switch_screen(self._enter(self._table))

    def _on_room_event(self, event: RoomEvent) -> None:
        if isinstance(event, LobbyChanged) and self.screen is self.lobby:
            self.lobby.show(event)
        elif isinstance(event, GameStarted):
            for screen in self.screen_stack:
                if isinstance(screen, OnlineGameScreen):
                    screen.detach()  # the game before: its moves are over
            while len(self.screen_stack) > 2:  # the score screen (dialogs) of the game before
                self.pop_screen()
            self.switch_screen(OnlineGameScreen(self.table))
            self.check_size()
        elif isinstance(event, SeatRefused):
            self._refused(event.message)
        elif isinstance(event, TableNews) and self.screen is self.lobby:
            self.lobby.say(event.text)
        elif isinstance(event, TableNews) and isinstance(self.screen, OnlineEndScreen):
            self.screen.tell(event.text)
        elif isinstance(event, Rated) and isinstance(self.screen, OnlineEndScreen):
            self.screen.show_headline()

    def _refused(self, message: str) -> None:
        """Back to the join screen with the server's words, if we came from there and
        never got into the room; otherwise quit, the command saying why."""
        table = self.table
        if self.form is None or table.started or self.lobby.lobby is not None:
            self.refusal = message
            self.exit(return_code=2)
            return
        self._table = None
        self.host = False
        name = None if self.form.name is None else table.name
        self.switch_screen(
            JoinScreen(
                self.form.server,
                name,
                code=table.room or "",
                problem=message,
                tables=self.form.tables,
                rated_check=self._rated_check(),
            )
        )

    def on_lobby_screen_start_requested(self) -> None:
        """The host starts the game."""
        self.table.start()

    def on_lobby_screen_remove_requested(self, message: LobbyScreen.RemoveRequested) -> None:
        """The host removes a person from the table."""
        self.table.remove(message.player)

    def on_lobby_screen_lock_requested(self, message: LobbyScreen.LockRequested) -> None:
        """The host closes the table to new players, or opens it again."""
        self.table.lock(message.locked)

    def on_game_over(self, message: GameOver) -> None:
        """The score screen; ``b`` goes back to the board, ``q`` quits; in a match, ``n``
        starts the next game (the host's key: the host is player 0, however they came)."""

        def chosen(choice: EndChoice | None) -> None:
            if choice == "quit":
                self.leave()

        table = self.table
        if message.view is not table.view:
            return  # a game of the match before this one
        if isinstance(self.screen, TooSmallScreen):
            self.pop_screen()
        start_next = table.next_game if table.player == 0 else None
        end = OnlineEndScreen(message.view, table.player, start_next, table)
        self.push_screen(end, chosen)
        self.check_size()

    def quit_question(self) -> str:
        """What the quit dialog asks at an online table (Textual markup: the name and the
        server are escaped)."""
        table = self.table
        if table.player is None:
            return "Stop watching? The game goes on."
        if table.machine.match_over:
            return "Leave the table? The game is kept in your history (coloretto replay)."
        back = f"; to take your seat back:\n{escape(table.comeback)}" if table.comeback else "."
        if table.machine.between_games:
            return f"Leave the table? {escape(table.machine.without_you())}{back}"
        what = "match" if table.view.game.rules.games > 1 else "game"
        return (
            f"Leave the table? The {what} goes on without you (a bot plays for you after "
            f"{table.machine.away_after:g} s){back}"
        )

    def leave(self) -> None:
        """Quit; the game goes on at the server, and the message says how to come back."""
        self.exit(message=None if self._table is None else self._table.suspend())

    def action_leave(self) -> None:
        """Ctrl+C: quit at once."""
        self.leave()
