"""``random``: uniformly random legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from coloretto.bots.base import Budget
from coloretto.engine import Action, PlayerView


class RandomBot:
    """Plays a uniformly random legal action (the beginner level)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def reseed(self, seed: int) -> None:
        """Draw from ``seed`` from now on (``coloretto.bots.players.Reseeded``)."""
        self._rng = random.Random(seed)

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """Any legal action, each as likely as the others."""
        return self._rng.choice(legal)
