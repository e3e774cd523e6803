"""A game reviewed move by move: every decision of the chosen seats analysed by the coach
(``coloretto.play.coach``), kept in the record's metadata so that it is done once.

The analysis lives under ``meta.analysis`` of the record (``coloretto-analysis/1``): the
bot and seed that made it, and one entry per analysed decision (the position's ply, the
seat, the action played, every legal action's estimate, and the standard errors of the
differences between two actions, ``pairs``). A record is a file from anywhere: an entry
that does not fit the game is dropped (and analysed again), never trusted.

Each decision is analysed by the one analysis the hints ask too
(``coloretto.play.analysis.analyse_decision``), with its own seed (``decision_seed``), so a
review interrupted and continued gives the same figures as one made at once, decisions can
be analysed in any order, by several processes (``analyse``), and a decision the hint was
asked about in the game gets the hint's values (same bot, same seed). The hints given in
the game (``meta.hints``) are shown beside the review's verdicts (``Decision.hint``).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field, replace
from typing import Any

from coloretto.bots.workers import process_pool
from coloretto.engine import Action, GameRecord, GameState
from coloretto.play.advice import forced, why_costly
from coloretto.play.analysis import (
    COACH_SEED,
    MAX_BOT_SPEC,
    analyse_decision,
    hints_of,
    kept,
    valuation_json,
    valuation_of,
)
from coloretto.play.coach import REVIEW_BOT, Decision, Grade, StoredHint
from coloretto.play.words import Line

ANALYSIS_KEY = "analysis"
"""The key of the analysis in a record's metadata."""

FORMAT = "coloretto-analysis/1"


@dataclass
class Review:
    """The analysed decisions of one game, by ply, and the bot and seed that analysed them;
    ``hints``: the hints given in the game, by ply (shown with the decisions: ``add``)."""

    bot: str = REVIEW_BOT
    seed: int = COACH_SEED
    decisions: dict[int, Decision] = field(default_factory=dict)
    hints: dict[int, StoredHint] = field(default_factory=dict)

    def add(self, decision: Decision) -> None:
        """Keep ``decision``, with the hint given for it in the game, if any."""
        self.decisions[decision.ply] = replace(decision, hint=self.hints.get(decision.ply))

    def to_meta(self) -> dict[str, Any]:
        """The review as JSON-ready metadata (the value of ``meta.analysis``)."""
        return {
            "format": FORMAT,
            "bot": self.bot,
            "seed": self.seed,
            "decisions": [_decision_json(self.decisions[ply]) for ply in sorted(self.decisions)],
        }


def _decision_json(decision: Decision) -> dict[str, Any]:
    return {
        "ply": decision.ply,
        "seat": decision.seat,
        "played": str(decision.played),
        **valuation_json(decision.valuation),
    }


def positions(record: GameRecord) -> tuple[GameState, ...]:
    """Every position of the record's game: ``[0]`` the deal, ``[i]`` after ``i`` actions."""
    state = GameState.from_setup(record.state.rules, record.state.setup)
    states = [state]
    for move in record.state.history():
        state = state.apply(move.action)
        states.append(state)
    return tuple(states)


def review_of(record: GameRecord, states: Sequence[GameState]) -> Review | None:
    """The review kept in ``record`` (``None`` if there is none or it is not one), with the
    hints given in the game; only the entries that fit the game are kept."""
    data = record.meta.get(ANALYSIS_KEY)
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        return None
    bot, seed, entries = data.get("bot"), data.get("seed"), data.get("decisions")
    if not isinstance(bot, str) or not 0 < len(bot) <= MAX_BOT_SPEC:
        return None
    if type(seed) is not int or not isinstance(entries, list):
        return None
    review = Review(bot, seed, hints=hints_of(record.meta, states))
    for entry in entries:
        decision = _decision(entry, states)
        if decision is not None:
            review.add(decision)
    return review


def _decision(entry: object, states: Sequence[GameState]) -> Decision | None:
    """An analysed decision from the metadata, if it fits the game; else ``None``."""
    if not isinstance(entry, Mapping):
        return None
    ply, seat, played = (entry.get(k) for k in ("ply", "seat", "played"))
    if type(ply) is not int or not 0 <= ply < len(states) - 1:
        return None
    state = states[ply]
    move = states[ply + 1].last_move
    if move is None or seat != state.current_player or played != str(move.action):
        return None
    found = valuation_of(entry, state.legal_actions())
    if found is None:
        return None
    return Decision(ply, state.current_player, move.action, found.estimates, found.paired)


def with_review(record: GameRecord, review: Review) -> GameRecord:
    """``record`` with ``review`` in its metadata (the rest of the metadata kept)."""
    return replace(record, meta={**record.meta, ANALYSIS_KEY: review.to_meta()})


def pending(states: Sequence[GameState], review: Review, seats: Sequence[int]) -> list[int]:
    """The plies still to analyse: decisions of ``seats`` with a choice (not ``forced``),
    not yet analysed."""
    return [
        ply
        for ply, state in enumerate(states[:-1])
        if state.current_player in seats and ply not in review.decisions and forced(state) is None
    ]


SAVE_EVERY = 2.0
"""Seconds between two writes of the analysis while reviewing."""

Keep = Callable[[GameRecord], str | None]
"""Where a review is kept as it goes: writes the record with the analysis so far, and
says what went wrong (``None``: nothing), never raising (say ``store.history.annotating``)."""


class Reviewing:
    """A review under way: the decisions of ``seats`` still to analyse, analysed into
    ``review`` (with the hints given in the game) and handed to ``keep`` as it goes (every
    ``SAVE_EVERY`` seconds; never when ``keep`` is ``None``). Trouble keeping it is kept in
    ``problem`` (the review goes on)."""

    def __init__(
        self, record: GameRecord, review: Review, seats: Sequence[int], keep: Keep | None
    ) -> None:
        self.record, self.review, self.seats, self._keep = record, review, seats, keep
        self.states = positions(record)
        review.hints = hints_of(record.meta, self.states)
        for decision in list(review.decisions.values()):
            review.add(decision)
        self.todo = pending(self.states, review, seats)
        self.problem: str | None = None
        self._kept = time.monotonic()

    def run(self, jobs: int = 1, advance: Callable[[], None] | None = None) -> None:
        """Analyse the decisions to do, ``jobs`` processes at a time, calling ``advance``
        after each; what is done is kept even if interrupted (``KeyboardInterrupt``)."""
        try:
            for decision in analyse(
                self.states, self.todo, self.review.bot, self.review.seed, jobs
            ):
                self.review.add(decision)
                if advance is not None:
                    advance()
                self.keep()
        finally:
            self.keep(now=True)

    @property
    def left(self) -> int:
        """Decisions still to analyse."""
        return len(pending(self.states, self.review, self.seats))

    def keep(self, *, now: bool = False) -> None:
        """Keep the analysis so far (if due, or ``now``)."""
        if self._keep is None or self.problem is not None:
            return
        if not now and time.monotonic() - self._kept < SAVE_EVERY:
            return
        self._kept = time.monotonic()
        self.problem = self._keep(with_review(self.record, self.review))

    def summaries(self, names: Sequence[str]) -> list[Summary]:
        """Each reviewed seat's summary, by ``names``."""
        return summaries(self.review, self.states, names, self.seats)


def _quiet() -> None:
    """A worker ignores Ctrl+C: the parent stops the review and keeps what is done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


REFINE = 7
"""An unsettled decision (``Decision.unsettled``: a mistake's or a blunder's threshold
within four standard errors of what it lost, or could have lost against any other move)
is analysed again on new deals, with new opponents drawn for them, up to this many more
times, pooled, until it is settled, so that reviews with different seeds grade it alike
(about one decision in fifteen is unsettled at the first look)."""


def _analyse_one(state: GameState, ply: int, played: Action, bot: str, seed: int) -> Decision:
    valuation = analyse_decision(state, bot=bot, seed=seed)
    decision = Decision(ply, state.current_player, played, valuation.estimates, valuation.paired)
    for again in range(1, REFINE + 1):
        if not decision.unsettled:
            break
        valuation = valuation.pooled(analyse_decision(state, bot=bot, seed=seed, again=again))
        decision = replace(decision, estimates=valuation.estimates, paired=valuation.paired)
    valuation = kept(valuation)
    return replace(decision, estimates=valuation.estimates, paired=valuation.paired)


def _task(states: Sequence[GameState], ply: int) -> tuple[GameState, int, Action]:
    move = states[ply + 1].last_move
    assert move is not None
    return states[ply], ply, move.action


def analyse(
    states: Sequence[GameState], plies: Sequence[int], bot: str, seed: int, jobs: int = 1
) -> Iterator[Decision]:
    """Analyse the decisions at ``plies`` (in any order as they finish), ``jobs`` at a time
    in separate processes (``1``: in this one). Raises ``BotError`` for a bot that cannot
    analyse."""
    if jobs <= 1 or len(plies) <= 1:
        for ply in plies:
            yield _analyse_one(*_task(states, ply), bot, seed)
        return
    pool = process_pool(jobs, _quiet)  # spawned, and ending with this process however it ends
    try:
        waiting: set[Future[Decision]] = {
            pool.submit(_analyse_one, *_task(states, ply), bot, seed) for ply in plies
        }
        while waiting:
            done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@dataclass(frozen=True)
class Costly:
    """One of a player's costliest decisions, and why, in words."""

    decision: Decision
    round: int
    why: Line

    @property
    def where(self) -> str:
        """The move and round, as the review names them: ``Move 84 (round 4)``."""
        return f"Move {self.decision.ply + 1} (round {self.round})"


NO_FLAWS = "No inaccuracy, mistake or blunder: every decision was the best or close to it."
"""What the review says of a player none of whose decisions is worth pointing out."""


@dataclass(frozen=True)
class Summary:
    """One seat's review: accuracy, decisions by grade, and the costliest three."""

    seat: int
    name: str
    accuracy: float
    grades: Mapping[Grade, int]
    costliest: tuple[Costly, ...]
    hints: int = 0
    """Decisions the hint was asked about in the game."""
    followed: int = 0
    """Of those, the decisions that played the move the hint recommended."""

    @property
    def decisions(self) -> int:
        """How many decisions were analysed."""
        return sum(self.grades.values())

    @property
    def headline(self) -> str:
        """The player's accuracy and grades in one line."""
        counts = ", ".join(f"{n} {grade.plural(n)}" for grade, n in self.grades.items() if n)
        hints = f"; followed {self.followed} of {self.hints} hints" if self.hints else ""
        return (
            f"{self.name}: accuracy {self.accuracy:.0f}% over {self.decisions} decisions "
            f"({counts}){hints}"
        )


def summaries(
    review: Review, states: Sequence[GameState], names: Sequence[str], seats: Sequence[int]
) -> list[Summary]:
    """Each of ``seats`` with analysed decisions: its accuracy, grades and costliest three
    (of those graded an inaccuracy or worse: a decision close to the best is no lesson, and
    may well be one the hints advised)."""
    found = []
    for seat in seats:
        mine = [d for d in review.decisions.values() if d.seat == seat]
        if not mine:
            continue
        grades = {g: sum(d.grade is g for d in mine) for g in Grade}
        flaws = (d for d in mine if d.grade.is_flaw)
        worst = sorted(flaws, key=lambda d: (-d.loss, d.ply))[:3]
        costly = tuple(
            Costly(d, states[d.ply].round, why_costly(states[d.ply], d, names)) for d in worst
        )
        mean = sum(d.accuracy for d in mine) / len(mine)
        hinted = [d for d in mine if d.hint is not None]
        followed = sum(d.hint.recommends(d.played) for d in hinted if d.hint is not None)
        found.append(Summary(seat, names[seat], mean, grades, costly, len(hinted), followed))
    return found
