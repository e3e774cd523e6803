"""The coach's judgement of one decision: the search bot's estimate of every legal
action, from what the seat knew, and a grade for the action played.

A decision is graded by what it lost against the best action, as Lichess grades chess
moves: the chance to win it gave away, or, if more, the points of final margin it gave
away at ``POINT_WORTH`` (2.5 % a point), since a player who can no longer win still
plays for every point (their place). The best action is the one that gives away least to
any other by that measure (``ranked``).

============  ==================================  =====================
grade         chance to win lost (points of %)    or points lost
============  ==================================  =====================
best          less than 1                         less than 0.4
good          1 to 5                              0.4 to 2
inaccuracy    5 to 10                             2 to 4
mistake       10 to 15                            4 to 6
blunder       15 or more                          6 or more
============  ==================================  =====================

A loss is only believed when it is beyond two standard errors of the difference between
the two actions (``CLEAR``), measured deal by deal since every action is valued on the same
deals (``Valuation.paired``). One rule (``Decision.verdict``) gives both the grade and the
review's words: a move within that error of the best is "about as good, within twice the error"
and graded best; a clear loss, however small, is graded good at least (never "best" beside a
better move); a move the hint recommended in the game (``StoredHint``) is graded good when
this look, no deeper than the hint's (no more deals), finds another clearly better.
A review looks again on new deals at a decision whose grade is not settled by ``SETTLE``
(4) standard errors (``Decision.unsettled``: a mistake's or a blunder's threshold within
four errors of what the move lost, or of what it could have lost against any other move)
before it grades it.

A decision's accuracy is Lichess's ``103.1668 e^(-0.04354 loss) - 3.1669`` (``loss`` in
points of %: the loss the grade goes by, ``Decision.graded_loss``), between 0 and 100; a
player's accuracy is the mean over their decisions.

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
from dataclasses import dataclass, field
from enum import Enum

from coloretto.bots import Estimate
from coloretto.engine import Action

POINT_WORTH = 0.025
"""A point of final margin lost weighs as much as this much chance to win (2.5 %)."""

COACH_BOT = "search:iterations=32:sample=true"
"""The coach's bot, for the hints and the reviews alike: the search bot the hard level
plays (opponents drawn for each deal from what their play makes likely), on 32 deals,
with all of them played out (no time limit, so an analysis is the same on any machine for
a seed)."""

REVIEW_BOT = COACH_BOT
"""The bot that reviews games (the coach's)."""

CLEAR = 2.0
"""How many standard errors of the difference a loss (or a hint's edge) must exceed to be
told: within them, the moves are about equal."""

SETTLE = 4.0
"""How many standard errors of the difference a decision's loss must lie from the
mistake's and the blunder's thresholds, against the best move and against every other
move, for its grade to be settled (``Decision.unsettled``): a review looks again on new
deals at a decision not settled. Two looks settled on opposite sides of a threshold are at
least four errors of their difference apart (5.7 when they are as sure): by chance, one
decision in 30,000 at worst."""


class Grade(Enum):
    """How good a decision was, by the chance to win it lost (see the module's table)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def mark(self) -> str:
        """The chess mark, one cell wide (the review's chart puts it under a bar, the
        headers before the grade's name): ``⁈`` inaccuracy, ``?`` mistake, ``⁇`` blunder,
        else none."""
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
        """True for an inaccuracy, a mistake or a blunder: a decision worth pointing out
        (what the replay's "next mistake" key finds, and practice brings back)."""
        return self in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)


class Verdict(Enum):
    """What the review says of a move against the best (``Decision.verdict``), and so
    its grade: the one rule for both."""

    BEST = "the best move"
    """The move played is the best, or valued alike (graded best)."""
    WITHIN_ERROR = "about as good, within twice the error"
    """Another rates better, but not beyond ``CLEAR`` standard errors (graded best)."""
    HINTED = "about as good as the hint's look"
    """Another rates clearly better on a look no deeper than that of the hint in the game,
    which recommended the move (graded good)."""
    WORSE = "clearly worse"
    """Another is better beyond ``CLEAR`` standard errors (graded good at least)."""

    @property
    def as_good(self) -> bool:
        """True when the move is not said worse than the best: the best, or within the
        error of it."""
        return self in (Verdict.BEST, Verdict.WITHIN_ERROR)


_MARKS = {
    Grade.BEST: "",
    Grade.GOOD: "",
    Grade.INACCURACY: "\N{QUESTION EXCLAMATION MARK}",
    Grade.MISTAKE: "?",
    Grade.BLUNDER: "\N{DOUBLE QUESTION MARK}",
}

GRADE_THRESHOLDS: tuple[tuple[float, Grade], ...] = (
    (0.15, Grade.BLUNDER),
    (0.10, Grade.MISTAKE),
    (0.05, Grade.INACCURACY),
    (0.01, Grade.GOOD),
)
"""The least loss of chance to win (0 to 1) for each grade, worst first; below them all:
``Grade.BEST``."""

_LEAST = {g: least for least, g in GRADE_THRESHOLDS}
_AT_LEAST_GOOD = _LEAST[Grade.GOOD]
"""The smallest loss graded ``Grade.GOOD``: what a clear loss counts for at least."""
_AT_MOST_GOOD = math.nextafter(_LEAST[Grade.INACCURACY], 0.0)
"""The largest loss graded ``Grade.GOOD``."""
_ERROR_THRESHOLDS = (_LEAST[Grade.MISTAKE], _LEAST[Grade.BLUNDER])
"""The thresholds of a mistake and a blunder: the grades a review must settle."""


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
    """The actions, best first, by the measure a decision is graded by (``loss``): each
    action's largest loss against any other (the chance to win it gives away, or the
    points of final margin at ``POINT_WORTH``, whichever is more), least first; so the best
    move gives away less to any other, by that measure, than that one would to it. Ties
    go to the higher chance to win, then the margin.

    >>> from coloretto.engine import DRAW, Action
    >>> take = Action.take(1)
    >>> [str(a) for a in ranked({DRAW: Estimate(0.001, -9.0), take: Estimate(0.0, -4.0)})]
    ['take 2', 'draw']
    >>> # 1.2 % more chance to win, but 3.6 points (9 %) less margin: drawing is best.
    >>> [str(a) for a in ranked({DRAW: Estimate(0.0, -23.0), take: Estimate(0.012, -26.6)})]
    ['draw', 'take 2']
    """

    def lost(mine: Estimate, theirs: Estimate) -> float:
        return max(theirs.win - mine.win, POINT_WORTH * (theirs.margin - mine.margin), 0.0)

    def key(action: Action) -> tuple[float, float, float]:
        mine = estimates[action]
        regret = max((lost(mine, other) for other in estimates.values()), default=0.0)
        return (regret, -mine.win, -mine.margin)

    return sorted(estimates, key=key)


Pairs = Mapping[tuple[Action, Action], tuple[float, float]]
"""The standard errors (chance to win, points of margin) of the difference between two
actions' estimates, by pair of actions (either order)."""


@dataclass(frozen=True)
class Valuation:
    """Every legal action's estimate, with the standard errors of the differences between
    two actions measured deal by deal (``paired``; a pair not there is taken as independent,
    ``difference_error``).

    >>> from coloretto.engine import DRAW, Action
    >>> take = Action.take(0)
    >>> one = Valuation({DRAW: Estimate(0.5, 1.0, 0.1, 2.0), take: Estimate(0.4, 0.0, 0.1, 2.0)})
    >>> [round(x, 3) for x in one.difference_error(DRAW, take)]
    [0.141, 2.828]
    >>> paired = Valuation(one.estimates, {(DRAW, take): (0.02, 0.5)})
    >>> paired.difference_error(take, DRAW)
    (0.02, 0.5)
    """

    estimates: Mapping[Action, Estimate]
    paired: Pairs = field(default_factory=dict)

    def difference_error(self, a: Action, b: Action) -> tuple[float, float]:
        """The standard errors of ``a``'s estimate less ``b``'s: chance to win, points."""
        if a == b:
            return 0.0, 0.0
        known = self.paired.get((a, b)) or self.paired.get((b, a))
        if known is not None:
            return known
        mine, theirs = self.estimates[a], self.estimates[b]
        return (
            math.hypot(mine.win_error, theirs.win_error),
            math.hypot(mine.margin_error, theirs.margin_error),
        )

    @property
    def samples(self) -> int:
        """The deals the estimates rest on (the least of any action's)."""
        return min((e.samples for e in self.estimates.values()), default=0)

    def pooled(self, other: Valuation) -> Valuation:
        """This valuation and ``other`` (the same position on other deals) as one, each
        weighted by its deals.

        >>> from coloretto.engine import DRAW
        >>> one = Valuation({DRAW: Estimate(0.2, 1.0, 0.0, 1.0, 10)})
        >>> both = one.pooled(Valuation({DRAW: Estimate(0.4, 3.0, 0.0, 1.0, 30)}))
        >>> round(both.estimates[DRAW].win, 3), both.estimates[DRAW].margin, both.samples
        (0.35, 2.5, 40)
        """
        merged = {}
        shares = {}
        for action, mine in self.estimates.items():
            theirs = other.estimates[action]
            n, m = max(1, mine.samples), max(1, theirs.samples)
            share = shares[action] = n / (n + m)
            merged[action] = Estimate(
                win=share * mine.win + (1 - share) * theirs.win,
                margin=share * mine.margin + (1 - share) * theirs.margin,
                win_error=math.hypot(share * mine.win_error, (1 - share) * theirs.win_error),
                margin_error=math.hypot(
                    share * mine.margin_error, (1 - share) * theirs.margin_error
                ),
                samples=mine.samples + theirs.samples,
            )
        paired = {}
        for a, b in self.paired:
            share = shares[a]
            (w1, m1), (w2, m2) = self.difference_error(a, b), other.difference_error(a, b)
            paired[a, b] = (
                math.hypot(share * w1, (1 - share) * w2),
                math.hypot(share * m1, (1 - share) * m2),
            )
        return Valuation(merged, paired)


@dataclass(frozen=True)
class StoredHint:
    """A hint given in the game, as kept with its move: the action it recommended, and the
    coach's valuation it rested on (by ``bot`` with ``seed``)."""

    action: Action
    valuation: Valuation
    bot: str
    seed: int

    def recommends(self, action: Action) -> bool:
        """True for the hinted action or one alike (valued the same, say a row alike)."""
        estimates = self.valuation.estimates
        return action == self.action or (
            action in estimates and estimates[action] == estimates[self.action]
        )


@dataclass(frozen=True)
class Decision:
    """One decision of a game: the position's ``ply`` (actions before it), the seat that
    decided, the action it played, the estimate of every legal action (and the errors of
    their differences, ``paired``), and the hint given for it in the game, if any."""

    ply: int
    seat: int
    played: Action
    estimates: Mapping[Action, Estimate]
    paired: Pairs = field(default_factory=dict)
    hint: StoredHint | None = None

    @property
    def valuation(self) -> Valuation:
        """The estimates and their paired errors."""
        return Valuation(self.estimates, self.paired)

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
    def errors(self) -> tuple[float, float]:
        """The standard errors of what the played action lost against the best: chance to
        win, points of margin (``Valuation.difference_error``)."""
        return self.valuation.difference_error(self.best, self.played)

    @property
    def noise(self) -> float:
        """How uncertain ``loss`` is, as chance to win: the standard error of the
        difference between the played action and the best."""
        win, points = self.errors
        return max(win, POINT_WORTH * points)

    @property
    def clear_loss(self) -> float:
        """The part of ``loss`` beyond doubt: each of its measures (the chance to win lost,
        the points lost at ``POINT_WORTH``) counts only if it exceeds ``CLEAR`` standard
        errors of the difference; 0 when the moves are about equal."""
        mine, best = self.estimates[self.played], self.estimates[self.best]
        win_error, points_error = self.errors
        win, points = best.win - mine.win, best.margin - mine.margin
        clear = [win] if win > CLEAR * win_error else []
        if points > CLEAR * points_error:
            clear.append(POINT_WORTH * points)
        return max(clear, default=0.0)

    @property
    def hint_overruled(self) -> bool:
        """True when the hint in the game recommended the played action but this look,
        deeper than the hint's (on more deals), clearly finds another better."""
        hint = self.hint
        return (
            hint is not None
            and hint.recommends(self.played)
            and self.clear_loss > 0.0
            and self.valuation.samples > hint.valuation.samples
        )

    @property
    def sure_loss(self) -> float:
        """What the played action lost against the best at the least, by ``SETTLE``
        standard errors: each measure (the chance to win, the points at ``POINT_WORTH``)
        less that many of its errors; 0 if neither is left."""
        mine, best = self.estimates[self.played], self.estimates[self.best]
        win_error, points_error = self.errors
        return max(
            best.win - mine.win - SETTLE * win_error,
            POINT_WORTH * (best.margin - mine.margin - SETTLE * points_error),
            0.0,
        )

    @property
    def possible_loss(self) -> float:
        """What the played action could have lost at the most, by ``SETTLE`` standard
        errors, against any other action (whichever else the deals would rank the best):
        each measure plus that many of its errors; 0 if none could beat it."""
        mine = self.estimates[self.played]
        most = 0.0
        for action, other in self.estimates.items():
            if action == self.played:
                continue
            win_error, points_error = self.valuation.difference_error(action, self.played)
            most = max(
                most,
                other.win - mine.win + SETTLE * win_error,
                POINT_WORTH * (other.margin - mine.margin + SETTLE * points_error),
            )
        return most

    @property
    def unsettled(self) -> bool:
        """True when the mistake's or the blunder's threshold lies between ``sure_loss``
        and ``possible_loss``: other deals could grade the decision across it (a flaw
        near the threshold, or a move found the best while another could be a mistake's
        loss better). The review analyses it again on new deals (``REFINE``)."""
        low, high = self.sure_loss, self.possible_loss
        return any(low < least <= high for least in _ERROR_THRESHOLDS)

    @property
    def verdict(self) -> Verdict:
        """The one rule the grade and the review's words both go by (``Verdict``)."""
        if self.best == self.played or self.estimates[self.best] == self.estimates[self.played]:
            return Verdict.BEST
        if self.clear_loss == 0.0:
            return Verdict.WITHIN_ERROR
        hinted = self.hint is not None and self.hint.recommends(self.played)
        return Verdict.HINTED if hinted and not self.hint_overruled else Verdict.WORSE

    @property
    def graded_loss(self) -> float:
        """The loss the grade and the accuracy go by, by ``verdict``: none for the best
        move or one within twice the error of it; ``clear_loss`` for a move clearly worse, at
        least a good move's; a good move's for one the hint recommended that this look,
        no deeper than the hint's, finds clearly worse."""
        verdict = self.verdict
        if verdict is Verdict.WORSE:
            return max(self.clear_loss, _AT_LEAST_GOOD)
        if verdict is Verdict.HINTED:
            return min(max(self.clear_loss, _AT_LEAST_GOOD), _AT_MOST_GOOD)
        return 0.0

    @property
    def grade(self) -> Grade:
        """The decision's grade, by ``graded_loss``: best for the best move or one within
        the error of it, else good at least (``verdict``)."""
        return grade(self.graded_loss)

    @property
    def accuracy(self) -> float:
        """The decision's accuracy, 0 to 100 (by ``graded_loss``)."""
        return accuracy(self.graded_loss)
