"""``coloretto score``: score a collection from the physical game."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from coloretto.cli.parser import Commands, bounded_int
from coloretto.cli.rules_options import add_scoring_argument
from coloretto.engine import ScoreBreakdown, score
from coloretto.engine.setup import CARDS_PER_COLOUR, JOKERS, PLUS2_CARDS

EXAMPLE = "coloretto score 6 4 3 2 --jokers 1 --plus2 1"


def add_parser(commands: Commands) -> None:
    """Register ``score`` with the top-level parser."""
    parser = commands.add_parser(
        "score",
        help="score a collection from a game played with real cards",
        description=(
            "Score one player's cards at the end of a game: the count of each colour, "
            "plus jokers and '+2' cards. The best joker assignment and plus colours are "
            "chosen for you, and the breakdown is shown."
        ),
        epilog=f"example: {EXAMPLE}   (prints 41)",
    )
    parser.add_argument(
        "counts",
        nargs="*",
        type=bounded_int(0, CARDS_PER_COLOUR, "a colour's count"),
        metavar="COUNT",
        help=f"cards held of each colour (0-{CARDS_PER_COLOUR}), one number per colour",
    )
    parser.add_argument(
        "--jokers", type=bounded_int(0, JOKERS, "--jokers"), default=0, help="jokers held (0-3)"
    )
    parser.add_argument(
        "--plus2",
        type=bounded_int(0, PLUS2_CARDS, "--plus2"),
        default=0,
        help="'+2' cards held (0-10)",
    )
    add_scoring_argument(parser)
    parser.add_argument(
        "--colours",
        type=bounded_int(2, 7, "--colours"),
        default=7,
        help="colours in play (jokers may join a colour you hold none of); default 7",
    )
    parser.add_argument(
        "--plus",
        type=bounded_int(1, 4, "--plus"),
        default=3,
        help="colours that score plus: 3 (default), 4 in the four-rows variant",
    )
    parser.add_argument("--json", action="store_true", help="print JSON for machines")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Score the collection described by ``args`` and print the breakdown."""
    counts: list[int] = args.counts
    if not (counts or args.jokers or args.plus2):
        parser.error(f"give the number of cards you hold of each colour, e.g. {EXAMPLE}")
    if len(counts) > args.colours:
        parser.error(f"{len(counts)} colour counts given, but only {args.colours} colours in play")
    if not counts and args.jokers:
        counts = [0]
    padded = counts + [0] * (args.colours - len(counts))
    result = score(
        dict(enumerate(padded, start=1)),
        jokers=args.jokers,
        plus2=args.plus2,
        scoring=args.scoring,
        plus_colours=args.plus,
    )
    if args.json:
        print(json.dumps(to_json(result)))
    else:
        Console().print(render(result))
    return 0


def to_json(result: ScoreBreakdown[int]) -> dict[str, object]:
    """The breakdown as JSON values; colours are numbered in the order given."""
    return {
        "total": result.total,
        "scoring": result.scoring.value,
        "sets": [
            {
                "colour": s.colour,
                "cards": s.cards,
                "jokers": s.jokers,
                "points": s.points,
                "plus": s.plus,
            }
            for s in result.sets
        ],
        "jokers": list(result.jokers),
        "plus2": result.plus2,
    }


def render(result: ScoreBreakdown[int]) -> Table:
    """A readable table of the breakdown."""
    table = Table(
        title=f"Score ({result.scoring.value} side)",
        caption="colours numbered in the order given",
    )
    table.add_column("Colour", justify="left")
    table.add_column("Cards", justify="right")
    table.add_column("Jokers", justify="right")
    table.add_column("Counts as", justify="right")
    table.add_column("Points", justify="right")
    for s in result.sets:
        style = "green" if s.plus else "red"
        table.add_row(
            f"colour {s.colour} ({'plus' if s.plus else 'minus'})",
            str(s.cards),
            str(s.jokers) if s.jokers else "",
            str(s.count),
            f"[{style}]{s.points:+d}[/]",
        )
    if result.plus2:
        table.add_row("'+2' cards", str(result.plus2), "", "", f"[green]{2 * result.plus2:+d}[/]")
    table.add_section()
    table.add_row("[bold]Total[/]", "", "", "", f"[bold]{result.total}[/]")
    return table
