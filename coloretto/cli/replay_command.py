"""``coloretto replay``: step through a recorded game on the table, or list the history.

Every finished game is kept in the history (``DataDir.history``), one record file each;
``coloretto replay`` opens the latest, ``coloretto replay FILE`` any record (of a finished
game or not), ``coloretto replay --list`` lists the history. A record is only read.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from rich.box import SIMPLE_HEAD
from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.cli.parser import Commands, fail, need_terminal
from coloretto.cli.stats_command import NO_GAMES
from coloretto.engine import RecordError
from coloretto.play.replay import Replay
from coloretto.play.statistics import stood_in
from coloretto.store import DataDir
from coloretto.store.history import (
    HistoryProblem,
    find_record,
    finished_games,
    newest_finished,
    open_record,
)
from coloretto.store.records import read_record
from coloretto.store.text import LONGEST_NAME, printable, some_names

STOOD_IN = "*"
"""How the history marks a person a bot stood in for (``play.statistics.stood_in``)."""

DESCRIPTION = """\
Replay a recorded game on the table, one action at a time: the same board as during play.
Without FILE, the game finished last; every finished game is kept in the history.

Keys:
  Right / Left        one action forward / back
  Home / End          the deal / the end of the record
  ] or PageDown       the start of the next round
  [ or PageUp         the start of this round (again: of the round before)
  n                   the next inaccuracy, mistake or blunder (of a reviewed game)
  Enter               the score cards, at the end of a finished game
  m  all moves so far     r  the rules     ?  the keys     q  quit
"""

EPILOG = """\
examples:
  coloretto replay                       the game finished last
  coloretto replay --list                the history, newest first
  coloretto replay NAME.json             a game of the history, by the name --list shows
  coloretto replay game.json             any game record (coloretto-record/1)
"""


def add_parser(commands: Commands) -> None:
    """Register ``replay``."""
    parser = commands.add_parser(
        "replay",
        help="replay a finished game (or any game record) on the table",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a game record file (default: the game finished last)",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the finished games in the history (newest first) and stop",
    )
    parser.set_defaults(run=run, parser=parser)


def skipped_note(prog: str, skipped: list[Path], shown: int = 3) -> str | None:
    """One line naming the newer files of the history passed over for the game finished
    last (``None`` if none were); ``shown`` names at most, the rest are counted. Without a
    ``prog`` it is the sentence the replay's screen shows.

    >>> skipped_note("", [Path("a.json"), Path("b.json")], shown=1)[:40]
    'Skipped a.json and 1 more in the history'
    """
    if not skipped:
        return None
    names = some_names([path.name for path in skipped], shown)
    what = (
        f"skipped {names} in the history (not a finished game that can be read; "
        "coloretto replay --list says why)"
    )
    return printable(f"{prog}: {what}" if prog else what[0].upper() + what[1:])


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """List the history, or replay a record in the terminal."""
    if args.list and args.file:
        parser.error("give either FILE or --list, not both")
    data = DataDir.default()
    if not args.file and (problem := data.problem()) is not None:
        return fail(parser, problem)
    try:
        if args.list:
            print_history(finished_games(data), data.history)
            return 0
        skipped: list[Path] = []
        if args.file:
            path = find_record(args.file, data)
            record = open_record(path)
        else:
            path, record, skipped = newest_finished(data)
    except HistoryProblem as problem:
        return fail(parser, str(problem))
    need_terminal(parser, "; coloretto replay --list prints the history")
    if (note := skipped_note(parser.prog, skipped)) is not None:
        print(note, file=sys.stderr)  # seen again when the replay's screen is left
    from coloretto.tui.replay_app import ReplayApp  # noqa: PLC0415 (Textual only to play)

    app = ReplayApp(Replay.from_record(record, path.name), note=skipped_note("", skipped) or "")
    app.run()
    return app.return_code or 0


def print_history(paths: list[Path], folder: Path) -> None:
    """The games as a table: file, date, the players one a line with their scores beside
    them and "won" beside the winners, then how to replay one (``folder``: where they
    are); the text that comes from the files is shown ``printable``, never as markup. No
    games is no error: it says so, as ``coloretto stats`` does."""
    if not paths:
        print(NO_GAMES)
        print(printable(f"Finished games are kept in {folder}."))
        return
    # At 80 columns too (and in a file, which rich draws 80 wide): a name never wraps, so
    # each score stays on its player's line; the file name is never cut, to be copied.
    table = Table(
        title="Finished games, newest first",
        title_justify="left",
        box=SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        leading=1,
    )
    table.add_column("File", no_wrap=True)
    table.add_column("Date", min_width=10)
    table.add_column("Players", min_width=8)
    table.add_column("Scores", justify="right", no_wrap=True)
    table.add_column("Result", min_width=6)
    rows = [_history_row(path) for path in paths]
    for row in rows:
        table.add_row(*row)
    console = Console(soft_wrap=False)
    console.print(table)
    console.print()
    if any(STOOD_IN in row[4] for row in rows):
        console.print(
            Text(
                f"{STOOD_IN} a bot stood in for that person while they were away (online): the "
                "game is left out of their statistics"
            )
        )
    console.print(Text(f"coloretto replay FILE replays one (files in {printable(str(folder))})"))


def _history_row(path: Path) -> tuple[Text, str, Text, str, str]:
    """One game of the history: file, date, players, scores and who won (or the problem)."""
    try:
        date = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    except OSError:
        date = ""
    try:
        record = read_record(path)
    except RecordError as error:
        problem = str(error).removeprefix(f"{path}: ")
        shown = Text(printable(f"unreadable: {problem}"), "red", no_wrap=False, overflow="fold")
        return _shown(path.name), date, shown, "", ""
    state = record.state
    scores = state.final_scores() if state.is_over else state.scores()
    seats = [printable(name, LONGEST_NAME) for name in record.seats]
    outcome = state.outcome()
    if outcome is not None:  # player p sits in seat p; a ghost's seat never wins
        away = stood_in(record.meta, record.rules.players)
        result = "\n".join(
            " ".join(
                (["won"] if seat in outcome.winners else []) + ([STOOD_IN] if seat in away else [])
            )
            for seat in range(len(seats))
        )
    else:
        result = f"unfinished (round {state.round})"
    return (
        _shown(path.name),
        date,
        Text("\n".join(seats), no_wrap=True, overflow="ellipsis"),  # printable already
        "\n".join(str(score) for score in scores),
        result,
    )


def _shown(text: str, style: str = "") -> Text:
    return Text(printable(text), style)
