"""``coloretto lobby``: the public tables of a game server, to join one with a key or open
a new one that bots fill after a wait (see ``docs/online.md``, "The lobby and ratings")."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.bots.registry import LEVELS
from coloretto.cli.online_command import (
    add_table_arguments,
    host_room,
    join_room,
    new_table,
    person_login_name,
    server_address,
    trusting,
)
from coloretto.cli.parser import Commands, fail
from coloretto.cli.server_options import add_server_arguments
from coloretto.online.client.lobby import COLUMNS, LobbyError, fetch_tables, table_row
from coloretto.online.wire.accounts import load_account
from coloretto.online.wire.messages import TableSummary
from coloretto.online.wire.protocol import (
    MAX_FILL_AFTER,
    MIN_FILL_AFTER,
    room_code,
    seat_name,
)
from coloretto.store.paths import DataDir
from coloretto.store.text import printable

DEFAULT_FILL_AFTER = 60.0
"""The wait a new public table gets when Enter is pressed at its question."""

PIPE_WIDTH = 200
"""The width of the list written to a pipe or a file."""

EPILOG = """\
Each table is numbered: type its number (or its code) and Enter to sit there; n opens a
new public table (its players, bot level and wait are asked, the options' values as the
defaults), r (or Enter) shows the list again, q quits. A rated table needs an account on the server
(coloretto account create NAME --server HOST:PORT).

examples:
  coloretto lobby --server games.example.org:7787
  coloretto lobby --server games.example.org:7787 --list      the list only, for scripts
  coloretto lobby --server games.example.org:7787 --json
"""


def add_parser(commands: Commands) -> None:
    """Register ``lobby``."""

    parser = commands.add_parser(
        "lobby",
        help="list the open public tables of a game server, and join one",
        description="List the public tables of a game server waiting for players; join one, "
        "or open a new public table.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_arguments(parser)
    parser.add_argument("--name", help="your name at the table (default: your login name)")
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--list", action="store_true", help="print the tables and exit")
    shown.add_argument("--json", action="store_true", help="print the tables as JSON and exit")
    add_table_arguments(parser)
    parser.set_defaults(run=run, parser=parser)


def tables_table(tables: tuple[TableSummary, ...]) -> Table:
    """The tables as Rich shows them, numbered from 1 (names as plain text, never markup)."""
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    for column in COLUMNS:
        table.add_column(column, no_wrap=column != "Players")
    for number, summary in enumerate(tables, start=1):
        table.add_row(*map(Text, table_row(number, summary)))
    return table


def show(console: Console, server: str, tables: tuple[TableSummary, ...]) -> None:
    """The list, or a line saying there is none."""
    if not tables:
        console.print(f"No public tables are waiting at {server}.")
    else:
        console.print(tables_table(tables))


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """List the tables; unless ``--list`` or ``--json``, let the player pick one."""
    server = server_address(args.server, parser)
    tls = trusting(args.cafile, parser) if server.startswith("wss://") else None
    shown = server.removeprefix("ws://")
    console = Console(highlight=False, markup=False, emoji=False, width=_width())
    while True:
        try:
            tables = asyncio.run(fetch_tables(server, tls))
        except LobbyError as error:
            return fail(parser, str(error))
        if args.json:
            print(json.dumps({"server": server, "tables": [t.to_json() for t in tables]}))
            return 0
        show(console, shown, tables)
        if args.list:
            return 0
        pick = f"Join which table? 1-{len(tables)} or its code, " if tables else ""
        choice = _ask(f"{pick}n a new public table, r the list again, q quit: ")
        if choice == "q":
            return 0
        if choice in ("r", ""):
            continue
        if choice == "n":
            return _open_table(args, parser)
        summary = _chosen(choice, tables)
        if summary is None:
            print(printable(f"No table {choice!r} in the list."), file=sys.stderr)
            continue
        if summary.rated and not _has_account(server):
            return fail(
                parser,
                f"table {summary.room} is rated: it needs an account on the server first "
                f"(coloretto account create NAME --server {shown})",
            )
        name = _player_name(args)
        if not name:
            return 0
        return join_room(args, parser, summary.room, name)


def _ask(question: str) -> str:
    """One line typed in answer (lower case, trimmed); ``"q"`` at the end of input."""
    try:
        return input(question).strip().lower()
    except EOFError:
        return "q"


def _chosen(choice: str, tables: tuple[TableSummary, ...]) -> TableSummary | None:
    """The table numbered (or coded) ``choice`` in the list, if there is one."""
    if choice.isdigit() and 1 <= int(choice) <= len(tables):
        return tables[int(choice) - 1]
    try:
        code = room_code(choice)
    except ValueError:
        return None
    return next((table for table in tables if table.room == code), None)


def _has_account(server: str) -> bool:
    """True when an account on ``server`` is kept here (a damaged one counts: the table
    says what is wrong with it)."""
    try:
        return load_account(DataDir.default(), server) is not None
    except ValueError:
        return True


def _player_name(args: argparse.Namespace) -> str:
    """``--name``, else the login name; else asked (``""``: none given)."""
    name = seat_name(person_login_name() if args.name is None else args.name)
    while not name:
        try:
            name = seat_name(input("Your name at the table: "))
        except EOFError:
            return ""
    return name


def _open_table(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """A new public table: its players, bot level and wait asked (Enter: the options')."""
    players = _ask(f"Players, 2 to 5 (Enter: {args.players}): ")
    if players:
        if not (players.isdigit() and 2 <= int(players) <= 5):
            return fail(parser, f"players must be 2 to 5, not {players!r}")
        args.players = int(players)
    bot = _ask(f"Bot level, {', '.join(LEVELS)} (Enter: {args.bot}): ")
    if bot:
        if bot not in LEVELS:
            return fail(parser, f"the bot level must be one of {', '.join(LEVELS)}, not {bot!r}")
        args.bot = bot
    wait = args.fill_after or DEFAULT_FILL_AFTER
    answer = _ask(
        f"Seconds before bots fill the free seats, {MIN_FILL_AFTER:g} to {MAX_FILL_AFTER:g} "
        f"(Enter: {wait:g}; s: you start the game): "
    )
    args.fill_after = None if answer == "s" else wait
    if answer not in ("", "s"):
        try:
            args.fill_after = float(answer)
        except ValueError:
            return fail(parser, f"the wait must be a number of seconds, not {answer!r}")
        if not MIN_FILL_AFTER <= args.fill_after <= MAX_FILL_AFTER:
            return fail(
                parser, f"the wait must be {MIN_FILL_AFTER:g} to {MAX_FILL_AFTER:g} seconds"
            )
    args.name = _player_name(args)
    if not args.name:
        return 0
    return host_room(args, parser, new_table(args, parser, public=True))


def _width() -> int | None:
    """The terminal's width; for a pipe or a file, room for whole rows (not 80 columns)."""
    return None if sys.stdout.isatty() else PIPE_WIDTH
