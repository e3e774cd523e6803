"""Who won: the one place that turns scores into places, winners, shares and margins.

A game's result (``GameState.outcome()``) and a match's (``Match.outcome()``): the
records, the score and replay screens, the list of finished games, the statistics, the
arena's tally and the search bot's rewards all read who won from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Outcome:
    """Each player's total and who has the best one (several players on a tie).

    A game's players are ranked by their own seats' scores (``Rules.player_totals``):
    player ``p`` sits in seat ``p``, and a ghost seat (the ghost variant's) ranks nowhere.

    >>> outcome = Outcome.of([23, 31, 31])
    >>> outcome.winners, outcome.is_tie, outcome.share(1), outcome.share(0)
    ((1, 2), True, 0.5, 0.0)
    >>> outcome.margin(0), outcome.margin(1)
    (-8, 0)
    """

    totals: tuple[int, ...]
    """Each player's total, in player order."""
    winners: tuple[int, ...]
    """The players with the best total, in player order."""

    @classmethod
    def of(cls, totals: Sequence[int]) -> Outcome:
        """The outcome of ``totals`` (one per player, at least one)."""
        totals = tuple(totals)
        if not totals:
            raise ValueError("an outcome needs at least one player")
        best = max(totals)
        return cls(totals, tuple(p for p, t in enumerate(totals) if t == best))

    @property
    def best(self) -> int:
        """The winning total."""
        return self.totals[self.winners[0]]

    @property
    def is_tie(self) -> bool:
        """True when several players share the best total."""
        return len(self.winners) > 1

    def place(self, player: int) -> int:
        """``player``'s place: 1 + the players with a better total (the rules break no
        tie: equal totals share a place, and the place after them is left out).

        >>> [Outcome.of([23, 31, 31, 40]).place(p) for p in range(4)]
        [4, 2, 2, 1]
        """
        mine = self.totals[player]
        return 1 + sum(total > mine for total in self.totals)

    @property
    def places(self) -> tuple[int, ...]:
        """Each player's ``place``, in player order."""
        return tuple(self.place(p) for p in range(len(self.totals)))

    def tied_with(self, player: int) -> tuple[int, ...]:
        """The other players with ``player``'s total, who share their place.

        >>> Outcome.of([23, 31, 31, 40]).tied_with(1)
        (2,)
        """
        mine = self.totals[player]
        return tuple(p for p, total in enumerate(self.totals) if total == mine and p != player)

    def share(self, player: int) -> float:
        """``player``'s share of the win: 1 for a sole winner, split on a tie, else 0."""
        return 1.0 / len(self.winners) if player in self.winners else 0.0

    def margin(self, player: int) -> int:
        """``player``'s total minus the best total among the others (0 with no others)."""
        totals = self.totals
        if len(totals) == 1:
            return 0
        return totals[player] - max(t for p, t in enumerate(totals) if p != player)
