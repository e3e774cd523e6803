"""``coloretto arena``: bots play many games; their strength is measured."""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from coloretto.bots.arena import (
    DEFAULT_TIME_LIMIT,
    Arena,
    ArenaError,
    ArenaResult,
    BotStats,
    GameRunner,
    LocalRunner,
    RecordDirError,
    run_arena,
)
from coloretto.bots.arena_cluster import ClusterError, connect
from coloretto.bots.options import number
from coloretto.bots.registry import BotError
from coloretto.cli.parser import Commands, bounded_int
from coloretto.cli.rules_options import add_rules_arguments, rules_from_args
from coloretto.engine.record import RulesForm
from coloretto.store.text import printable


def add_parser(commands: Commands) -> None:
    """Register ``arena`` with the top-level parser."""
    parser = commands.add_parser(
        "arena",
        help="let bots play many games and measure their strength",
        description=(
            "Play many games between bots, seats rotated so that no bot keeps the "
            "first-player advantage, and print each bot's games, wins (ties split), win "
            "rate with a 95% confidence interval, mean score, mean margin, time per move, "
            "and the moves replaced because the bot failed (faults) or was too slow "
            "(timeouts). With --against, one bot plays a table of each opponent in turn."
        ),
        epilog="examples: coloretto arena --players 4 --bots search,greedy,greedy,greedy "
        "--games 1000 --seed 1; coloretto arena --players 4 --bots hard "
        "--against builder,netgain,taker,collector,denial --games 200",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        required=True,
        help="one bot spec per player, comma-separated, e.g. search:seconds=0.2,greedy; "
        "with --against, the one bot to measure",
    )
    parser.add_argument(
        "--against",
        metavar="SPECS",
        help="comma-separated opponents: the bot of --bots plays a table of players-1 "
        "copies of each in turn (the same deals and seed), one line per table",
    )
    parser.add_argument(
        "--games", type=bounded_int(1, 10_000_000, "--games"), default=100, help="games to play"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument(
        "--jobs",
        type=bounded_int(1, 256, "--jobs"),
        help="processes to play in (default: all cores)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play the games on the workers of the dask.distributed cluster whose scheduler "
        "is at ADDRESS (e.g. tcp://HOST:8786) instead of local processes; the same seed "
        "gives the same results; needs pip install 'coloretto[cluster]'",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="a move taking longer is replaced by a fallback and counted as a timeout "
        f"(default {DEFAULT_TIME_LIMIT:g}; bots are given half of it as their budget)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="stop at a bot's first fault, naming it, instead of replacing the move "
        "(for bot authors; no time limit)",
    )
    parser.add_argument(
        "--record-dir",
        type=Path,
        help="write every game's record here (with --against, one folder per table)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run, parser=parser)


def positive_seconds(text: str) -> float:
    """An argparse ``type``: a finite number of seconds above 0."""
    try:
        return number("--time-limit", float(text), above=0)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the arena (or one table per opponent) and print the table (or JSON)."""
    rules = rules_from_args(args, parser)
    bots = tuple(spec.strip() for spec in args.bots.split(","))
    if args.record_dir is not None and args.record_dir.exists() and not args.record_dir.is_dir():
        parser.error(f"--record-dir {args.record_dir} exists and is not a directory")
    if args.scheduler is not None and args.jobs is not None:
        parser.error("--jobs is for local processes; on a cluster its workers play")
    if args.against is not None and len(bots) != 1:
        parser.error(f"with --against, --bots names the one bot to measure, not {len(bots)}")
    opponents = (
        [None] if args.against is None else [spec.strip() for spec in args.against.split(",")]
    )
    try:
        arenas = [
            Arena(
                rules,
                bots if opponent is None else (bots[0], *[opponent] * (rules.players - 1)),
                args.games,
                args.seed,
                _record_dir(args.record_dir, opponent, table),
                args.time_limit,
                args.strict,
            )
            for table, opponent in enumerate(opponents)
        ]
    except (BotError, ValueError) as error:
        parser.error(str(error))
    err = Console(stderr=True)
    try:
        with _runner(args.scheduler, args.jobs) as runner:
            results = _play(arenas, runner, err)
    except ArenaError as error:
        err.print(printable(f"coloretto arena: error: {error}"), soft_wrap=True, markup=False)
        return 1
    except (RecordDirError, ClusterError) as error:
        err.print(printable(f"coloretto arena: error: {error}"), soft_wrap=True, markup=False)
        return 2
    if args.against is not None:
        table = AgainstTables(bots[0], results)
        if args.json:
            print(json.dumps(table.to_json()))
        else:
            _show(table.render())
            Console().print(printable(table.worst_line()), soft_wrap=True, markup=False)
    elif args.json:
        print(json.dumps(results[0].to_json()))
    else:
        _show(render(results[0]))
    return 0


def _play(arenas: list[Arena], runner: GameRunner, err: Console) -> list[ArenaResult]:
    """Every table's games on ``runner``, a progress bar on a terminal as games finish."""
    results: list[ArenaResult] = []
    games = arenas[0].games
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not sys.stderr.isatty(),
    ) as progress:
        task = progress.add_task("playing", total=games * len(arenas))
        for arena in arenas:
            before = len(results) * games
            advance = _advance(progress, task, before)
            results.append(run_arena(arena, on_game=advance, runner=runner))
    return results


def _show(table: Table) -> None:
    """Print ``table`` whole: a terminal's width is the user's, but output to a file or a
    pipe gets the width the table needs rather than 80 columns."""
    console = Console()
    if not console.is_terminal:
        wide = console.options.update_width(1000)
        console = Console(width=max(console.width, console.measure(table, options=wide).maximum))
    console.print(table)


def _advance(progress: Progress, task: TaskID, before: int) -> Callable[[int], None]:
    """Moves the progress bar as a table's games finish, after ``before`` earlier games."""
    return lambda finished: progress.update(task, completed=before + finished)


@contextmanager
def _runner(scheduler: str | None, jobs: int | None) -> Iterator[GameRunner]:
    """Local processes, or with a scheduler's address its cluster (closed afterwards).

    dask's own log lines are not shown (a lost scheduler fills them with the tracebacks
    of its reconnection): the arena says what went wrong in one line."""
    if scheduler is None:
        yield LocalRunner(jobs or os.cpu_count() or 1)
        return
    with connect(scheduler) as runner:
        for name, logger in list(logging.root.manager.loggerDict.items()):
            if name.partition(".")[0] == "distributed" and isinstance(logger, logging.Logger):
                logger.setLevel(logging.CRITICAL)
        yield runner


def _record_dir(root: Path | None, opponent: str | None, table: int) -> Path | None:
    """Where a table's records go: ``root``, or with --against a folder per opponent."""
    if root is None or opponent is None:
        return root
    return root / f"{table + 1}-{re.sub(r'[^A-Za-z0-9.=-]+', '-', opponent)}"


def render(result: ArenaResult) -> Table:
    """A table with one line per bot."""
    rules = result.arena.rules
    table = Table(
        title=f"{result.games} games, {rules.players} players, {rules.scoring.value} scoring"
        + (f", {rules.variant.value}" if rules.variant.value != "standard" else "")
        + (f", {rules.edition.value}" if rules.edition.value != "classic" else ""),
    )
    table.add_column("Bot", no_wrap=True, min_width=max(map(len, result.bots)))
    for column in ("Games", "Wins", *COLUMNS):
        table.add_column(column, justify="right", no_wrap=True)
    for stats in result.bots.values():
        table.add_row(
            Text(printable(stats.name)), str(stats.games), f"{stats.wins:.1f}", *_figures(stats)
        )
    return table


COLUMNS = ("Win rate", "95% CI", "Score", "Margin", "ms/move", "worst ms", "Faults", "Timeouts")


def _figures(stats: BotStats) -> tuple[str, ...]:
    """One bot's figures, in the order of ``COLUMNS``."""
    low, high = stats.ci95
    return (
        f"{stats.win_rate:.1%}",
        f"{100 * low:.1f}-{100 * high:.1f}%",
        f"{stats.mean_score:.1f}",
        f"{stats.mean_margin:+.1f}",
        f"{1000 * stats.mean_move_seconds:.1f}",
        f"{1000 * stats.max_move_seconds:.0f}",
        str(stats.faults),
        str(stats.timeouts),
    )


@dataclass(frozen=True)
class AgainstTables:
    """One bot's results against a table of each opponent; the worst is its lowest win rate."""

    bot: str
    results: list[ArenaResult]

    def rows(self) -> list[tuple[str, BotStats]]:
        """Per table: the opponent, and the measured bot's statistics."""
        return [(r.arena.bots[-1], r.bots[self.bot]) for r in self.results]

    def worst(self) -> tuple[str, BotStats]:
        """The table where the bot won least."""
        return min(self.rows(), key=lambda row: (row[1].win_rate, row[1].mean_margin))

    def render(self) -> Table:
        """A table with one line per opponent table."""
        rules = self.results[0].arena.rules
        table = Table(
            title=Text(
                printable(
                    f"{self.bot} against {rules.players - 1} of each, {self.results[0].games} "
                    f"games per table, {rules.players} players, {rules.scoring.value} scoring"
                )
            )
        )
        rows = self.rows()
        table.add_column("Against", no_wrap=True, min_width=max(len(o) for o, _ in rows))
        for column in ("Games", *COLUMNS):
            table.add_column(column, justify="right", no_wrap=True)
        for opponent, stats in rows:
            table.add_row(Text(printable(opponent)), str(stats.games), *_figures(stats))
        return table

    def worst_line(self) -> str:
        """The worst case in one line."""
        opponent, stats = self.worst()
        low, high = stats.ci95
        return (
            f"worst: against {opponent}, {stats.win_rate:.1%} "
            f"({100 * low:.1f}-{100 * high:.1f}%), margin {stats.mean_margin:+.1f}"
        )

    def to_json(self) -> dict[str, object]:
        """The tables as one JSON object."""
        first = self.results[0].arena
        opponent, _ = self.worst()
        return {
            "bot": self.bot,
            "rules": RulesForm.of(first.rules).to_json(),
            "seed": first.seed,
            "games": self.results[0].games,
            "tables": [{"against": o, **stats.to_json()} for o, stats in self.rows()],
            "worst": opponent,
        }
