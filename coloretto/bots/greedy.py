"""``greedy``: takes what raises its score now, else draws and places where it gains most."""

from __future__ import annotations

from collections.abc import Sequence

from coloretto.bots.base import Budget
from coloretto.bots.options import number
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
        self.threshold = number("threshold", threshold, low=1)

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The greedy choice; ties go to the first row."""
        seat = view.seat
        rows = view.rows
        now = view.score_with(seat)
        if view.drawn_card is not None:
            card = view.drawn_card
            return max(legal, key=lambda a: view.score_with(seat, (*rows[a.row or 0], card)))
        gains = {
            a: view.score_with(seat, rows[a.row or 0]) - now
            for a in legal
            if a.kind is ActionKind.TAKE
        }
        if not gains:
            return legal[0]
        best = max(gains, key=gains.__getitem__)
        if len(gains) == len(legal) or gains[best] >= self.threshold:
            return best
        return next(a for a in legal if a.kind is ActionKind.DRAW)
