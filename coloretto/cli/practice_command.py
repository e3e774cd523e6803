"""``coloretto practice``: practice from your mistakes, the puzzles of a reviewed game.

Each decision of the people in a reviewed game (``coloretto review``) graded an inaccuracy,
a mistake or a blunder comes back as a puzzle on the table as they saw it; the results are
kept for ``coloretto stats``. Without FILE, the newest finished game of the history whose
review found any.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from coloretto.cli.parser import Commands, fail, need_terminal
from coloretto.engine import GameRecord, RecordError
from coloretto.play.practice import Puzzle, puzzles
from coloretto.play.review import positions, review_of
from coloretto.store import DataDir
from coloretto.store.history import (
    MOST_TRIED,
    HistoryProblem,
    find_record,
    finished_games,
    open_record,
)
from coloretto.store.practice import PracticeResult, keep_result
from coloretto.store.records import read_record

DESCRIPTION = """\
Practice from your mistakes: each decision of yours that the coach's review graded an
inaccuracy, a mistake or a blunder comes back as a puzzle, on the table as you saw it.
Find a better move (d draws, 1-5 place or take, as in the game); a wrong first answer
is told what it is worth against the best, and gets a second try. Then the best move is
shown with what it is worth, what your answer was worth, and why the best beats the move
of the game; a shows it at once, n goes to the next puzzle, Esc leaves. An answer about
as good as the best, within twice the error of the analysis, solves the puzzle. The results are
kept under your name: coloretto stats shows how practice goes.

Without FILE, the newest finished game whose review found any; review a game first with
coloretto review (or v on the score screen, then t there).
"""

EPILOG = """\
examples:
  coloretto review && coloretto practice      review the last game, then practise it
  coloretto practice NAME.json                a reviewed game of the history
"""

NOT_REVIEWED = "coloretto review reviews the game finished last; then coloretto practice"


def add_parser(commands: Commands) -> None:
    """Register ``practice``."""
    parser = commands.add_parser(
        "practice",
        help="practice from your mistakes: the puzzles of a reviewed game",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a reviewed game record (default: the newest reviewed game with mistakes)",
    )
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Find the puzzles, then practise them in the terminal."""
    data = DataDir.default()
    if not args.file and (problem := data.problem()) is not None:
        return fail(parser, problem)
    try:
        if args.file:
            path = find_record(args.file, data)
            record = open_record(path)
            found = game_puzzles(path, record)
        else:
            path, record, found = newest_puzzles(data)
    except HistoryProblem as problem:
        return fail(parser, str(problem))
    need_terminal(parser)
    from coloretto.play.keeper import Keeper  # noqa: PLC0415 (Textual only to play)
    from coloretto.play.replay import Replay  # noqa: PLC0415
    from coloretto.tui.practice_app import PracticeApp  # noqa: PLC0415

    def keep(result: PracticeResult) -> str | None:
        return keep_result(data, result)

    app = PracticeApp(Replay.from_record(record, path.name), found, keep, Keeper(data))
    app.run()
    return app.return_code or 0


def game_puzzles(path: Path, record: GameRecord) -> list[Puzzle]:
    """The puzzles of the game in ``path``; ``HistoryProblem`` says why there are none."""
    if review_of(record, positions(record)) is None:
        raise HistoryProblem(
            f"{path.name} has not been reviewed yet: coloretto review {path.name} reviews it"
        )
    found = puzzles(record, path.name)
    if not found:
        raise HistoryProblem(
            f"the review of {path.name} found no inaccuracy, mistake or blunder of the "
            "people who played: nothing to practise"
        )
    return found


def newest_puzzles(data: DataDir) -> tuple[Path, GameRecord, list[Puzzle]]:
    """The newest finished game of the history (of the ``MOST_TRIED`` newest) with puzzles:
    its file, record and puzzles; ``HistoryProblem`` says why there is none."""
    games = finished_games(data)
    if not games:
        raise HistoryProblem(
            f"no finished games in {data.history} yet: play one with coloretto play, "
            "then coloretto review reviews it"
        )
    reviewed = 0
    for path in games[:MOST_TRIED]:
        try:
            record = read_record(path)
        except RecordError:
            continue
        if not record.state.is_over or review_of(record, positions(record)) is None:
            continue
        reviewed += 1
        found = puzzles(record, path.name)
        if found:
            return path, record, found
    if not reviewed:
        raise HistoryProblem(f"no reviewed game in {data.history} yet: {NOT_REVIEWED}")
    games_word = "game" if reviewed == 1 else f"{reviewed} games"
    raise HistoryProblem(
        f"the review of the newest {games_word} found no inaccuracy, mistake or blunder of "
        "yours: nothing to practise (give a reviewed FILE, or review another game)"
    )
