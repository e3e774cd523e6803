"""The coach's review of the game just finished, from the score screen (``v``).

The analysis runs in a worker thread with a progress bar; it is kept in the game's record
in the history as it goes, like ``coloretto review``, which then has nothing left to do.
Leaving the screen stops the review; what is done is kept. It runs on one core: worker
processes cannot be started from inside the full-screen app (Textual replaces the standard
streams, which ``multiprocessing`` hands to its helper process), and ``coloretto review
--jobs`` is there for a faster one.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from coloretto.bots.registry import BotError
from coloretto.engine import GameRecord
from coloretto.play.review import Review, Reviewing, positions, review_of
from coloretto.play.saving import people
from coloretto.play.statistics import count_accuracy
from coloretto.store.history import annotating
from coloretto.store.paths import DataDir
from coloretto.tui.summary import costly_list
from coloretto.tui.widgets import KeysBar


class StopReview(Exception):
    """Raised in the worker when the screen is left: the review stops."""


class ReviewScreen(Screen[None]):
    """The review of one game: a progress bar, then each person's accuracy, grades and
    costliest decisions, with why."""

    CSS_PATH = "end.tcss"
    BINDINGS = [Binding("b,escape,v", "back", "Back", id="review-back")]  # noqa: RUF012

    def __init__(self, record: GameRecord, path: Path | None, data: DataDir) -> None:
        super().__init__()
        states = positions(record)
        review = review_of(record, states) or Review()
        keep = None if path is None else annotating(data, path)
        self.reviewing = Reviewing(record, review, people(record), keep)
        self.data = data
        self.names = record.seats
        self._leaving = False

    def compose(self) -> ComposeResult:
        """A title, the progress bar, the summaries."""
        with VerticalScroll(id="end"):
            yield Static(Text("The coach's review", style="bold"), id="headline")
            yield ProgressBar(total=max(1, len(self.reviewing.todo)), id="review-progress")
            yield Static(id="review-body")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Start the analysis (or show the review, when it is done already)."""
        self.query_one("#review-body", Static).update(
            f"Analysing {len(self.reviewing.todo)} decisions… (Esc stops; what is done is kept)"
        )
        self.analyse()

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def analyse(self) -> None:
        """Analyse the decisions left (in a worker thread), then show the summaries."""
        reviewing = self.reviewing
        try:
            reviewing.run(1, self._advance)
        except StopReview:
            return
        except BotError as error:
            self.app.call_from_thread(self._say, f"The review failed: {error}")
            return
        self.app.call_from_thread(self.show_summaries)

    def _advance(self) -> None:
        if self._leaving:
            raise StopReview
        self.app.call_from_thread(self.query_one(ProgressBar).advance, 1)

    def _say(self, text: str) -> None:
        self.query_one("#review-body", Static).update(text)

    def show_summaries(self) -> None:
        """Each reviewed person's accuracy, grades and costliest decisions."""
        self.query_one(ProgressBar).display = False
        reviewing = self.reviewing
        found = reviewing.summaries(self.names)
        parts: list[RenderableType] = []
        for summary in found:
            parts.append(Text(summary.headline, style="bold"))
            parts.append(costly_list(summary))
        if not parts:
            nobody = "nobody played here" if not reviewing.seats else "nobody had a choice"
            parts.append(Text(f"No decision to review: {nobody}."))
        trouble = count_accuracy(self.data, reviewing.record, found)
        if trouble is not None:
            parts.append(Text(trouble, "italic"))
        if self.reviewing.problem:
            parts.append(Text(f"The analysis was not kept: {self.reviewing.problem}", "italic"))
        if any(summary.costliest for summary in found):
            parts.append(
                Text("coloretto replay shows the grades move by move (n: next mistake).", "dim")
            )
        self.query_one("#review-body", Static).update(Group(*parts))

    def action_back(self) -> None:
        """Back to the score screen; a review under way stops (what is done is kept)."""
        self._leaving = True
        self.dismiss(None)
