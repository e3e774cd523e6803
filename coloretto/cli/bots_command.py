"""``coloretto bots``: the installed bots, what they do, and how strong they measured."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.bots.registry import LEVELS, BotError, available, describe
from coloretto.bots.strength import MEASURED
from coloretto.store.text import printable


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``bots`` with the top-level parser."""
    parser = commands.add_parser(
        "bots",
        help="list the installed bots and the difficulty levels",
        description="List the installed bots (built-in and plug-ins), with a one-line "
        "description and their strength as measured in the arena.",
    )
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Print the bots and the levels."""
    rows = []
    for name in available():
        try:
            description = describe(name)
        except BotError as error:
            description = f"(cannot load: {error})"
        rows.append((name, description, MEASURED.get(name, "not measured")))
    if args.json:
        print(
            json.dumps(
                {
                    "bots": [{"name": n, "description": d, "strength": s} for n, d, s in rows],
                    "levels": dict(LEVELS),
                }
            )
        )
        return 0
    table = Table(title="Installed bots")
    table.add_column("Bot")
    table.add_column("What it does", ratio=3)
    table.add_column("Measured strength", ratio=2)
    for row in rows:
        table.add_row(*(Text(printable(cell)) for cell in row))  # plug-ins' text: no markup
    levels = Table(title="Difficulty levels (coloretto play --bot LEVEL)")
    levels.add_column("Level")
    levels.add_column("Bot spec")
    for level, spec in LEVELS.items():
        levels.add_row(Text(level), Text(spec))
    console = Console()
    console.print(table)
    console.print(levels)
    return 0
