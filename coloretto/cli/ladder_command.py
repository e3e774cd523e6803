"""``coloretto ladder``: a game server's ratings, its best players and its bot levels on
one scale (see ``docs/online.md``, "The lobby and ratings")."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.cli.online_command import server_address, trusting
from coloretto.cli.parser import Commands, fail
from coloretto.cli.server_options import add_server_arguments
from coloretto.online.client.lobby import LobbyError, fetch_ladder
from coloretto.online.wire.messages import LadderEntry

PIPE_WIDTH = 200
"""The width of the list written to a pipe or a file."""

EPILOG = """\
A rating is shown cautiously: the skill less three times its uncertainty (the ± after it),
so it grows as games are played. Bots count at their level's calibrated rating.

examples:
  coloretto ladder --server games.example.org:7787
  coloretto ladder --server games.example.org:7787 --json
"""


def add_parser(commands: Commands) -> None:
    """Register ``ladder``."""
    parser = commands.add_parser(
        "ladder",
        help="show the ratings of a game server's players and bots",
        description="Show a game server's ladder: its best rated players and its bot levels.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_server_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the ladder as JSON")
    parser.set_defaults(run=run, parser=parser)


def ladder_table(entries: tuple[LadderEntry, ...]) -> Table:
    """The ladder as Rich shows it: rank, name, rating ± spread, games, bots marked."""
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    table.add_column("Rank", justify="right")
    table.add_column("Name")
    table.add_column("Rating", justify="right")
    table.add_column("Games", justify="right")
    table.add_column("")
    for rank, entry in enumerate(entries, start=1):
        rating = f"{entry.rating} ± {entry.spread}"
        marked = "bot" if entry.bot else ""
        table.add_row(str(rank), Text(entry.name or "?"), rating, str(entry.games), marked)
    return table


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Print the ladder."""
    server = server_address(args.server, parser)
    tls = trusting(args.cafile, parser) if server.startswith("wss://") else None
    try:
        entries = asyncio.run(fetch_ladder(server, tls))
    except LobbyError as error:
        return fail(parser, str(error))
    if args.json:
        print(json.dumps({"server": server, "entries": [e.to_json() for e in entries]}))
        return 0
    console = Console(highlight=False, markup=False, emoji=False, width=_width())
    if not entries:
        console.print(f"No ratings at {server.removeprefix('ws://')} yet.")
    else:
        console.print(ladder_table(entries))
    return 0


def _width() -> int | None:
    """The terminal's width; for a pipe or a file, room for whole rows (not 80 columns)."""
    return None if sys.stdout.isatty() else PIPE_WIDTH
