"""``coloretto arena``: bots play many games; their strength is measured."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from coloretto.bots.arena import Arena, ArenaError, ArenaResult, run_arena
from coloretto.bots.registry import BotError
from coloretto.cli.parser import bounded_int
from coloretto.cli.rules_options import add_rules_arguments, rules_from_args


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``arena`` with the top-level parser."""
    parser = commands.add_parser(
        "arena",
        help="let bots play many games and measure their strength",
        description=(
            "Play many games between bots, seats rotated so that no bot keeps the "
            "first-player advantage, and print each bot's games, wins (ties split), win "
            "rate with a 95%% confidence interval, mean score and mean margin."
        ),
        epilog="example: coloretto arena --players 4 --bots search,greedy,greedy,greedy "
        "--games 1000 --seed 1",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        required=True,
        help="one bot spec per player, comma-separated, e.g. search:seconds=0.2,greedy",
    )
    parser.add_argument(
        "--games", type=bounded_int(1, 10_000_000, "--games"), default=100, help="games to play"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument(
        "--jobs",
        type=bounded_int(1, 256, "--jobs"),
        default=os.cpu_count() or 1,
        help="processes to play in (default: all cores)",
    )
    parser.add_argument("--record-dir", type=Path, help="write every game's record here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the arena and print the table (or JSON)."""
    rules = rules_from_args(args, parser)
    bots = tuple(spec.strip() for spec in args.bots.split(","))
    if args.record_dir is not None and args.record_dir.exists() and not args.record_dir.is_dir():
        parser.error(f"--record-dir {args.record_dir} exists and is not a directory")
    try:
        arena = Arena(rules, bots, args.games, args.seed, args.record_dir)
    except (BotError, ValueError) as error:
        parser.error(str(error))
    err = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not sys.stderr.isatty(),
    ) as progress:
        task = progress.add_task("playing", total=args.games)
        try:
            result = run_arena(
                arena, args.jobs, on_game=lambda r: progress.update(task, completed=r.games)
            )
        except ArenaError as error:
            err.print(f"coloretto arena: error: {error}")
            return 1
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        Console().print(render(result))
    return 0


def render(result: ArenaResult) -> Table:
    """A table with one line per bot."""
    rules = result.arena.rules
    table = Table(
        title=f"{result.games} games, {rules.players} players, {rules.scoring.value} scoring"
        + (f", {rules.variant.value}" if rules.variant.value != "standard" else "")
        + (f", {rules.edition.value}" if rules.edition.value != "classic" else ""),
    )
    table.add_column("Bot", no_wrap=True)
    for column in ("Games", "Wins", "Win rate", "95% CI", "Score", "Margin", "ms/move"):
        table.add_column(column, justify="right", no_wrap=True)
    for stats in result.bots.values():
        low, high = stats.ci95
        table.add_row(
            stats.name,
            str(stats.games),
            f"{stats.wins:.1f}",
            f"{stats.win_rate:.1%}",
            f"{100 * low:.1f}-{100 * high:.1f}%",
            f"{stats.mean_score:.1f}",
            f"{stats.mean_margin:+.1f}",
            f"{1000 * stats.mean_move_seconds:.1f}",
        )
    return table
