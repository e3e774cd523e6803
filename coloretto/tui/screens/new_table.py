"""The lobby's ``n``: a small form for a new public table, its players (2-5), the bots'
level, the seconds before bots fill its free seats and start the game, its clock (one of
the server's speed profiles, ``standard`` at first), and, with an account
kept for the server, whether it is rated. Enter opens it (dismissed with a ``NewTable``),
Esc cancels (``None``); what is typed wrong is said on the form, which stays."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from coloretto.bots.registry import DEFAULT_LEVEL, LEVELS
from coloretto.engine import Rules
from coloretto.online.wire.clock import DEFAULT_PROFILE, PROFILES
from coloretto.online.wire.protocol import DEFAULT_AWAY_AFTER, MAX_FILL_AFTER, MIN_FILL_AFTER, Host
from coloretto.play.config import DEFAULT_DELAY
from coloretto.store.text import printable
from coloretto.tui.widgets import KeysBar, Notice, TextInput
from coloretto.tui.widgets.choice import Choice

DEFAULT_FILL_AFTER = 60.0
"""The wait the form starts with."""

MIN_PLAYERS, MAX_PLAYERS = 2, 5

RatedCheck = Callable[[], bool]
"""True when a rated table may be offered: an account is kept here for the server."""


@dataclass(frozen=True)
class NewTable:
    """A new public table as the form asks for it."""

    players: int
    bot: str
    fill_after: float
    """Seconds after it opens, bots take its free seats and its game starts."""
    rated: bool = False
    clock: str = DEFAULT_PROFILE
    """The name of the server's speed profile its moves are timed by."""

    def host(self, name: str) -> Host:
        """The opening of this table with ``name`` as its host (one game; the bots' pace
        and the wait for someone away as the server's defaults)."""
        return Host.of(name, Rules(players=self.players), self.bot, DEFAULT_DELAY,
                    DEFAULT_AWAY_AFTER, public=True, rated=self.rated,
                    fill_after=self.fill_after, clock=self.clock)  # fmt: skip


class NewTableScreen(ModalScreen[NewTable | None]):
    """The new public table's settings: Tab between them, ←/→ change a choice, Enter
    opens the table, Esc cancels. ``rated``: the rated question is offered (otherwise a
    line says it needs an account)."""

    DEFAULT_CSS = """
    NewTableScreen { align: center middle; }
    #new-table { width: 64; height: auto; border: round $primary; padding: 0 1;
                 background: $surface; }
    #new-table-title { text-style: bold; margin-bottom: 1; }
    #new-table Horizontal { height: 1; margin-bottom: 1; }
    #new-table Label { width: 30; }
    #new-table TextInput { width: 1fr; }
    #new-table-rated-note { color: $text-muted; margin-bottom: 1; }
    #new-table-help { color: $text-muted; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("enter", "open", "Open", id="new-table-open", priority=True),
        Binding("escape", "cancel", "Cancel", id="new-table-cancel"),
    ]

    def __init__(
        self,
        server: str,
        *,
        rated: bool,
        players: int = Rules().players,
        bot: str = DEFAULT_LEVEL,
        fill_after: float = DEFAULT_FILL_AFTER,
    ) -> None:
        super().__init__()
        self.server = server
        self.rated_offered = rated
        self.players = players
        self.bot = bot if bot in LEVELS else DEFAULT_LEVEL
        self.fill_after = fill_after

    def compose(self) -> ComposeResult:
        """The title, the fields, how the keys work, the message line and the keys."""
        with Vertical(id="new-table"):
            yield Static(f"New public table on {printable(self.server, 40)}", id="new-table-title")
            with Horizontal():
                yield Label(f"Players ({MIN_PLAYERS}-{MAX_PLAYERS})")
                yield TextInput(
                    str(self.players), max_length=2, compact=True, id="new-table-players"
                )
            with Horizontal():
                yield Label("Bot level")
                yield Choice([(level, level) for level in LEVELS], self.bot, id="new-table-bot")
            with Horizontal():
                yield Label(f"Bots fill it after ({MIN_FILL_AFTER:g}-{MAX_FILL_AFTER:g} s)")
                yield TextInput(
                    f"{self.fill_after:g}", max_length=8, compact=True, id="new-table-wait"
                )
            with Horizontal():
                yield Label("Clock")
                yield Choice(
                    [(f"{clock.name} ({clock.words})", clock.name) for clock in PROFILES],
                    DEFAULT_PROFILE,
                    id="new-table-clock",
                )
            if self.rated_offered:
                with Horizontal():
                    yield Label("Rated (accounts only)")
                    yield Choice([("no", False), ("yes", True)], False, id="new-table-rated")
            else:
                yield Static(
                    "A rated table needs an account on this server "
                    "(coloretto account create NAME --server ...).",
                    id="new-table-rated-note",
                )
            yield Static(
                "Tab: next field · ←/→: change a choice · Enter: open · Esc: cancel",
                id="new-table-help",
            )
            yield Notice(id="new-table-notice")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """The keys go to the players' field."""
        self.query_one("#new-table-players", Input).focus()

    def say(self, text: str, field: str) -> None:
        """What is wrong, under the form; the keys go to the field at fault."""
        self.query_one(Notice).say(text, "error")
        self.query_one(f"#{field}").focus()

    def chosen(self) -> NewTable | None:
        """The table as the form asks for it; ``None`` (said on the form) if a field is
        not right."""
        typed = self.query_one("#new-table-players", Input).value.strip()
        if not (typed.isdigit() and MIN_PLAYERS <= int(typed) <= MAX_PLAYERS):
            shown = printable(typed, 10)
            self.say(
                f"Players: a number from {MIN_PLAYERS} to {MAX_PLAYERS}"
                + (f", not {shown!r}." if typed else "."),
                "new-table-players",
            )
            return None
        waited = self.query_one("#new-table-wait", Input).value.strip()
        try:
            wait = float(waited)
        except ValueError:
            wait = math.nan
        if not (math.isfinite(wait) and MIN_FILL_AFTER <= wait <= MAX_FILL_AFTER):
            shown = printable(waited, 10)
            self.say(
                f"The wait before bots fill the table: {MIN_FILL_AFTER:g} to "
                f"{MAX_FILL_AFTER:g} seconds" + (f", not {shown!r}." if waited else "."),
                "new-table-wait",
            )
            return None
        bot = self.query_one("#new-table-bot", Choice).value
        rated = self.rated_offered and bool(self.query_one("#new-table-rated", Choice).value)
        clock = str(self.query_one("#new-table-clock", Choice).value)
        return NewTable(int(typed), str(bot), wait, rated, clock)

    def action_open(self) -> None:
        """Enter: open the table, once every field is right."""
        table = self.chosen()
        if table is not None:
            self.dismiss(table)

    def action_cancel(self) -> None:
        """Esc: back to the tables, nothing opened."""
        self.dismiss(None)
