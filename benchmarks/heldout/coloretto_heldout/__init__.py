"""Held-out opponents: simple players that coloretto's opponent model has never seen.

The search bot fits each opponent to a family of styles (``coloretto.bots.model``), and
the population it is measured against (``coloretto.bots.styles``) is that same family. A
bot tuned that way may beat only the opponents it can recognise. These players are
written apart from that code, against the public API alone (``PlayerView``), with other
rules for taking and placing, and one of them plays at random part of the time;
docs/bots.md ("Held-out players") gives the figures.

Install with ``pip install -e benchmarks/heldout``; the bots are then named
``heldout-eager``, ``heldout-filler``, ``heldout-spoiler``, ``heldout-pair``,
``heldout-patient``, ``heldout-leader``, ``heldout-counter``, ``heldout-halfway`` and
``heldout-dumper`` wherever coloretto takes a bot spec. The leader and the counter
were written after the opponent model was widened with parametric rules (partly on what
the first five showed), and before it was measured against them; the halfway player after
the model learned a waiting rule from the patient player (which it now models exactly)
and to fit one policy to a table of one style, and before it was measured against it; the
dumper after the search had been measured against all of them, and before a widening of
the model's placement rules was tried (and not kept).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from coloretto.bots import Budget
from coloretto.engine import Action, ActionKind, Card, PlayerView

Row = tuple[Card, ...]


def gain(view: PlayerView, seat: int, cards: Row) -> int:
    """How much taking ``cards`` raises ``seat``'s score now."""
    return view.score_with(seat, cards) - view.score_with(seat)


def row_of(action: Action) -> int:
    """The row a take or place action names."""
    if action.row is None:
        raise ValueError(f"{action} names no row")
    return action.row


def open_rows(view: PlayerView) -> list[int]:
    """The rows not yet taken this round."""
    return [r for r, taken in enumerate(view.rows_taken) if not taken]


def rows_with_room(view: PlayerView) -> list[int]:
    """The open rows that can still take a card."""
    return [r for r in open_rows(view) if len(view.rows[r]) < view.row_capacities[r]]


def rivals(view: PlayerView) -> list[int]:
    """The other seats still in this round, in the order they move after this one."""
    seats = view.seats
    later = ((view.seat + k) % seats for k in range(1, seats))
    return [s for s in later if not view.seats_out[s]]


class _Player:
    """Takes or draws by ``wants_take``; places by ``place_score`` (highest wins)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """Place a drawn card, or take the best row when wanted (or forced), else draw."""
        if len(legal) == 1:
            return legal[0]
        card = view.drawn_card
        if card is not None:
            return max(legal, key=lambda a: self.place_score(view, card, row_of(a)))
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        draw = next((a for a in legal if a.kind is ActionKind.DRAW), None)
        if not takes:
            return legal[0]
        best = max(takes, key=lambda a: self.row_score(view, view.rows[row_of(a)]))
        if draw is None or self.wants_take(view, best):
            return best
        return draw

    def row_score(self, view: PlayerView, row: Row) -> float:
        """How much this player likes ``row`` (by default its score gain)."""
        return gain(view, view.seat, row)

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        """Whether to take ``best`` (the row it likes most) rather than draw."""
        raise NotImplementedError

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        """By default: what the card adds to the row's worth for this player, then the
        longer row."""
        cards = view.rows[row]
        added = self.row_score(view, (*cards, card)) - self.row_score(view, cards)
        return added, len(cards)


class EagerBot(_Player):
    """Takes any row that raises its score, but only three times in four (a seeded coin);
    places a card where it adds most for itself, ties to the longer row."""

    def __init__(self, seed: int | None = None, eagerness: float = 0.75) -> None:
        super().__init__(seed)
        self.eagerness = float(eagerness)
        self._rng = random.Random(seed)

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        worth = gain(view, view.seat, view.rows[row_of(best)])
        return worth > 0 and self._rng.random() < self.eagerness


class FillerBot(_Player):
    """Fills rows up: puts each card on the fullest row it does not spoil for itself (else
    the emptiest), and takes its best row once a row of two or more cards raises its score."""

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        rows = view.rows
        return any(
            len(rows[r]) >= 2 and gain(view, view.seat, rows[r]) > 0 for r in open_rows(view)
        )

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        cards = view.rows[row]
        added = gain(view, view.seat, (*cards, card)) - gain(view, view.seat, cards)
        return (added >= 0, len(cards) if added >= 0 else -len(cards))


class SpoilerBot(_Player):
    """Places each card where it lowers the next rival's best row most; takes its best row
    at a gain of 2, or at any gain once a rival could gain 4 or more from an open row (it
    leaves the round before the table turns against it)."""

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        mine = gain(view, view.seat, view.rows[row_of(best)])
        if mine >= 2:
            return True
        rows = [view.rows[r] for r in open_rows(view)]
        threat = max(
            (gain(view, s, cards) for s in rivals(view) for cards in rows if cards), default=0
        )
        return mine >= 0 and threat >= 4

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        following = rivals(view)
        if not following:
            return super().place_score(view, card, row)
        victim = following[0]
        rows = [(*view.rows[r], card) if r == row else view.rows[r] for r in open_rows(view)]
        their_best = max((gain(view, victim, cards) for cards in rows if cards), default=0)
        cards = view.rows[row]
        mine = gain(view, view.seat, (*cards, card)) - gain(view, view.seat, cards)
        return -their_best, mine


class PairBot(_Player):
    """Builds its two most-held colours (any colour while it holds fewer than three): such
    a card, a joker or a "+2" is worth 2 to it, another colour -1; takes a row worth 3."""

    def _wanted(self, view: PlayerView) -> set[Card]:
        held = view.collection(view.seat)
        colours = sorted((c for c in view.colours if held.get(c, 0)), key=lambda c: -held.get(c, 0))
        if len(colours) < 3:
            return set(view.colours)
        return set(colours[:2])

    def row_score(self, view: PlayerView, row: Row) -> float:
        wanted = self._wanted(view)
        return sum(2 if not c.is_colour or c in wanted else -1 for c in row)

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        return self.row_score(view, view.rows[row_of(best)]) >= 3


class PatientBot(_Player):
    """Looks one card ahead: takes its best row unless one more unseen card, on average,
    would make its best row worth more; places for its own gain, ties to the shorter row."""

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        now = gain(view, view.seat, view.rows[row_of(best)])
        if now <= 0:
            return False
        unseen = view.unseen()
        total = sum(unseen.values())
        room = rows_with_room(view)
        if not total or not room:
            return True
        expected = 0.0
        for card, count in unseen.items():
            after = max(gain(view, view.seat, (*view.rows[r], card)) for r in room)
            expected += count / total * max(after, now)
        return now >= expected - 0.5

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        added, length = super().place_score(view, card, row)
        return added, -length


class LeaderBot(_Player):
    """Plays against the leader: places each card where it lowers the best row of the
    other seat with the highest score now (for its own gain when it leads, ties to the
    emptier row); takes a row worth twice the number of rivals still in the round less
    one (5 at the start of a 4-player round, 1 when one rival is left), and at least 1."""

    def _leader(self, view: PlayerView) -> int | None:
        scores = view.scores()
        others = [s for s in range(view.seats) if s != view.seat]
        top = max(others, key=lambda s: scores[s])
        return top if scores[top] >= scores[view.seat] else None

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        worth = gain(view, view.seat, view.rows[row_of(best)])
        return worth > 0 and worth >= 2 * len(rivals(view)) - 1

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        cards = view.rows[row]
        mine = gain(view, view.seat, (*cards, card)) - gain(view, view.seat, cards)
        leader = self._leader(view)
        if leader is None or view.seats_out[leader]:
            return mine, -len(cards)
        rows = [(*view.rows[r], card) if r == row else view.rows[r] for r in open_rows(view)]
        their_best = max((gain(view, leader, c) for c in rows if c), default=0)
        return -their_best + 0.5 * mine, -len(cards)


class CounterBot(_Player):
    """Counts cards, not points: a row is worth its cards of the three colours it holds
    most (jokers and "+2" too) less twice its other colour cards; takes a row of two or
    more cards worth 2, any row worth 1 once fewer than 20 cards are left, and places a
    card where it adds most to that worth, ties to the longer row."""

    def _wanted(self, view: PlayerView) -> set[Card]:
        held = view.collection(view.seat)
        ranked = sorted(view.colours, key=lambda c: -held.get(c, 0))
        return {c for c in ranked[:3] if held.get(c, 0)} or set(view.colours)

    def row_score(self, view: PlayerView, row: Row) -> float:
        wanted = self._wanted(view)
        return sum(1 if not c.is_colour or c in wanted else -2 for c in row)

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        cards = view.rows[row_of(best)]
        worth = self.row_score(view, cards)
        return (worth >= 2 and len(cards) >= 2) or (worth >= 1 and view.deck_size < 20)


class HalfwayBot(_Player):
    """Judges rows by how full they are: takes its best row once it is worth 1 or more and
    holds at least half the cards it has room for (any such row when it is the last one
    open); places a card that raises its own worth on the emptiest row, and any other card
    on the row the highest-scoring other seat would gain most from, ties to the fuller
    row."""

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        row = row_of(best)
        full = 2 * len(view.rows[row]) >= view.row_capacities[row]
        return gain(view, view.seat, view.rows[row]) >= 1 and (full or len(open_rows(view)) == 1)

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        cards = view.rows[row]
        added = gain(view, view.seat, (*cards, card)) - gain(view, view.seat, cards)
        if added > 0:
            return 1.0, -len(cards)
        scores = view.scores()
        leader = max((s for s in range(view.seats) if s != view.seat), key=lambda s: scores[s])
        return 0.0, gain(view, leader, cards), len(cards)


class DumperBot(_Player):
    """Keeps its junk together: a card that would lower its score goes on the open row
    already holding most such cards for it (ties to the fuller row), any other card on the
    row holding most cards that raise its score and none that lower it (else the emptiest
    row); takes its best row at a gain of 2, or of 1 once at most one open row has room."""

    def _good(self, view: PlayerView, card: Card) -> bool:
        return gain(view, view.seat, (card,)) > 0

    def wants_take(self, view: PlayerView, best: Action) -> bool:
        worth = gain(view, view.seat, view.rows[row_of(best)])
        room = rows_with_room(view)
        return worth >= 2 or (worth >= 1 and len(room) <= 1)

    def place_score(self, view: PlayerView, card: Card, row: int) -> tuple[float, ...]:
        cards = view.rows[row]
        good = sum(self._good(view, c) for c in cards)
        bad = len(cards) - good
        if not self._good(view, card):
            return bad, len(cards)
        return (bad == 0, good, -len(cards))


STYLES: dict[str, Callable[..., _Player]] = {
    "heldout-eager": EagerBot,
    "heldout-filler": FillerBot,
    "heldout-spoiler": SpoilerBot,
    "heldout-pair": PairBot,
    "heldout-patient": PatientBot,
    "heldout-leader": LeaderBot,
    "heldout-counter": CounterBot,
    "heldout-halfway": HalfwayBot,
    "heldout-dumper": DumperBot,
}
"""The held-out players by the name they are registered under."""
