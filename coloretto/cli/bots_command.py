"""``coloretto bots``: the difficulty levels in plain words, then the installed bots, what
they do, and how strong they measured."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.bots.registry import DEFAULT_LEVEL, LEVELS, BotError, available, describe
from coloretto.bots.strength import LEVEL_STRENGTH, MEASURED
from coloretto.cli.parser import Commands
from coloretto.store.text import printable

TOUGHEST = (
    "The toughest table measured: three players the bots were not tuned on, who place "
    "cards where they hurt the next player most, gray scoring."
)


def add_parser(commands: Commands) -> None:
    """Register ``bots`` with the top-level parser."""
    parser = commands.add_parser(
        "bots",
        help="list the difficulty levels and the installed bots",
        description="Say what each difficulty level plays like and how strong it is, then "
        "list the installed bots (built-in and plug-ins), with a one-line description and "
        "their strength as measured in the arena.",
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
                    "level_strength": dict(LEVEL_STRENGTH),
                }
            )
        )
        return 0
    levels = Table(title="Difficulty levels (coloretto play --bot LEVEL)")
    levels.add_column("Level")
    levels.add_column("What it plays like, and how strong it is")
    for level, spec in LEVELS.items():
        said = Text(LEVEL_STRENGTH.get(level, ""))
        said.append(f"\n(spec: {spec})", style="dim")
        name = f"{level}\n(default)" if level == DEFAULT_LEVEL else level
        levels.add_row(Text(name), said)
    table = Table(title="Installed bots (coloretto arena --bots BOT)")
    table.add_column("Bot")
    table.add_column("What it does", ratio=3)
    table.add_column("Measured strength", ratio=2)
    for row in rows:
        table.add_row(*(Text(printable(cell)) for cell in row))  # plug-ins' text: no markup
    console = Console()
    console.print(levels)
    console.print(Text(TOUGHEST))
    console.print(table)
    console.print(Text("Every table and how it was measured: docs/bots.md in the source."))
    return 0
