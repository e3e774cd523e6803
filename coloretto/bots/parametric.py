"""A parametric opponent: simple rules for taking and for placing, each with a few knobs.

The opponent model (``coloretto.bots.model``) fits a seat's take-or-draw decisions and
its placements separately, each to the rule that explains them best. The named styles
(``coloretto.bots.styles``) are some of those rules; ``ParametricBot`` spans the
space around them, so that a seat that plays none of the named styles is still
modelled by something close to what it does:

- it takes its best row (by its own gain) once that gain reaches ``threshold``, or at
  any gain of 0 or more once some rival in the round could gain ``threat`` or more
  from an open row (it leaves before the table turns against it), or at any gain above
  0 once one more card, on average over the unseen cards, would add no more than
  ``wait`` points to what it could take (it looks one card ahead);
- it places a drawn card where its own gain, less ``spite`` times the rise in the
  ``victim``'s best take, is highest (the victim is the next seat in the round, or
  the one with most to gain now), and on a tie on the ``longer`` or shorter row.

>>> from coloretto.engine import Rules, new_game
>>> game = new_game(Rules(players=4), seed=3)
>>> str(ParametricBot(threshold=1).choose(game.view(game.current_player), game.legal_actions()))
'draw'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from coloretto.bots.base import Budget
from coloretto.bots.styles import Row, best_take, open_rows
from coloretto.engine import Action, ActionKind, Card, PlayerView

Victim = Literal["next", "likely"]


class ParametricBot:
    """Takes at a gain of ``threshold`` (or at any gain under a ``threat``, or once waiting
    for one more card is worth no more than ``wait``), places for its own gain less
    ``spite`` times the ``victim``'s; deterministic."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        threshold: float = 3,
        threat: float | None = None,
        wait: float | None = None,
        spite: float = 0.0,
        victim: Victim = "likely",
        longer: bool = True,
    ) -> None:
        self.seed = seed
        self.threshold = threshold
        self.threat = threat
        self.wait = wait
        self.spite = spite
        self.victim = victim
        self.longer = longer

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """Place a drawn card, or take the best row when it is wanted (or forced), else draw."""
        if len(legal) == 1:
            return legal[0]
        card = view.drawn_card
        if card is not None:
            return self._place(view, card, legal)
        seat = view.seat
        now = view.score_with(seat)
        best, worth = None, 0
        for action in legal:
            if action.kind is ActionKind.TAKE:
                gain = view.score_with(seat, view.rows[action.row or 0]) - now
                if best is None or gain > worth:
                    best, worth = action, gain
        if best is None:
            return legal[0]
        if legal[0].kind is not ActionKind.DRAW or worth >= self.threshold:
            return best
        if self.threat is not None and worth >= 0 and _threat(view) >= self.threat:
            return best
        if self.wait is not None and worth > 0 and _waiting(view, worth) <= self.wait:
            return best
        return legal[0]

    def _place(self, view: PlayerView, card: Card, legal: Sequence[Action]) -> Action:
        seat = view.seat
        victim = _victim(view, self.victim) if self.spite else None
        untaken = open_rows(view)
        before = 0 if victim is None else _worth(view, victim, [view.rows[r] for r in untaken])
        sign = 1 if self.longer else -1
        chosen, top = legal[0], None
        for action in legal:
            target = action.row or 0
            row = view.rows[target]
            grown = (*row, card)
            key: float = view.score_with(seat, grown) - view.score_with(seat, row)
            if victim is not None:
                rows = [grown if r == target else view.rows[r] for r in untaken]
                key -= self.spite * (_worth(view, victim, rows) - before)
            ranked = (key, sign * len(row))
            if top is None or ranked > top:
                chosen, top = action, ranked
        return chosen


def _rivals(view: PlayerView) -> list[int]:
    """The other seats still in the round, in the order they move after this one."""
    seats = view.seats
    out = view.seats_out
    later = ((view.seat + k) % seats for k in range(1, seats))
    return [s for s in later if not out[s]]


def _victim(view: PlayerView, victim: Victim) -> int | None:
    """The rival placements are aimed at: the next in the round, or the likeliest taker."""
    rivals = _rivals(view)
    if not rivals or victim == "next":
        return rivals[0] if rivals else None
    rows = [view.rows[r] for r in open_rows(view)]
    return max(rivals, key=lambda s: _worth(view, s, rows))


def _worth(view: PlayerView, seat: int, rows: Sequence[Row]) -> int:
    """What ``rows`` offer ``seat``: its best gain from one of them, or 0 (it need not take)."""
    return max(0, best_take(view, seat, rows))


def _threat(view: PlayerView) -> int:
    """The most a rival still in the round could gain from an open row now."""
    rows = [view.rows[r] for r in open_rows(view)]
    return max((_worth(view, s, rows) for s in _rivals(view)), default=0)


def _waiting(view: PlayerView, worth: int) -> float:
    """What one more card adds, on average over the unseen cards, to the most the seat
    could gain from a row (``worth`` now): each card put on the row where it would be
    worth most to the seat (0 when no row has room or no card is left)."""
    seat = view.seat
    now = view.score_with(seat)
    rows = [view.rows[r] for r in open_rows(view) if len(view.rows[r]) < view.row_capacities[r]]
    unseen = view.unseen()
    total = sum(unseen.values())
    if not rows or not total:
        return 0.0
    added = 0
    for card, count in unseen.items():
        after = max(view.score_with(seat, (*row, card)) for row in rows) - now
        added += count * max(0, after - worth)
    return added / total
