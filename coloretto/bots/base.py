"""The bot interface: any object with a ``choose`` method is a bot."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from coloretto.bots.options import number, whole
from coloretto.engine import Action, PlayerView


@dataclass(frozen=True)
class Budget:
    """How long a bot may think about one move; ``None`` leaves a limit to the bot.

    >>> Budget(seconds=0.5)
    Budget(seconds=0.5, iterations=None)
    >>> Budget(seconds=0.5, iterations=16).within(Budget(seconds=2.0))
    Budget(seconds=0.5, iterations=16)
    >>> Budget(seconds=float("inf"))
    Traceback (most recent call last):
    ValueError: seconds must be a finite number, not inf
    """

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None:
            object.__setattr__(self, "seconds", number("seconds", self.seconds, above=0))
        if self.iterations is not None:
            whole("iterations", self.iterations, low=1)

    def within(self, limit: Budget | None) -> Budget:
        """This budget, tightened to ``limit`` (e.g. the one the arena or the game gives)."""
        if limit is None:
            return self
        seconds = [s for s in (self.seconds, limit.seconds) if s is not None]
        iterations = [n for n in (self.iterations, limit.iterations) if n is not None]
        return Budget(min(seconds, default=None), min(iterations, default=None))


@runtime_checkable
class Bot(Protocol):
    """An AI opponent. No subclassing needed: implement ``choose``.

    A bot sees only ``view`` (what its seat may know: never the deck order)
    and the legal actions, and must return one of ``legal``. Given the same
    seed, a bot must make the same choices, so games can be replayed.
    """

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """Pick one of ``legal`` for the seat ``view.seat``, to move now."""
        ...


@dataclass(frozen=True)
class Estimate:
    """What one action is worth to the seat that plays it, as a bot estimates it.

    ``win`` is the chance to win the game (0 to 1, a tie's share counted), ``margin`` the
    expected final margin in points (the seat's score minus the best other score); each
    comes with the standard error of its estimate (0 when it is exact), from ``samples``
    sampled deals.

    >>> Estimate(win=0.4, margin=-2.5).win_error
    0.0
    """

    win: float
    margin: float
    win_error: float = 0.0
    margin_error: float = 0.0
    samples: int = 0

    @classmethod
    def of_deals(cls, wins: Sequence[float], margins: Sequence[float]) -> Estimate:
        """The estimate from an action's results deal by deal: their means, with the
        standard errors of the means.

        >>> estimate = Estimate.of_deals([1.0, 0.0], [4.0, -2.0])
        >>> estimate.win, estimate.margin, estimate.win_error, estimate.samples
        (0.5, 1.0, 0.5, 2)
        """
        return cls(
            win=statistics.fmean(wins),
            margin=statistics.fmean(margins),
            win_error=standard_error(wins),
            margin_error=standard_error(margins),
            samples=len(wins),
        )


def standard_error(samples: Sequence[float]) -> float:
    """The standard error of the samples' mean (0 for fewer than two).

    >>> standard_error([1.0, 3.0])
    1.0
    """
    if len(samples) < 2:
        return 0.0
    return statistics.stdev(samples) / math.sqrt(len(samples))


@runtime_checkable
class Analyst(Protocol):
    """A bot that can value every legal action, not only pick one (optional for a bot).

    The game review and the hints ask ``analyse`` when the bot has it: it must return an
    ``Estimate`` for each of ``legal`` (seen from ``view.seat``, knowing only ``view``),
    within ``budget``. The best action is the one with the highest ``win`` (then
    ``margin``).
    """

    def analyse(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Mapping[Action, Estimate]:
        """Each of ``legal`` valued for the seat ``view.seat``."""
        ...


class BotFactory(Protocol):
    """What a ``coloretto.bots`` entry point names: makes a bot from a seed and options.

    Options come from a bot spec such as ``search:seconds=0.2``; a factory
    raises ``TypeError`` or ``ValueError`` for options it does not accept.
    """

    def __call__(self, seed: int | None = None, **options: object) -> Bot: ...
