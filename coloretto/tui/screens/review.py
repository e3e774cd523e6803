"""The coach's review of the game just finished, from the score screen (``v``).

It opens with a chart of the reviewed person's chance to win after each of their decisions
(``WinChart``: ←/→ select a decision, whose move, best move, grade and why are shown under
it; ``p`` the next person's chart), filled in as the decisions are analysed; the summaries
follow. The analysis runs in a worker thread with a progress bar; it is kept in the game's record
in the history as it goes, like ``coloretto review``, which then has nothing left to do.
``t`` practises the mistakes found so far (``PracticeScreen``). Leaving the screen stops
the review; what is done is kept. It runs on one core: worker
processes cannot be started from inside the full-screen app (Textual replaces the standard
streams, which ``multiprocessing`` hands to its helper process), and ``coloretto review
--jobs`` is there for a faster one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import ProgressBar, Static

from coloretto.bots import Estimate
from coloretto.bots.registry import BotError
from coloretto.engine import GameRecord, GameState
from coloretto.play.advice import chance_digits, point_digits, signed, why_costly
from coloretto.play.coach import Decision, Grade
from coloretto.play.config import possessive
from coloretto.play.practice import Puzzle, puzzles
from coloretto.play.replay import Replay
from coloretto.play.review import Review, Reviewing, pending, positions, review_of
from coloretto.play.saving import people
from coloretto.play.statistics import count_accuracy
from coloretto.play.words import describe_action
from coloretto.store.history import annotating
from coloretto.store.paths import DataDir
from coloretto.store.practice import keep_result
from coloretto.store.text import printable
from coloretto.tui.screens.practice import PracticeScreen
from coloretto.tui.summary import costly_list, hint_text
from coloretto.tui.widgets import KeysBar
from coloretto.tui.widgets.win_chart import ChartPoint, WinChart, mark_style


def standing(estimate: Estimate, *, short: bool = False, beside: Estimate | None = None) -> str:
    """Where a move leaves the player by the analysis, in both measures a move is graded
    by (so that a move called better is seen better in one), to the precision of the
    errors of both moves shown together (``beside``: the other), an exact figure without
    its "±": "chance to win 16.2% (± 0.1%), lead over the best rival -3.2 (± 0.4) points"
    (``short``: the figures alone).

    >>> standing(Estimate(0.162, -3.24, 0.001, 0.4))
    'chance to win 16.2% (± 0.1%), lead over the best rival -3.2 (± 0.4) points'
    >>> played = Estimate(0.186, -6.84, 0.0001, 0.02)
    >>> standing(Estimate(0.25, -2.8, 0.0, 0.0), short=True, beside=played)
    '25.00%, -2.80 points'
    """
    both = (estimate, beside) if beside is not None else (estimate,)
    win_digits = max(chance_digits(e.win_error) for e in both)
    places = max(point_digits(e.margin_error) for e in both)
    chance = f"{100 * estimate.win:.{win_digits}f}%"
    if estimate.win_error:
        chance += f" (± {100 * estimate.win_error:.{win_digits}f}%)"
    lead = signed(estimate.margin, places)
    if estimate.margin_error:
        lead += f" (± {estimate.margin_error:.{places}f})"
    lead += " points"
    return (
        f"{chance}, {lead}" if short else f"chance to win {chance}, lead over the best rival {lead}"
    )


class StopReview(Exception):
    """Raised in the worker when the screen is left: the review stops."""


def grade_words(grade: Grade, *, plain: bool = False) -> Text:
    """A grade with its chess mark, in its colour (``plain``: bold): ``⁇ blunder``.

    >>> grade_words(Grade.BLUNDER).plain, grade_words(Grade.GOOD).plain
    ('⁇ blunder', 'good')
    """
    mark = f"{grade.mark} " if grade.mark else ""
    return Text(f"{mark}{grade.value}", mark_style(grade, plain=plain))


class ReviewChart(Vertical):
    """Each reviewed person's chart (``WinChart``, ``p`` the next person's), its title, and
    the selected decision in words under it: where, the grade and the hint given in the
    game, the move played and the best one with their chances, why."""

    DEFAULT_CSS = """
    ReviewChart {
        height: auto;
    }
    #chart-title {
        height: auto;
    }
    #chart-detail {
        height: auto;
        min-height: 3;
    }
    """

    BINDINGS = [Binding("p", "person", "Next person", id="review-person")]  # noqa: RUF012

    def __init__(
        self,
        states: Sequence[GameState],
        names: Sequence[str],
        charted: Mapping[int, Sequence[int]],
        decisions: Mapping[int, Decision],
        *,
        seat: int | None = None,
    ) -> None:
        super().__init__()
        self.states, self.names = states, names
        self.charted = charted
        """Each person's decisions (their plies, in order), analysed or not."""
        self.decisions = decisions
        """The decisions analysed, by ply."""
        self.seat: int = seat if seat is not None and seat in charted else next(iter(charted))
        """Whose chart is shown."""

    def compose(self) -> ComposeResult:
        """The title, the chart, the selected decision."""
        yield Static(id="chart-title")
        yield WinChart(self.states[0].rules.players, id="win-chart")
        yield Static(id="chart-detail")

    def draw(self, selected: int | None = None) -> None:
        """Draw the shown person's chart of ``decisions`` (selecting ``selected``, or
        keeping the selection)."""
        states = self.states
        points = [
            ChartPoint(ply, states[ply].round, self.decisions.get(ply))
            for ply in self.charted[self.seat]
        ]
        self.query_one(WinChart).show(points, selected)
        name = printable(self.names[self.seat])
        title = Text(f"{possessive(name)} chance to win after each decision", style="bold")
        if len(self.charted) > 1:
            seats = list(self.charted)
            after = seats[(seats.index(self.seat) + 1) % len(seats)]
            title.append(f"  (p: next person, {printable(self.names[after])})", "dim")
        self.query_one("#chart-title", Static).update(title)

    @on(WinChart.Selected)
    def _selected(self, event: WinChart.Selected) -> None:
        """The selected decision, under the chart."""
        self.query_one("#chart-detail", Static).update(self.detail(event.index, event.point))

    def detail(self, index: int, point: ChartPoint | None) -> Text:
        """The decision at ``point`` (the ``index``-th of the person's) in words."""
        if point is None:
            return Text("")
        count = len(self.charted[self.seat])
        where = Text(
            f"Decision {index + 1} of {count} · move {point.ply + 1}, round {point.round}: "
        )
        where.stylize("bold")
        decision = point.decision
        if decision is None:
            return Text.assemble(where, ("not analysed yet", "italic"))
        state = self.states[point.ply]
        played, best = decision.estimates[decision.played], decision.estimates[decision.best]
        lines = [Text.assemble(where, grade_words(decision.grade, plain=self.app.no_color))]
        if decision.hint is not None:  # the hint given in the game, beside the verdict
            lines[0].append_text(hint_text(decision.hint, decision.played, state))
        chance = f"after it {standing(played, beside=best)}"
        why = Text(f"Why: {printable(why_costly(state, decision, self.names).plain)}", "italic")
        if decision.best == decision.played:  # why too: against the hint's move, if another
            lines.append(
                Text(f"Played: {describe_action(decision.played, state)}, the best move; {chance}")
            )
            return Text("\n").join([*lines, why])
        # A move within twice the error of the top one is not called worse than it.
        top = "about as good" if decision.verdict.as_good else "best"
        better = standing(best, short=True, beside=played)
        lines.append(
            Text(
                f"Played: {describe_action(decision.played, state)}, {chance}; {top}: "
                f"{describe_action(decision.best, state)}, {better}"
            )
        )
        lines.append(why)
        return Text("\n").join(lines)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``p`` is offered only when several people's decisions were reviewed."""
        if action == "person":
            return len(self.charted) > 1
        return True

    def action_person(self) -> None:
        """``p``: the next person's chart."""
        seats = list(self.charted)
        if len(seats) > 1:
            self.seat = seats[(seats.index(self.seat) + 1) % len(seats)]
            self.draw(selected=0)


class ReviewScroll(VerticalScroll):
    """The review, scrolled as one when it does not fit: ↑/↓ (PgUp/PgDn a page), offered
    in the keys bar while there is more than the screen shows."""

    BINDINGS = [  # noqa: RUF012
        Binding("down", "scroll_down", "Scroll", key_display="↑/↓", id="review-scroll"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """↓ is offered when the review is taller than the screen."""
        if action == "scroll_down":
            return self.max_scroll_y > 0
        return True

    def watch_virtual_size(self) -> None:
        """The scroll key comes and goes as the review grows or shrinks (once laid out:
        its size and its content's are set one after the other)."""
        self.call_after_refresh(self.screen.refresh_bindings)

    def on_resize(self) -> None:
        """The scroll key comes and goes as the screen is resized."""
        self.call_after_refresh(self.screen.refresh_bindings)


class ReviewScreen(Screen[None]):
    """The review of one game: the chart of each person's chance to win after their
    decisions (with a progress bar while they are analysed), the selected decision, then
    each person's accuracy, grades and costliest decisions, with why."""

    CSS_PATH = "review.tcss"
    BINDINGS = [  # noqa: RUF012
        Binding("b,escape,v", "back", "Back", id="review-back"),
        Binding("t", "practice", "Practice mistakes", id="review-practice"),
    ]

    def __init__(self, record: GameRecord, path: Path | None, data: DataDir) -> None:
        super().__init__()
        self.path = path
        states = positions(record)
        review = review_of(record, states) or Review()
        keep = None if path is None else annotating(data, path)
        self.reviewing = Reviewing(record, review, people(record), keep)
        self.data = data
        self.names = record.seats
        self._leaving = False
        self.charted = self._decisions_of(self.reviewing.seats)
        """Each reviewed person's decisions (their plies, in order), analysed or not."""

    def _decisions_of(self, seats: Sequence[int]) -> dict[int, list[int]]:
        """The plies of each of ``seats``' decisions (those with any): every one the
        review analyses (a choice to make), and any analysed."""
        states = self.reviewing.states
        plies: dict[int, set[int]] = {seat: set() for seat in seats}
        for decision in self.reviewing.review.decisions.values():
            if decision.seat in plies:
                plies[decision.seat].add(decision.ply)
        for ply in pending(states, Review(), seats):
            plies[states[ply].current_player].add(ply)
        return {seat: sorted(mine) for seat, mine in plies.items() if mine}

    def compose(self) -> ComposeResult:
        """A title, the progress bar, the chart, the selected decision, the summaries."""
        with ReviewScroll(id="review"):
            yield Static(Text("The coach's review", style="bold"), id="headline")
            yield ProgressBar(total=max(1, len(self.reviewing.todo)), id="review-progress")
            if self.charted:
                decisions = dict(self.reviewing.review.decisions)
                yield ReviewChart(self.reviewing.states, self.names, self.charted, decisions)
            yield Static(id="review-body")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Draw the chart of what is analysed, and start the analysis once the screen is
        drawn (or show the review, when it is done already)."""
        self.query_one("#review-body", Static).update(
            f"Analysing {len(self.reviewing.todo)} decisions… (Esc stops; what is done is kept)"
        )
        if self.charted:
            self.query_one(ReviewChart).draw(selected=0)
            self.query_one(WinChart).focus()
        self.call_after_refresh(self._start)  # the screen first: the analysis holds the GIL

    def _start(self) -> None:
        """Start the analysis, unless the screen was left before it was drawn."""
        if not self._leaving:
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
        """One more decision analysed (in the worker): the progress bar and the chart."""
        if self._leaving:
            raise StopReview
        self.app.call_from_thread(self._analysed, dict(self.reviewing.review.decisions))

    def _analysed(self, decisions: Mapping[int, Decision]) -> None:
        self.query_one(ProgressBar).advance(1)
        self.refresh_bindings()  # t: once a mistake is found
        if self.charted:
            chart = self.query_one(ReviewChart)
            chart.decisions = decisions
            chart.draw()

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

    def _puzzles(self) -> list[Puzzle]:
        """The puzzles of the decisions analysed so far (``coloretto.play.practice``)."""
        reviewing = self.reviewing
        review = reviewing.review
        done = Review(review.bot, review.seed, dict(review.decisions))
        name = self.path.name if self.path is not None else "this game"
        return puzzles(reviewing.record, name, review=done, seats=reviewing.seats)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``t`` is offered once the review has found an inaccuracy or worse."""
        if action == "practice":
            decisions = list(self.reviewing.review.decisions.values())
            return any(d.grade.is_flaw and d.seat in self.reviewing.seats for d in decisions)
        return True

    def action_practice(self) -> None:
        """``t``: practise the mistakes found so far, as puzzles (the review goes on)."""
        found = self._puzzles()
        if not found:
            return
        data = self.data
        record = self.reviewing.record
        name = self.path.name if self.path is not None else ""
        screen = PracticeScreen(
            Replay.from_record(record, name), found, lambda result: keep_result(data, result)
        )
        self.app.push_screen(screen)

    def action_back(self) -> None:
        """Back to the score screen; a review under way stops (what is done is kept)."""
        self._leaving = True
        self.dismiss(None)


class ChartScreen(ModalScreen[int | None]):
    """The review's chart over the replay of a reviewed game: each reviewed person's chance
    to win after their decisions; Enter goes to the selected decision's move (its ply is
    the answer), Esc back."""

    CSS_PATH = "review.tcss"
    BINDINGS = [  # noqa: RUF012
        Binding("enter", "go", "Go to the move", id="chart-go"),
        Binding("escape,c,b", "dismiss(None)", "Back", id="chart-back"),
    ]

    def __init__(
        self, review: Review, states: Sequence[GameState], names: Sequence[str], ply: int
    ) -> None:
        super().__init__()
        plies: dict[int, list[int]] = {}
        for decision in sorted(review.decisions.values(), key=lambda d: d.ply):
            plies.setdefault(decision.seat, []).append(decision.ply)
        self.charted = dict(sorted(plies.items()))
        """Each person's analysed decisions (their plies, in order)."""
        self.decisions = dict(review.decisions)
        near = max((p for p in self.decisions if p <= ply), default=min(self.decisions, default=0))
        self.near = near
        """The decision shown first: the last analysed at or before ``ply``."""
        self.states, self.names = states, names

    def compose(self) -> ComposeResult:
        """The title and the chart, in a box, and the keys."""
        with ReviewScroll(id="chart-box"):
            yield Static(Text("The coach's review", style="bold"), id="headline")
            if self.charted:
                seat = self.decisions[self.near].seat if self.near in self.decisions else None
                yield ReviewChart(self.states, self.names, self.charted, self.decisions, seat=seat)
            else:
                yield Static("No decision of this game was analysed.")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Select the decision nearest to where the replay stands."""
        if self.charted:
            chart = self.query_one(ReviewChart)
            mine = list(chart.charted[chart.seat])
            chart.draw(selected=mine.index(self.near) if self.near in mine else 0)
            self.query_one(WinChart).focus()

    def action_go(self) -> None:
        """Enter: the replay at the selected decision."""
        point = self.query_one(WinChart).current if self.charted else None
        self.dismiss(None if point is None else point.ply)
