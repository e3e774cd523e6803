"""Opponent styles: simple players in the ways other Coloretto programs play.

The strong bots are measured against this population (``coloretto arena --against``),
not only against this project's own greedy. Each style is deterministic and keeps no
state between moves: everything it decides comes from the view.

>>> from coloretto.engine import Rules, new_game
>>> game = new_game(Rules(players=4), seed=3)
>>> str(BuilderBot().choose(game.view(game.current_player), game.legal_actions()))
'draw'
"""

from __future__ import annotations

from collections.abc import Sequence

from coloretto.bots.base import Budget
from coloretto.engine import Action, ActionKind, Card, PlayerView

Row = tuple[Card, ...]
Key = tuple[float, float]

NET_GAIN_THRESHOLD = 2
"""The net-gain player takes once its gain beats the best other seat's by this much."""
DENIAL_THRESHOLD = 3
"""The denial player takes a row worth this much to it, as the project's greedy does."""
COLLECTOR_THRESHOLD = 2
"""The collector takes a row once it holds this many more wanted cards than unwanted."""
COLLECTOR_COLOURS = 3


class _Style:
    """A style decides two things: what a row is worth taking, and where a card goes.

    It takes its best row when it wants it (or must), else draws; a drawn card goes
    where ``place_key`` is highest (ties to the first row).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """Take the best row if it is wanted or drawing is not allowed; else draw and place."""
        if len(legal) == 1:
            return legal[0]
        card = view.drawn_card
        if card is not None:
            return max(legal, key=lambda a: self.place_key(view, card, view.rows[_row(a)]))
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        draw = next((a for a in legal if a.kind is ActionKind.DRAW), None)
        if not takes:
            return legal[0]
        values = {a: self.take_value(view, view.rows[_row(a)]) for a in takes}
        best = max(takes, key=values.__getitem__)
        if draw is None or self.wants(values[best]):
            return best
        return draw

    def take_value(self, view: PlayerView, row: Row) -> float:
        """What taking ``row`` is worth to this seat (by default: its score gain)."""
        return _gain(view, view.seat, row)

    def wants(self, value: float) -> bool:
        """Whether a row of this worth is taken rather than drawing."""
        raise NotImplementedError

    def place_key(self, view: PlayerView, card: Card, row: Row) -> Key:
        """How good putting ``card`` on ``row`` is; by default for its own gain."""
        return _towards(self.take_value(view, (*row, card)), self.take_value(view, row))


class BuilderBot(_Style):
    """Always draws and places for its own gain; takes only when every row is full.

    A drawn card goes where it adds most to the row's worth for itself (a wanted card
    on its best row, an unwanted one on its worst); when it must take, it takes its best.
    """

    def wants(self, value: float) -> bool:
        """Never by choice."""
        return False


class TakerBot(_Style):
    """Takes any row that raises its score (the best such row); else draws and places the
    card for its own gain."""

    def wants(self, value: float) -> bool:
        """Any positive gain."""
        return value > 0


class NetGainBot(_Style):
    """Takes a row when its gain less the best other seat's gain is 2 points or more.

    The other seats counted are those still in the round; a drawn card goes where that
    net gain grows most. Works on both scoring sides (gains are exact scores).
    """

    def take_value(self, view: PlayerView, row: Row) -> float:
        """Own gain less the best other seat's gain."""
        own = _gain(view, view.seat, row)
        return own - max((_gain(view, s, row) for s in _rivals_in_round(view)), default=0)

    def wants(self, value: float) -> bool:
        """A net gain of at least ``NET_GAIN_THRESHOLD``."""
        return value >= NET_GAIN_THRESHOLD


class CollectorBot(_Style):
    """Sticks to its first three colours, takes rows of them and builds them.

    Its colours are those it started with, then those of the rows it took, in order. A
    card of those colours, a joker or a "+2" is worth one, any other colour minus one; it
    takes a row worth 2 or more, and places cards as it values them.
    """

    def take_value(self, view: PlayerView, row: Row) -> float:
        """Wanted cards less unwanted ones (new colours join while it has fewer than three)."""
        colours = list(first_colours(view, view.seat))
        value = 0
        for card in row:
            if card.is_colour and card not in colours and len(colours) < COLLECTOR_COLOURS:
                colours.append(card)
            value += 1 if not card.is_colour or card in colours else -1
        return value

    def wants(self, value: float) -> bool:
        """A row worth ``COLLECTOR_THRESHOLD`` or more."""
        return value >= COLLECTOR_THRESHOLD


class DenialBot(_Style):
    """Takes like the greedy bot (a gain of 3 or more); places cards to hurt the likely taker.

    The likely taker is the other seat in the round with most to gain from a row now; a
    drawn card goes where its own gain less the rise in that seat's best take is highest.
    """

    def wants(self, value: float) -> bool:
        """A gain of at least ``DENIAL_THRESHOLD``."""
        return value >= DENIAL_THRESHOLD

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """As every style, but a drawn card is placed against the likely taker."""
        card = view.drawn_card
        taker = likely_taker(view)
        if card is None or taker is None or len(legal) == 1:
            return super().choose(view, legal, budget)
        seat = view.seat
        untaken = open_rows(view)
        before = best_take(view, taker, [view.rows[r] for r in untaken])

        def key(action: Action) -> Key:
            target = _row(action)
            row = view.rows[target]
            grown = (*row, card)
            after = best_take(
                view, taker, [grown if r == target else view.rows[r] for r in untaken]
            )
            own = _gain(view, seat, grown) - _gain(view, seat, row)
            return own - (after - before), own

        return max(legal, key=key)


def likely_taker(view: PlayerView) -> int | None:
    """The other seat still in the round that would gain most by taking a row now."""
    rivals = _rivals_in_round(view)
    if not rivals:
        return None
    rows = [view.rows[r] for r in open_rows(view)]
    return max(rivals, key=lambda s: best_take(view, s, rows))


def first_colours(view: PlayerView, seat: int) -> tuple[Card, ...]:
    """Up to three colours in the order ``seat`` got them: its starting cards, then its takes.

    The rows' contents are replayed from the public history (draws and placements).
    """
    rules = view.rules
    rows: list[list[Card]] = [[] for _ in view.rows]
    drawn: Card | None = None
    per_round = rules.seats * rules.takes_per_round
    takes = 0
    got: list[Card] = []
    for move in view.history():
        kind, row = move.action.kind, move.action.row
        if kind is ActionKind.DRAW:
            drawn = move.card
        elif kind is ActionKind.PLACE and row is not None and drawn is not None:
            rows[row].append(drawn)
        elif kind is ActionKind.TAKE and row is not None:
            if move.player == seat:
                got.extend(rows[row])
                if move.card is not None:  # what a golden joker brought in
                    got.append(move.card)
            rows[row] = []
            takes += 1
            if takes == per_round:
                rows = [[] for _ in view.rows]
                takes = 0
    taken = {card: got.count(card) for card in set(got)}
    held = view.collection(seat)
    start = [c for c in view.colours if held.get(c, 0) > taken.get(c, 0)]
    order = [c for c in dict.fromkeys([*start, *got]) if c.is_colour]
    return tuple(order[:COLLECTOR_COLOURS])


def _gain(view: PlayerView, seat: int, cards: Row) -> int:
    """How much ``cards`` would raise ``seat``'s score now."""
    return view.score_with(seat, cards) - view.score_with(seat)


def open_rows(view: PlayerView) -> list[int]:
    """The rows not yet taken this round."""
    return [r for r, taken in enumerate(view.rows_taken) if not taken]


def best_take(view: PlayerView, seat: int, rows: Sequence[Row]) -> int:
    """``seat``'s best gain from one of ``rows`` that holds cards (0 if none)."""
    return max((_gain(view, seat, row) for row in rows if row), default=0)


def _rivals_in_round(view: PlayerView) -> list[int]:
    """The seats of other players that have not left this round."""
    rules = view.rules
    mine = rules.controller(view.seat)
    return [
        s
        for s, out in enumerate(view.seats_out)
        if not out and rules.controller(s) != mine and s != view.seat
    ]


def _towards(grown: float, now: float) -> Key:
    """A placement key: the gain the card adds, then (for ties) a wanted card on the
    most valuable row and an unwanted one on the least valuable."""
    added = grown - now
    return added, added * now


def _row(action: Action) -> int:
    """The row a place or take action names."""
    if action.row is None:
        raise ValueError(f"{action} names no row")
    return action.row
