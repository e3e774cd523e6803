"""``coloretto stats``: games played, wins and scores of the people who played.

Every finished game's result is kept in the statistics database in the data directory
(``$COLORETTO_HOME`` moves it); this command reads it.
"""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.store.paths import DataDir
from coloretto.store.stats import GroupStats, PersonStats, Stats, StatsError, StatsSummary
from coloretto.store.text import printable

NO_GAMES = "No finished games yet — play one with `coloretto play`."

JSON_HELP = """\
--json prints one object:
  "database": the statistics file,
  "games":    finished games recorded (with --player: games that person played),
  "people":   one object per person (players without a bot), sorted by name:
              "player", "games", "wins" (a k-way tie for first counts 1/k),
              "win_rate" (wins / games, 0 to 1), "best" and "average" (scores),
  "groups":   the same figures for each person by "opponents" (the other players'
              bots, distinct and sorted, joined by "+", e.g. "hard+normal"; "+people"
              when other people played too; "people only" without bots; a level
              that stood for another bot then is named with it, e.g. "normal
              (expert)", and one whose play has changed since with the date,
              e.g. "hard (before 2026-11-24)"), "players" (the player count) and
              "scoring" ("brown" or "gray"),
  "accuracy": per person and month (UTC) with games reviewed by the coach
              (coloretto review): "player", "month" ("2026-11"), "games" and
              "accuracy" (their average, 0 to 100).
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``stats`` with the top-level parser."""
    parser = commands.add_parser(
        "stats",
        help="your games played, wins and scores against each bot level",
        description=(
            "Statistics of the finished games played on this computer: for each person,\n"
            "games played, wins (ties shared) and win rate, best and average score, by\n"
            "opponents, player count and scoring side; and the accuracy of the games the\n"
            "coach reviewed (coloretto review), month by month."
        ),
        epilog=JSON_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--player", metavar="NAME", help="only this person's games (the name, ignoring case)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (see below)")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Read the statistics database and print the figures."""
    stats = Stats(DataDir.default().stats)
    player: str | None = printable(args.player).strip() if args.player is not None else None
    if player == "":
        parser.error("--player needs a name")
    try:
        summary = stats.summary(player=player, levels=LEVELS, revisions=LEVEL_REVISIONS)
        anyone = bool(summary.people) or bool(player and stats.summary().people)
    except StatsError as error:
        print(printable(f"{parser.prog}: error: {error}"), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"database": str(stats.path), **summary.to_json()}))
        return 0
    console = Console()
    if not summary.people:
        if anyone:
            text = f"No finished games for {player!r} yet."
        elif summary.games:
            text = (
                f"{_count(summary.games, 'finished game')} recorded, all between bots; "
                "the statistics count the games people play."
            )
        else:
            text = NO_GAMES
        console.print(text, markup=False)
        return 0
    console.print(f"{_count(summary.games, 'finished game')} recorded.", markup=False)
    for person in summary.people:
        console.print(_overall(person), markup=False)
    console.print(render(summary))
    if summary.accuracy:
        console.print(render_accuracy(summary))
    return 0


def render_accuracy(summary: StatsSummary) -> Table:
    """Each person's average accuracy in the games the coach reviewed, month by month."""
    several = len({a.player for a in summary.accuracy}) > 1
    table = Table(
        title="Accuracy over time",
        caption="the coach's accuracy (0-100) in reviewed games (coloretto review)",
    )
    if several:
        table.add_column("Player", overflow="fold")
    table.add_column("Month", no_wrap=True)
    table.add_column("Reviewed", justify="right", no_wrap=True)
    table.add_column("Accuracy", justify="right", no_wrap=True)
    for point in summary.accuracy:
        table.add_row(
            *([Text(printable(point.player))] if several else []),
            point.month,
            str(point.games),
            f"{point.accuracy:.0f}%",
        )
    return table


def render(summary: StatsSummary) -> Table:
    """The figures by opponents, player count and scoring side (and person, if several)."""
    several = len(summary.people) > 1
    table = Table(title="By opponents and game", caption="game: players (p) and scoring side")
    if several:
        table.add_column("Player", overflow="fold")
    widest = max((len(printable(group.opponents)) for group in summary.groups), default=0)
    table.add_column("Opponents", min_width=min(widest, 10), overflow="fold")
    table.add_column("Game", no_wrap=True)
    for column in ("Games", "Wins", "Win %", "Best", "Average"):
        table.add_column(column, justify="right", no_wrap=True)
    for group in summary.groups:
        table.add_row(
            *([Text(printable(group.player))] if several else []),
            Text(printable(group.opponents)),
            f"{group.players}p {group.scoring}",
            *_figures(group),
        )
    return table


def _figures(stats: GroupStats | PersonStats) -> tuple[str, str, str, str, str]:
    return (
        str(stats.games),
        _number(stats.wins),
        f"{stats.win_rate:.0%}",
        str(stats.best),
        f"{stats.average:.1f}",
    )


def _overall(person: PersonStats) -> str:
    _, wins, rate, best, average = _figures(person)
    return (
        f"{printable(person.player)}: {_count(person.games, 'game')}, {wins} "
        f"{'win' if wins == '1' else 'wins'} ({rate}), best score {best}, "
        f"average {average}"
    )


def _number(value: float) -> str:
    """A win count: whole numbers plain, shares of ties to two decimals."""
    value = round(value, 2)
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
