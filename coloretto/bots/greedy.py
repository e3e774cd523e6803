"""``greedy``: takes what raises its score now, else draws and places where it gains most."""

from __future__ import annotations

from collections.abc import Sequence

from coloretto.bots.base import Budget
from coloretto.bots.evaluation import Tally
from coloretto.engine import Action, ActionKind, PlayerView

DEFAULT_THRESHOLD = 3


class GreedyBot:
    """Takes the row that raises its own score most when that gain is worth it;
    otherwise draws, and places the card on the row that, with the card, is worth most to it.

    "Worth it" is a gain of at least ``threshold`` points (default 3): with
    ``threshold=1`` (any positive gain) it takes one-card rows and wins far less
    often. Deterministic: the seed is accepted for a uniform interface.
    """

    def __init__(self, seed: int | None = None, threshold: int = DEFAULT_THRESHOLD) -> None:
        if threshold < 1:
            raise ValueError("threshold must be at least 1 point")
        self.threshold = threshold

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The greedy choice; ties go to the first row."""
        mine = Tally.of_seat(view, view.seat)
        rows = view.rows
        if view.drawn_card is not None:
            card = view.drawn_card
            return max(legal, key=lambda a: mine.gain((*rows[a.row or 0], card)))
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        best = max(takes, key=lambda a: mine.gain(rows[a.row or 0]), default=None)
        if best is None:
            return legal[0]
        if len(takes) == len(legal) or mine.gain(rows[best.row or 0]) >= self.threshold:
            return best
        return next(a for a in legal if a.kind is ActionKind.DRAW)
