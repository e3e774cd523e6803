"""Practice from your mistakes (Lichess's "learn from your mistakes"): every decision of a
reviewed game that the coach graded an inaccuracy or worse comes back as a puzzle, the
position as the player saw it (their seat to move, the table before their decision).

An answer is checked against the review's analysis of that decision, with the review's own
measures (``coloretto.play.coach``): it solves the puzzle when it is the best move or one
the review would call about as good, within twice the error (``Decision.verdict``, the one rule
the review's grades and words go by). A wrong first
answer gets a second try (``MAX_TRIES``) and is told what it is worth against the best;
then, or when the answer is asked for, the best move is shown with its value in plain words
(``worth``), what the player's own answer was worth, and why the best beats the move played
in the game (the review's sentence, ``why_costly``).

How practice goes, in words (``practice_lines``), is made of the results kept
(``coloretto.store.practice``), each player's under their name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import Enum

from coloretto.engine import Action, GameRecord, GameState
from coloretto.play.advice import (
    chance_digits,
    cost_words,
    percent,
    point_digits,
    signed,
    why_costly,
)
from coloretto.play.coach import Decision, Grade, Verdict
from coloretto.play.config import possessive
from coloretto.play.review import Review, positions, review_of
from coloretto.play.saving import people
from coloretto.play.words import describe_action
from coloretto.store.practice import PracticeResult
from coloretto.store.text import LONGEST_NAME, printable

MAX_TRIES = 2
"""Answers a puzzle takes: a wrong first one gets a second try."""


def margin_words(margin: float, error: float = 0.0) -> str:
    """The expected final margin (the player's score less the best of the others') in
    plain words, with its standard error when there is one.

    >>> margin_words(2.14, 0.4), margin_words(-3.6), margin_words(0.04, 0.2)
    ('on average you end 2.1 (± 0.4) points ahead of the best of the others', \
'on average you end 3.6 points behind the best of the others', \
'on average you end level with the best of the others (± 0.2 points)')
    """
    digits = point_digits(error)
    shown = signed(margin, digits)
    if float(shown) == 0:
        plus_minus = f" (± {error:.{digits}f} points)" if error else ""
        return f"on average you end level with the best of the others{plus_minus}"
    plus_minus = f" (± {error:.{digits}f})" if error else ""
    side = "ahead of" if margin > 0 else "behind"
    return f"on average you end {shown[1:]}{plus_minus} points {side} the best of the others"


class Outcome(Enum):
    """How a puzzle went (the values are those ``coloretto.store.practice`` keeps)."""

    FIRST = "first"
    SECOND = "second"
    MISSED = "missed"

    @property
    def solved(self) -> bool:
        """True when the puzzle was solved, at the first try or the second."""
        return self is not Outcome.MISSED


@dataclass(frozen=True)
class Puzzle:
    """One decision of a reviewed game graded an inaccuracy or worse, to solve again:
    ``state`` is the position before it (the seat to move is the player's), ``decision``
    the review's analysis of it (the move played in the game, every move's value)."""

    game: str
    """The game's record (its file name), for the results."""
    state: GameState
    decision: Decision
    names: tuple[str, ...]
    """The seats' names, as the review names them."""

    @property
    def seat(self) -> int:
        """The player's seat."""
        return self.decision.seat

    @property
    def player(self) -> str:
        """The player's name, as the game's record names their seat (their results are
        kept under it; cut as the results file reads it back)."""
        return printable(self.names[self.seat], LONGEST_NAME)

    @property
    def grade(self) -> Grade:
        """The grade of the move played in the game."""
        return self.decision.grade

    @property
    def best(self) -> Action:
        """The best move, by the review."""
        return self.decision.best

    def tried(self, action: Action) -> Decision:
        """The review's decision as if ``action`` had been played (no hint of the game)."""
        return replace(self.decision, played=action, hint=None)

    def solves(self, action: Action) -> bool:
        """True when ``action`` is the best move or about as good, within twice the error (the
        review's words), by the review's analysis; false for an illegal one."""
        if action not in self.decision.estimates:
            return False
        return self.tried(action).verdict in (Verdict.BEST, Verdict.WITHIN_ERROR)

    def worth(self, action: Action | None = None) -> str:
        """What ``action`` (the best move when ``None``) is worth by the review's analysis,
        in plain words: "chance to win 45% (± 3%); on average you end 2.1 (± 0.4) points
        ahead of the best of the others" (the final margin, said as what it means)."""
        estimate = self.decision.estimates[self.best if action is None else action]
        digits = chance_digits(estimate.win_error)
        win = f"{100 * estimate.win:.{digits}f}%" + (
            f" (± {percent(estimate.win_error)}%)" if estimate.win_error else ""
        )
        return f"chance to win {win}; {margin_words(estimate.margin, estimate.margin_error)}"

    def why(self) -> str:
        """Why the best move beats the move played in the game, in the review's words
        (``why_costly``; the game's hint left out), with what the game's move came to
        against it: "...; the game's move (draw a card): -6.2 ± 0.9 points, -18 ± 3%
        chance to win"."""
        decision = replace(self.decision, hint=None)
        words = printable(why_costly(self.state, decision, self.names).plain)
        game = f"the game's move ({describe_action(decision.played, self.state)}): "
        return words.replace("this move: ", game, 1)

    def answer_words(self, action: Action) -> str:
        """What ``action`` came to against the best, in the review's words: "-6.2 ± 0.9
        points, -18 ± 3% chance to win"."""
        return cost_words(self.tried(action))

    def about_as_good(self, action: Action) -> str | None:
        """How an answer that solves the puzzle without being the best move compares with
        it, in the review's words ("about as good as the best, within twice the error"); ``None``
        for the best move itself and for an answer that does not solve the puzzle."""
        if not self.solves(action) or self.tried(action).verdict is Verdict.BEST:
            return None
        return "about as good as the best, within twice the error"

    def where(self) -> str:
        """The decision in the game: "move 12, round 2"."""
        return f"move {self.decision.ply + 1}, round {self.state.round}"

    def played_words(self) -> str:
        """What was played in the game, and its grade: "take row 2 (?? blunder)"."""
        grade = self.grade
        return f"{describe_action(self.decision.played, self.state)} ({grade.mark} {grade.value})"


def puzzles(
    record: GameRecord, game: str, *, review: Review | None = None, seats: Sequence[int] = ()
) -> list[Puzzle]:
    """The puzzles of ``record``'s reviewed game (``review``: its review, read from the
    record when ``None``), in the order of the game: the decisions of ``seats`` (the people,
    when none are given) graded an inaccuracy or worse."""
    states = positions(record)
    found = review if review is not None else review_of(record, states)
    if found is None:
        return []
    mine = set(seats or people(record))
    names = tuple(printable(name) for name in record.seats)
    return [
        Puzzle(printable(game), states[ply], decision, names)
        for ply, decision in sorted(found.decisions.items())
        if decision.seat in mine and decision.grade.is_flaw
    ]


@dataclass
class Attempt:
    """One puzzle being solved: the answers given so far, and how it went once it is
    over (``outcome``)."""

    puzzle: Puzzle
    answers: list[Action] = field(default_factory=list)
    outcome: Outcome | None = None

    @property
    def over(self) -> bool:
        """True once the puzzle is solved, missed, or its answer shown."""
        return self.outcome is not None

    def answer(self, action: Action) -> Outcome | None:
        """Answer ``action``: the outcome when this ends the puzzle (solved, or wrong at
        the last try), ``None`` when a wrong answer leaves a try."""
        if self.outcome is not None:
            return self.outcome
        self.answers.append(action)
        if self.puzzle.solves(action):
            self.outcome = Outcome.FIRST if len(self.answers) == 1 else Outcome.SECOND
        elif len(self.answers) >= MAX_TRIES:
            self.outcome = Outcome.MISSED
        return self.outcome

    def give_up(self) -> Outcome:
        """Show the answer: a puzzle not solved yet is missed."""
        if self.outcome is None:
            self.outcome = Outcome.MISSED
        return self.outcome

    def result(self, at: datetime | None = None) -> PracticeResult:
        """The result to keep, once the puzzle is over."""
        assert self.outcome is not None
        puzzle = self.puzzle
        when = at if at is not None else datetime.now(UTC)
        return PracticeResult(
            puzzle.game,
            puzzle.decision.ply,
            puzzle.grade.value,
            self.outcome.value,
            when,
            puzzle.player,
        )


RECENT = 10
"""The last results the trend looks at, against those before them (once there are as many
before them)."""

TREND = 0.1
"""A change in the share solved that the trend tells (less is "about as")."""


def practice_lines(results: Sequence[PracticeResult]) -> list[str]:
    """How practice goes, in words, for each player (by name): puzzles tried and how they
    went, by grade, and the last ``RECENT`` against those before ([] when none was tried).

    >>> from coloretto.store.practice import OUTCOMES
    >>> at = datetime(2026, 12, 7, tzinfo=UTC)
    >>> tried = [PracticeResult("g", n, "mistake", o, at, "Ana") for n, o in enumerate(OUTCOMES)]
    >>> print("\\n".join(practice_lines(tried)))
    Ana's practice: 3 puzzles tried: 1 solved at once, 1 at the second try, 1 missed.
      By grade: mistakes 2 of 3 solved.
    """
    lines = []
    for player, mine in _by_player(results).items():
        lines += _player_lines(player, mine)
    return lines


def _by_player(results: Sequence[PracticeResult]) -> dict[str, list[PracticeResult]]:
    """Each player's results (in their order), the players by name."""
    players: dict[str, list[PracticeResult]] = {}
    for result in results:
        players.setdefault(result.player, []).append(result)
    return dict(sorted(players.items(), key=lambda item: item[0].casefold()))


def _player_lines(player: str, results: Sequence[PracticeResult]) -> list[str]:
    """How ``player``'s practice goes (``results``: theirs, oldest first), in words."""
    outcomes = Counter(r.outcome for r in results)
    tried = len(results)
    lines = [
        f"{possessive(player)} practice: {_count(tried, 'puzzle')} tried: "
        f"{outcomes['first']} solved at once, {outcomes['second']} at the second try, "
        f"{outcomes['missed']} missed."
    ]
    parts = []
    for grade in reversed([g for g in Grade if g.is_flaw]):
        mine = [r for r in results if r.grade == grade.value]
        if mine:
            solved = sum(r.outcome != Outcome.MISSED.value for r in mine)
            parts.append(f"{grade.plural(2)} {solved} of {len(mine)}")
    lines.append(f"  By grade: {', '.join(parts)} solved.")
    if tried >= 2 * RECENT:
        recent, before = results[-RECENT:], results[:-RECENT]
        now, then = _solved_share(recent), _solved_share(before)
        if now > then + TREND:
            trend = f"up from {then:.0%} over the {len(before)} before"
        elif now < then - TREND:
            trend = f"down from {then:.0%} over the {len(before)} before"
        else:
            trend = f"about as many as over the {len(before)} before ({then:.0%})"
        solved = sum(r.outcome != Outcome.MISSED.value for r in recent)
        lines.append(f"  Lately: {solved} of the last {RECENT} solved ({now:.0%}), {trend}.")
    return lines


def practice_json(results: Sequence[PracticeResult]) -> dict[str, object]:
    """How practice goes, as ``coloretto stats --json`` gives it: puzzles ``tried``, by
    outcome (``first``, ``second``, ``missed``), and the same per grade (``grades``); then
    the same for each player by name (``players``).

    >>> practice_json([])
    {'tried': 0, 'first': 0, 'second': 0, 'missed': 0, 'grades': {}, 'players': {}}
    """
    return {
        **_figures(results),
        "players": {player: _figures(mine) for player, mine in _by_player(results).items()},
    }


def _figures(results: Sequence[PracticeResult]) -> dict[str, object]:
    """Puzzles ``tried``, by outcome, and the same per grade (``grades``)."""

    def counts(mine: Sequence[PracticeResult]) -> dict[str, int]:
        outcomes = Counter(r.outcome for r in mine)
        return {"tried": len(mine), **{o.value: outcomes[o.value] for o in Outcome}}

    grades = {g.value: [r for r in results if r.grade == g.value] for g in Grade if g.is_flaw}
    return {
        **counts(results),
        "grades": {grade: counts(mine) for grade, mine in grades.items() if mine},
    }


def _solved_share(results: Sequence[PracticeResult]) -> float:
    return sum(r.outcome != Outcome.MISSED.value for r in results) / max(1, len(results))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
