"""``coloretto review``: the coach goes through a finished game, decision by decision.

Every decision of the people in the game (every seat's with ``--all``) is analysed by the
search bot from what that seat knew, graded, and summed up per player. The analysis is
written into the record's metadata as it goes (so a review is done once, and an
interrupted one continues where it stopped), in the history or the file named.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from coloretto.bots.registry import BotError
from coloretto.cli.parser import Commands, bounded_int
from coloretto.cli.replay_command import skipped_note
from coloretto.engine import GameState
from coloretto.play.advice import chance_figure, percent, point_digits, signed
from coloretto.play.coach import GRADE_THRESHOLDS, REVIEW_BOT, Decision, Grade
from coloretto.play.review import Review, Reviewing, Summary, positions, review_of
from coloretto.play.saving import people
from coloretto.play.statistics import count_accuracy
from coloretto.play.words import short_action
from coloretto.store import DataDir
from coloretto.store.history import (
    HistoryProblem,
    annotating,
    find_record,
    newest_finished,
    open_record,
)
from coloretto.store.text import LONGEST_NAME, printable

DESCRIPTION = f"""\
Review a game move by move: the search bot ({REVIEW_BOT}) values every legal option
of each decision, from what that seat knew (never the order of the deck), and grades the
move played by the chance to win it lost against the best one (or the points of final
margin it lost, at 2.5 % a point, if more):
  best < 1 %   good < 5 %   inaccuracy < 10 %   mistake < 15 %   blunder 15 % or more
A loss within two standard errors of the difference (shown as ±) is no loss: the moves
are about equal, and the move is graded best; a move the hint recommended in the game
(shown beside the verdict) is at worst good, unless this look, deeper than the hint's,
says otherwise.
Each player gets an accuracy (100: always the best move) and their three costliest
decisions graded an inaccuracy or worse, with why. The analysis is kept in the record
(meta.analysis): a game is reviewed once, and an interrupted review (Ctrl+C) continues
where it stopped.
"""

EPILOG = """\
examples:
  coloretto review                        the game finished last
  coloretto review --all                  the bots' decisions too
  coloretto review NAME.json --json       a game of the history, as JSON
  coloretto review game.json --jobs 1     any record, on one core

--json prints one object: "file", "bot", "seed", "complete" (false if interrupted),
"thresholds" (the least loss of chance to win, 0 to 1, per grade), "players" (per seat
reviewed: "seat", "name", "accuracy" 0-100, "grades" (count per grade), "hints"
(decisions the hint was asked about in the game), "followed" (of those, played as hinted),
"costliest" (ply, move, round, played, best, loss, cost, why)) and "decisions" (per
decision: "ply" (actions before it), "move" (its number), "round", "seat", "name",
"played", "best", "grade", "loss" (the chance to win lost or, if more, the points lost at
2.5 % each, 0 to 1), "graded_loss" (what grades it: the loss beyond two standard errors,
else at most a good move's), "win_lost" (chance to win lost), "cost" (points of margin lost),
"win_error" and "cost_error" (their standard errors, measured deal by deal), "hint" (the
move the hint recommended in the game, or null), "options" (every legal action: "action",
"win", "margin" and their standard errors) and "pairs" (the standard errors of the
difference between two actions)).
"""


def add_parser(commands: Commands) -> None:
    """Register ``review``."""
    parser = commands.add_parser(
        "review",
        help="the coach reviews a finished game: grades, accuracy, costliest moves",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", nargs="?", metavar="FILE", help="a game record (default: the game finished last)"
    )
    parser.add_argument("--all", action="store_true", help="review the bots' decisions too")
    parser.add_argument(
        "--jobs",
        type=bounded_int(1, 256, "--jobs"),
        default=os.cpu_count() or 1,
        help="processes analysing at once (default: all cores)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (see below)")
    parser.add_argument(
        "--seed", type=bounded_int(0, 2**32 - 1, "--seed"), default=0, help="the analysis seed"
    )
    parser.add_argument(
        "--bot",
        metavar="SPEC",
        default=REVIEW_BOT,
        help=f"the analysing bot (one with an analyse method; default {REVIEW_BOT})",
    )
    parser.add_argument(
        "--again", action="store_true", help="forget the analysis kept in the record; start over"
    )
    parser.set_defaults(run=run, parser=parser)


def _fail(parser: argparse.ArgumentParser, message: str) -> int:
    print(printable(f"{parser.prog}: error: {message}"), file=sys.stderr)
    return 2


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Review the game, keep the analysis in its record, and print the review."""
    data = DataDir.default()
    if not args.file and (problem := data.problem()) is not None:
        return _fail(parser, problem)
    try:
        if args.file:
            path = find_record(args.file, data)
            record = open_record(path)
        else:
            path, record, skipped = newest_finished(data)
            if (note := skipped_note(parser.prog, skipped)) is not None:
                print(note, file=sys.stderr)
    except HistoryProblem as problem:
        return _fail(parser, str(problem))
    states = positions(record)
    kept = None if args.again else review_of(record, states)
    review = kept if kept is not None and kept.bot == args.bot else Review(args.bot, args.seed)
    seats = tuple(range(record.rules.seats)) if args.all else people(record)
    reviewing = Reviewing(record, review, seats, annotating(data, path))
    todo = len(reviewing.todo)
    try:
        complete = _analyse(reviewing, args.jobs, quiet=args.json)
    except BotError as error:
        return _fail(parser, str(error))
    names = [printable(name, LONGEST_NAME) for name in record.seats]
    report = _Report(path, review, states, names, seats, reviewing.summaries(names))
    if complete:
        trouble = count_accuracy(data, record, reviewing.summaries(record.seats))
        if trouble is not None:
            print(printable(f"coloretto review: {trouble}"), file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_json(complete=complete)))
    else:
        report.print()
    if reviewing.problem:
        lost = f"coloretto review: the analysis was not kept: {reviewing.problem}"
        print(printable(lost), file=sys.stderr)
    if not complete:
        print(
            f"Interrupted after {todo - reviewing.left} of {todo} decisions: "
            "run the same command again to continue.",
            file=sys.stderr,
        )
        return 130
    return 0


def _analyse(reviewing: Reviewing, jobs: int, *, quiet: bool) -> bool:
    """Analyse what is left with a progress bar; ``False`` if interrupted (what is done
    is kept either way)."""
    if not reviewing.todo:
        return True
    columns = (
        TextColumn("Reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeRemainingColumn(),
    )
    console = Console(stderr=True)
    with Progress(*columns, console=console, transient=True, disable=quiet) as progress:
        task = progress.add_task("review", total=len(reviewing.todo))
        try:
            reviewing.run(jobs, lambda: progress.advance(task))
        except KeyboardInterrupt:
            return False
    return True


@dataclass(frozen=True)
class _Report:
    """What the review prints: the game's decisions of ``seats`` and their summaries."""

    path: Path
    review: Review
    states: Sequence[GameState]
    names: Sequence[str]
    seats: Sequence[int]
    found: list[Summary]

    def decisions(self) -> list[Decision]:
        review = self.review
        chosen = (review.decisions[ply] for ply in sorted(review.decisions))
        return [d for d in chosen if d.seat in self.seats]

    def print(self) -> None:
        """Each player's decisions as a table (the player's name over it), then their
        summary; made to be read at 80 columns (a narrower terminal wraps the moves)."""
        console = Console(soft_wrap=False)
        review = self.review
        mine = self.decisions()
        console.print(
            Text(
                printable(
                    f"Review of {self.path.name}: {len(mine)} decisions analysed by "
                    f"{review.bot} (seed {review.seed}). Points, Win: what a move lost "
                    "(points of lead over the best rival, chance to win in percent), ± their "
                    "standard error; "
                    "Hint: the hint asked in the game (✓: followed)."
                )
            )
        )
        labels = seat_labels(self.names)
        found = {summary.seat: summary for summary in self.found}
        for seat in self.seats:
            decisions = [d for d in mine if d.seat == seat]
            if not decisions:
                continue
            console.print()
            console.print(Text(f"Decisions of {labels[seat]}", style="bold"))
            console.print(self._table(decisions))
            if (summary := found.get(seat)) is not None:
                from coloretto.tui.summary import costly_list  # noqa: PLC0415 (the tui layer loads lazily)

                console.print(Text(replace(summary, name=labels[seat]).headline, style="bold"))
                console.print(costly_list(summary))

    def _table(self, decisions: Sequence[Decision]) -> Table:
        """One player's decisions, a line each: the move's number, the move played, the
        best one and what the move lost (when it was not the best), the grade, the hint."""
        table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False)
        rows = [self._row(decision) for decision in decisions]
        columns = ("Move", "Played", "Best", "Points", "Win %", "Grade", "Hint")
        for index, column in enumerate(columns):
            if column in ("Move", "Points", "Win %"):  # figures: never cut
                widest = max(len(column), *(len(str(row[index])) for row in rows))
                table.add_column(column, justify="right", no_wrap=True, min_width=widest)
            else:  # words: wrapped on a narrow terminal, never cut
                table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row)
        return table

    def _row(self, decision: Decision) -> tuple[str, str, str, str, str, Text, str]:
        state = self.states[decision.ply]
        other = decision.grade is not Grade.BEST
        win_error, points_error = decision.errors
        chance = chance_figure(-decision.win_loss, win_error)
        digits = point_digits(points_error)
        return (
            str(decision.ply + 1),
            short_action(decision.played, state),
            short_action(decision.best, state) if other else "",
            f"{signed(-decision.cost, digits)}±{points_error:.{digits}f}" if other else "",
            f"{chance}±{percent(win_error)}" if other and chance else "",
            _grade_text(decision.grade),
            _hint_text(decision, state),
        )

    def to_json(self, *, complete: bool) -> dict[str, Any]:
        """The review as one JSON object (see ``EPILOG``)."""
        states, names = self.states, self.names

        def entry(decision: Decision) -> dict[str, Any]:
            return {
                "ply": decision.ply,
                "move": decision.ply + 1,
                "round": states[decision.ply].round,
                "seat": decision.seat,
                "name": names[decision.seat],
                "played": str(decision.played),
                "best": str(decision.best),
                "grade": decision.grade.value,
                "loss": round(decision.loss, 4),
                "graded_loss": round(decision.graded_loss, 4),
                "win_lost": round(decision.win_loss, 4),
                "cost": round(decision.cost, 2),
                "win_error": round(decision.errors[0], 4),
                "cost_error": round(decision.errors[1], 2),
                "hint": None if decision.hint is None else str(decision.hint.action),
            }

        review = self.review
        kept = {d["ply"]: d for d in review.to_meta()["decisions"]}
        return {
            "file": str(self.path),
            "bot": review.bot,
            "seed": review.seed,
            "complete": complete,
            "thresholds": {grade.value: least for least, grade in GRADE_THRESHOLDS},
            "players": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "accuracy": round(s.accuracy, 1),
                    "grades": {grade.value: n for grade, n in s.grades.items()},
                    "hints": s.hints,
                    "followed": s.followed,
                    "costliest": [{**entry(c.decision), "why": c.why.plain} for c in s.costliest],
                }
                for s in self.found
            ],
            "decisions": [
                {**entry(d), "options": kept[d.ply]["options"], "pairs": kept[d.ply]["pairs"]}
                for d in self.decisions()
            ],
        }


def seat_labels(names: Sequence[str]) -> list[str]:
    """Each seat's name, with its seat number when another seat has the same name (two
    people of a hotseat game left unnamed, a record from elsewhere).

    >>> seat_labels(["Player 1", "Player 2"]), seat_labels(["Ana", "Ana", "Bot 1"])
    (['Player 1', 'Player 2'], ['Ana (seat 1)', 'Ana (seat 2)', 'Bot 1'])
    """
    return [
        f"{name} (seat {seat + 1})" if names.count(name) > 1 else name
        for seat, name in enumerate(names)
    ]


def _hint_text(decision: Decision, state: GameState) -> str:
    """The hint given in the game for the decision: ``✓`` when it was played, else the move
    hinted (nothing when no hint was asked)."""
    hint = decision.hint
    if hint is None:
        return ""
    return "✓" if hint.recommends(decision.played) else short_action(hint.action, state)


def _grade_text(grade: Grade) -> Text:
    style = {Grade.INACCURACY: "yellow", Grade.MISTAKE: "dark_orange", Grade.BLUNDER: "bold red"}
    mark = f" {grade.mark}" if grade.mark else ""
    return Text(grade.value + mark, style=style.get(grade, ""))
