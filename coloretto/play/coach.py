"""The coach's judgement of one decision: the search bot's estimate of every legal
action, from what the seat knew, and a grade for the action played.

A decision is graded by what it lost against the best action, as Lichess grades chess
moves: the chance to win it gave away, or, if more, the points of final margin it gave
away at ``POINT_WORTH`` (2.5 % a point), since a player who can no longer win still
plays for every point (their place). The best action is the one with the highest chance
to win; among those within ``WIN_TOLERANCE`` (1 %) of it, the one with the best margin.

============  ==================================  =====================
grade         chance to win lost (points of %)    or points lost
============  ==================================  =====================
best          less than 1                         less than 0.4
good          1 to 5                              0.4 to 2
inaccuracy    5 to 10                             2 to 4
mistake       10 to 15                            4 to 6
blunder       15 or more                          6 or more
============  ==================================  =====================

A decision's accuracy is Lichess's ``103.1668 e^(-0.04354 loss) - 3.1669`` (``loss`` in
points of %), between 0 and 100; a player's accuracy is the mean over their decisions.

>>> from coloretto.bots import Estimate
>>> from coloretto.engine import DRAW, Action
>>> estimates = {DRAW: Estimate(win=0.40, margin=1.0), Action.take(0): Estimate(0.22, -5.0)}
>>> decision = Decision(ply=7, seat=1, played=Action.take(0), estimates=estimates)
>>> str(decision.best), decision.grade.value, round(decision.loss, 2), decision.cost
('draw', 'blunder', 0.18, 6.0)
>>> round(decision.accuracy)
44
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from coloretto.bots import Analyst, Budget, Estimate
from coloretto.bots.guard import checked_estimates
from coloretto.bots.registry import BotError, make_bot
from coloretto.engine import Action, GameState

POINT_WORTH = 0.025
"""A point of final margin lost weighs as much as this much chance to win (2.5 %)."""

WIN_TOLERANCE = 0.01
"""Chances to win this close to the best are alike: the margin decides between them."""

REVIEW_BOT = "search:iterations=32"
"""The bot that reviews games: the search bot the hard level plays, on 32 deals, with all
of them played out (no time limit, so a review is the same on any machine for a seed)."""


class Grade(Enum):
    """How good a decision was, by the chance to win it lost (see the module's table)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def mark(self) -> str:
        """The chess mark: ``?!`` inaccuracy, ``?`` mistake, ``??`` blunder, else none."""
        return _MARKS[self]

    def plural(self, count: int) -> str:
        """The grade's name for ``count`` decisions.

        >>> Grade.INACCURACY.plural(3), Grade.BLUNDER.plural(1), Grade.BEST.plural(2)
        ('inaccuracies', 'blunder', 'best')
        """
        if count == 1 or self in (Grade.BEST, Grade.GOOD):
            return self.value
        return "inaccuracies" if self is Grade.INACCURACY else f"{self.value}s"

    @property
    def is_flaw(self) -> bool:
        """True for an inaccuracy, a mistake or a blunder: a decision worth pointing out."""
        return self in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)

    @property
    def is_error(self) -> bool:
        """True for a mistake or a blunder (what the replay's "next mistake" key finds)."""
        return self in (Grade.MISTAKE, Grade.BLUNDER)


_MARKS = {
    Grade.BEST: "",
    Grade.GOOD: "",
    Grade.INACCURACY: "?!",
    Grade.MISTAKE: "?",
    Grade.BLUNDER: "??",
}

GRADE_THRESHOLDS: tuple[tuple[float, Grade], ...] = (
    (0.15, Grade.BLUNDER),
    (0.10, Grade.MISTAKE),
    (0.05, Grade.INACCURACY),
    (0.01, Grade.GOOD),
)
"""The least loss of chance to win (0 to 1) for each grade, worst first; below them all:
``Grade.BEST``."""


def grade(loss: float) -> Grade:
    """The grade of a decision that lost ``loss`` of the chance to win (0 to 1).

    >>> grade(0.0).value, grade(0.07).value, grade(0.3).value
    ('best', 'inaccuracy', 'blunder')
    """
    for least, worse in GRADE_THRESHOLDS:
        if loss >= least:
            return worse
    return Grade.BEST


def accuracy(loss: float) -> float:
    """Lichess's accuracy of a move (0 to 100) that lost ``loss`` of the chance to win.

    >>> round(accuracy(0.0)), round(accuracy(0.1)), round(accuracy(1.0))
    (100, 64, 0)
    """
    value = 103.1668 * math.exp(-0.04354 * 100 * loss) - 3.1669
    return max(0.0, min(100.0, value))


def ranked(estimates: Mapping[Action, Estimate]) -> list[Action]:
    """The actions, best first: the highest chance to win, the chances within
    ``WIN_TOLERANCE`` of it ordered by margin.

    >>> from coloretto.engine import DRAW, Action
    >>> [str(a) for a in ranked({DRAW: Estimate(0.001, -9.0), Action.take(1): Estimate(0.0, -4.0)})]
    ['take 2', 'draw']
    """
    top = max((e.win for e in estimates.values()), default=0.0)

    def key(action: Action) -> tuple[bool, float, float]:
        estimate = estimates[action]
        alike = estimate.win >= top - WIN_TOLERANCE
        return (not alike, -estimate.margin if alike else 0.0, -estimate.win)

    return sorted(estimates, key=key)


@dataclass(frozen=True)
class Decision:
    """One decision of a game: the position's ``ply`` (actions before it), the seat that
    decided, the action it played and the estimate of every legal action."""

    ply: int
    seat: int
    played: Action
    estimates: Mapping[Action, Estimate]

    @property
    def best(self) -> Action:
        """The best action by the estimates (the played one when nothing beats it)."""
        top = ranked(self.estimates)[0]
        return self.played if self._lost(top) <= 0.0 else top

    def _lost(self, other: Action) -> float:
        mine, theirs = self.estimates[self.played], self.estimates[other]
        return max(theirs.win - mine.win, POINT_WORTH * (theirs.margin - mine.margin), 0.0)

    @property
    def loss(self) -> float:
        """What the played action gave away against the best, as chance to win (0 to 1):
        the chance itself, or the points of margin at ``POINT_WORTH``, whichever is more."""
        return self._lost(self.best)

    @property
    def win_loss(self) -> float:
        """The chance to win (0 to 1) the played action gave away against the best."""
        return max(0.0, self.estimates[self.best].win - self.estimates[self.played].win)

    @property
    def cost(self) -> float:
        """The expected final margin (points) the played action gave away (negative when
        the best action trades points for a better chance to win)."""
        return self.estimates[self.best].margin - self.estimates[self.played].margin

    @property
    def noise(self) -> float:
        """How uncertain ``loss`` is: the standard error of the difference between the
        played action and the best (as if their estimates were independent: at most)."""
        mine, best = self.estimates[self.played], self.estimates[self.best]
        return max(
            math.hypot(mine.win_error, best.win_error),
            POINT_WORTH * math.hypot(mine.margin_error, best.margin_error),
        )

    @property
    def borderline(self) -> bool:
        """True when ``loss`` is within two ``noise`` of the mistake's or the blunder's
        threshold: another sample of deals could well grade it otherwise."""
        noise = 2 * self.noise
        return any(
            abs(self.loss - least) < noise
            for least, grade in GRADE_THRESHOLDS
            if grade in (Grade.MISTAKE, Grade.BLUNDER)
        )

    @property
    def grade(self) -> Grade:
        """The decision's grade, by ``loss``."""
        return grade(self.loss)

    @property
    def accuracy(self) -> float:
        """The decision's accuracy, 0 to 100."""
        return accuracy(self.loss)


def pooled(
    first: Mapping[Action, Estimate], second: Mapping[Action, Estimate]
) -> dict[Action, Estimate]:
    """Two analyses of one position on different deals, as one (weighted by their deals).

    >>> from coloretto.engine import DRAW
    >>> one, two = Estimate(0.2, 1.0, 0.0, 1.0, 10), Estimate(0.4, 3.0, 0.0, 1.0, 30)
    >>> both = pooled({DRAW: one}, {DRAW: two})
    >>> round(both[DRAW].win, 3), both[DRAW].margin, both[DRAW].samples
    (0.35, 2.5, 40)
    """
    merged = {}
    for action, a in first.items():
        b = second[action]
        n, m = max(1, a.samples), max(1, b.samples)
        share = n / (n + m)
        merged[action] = Estimate(
            win=share * a.win + (1 - share) * b.win,
            margin=share * a.margin + (1 - share) * b.margin,
            win_error=math.hypot(share * a.win_error, (1 - share) * b.win_error),
            margin_error=math.hypot(share * a.margin_error, (1 - share) * b.margin_error),
            samples=a.samples + b.samples,
        )
    return merged


def analyse_position(
    state: GameState, bot: str = REVIEW_BOT, seed: int = 0, budget: Budget | None = None
) -> dict[Action, Estimate]:
    """The estimate of every legal action of ``state``'s seat to move, by the bot ``bot``
    (an ``Analyst``) seeing only that seat's view. Raises ``BotError`` if the bot cannot
    analyse or answers nonsense."""
    analyst = make_bot(bot, seed=seed)
    if not isinstance(analyst, Analyst):
        raise BotError(f"bot {bot!r} cannot analyse positions (it has no analyse method)")
    legal = state.legal_actions()
    answer = analyst.analyse(state.view(state.current_player), legal, budget)
    estimates, problem = checked_estimates(answer, legal)
    if estimates is None:
        raise BotError(f"bot {bot!r}: {problem}")
    return estimates
