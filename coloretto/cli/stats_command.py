"""``coloretto stats``: games played, wins and scores of the people who played, their
ratings (``coloretto.rating``: the bot levels held at their calibrated ratings), and charts
of their results, ratings and the coach's accuracy over time.

Every finished game's result is kept in the statistics database in the data directory
(``$COLORETTO_HOME`` moves it); this command reads it. The charts are drawn with block
characters and read without colour too (``NO_COLOR``): a bar's dotted track shows its full
length, a game's result is a glyph (``●`` won, ``◐`` tied first, ``○`` not).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.cli.parser import Commands, fail
from coloretto.play.practice import practice_json, practice_lines
from coloretto.play.statistics import (
    MonthResults,
    Recount,
    count_history,
    last_games,
    results_by_month,
)
from coloretto.rating import Rating, bot_ratings
from coloretto.store.paths import DataDir
from coloretto.store.practice import read_results
from coloretto.store.stats import (
    GroupStats,
    PersonRating,
    PersonStats,
    PlayedGame,
    Stats,
    StatsDamaged,
    StatsError,
    StatsSummary,
)
from coloretto.store.text import printable, some_names

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
              "accuracy" (their average, 0 to 100),
  "left_out": per person, the "games" left out of their figures: online games
              where a bot stood in for them while they were away,
  "practice": the puzzles of coloretto practice: "tried", and how many were
              solved at the "first" try, at the "second", or "missed"; the same
              per grade of the move played in the game ("grades": "inaccuracy",
              "mistake", "blunder"); all that for each player by name ("players"),
              with --player for that person only,
  "ratings":  per person, their rating from the games here (the bot levels held at
              their calibrated ratings): "rating" (40 x (mu - 3 sigma), 0 for a new
              player; the text shows it from 0 up), "mu" and "sigma" (the skill's mean
              and uncertainty), "games" rated and "unrated" (with a bot that has no
              rating: one named by its spec, or a level whose play has changed since).
"""


def add_parser(commands: Commands) -> None:
    """Register ``stats`` with the top-level parser."""
    parser = commands.add_parser(
        "stats",
        help="your games played, wins and scores against each bot level",
        description=(
            "Statistics of the finished games played on this computer: for each person,\n"
            "games played, wins (ties shared) and win rate, best and average score, by\n"
            "opponents, player count and scoring side; their rating, against the bot\n"
            "levels' ratings; charts of their results month by month and of their last\n"
            "games, of their rating month by month, and of the accuracy of the games the\n"
            "coach reviewed (coloretto review), month by month; how practice goes\n"
            "(coloretto practice)."
        ),
        epilog=JSON_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--player", metavar="NAME", help="only this person's games (the name, ignoring case)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (see below)")
    parser.add_argument(
        "--recount",
        action="store_true",
        help="count the finished games of the history that the statistics lack (done by "
        "itself when the database is missing or damaged; a damaged one is kept aside)",
    )
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Read the statistics database and print the figures (counting the history again
    first when asked, or when the database is missing or damaged)."""
    data = DataDir.default()
    if (problem := data.problem()) is not None:
        return fail(parser, problem)
    stats = Stats(data.stats)
    player: str | None = printable(args.player).strip() if args.player is not None else None
    if player == "":
        parser.error("--player needs a name")
    try:
        try:
            if args.recount or not stats.count() or stats.recount_due():
                # missing, made anew, or upgraded with games to count again: the history
                recount(parser.prog, data, quiet=not args.recount)
            summary = stats.summary(player=player, levels=LEVELS, revisions=LEVEL_REVISIONS)
        except StatsDamaged as damage:
            recount(parser.prog, data, damage=damage)
            summary = stats.summary(player=player, levels=LEVELS, revisions=LEVEL_REVISIONS)
        played = () if args.json else stats.played(player)
        levels = bot_ratings()
        ratings = stats.ratings(levels, player, levels=LEVELS, revisions=LEVEL_REVISIONS)
        anyone = bool(summary.people) or bool(player and stats.summary().people)
    except StatsError as error:
        return fail(parser, f"{error}{_advice(error)}")
    except ValueError as error:  # the packaged bot ratings are damaged
        return fail(parser, str(error))
    if args.json:
        rated = [rating.to_json() for rating in ratings]
        practice = {"practice": practice_json(read_results(data, player).results)}
        print(
            json.dumps(
                {"database": str(stats.path), **summary.to_json(), "ratings": rated, **practice}
            )
        )
        return 0
    console = Console()
    if not summary.people:
        for line in left_out_lines(summary):
            console.print(line, markup=False)
        if summary.left_out:
            return 0
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
        print_practice(console, data, player)
        return 0
    console.print(f"{_count(summary.games, 'finished game')} recorded.", markup=False)
    by_name = {rating.player: rating for rating in ratings}
    for person in summary.people:
        console.print(_overall(person), markup=False)
        for line in (
            rating_lines(by_name[person.player], levels) if person.player in by_name else ()
        ):
            console.print(line, markup=False)
    for line in left_out_lines(summary):
        console.print(line, markup=False)
    console.print(render(summary, console.width))
    if played:
        console.print(render_results(played, console.width))
    if any(rating.history for rating in ratings):
        console.print(render_ratings(ratings, levels, console.width))
    if summary.accuracy:
        console.print(render_accuracy(summary, console.width))
    print_practice(console, data, player)
    return 0


def print_practice(console: Console, data: DataDir, player: str | None = None) -> None:
    """How practice goes (``coloretto practice``), in words, for each player (``player``
    only, when given); nothing before any puzzle."""
    kept = read_results(data, player)
    for line in practice_lines(kept.results):
        console.print(line, markup=False)
    if kept.problem is not None:
        console.print(f"Practice: {kept.problem}.", markup=False)


def recount(
    prog: str, data: DataDir, *, quiet: bool = False, damage: StatsDamaged | None = None
) -> None:
    """Count the games of the history in the statistics, with one line on standard error
    saying what was done (none when ``quiet`` and nothing was); a ``damage``d database is
    first set aside (renamed, never deleted: a tool may recover games the history no
    longer holds). ``StatsError`` if it cannot be done."""
    aside = ""
    if damage is not None:
        try:
            kept: Path | None = Stats(data.stats).set_aside()
        except FileNotFoundError:  # another process set it aside already
            kept = None
        except OSError as error:
            raise StatsError(
                f"{damage}; it could not be set aside ({error.strerror or error}): move it "
                "away, and coloretto stats counts the games of the history again"
            ) from error
        aside = f"the statistics database was damaged, and is kept as {kept}; " if kept else ""
    done = count_history(data)
    if quiet and not aside and not done.added:
        return
    counted = f"{done.games} finished {'game' if done.games == 1 else 'games'}"
    note = f"{aside}counted {counted} of {data.history} ({done.added} new)"
    if done.skipped:
        note += f"; passed over {passed_over(done)}"
    if done.unread:
        note += f"; {done.unread} older files were not read"
    if aside:
        note += "; games no longer in the history are not counted"
    print(printable(f"{prog}: {note}"), file=sys.stderr)


def passed_over(done: Recount) -> str:
    """The files of the history a recount did not count, named (a few, the rest counted),
    the unreadable ones apart from the records of no finished game played here.

    >>> print(passed_over(Recount(0, 0, (Path("z.json"),), (), 0)))
    1 file that cannot be read (z.json; coloretto replay --list says why)
    >>> print(passed_over(Recount(0, 0, (), tuple(Path(f"{n}.json") for n in "abcde"), 0)))
    5 records of no finished game played here (a.json, b.json, c.json and 2 more)
    """
    parts = []
    if n := len(done.unreadable):
        names = some_names([path.name for path in done.unreadable])
        files = "file that cannot" if n == 1 else "files that cannot"
        parts.append(f"{n} {files} be read ({names}; coloretto replay --list says why)")
    if n := len(done.elsewhere):
        names = some_names([path.name for path in done.elsewhere])
        records = "record" if n == 1 else "records"
        parts.append(f"{n} {records} of no finished game played here ({names})")
    return " and ".join(parts)


def left_out_lines(summary: StatsSummary) -> list[str]:
    """The games left out of each person's figures, and why.

    >>> from coloretto.store.stats import LeftOut
    >>> print(*left_out_lines(StatsSummary(3, (), (), left_out=(LeftOut("Ana", 2),))))
    Ana: 2 games left out, where a bot stood in while Ana was away (online).
    """
    lines = []
    for left in summary.left_out:
        name = printable(left.player)
        games = "game" if left.games == 1 else "games"
        lines.append(
            f"{name}: {left.games} {games} left out, where a bot stood in while {name} was "
            "away (online)."
        )
    return lines


def _advice(error: StatsError) -> str:
    """What to do about a statistics database this program must not touch."""
    if "not a coloretto statistics database" in str(error):
        return ": move it away, and coloretto stats counts the games of the history again"
    return ""


WIDEST_BAR = 40
"""The most cells a chart's bar takes (its full length is 100 %)."""

LAST_GAMES = 40
"""The most games in the strip of the last games' scores."""

EIGHTHS = " ▏▎▍▌▋▊▉█"
"""A cell filled from the left by 0 to 8 eighths."""

SPARKS = "▁▂▃▄▅▆▇█"
"""A score, low to high, in one cell."""


def bar(share: float, cells: int, style: str) -> Text:
    """A bar ``share`` (0 to 1) of ``cells`` long, to an eighth of a cell, on a dotted
    track that shows its full length.

    >>> bar(0.5, 8, "green").plain, bar(1.0, 4, "green").plain, bar(0.3, 4, "green").plain
    ('████····', '████', '█▎··')
    """
    eighths = round(max(0.0, min(1.0, share)) * cells * 8)
    whole, part = divmod(eighths, 8)
    text = Text("█" * whole, style)
    if part:
        text.append(EIGHTHS[part], style)
    text.append("·" * (cells - whole - (1 if part else 0)), "dim")
    return text


def bar_cells(width: int, beside: int) -> int:
    """A bar's length on a line of ``width`` cells with ``beside`` cells of text.

    >>> bar_cells(160, 40), bar_cells(60, 40), bar_cells(30, 40)
    (40, 20, 10)
    """
    return max(10, min(WIDEST_BAR, width - beside))


def _heading(title: str, player: str | None) -> Text:
    if player is None:
        return Text(title, "bold")
    return Text.assemble((title, "bold"), (f": {printable(player)}", "bold"))


def render_results(played: Sequence[PlayedGame], width: int) -> Group:
    """Each person's win rate month by month as bars, and their last games' scores as a
    strip of blocks with the results under it."""
    months = results_by_month(played)
    cells = bar_cells(width, 42)
    people = sorted({result.player for result in months})
    lines: list[Text] = []
    for person in people:
        lines.append(_heading("Results over time (wins per game, month by month)", person))
        for result in (r for r in months if r.player == person):
            lines.append(_month_line(result, cells))
        last = last_games(played, person, min(LAST_GAMES, max(1, width - 4)))
        if len(last) > 1:
            lines.extend(_last_lines(last))
    return Group(*lines)


def _month_line(result: MonthResults, cells: int) -> Text:
    games = "game" if result.games == 1 else "games"
    return Text.assemble(
        f"  {result.month}  ",
        bar(result.win_rate, cells, "green"),
        f" {result.win_rate:4.0%}  {result.games} {games} · average {result.average:.1f}",
    )


def _last_lines(last: Sequence[PlayedGame]) -> list[Text]:
    """The last games' scores (a block each, low to high) and results (a glyph each)."""
    low, high = min(g.score for g in last), max(g.score for g in last)
    spread = max(1, high - low)
    sparks = Text("  ")
    results = Text("  ")
    for game in last:
        sparks.append(SPARKS[round((game.score - low) / spread * (len(SPARKS) - 1))], "cyan")
        if game.win >= 1.0:
            results.append("●", "green")
        elif game.win > 0.0:
            results.append("◐", "yellow")
        else:
            results.append("○", "red")
    return [
        Text(f"  the last {len(last)} games, oldest first: scores {low} to {high}, results"),
        sparks,
        results,
        Text("  ● won  ◐ tied first  ○ not", "dim"),
    ]


def rating_lines(rating: PersonRating, levels: Mapping[str, Rating]) -> list[str]:
    """A person's rating in words: one number and where it stands among the bot
    ``levels``' figures (weakest first; the figures it is measured against beside it, as
    the chart's "the levels" line shows them), how sure it is and the games it counts, and
    why an uncertain one is low; the games not rated. One placement, the number's: a
    second one, of the play's likeliest skill, would read as another rating.

    >>> from coloretto.store.stats import RatingPoint
    >>> levels = {"easy": Rating(23.8, 2.0), "normal": Rating(39.3, 1.9)}
    >>> now = Rating(28.0, 7.8, 12)
    >>> ana = PersonRating("Ana", now, (RatingPoint("2026-11", now),), unrated=2)
    >>> for line in rating_lines(ana, levels):
    ...     print(line)
      rating 184: below the easy level (easy 712)
      still uncertain (12 games)
      (what the games so far make sure of; it rises as more games make it surer)
      2 games not rated: a bot without a rating
    """
    unrated = f"  {_count(rating.unrated, 'game')} not rated: a bot without a rating"
    if not rating.history:
        return ["  no rating yet", *([unrated] if rating.unrated else [])]
    now = rating.rating
    shown = shown_rating(now)
    figures = {name: shown_rating(level) for name, level in levels.items()}
    place, near = among_levels(shown, figures)
    against = ", ".join(f"{name} {figures[name]}" for name in near)
    lines = [
        f"  rating {shown}: {place} ({against})",  # on its own line: 80 columns hold it
        f"  {certainty(now)} ({_count(now.games, 'game')})",
    ]
    if now.sigma >= UNCERTAIN_SIGMA:
        lines.append("  (what the games so far make sure of; it rises as more games make it surer)")
    return lines + ([unrated] if rating.unrated else [])


def shown_rating(rating: Rating) -> int:
    """``rating.shown`` as the text shows it: never below 0, a new player's rating (the
    beginner level's is far below; ``--json`` keeps the figure).

    >>> shown_rating(Rating(30.0, 2.0)), shown_rating(Rating(-13.0, 3.8))
    (960, 0)
    """
    return max(0, rating.shown)


def among_levels(figure: float, levels: Mapping[str, float]) -> tuple[str, list[str]]:
    """Where ``figure`` stands among the bot ``levels``' figures (weakest first), in
    words that agree with those figures: at a level (its figure), below the weakest,
    between two, or above the strongest; and the levels it is measured against.

    >>> levels = {"beginner": 0, "easy": 714, "normal": 1345}
    >>> for figure in (0, 184, 714, 1000, 1345, 1500):
    ...     print(among_levels(figure, levels))
    ('at the beginner level', ['beginner'])
    ('between the beginner and easy levels', ['beginner', 'easy'])
    ('at the easy level', ['easy'])
    ('between the easy and normal levels', ['easy', 'normal'])
    ('at the normal level', ['normal'])
    ('above the normal level', ['normal'])
    >>> among_levels(-5, levels), among_levels(0, {"beginner": 0, "novice": 0})[0]
    (('below the beginner level', ['beginner']), 'at the beginner and novice levels')
    """
    names = list(levels)
    at = [name for name in names if levels[name] == figure]
    if at:
        return f"at the {' and '.join(at)} level{'s' if len(at) > 1 else ''}", at
    below = [name for name in names if levels[name] < figure]
    if not below:
        return f"below the {names[0]} level", names[:1]
    if len(below) == len(names):
        return f"above the {names[-1]} level", names[-1:]
    lower, upper = below[-1], names[len(below)]
    return f"between the {lower} and {upper} levels", [lower, upper]


UNCERTAIN_SIGMA = 4.0
"""From this ``sigma`` up a rating is "still uncertain" (a new player's is 25/3; about 25
games against bots bring it here)."""

SETTLED_SIGMA = 2.5
"""Below this ``sigma`` a rating is "settled", about as sure as the levels' own (about 100
games against bots bring it here)."""


def certainty(rating: Rating) -> str:
    """How sure ``rating`` is, in words.

    >>> certainty(Rating(25.0, 6.0)), certainty(Rating(25.0, 3.0)), certainty(Rating(25.0, 2.0))
    ('still uncertain', 'nearly settled', 'settled')
    """
    if rating.sigma >= UNCERTAIN_SIGMA:
        return "still uncertain"
    return "nearly settled" if rating.sigma >= SETTLED_SIGMA else "settled"


def render_ratings(
    ratings: Sequence[PersonRating], levels: Mapping[str, Rating], width: int
) -> Group:
    """Each person's rating at the end of each month as bars (the full length: the
    strongest level's rating, or theirs if higher; 0 is an empty bar), with the levels'
    ratings to compare."""
    cells = bar_cells(width, 30)
    top = max(
        [1, *(r.shown for r in levels.values())]
        + [point.rating.shown for person in ratings for point in person.history]
    )
    lines: list[Text] = []
    for person in ratings:
        if not person.history:
            continue
        lines.append(_heading("Rating over time (at each month's end)", person.player))
        months: dict[str, tuple[Rating, int]] = {}
        for point in person.history:
            month = point.finished_at[:7]
            months[month] = (point.rating, months.get(month, (point.rating, 0))[1] + 1)
        for month, (rating, games) in months.items():
            lines.append(
                Text.assemble(
                    f"  {month}  ",
                    bar(shown_rating(rating) / top, cells, "magenta"),
                    f" {shown_rating(rating):5d}  {_count(games, 'game')}",
                )
            )
    levels_now = ", ".join(f"{level} {shown_rating(r)}" for level, r in levels.items())
    lines.append(Text(f"  the levels: {levels_now}; a new player: 0", "dim"))
    return Group(*lines)


def render_accuracy(summary: StatsSummary, width: int = 80) -> Group:
    """Each person's average accuracy in the games the coach reviewed, month by month, as
    bars (the full length: 100)."""
    cells = bar_cells(width, 32)
    lines: list[Text] = []
    for person in sorted({a.player for a in summary.accuracy}):
        lines.append(_heading("Accuracy over time (the coach's, 0-100)", person))
        for point in (a for a in summary.accuracy if a.player == person):
            lines.append(
                Text.assemble(
                    f"  {point.month}  ",
                    bar(point.accuracy / 100, cells, "cyan"),
                    f" {point.accuracy:3.0f}  {point.games} reviewed",
                )
            )
    lines.append(Text("  reviewed games: coloretto review", "dim"))
    return Group(*lines)


NARROW = 80
"""Under this many columns the figures' table is drawn narrower: no column lines, each
person's groups under their name, shorter headings."""


def render(summary: StatsSummary, width: int = NARROW) -> Table:
    """The figures by opponents, player count and scoring side (and person, if several),
    in ``width`` columns."""
    several = len(summary.people) > 1
    narrow = width < NARROW
    table = Table(
        title="By opponents and game",
        caption="game: players (p) and scoring side",
        box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD,
        pad_edge=not narrow,
    )
    if several and not narrow:
        table.add_column("Player", overflow="fold")
    widest = max((len(printable(group.opponents)) for group in summary.groups), default=0)
    table.add_column("Opponents", min_width=min(widest, 10), overflow="fold")
    table.add_column("Game", no_wrap=True)
    headings = ("Games", "Wins", "Win%", "Best", "Avg") if narrow else FIGURES
    for column in headings:
        table.add_column(column, justify="right", no_wrap=True)
    person = None
    for group in summary.groups:
        if several and narrow and group.player != person:
            table.add_row(Text(printable(group.player), "bold"))
        person = group.player
        table.add_row(
            *([Text(printable(group.player))] if several and not narrow else []),
            Text(printable(group.opponents)),
            f"{group.players}p {group.scoring}",
            *_figures(group),
        )
    return table


FIGURES = ("Games", "Wins", "Win %", "Best", "Average")


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
