"""The bot interface: any object with a ``choose`` method is a bot."""

from __future__ import annotations

from collections.abc import Sequence
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


class BotFactory(Protocol):
    """What a ``coloretto.bots`` entry point names: makes a bot from a seed and options.

    Options come from a bot spec such as ``search:seconds=0.2``; a factory
    raises ``TypeError`` or ``ValueError`` for options it does not accept.
    """

    def __call__(self, seed: int | None = None, **options: object) -> Bot: ...
