"""The lobby of a game server: its public tables waiting for players, shown again every few
seconds (for a while: ``r`` asks again after that), one picked with its number or the
arrows and Enter; or ``n``, a new public table (``NewTableScreen``), when the app can host
one. It is dismissed with the chosen table's code, or the new table (``None``: Esc)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from coloretto.online.client.lobby import COLUMNS, LobbyError, table_row
from coloretto.online.wire.messages import TableSummary
from coloretto.store.text import printable
from coloretto.tui.screens.new_table import NewTable, NewTableScreen, RatedCheck
from coloretto.tui.widgets import KeysBar, Notice

TablesFetch = Callable[[], Awaitable[tuple[TableSummary, ...]]]
"""Asks the server for its public tables (``LobbyError`` saying why not)."""

REFRESH_SECONDS = 5.0
"""How often the list is asked for again."""

MAX_REFRESHES = 60
"""The most times it is asked for by itself (five minutes); then ``r`` asks."""


class TablesScreen(Screen[str | NewTable | None]):
    """The public tables of ``server``: Enter or a table's number (1-9) picks it, ``r``
    shows the list again at once, ``n`` asks for a new public table (only with
    ``rated_check``, which says whether it may be rated), Esc goes back."""

    DEFAULT_CSS = """
    TablesScreen { align: center middle; }
    #tables { width: 100%; max-width: 110; height: auto; max-height: 100%;
              border: round $primary; padding: 0 1; }
    #tables-title { text-style: bold; margin-bottom: 1; }
    #tables-list { height: auto; max-height: 20; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("enter", "pick", "Join", id="tables-pick"),
        *(
            Binding(str(n), f"pick_number({n})", f"Table {n}", show=False, id=f"tables-{n}")
            for n in range(1, 10)
        ),
        Binding("r", "refresh", "Refresh", id="tables-refresh"),
        Binding("n", "new_table", "New table", id="tables-new"),
        Binding("escape", "back", "Back", id="tables-back"),
    ]

    def __init__(
        self, server: str, fetch: TablesFetch, *, rated_check: RatedCheck | None = None
    ) -> None:
        super().__init__()
        self.server = server
        self.fetch = fetch
        self.rated_check = rated_check
        """Whether a new table may be rated (``None``: no new tables from here)."""
        self.tables: tuple[TableSummary, ...] = ()
        self.refreshes = 0
        """The times the list was asked for by itself."""
        self.asking = False
        """True while the server is asked (one question at a time)."""

    def compose(self) -> ComposeResult:
        """The title, the list, the message line and the keys."""
        with Vertical(id="tables"):
            yield Static(f"Public tables on {printable(self.server, 80)}", id="tables-title")
            yield DataTable(id="tables-list", cursor_type="row", zebra_stripes=True)
        yield Notice(id="tables-notice")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """The list's columns; ask for the tables now and every few seconds."""
        self.query_one(DataTable).add_columns(*COLUMNS)
        self.query_one(DataTable).focus()
        self.ask()
        self.timer = self.set_interval(REFRESH_SECONDS, self.ask_again)

    def ask_again(self) -> None:
        """Ask for the tables again, until ``MAX_REFRESHES`` times."""
        self.refreshes += 1
        if self.refreshes >= MAX_REFRESHES:
            self.timer.pause()
            self.query_one(Notice).say("Press r to see the tables again.")
        self.ask()

    def ask(self) -> None:
        """Ask the server for its tables (the answer comes in a worker), unless asked
        already and not answered yet."""
        if not self.asking:
            self.asking = True
            self.run_worker(self._fetch(), group="tables")

    async def _fetch(self) -> None:
        try:
            tables = await self.fetch()
        except LobbyError as error:
            if self.is_mounted:
                self.query_one(Notice).say(printable(str(error), 300), "error")
            return
        finally:
            self.asking = False
        if self.is_mounted:
            self.show(tables)

    def show(self, tables: tuple[TableSummary, ...]) -> None:
        """The list, the cursor kept on the same table if it is still there."""
        view = self.query_one(DataTable)
        chosen = self.chosen()
        self.tables = tables
        view.clear()
        for number, table in enumerate(tables, start=1):
            view.add_row(*map(Text, table_row(number, table)), key=table.room)
        rooms = [table.room for table in tables]
        if chosen is not None and chosen in rooms:
            view.move_cursor(row=rooms.index(chosen))
        new = " n opens a new one." if self.rated_check is not None else ""
        if not tables:
            self.query_one(Notice).say(f"No public tables are waiting now.{new}")
        elif self.refreshes < MAX_REFRESHES:
            self.query_one(Notice).say(
                f"{len(tables)} table{'s' if len(tables) > 1 else ''}: Enter or its number "
                f"joins one.{new}"
            )

    def chosen(self) -> str | None:
        """The code of the table under the cursor (``None``: no tables)."""
        view = self.query_one(DataTable)
        if not self.tables or not 0 <= view.cursor_row < len(self.tables):
            return None
        return self.tables[view.cursor_row].room

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row picks its table."""
        event.stop()
        self.action_pick()

    def action_pick(self) -> None:
        """Join the table under the cursor."""
        code = self.chosen()
        if code is not None:
            self.dismiss(code)

    def action_pick_number(self, number: int) -> None:
        """Join the table of that number, if the list has it."""
        if 1 <= number <= len(self.tables):
            self.dismiss(self.tables[number - 1].room)
        else:
            self.query_one(Notice).say(f"There is no table {number} in the list.", "error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` only when the app can open a new table."""
        return action != "new_table" or self.rated_check is not None

    def action_new_table(self) -> None:
        """``n``: the new public table's form; the table asked for is this screen's
        answer."""
        if self.rated_check is None:
            return

        def asked(table: NewTable | None) -> None:
            if table is not None:
                self.dismiss(table)

        self.app.push_screen(NewTableScreen(self.server, rated=self.rated_check()), asked)

    def action_refresh(self) -> None:
        """Ask for the tables now (and again every few seconds, for a while)."""
        if self.refreshes >= MAX_REFRESHES:
            self.refreshes = 0
            self.timer.resume()
        self.ask()

    def action_back(self) -> None:
        """Back to the join screen, nothing picked."""
        self.dismiss(None)
