"""Scoring helpers shared by the bots: a seat's score, and what a row is worth to it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from coloretto.engine import Card, PlayerView, Rules, best_total


class Tally:
    """A seat's collection as counts, for fast what-if scoring.

    >>> from coloretto.engine import Rules
    >>> tally = Tally.of({Card.BLUE: 2, Card.JOKER: 1}, Rules(players=3), (Card.BLUE, Card.GRAY))
    >>> tally.score(), tally.gain([Card.BLUE, Card.PLUS2])
    (6, 6)
    """

    __slots__ = ("colours", "counts", "jokers", "plus", "plus2", "table")

    def __init__(
        self,
        colours: tuple[Card, ...],
        counts: list[int],
        jokers: int,
        plus2: int,
        rules: Rules,
    ) -> None:
        self.colours = colours
        self.counts = counts
        self.jokers = jokers
        self.plus2 = plus2
        self.table = rules.scoring.table
        self.plus = rules.plus_colours

    @classmethod
    def of(cls, collection: Mapping[Card, int], rules: Rules, colours: tuple[Card, ...]) -> Tally:
        """The tally of ``collection`` (as ``GameState.collection`` gives it)."""
        return cls(
            colours,
            [collection.get(c, 0) for c in colours],
            collection.get(Card.JOKER, 0) + collection.get(Card.GOLDEN_JOKER, 0),
            collection.get(Card.PLUS2, 0),
            rules,
        )

    @classmethod
    def of_seat(cls, view: PlayerView, seat: int) -> Tally:
        """The tally of ``seat``'s collection as ``view`` shows it."""
        return cls.of(view.collection(seat), view.rules, view.colours)

    def score(self) -> int:
        """The best score of this collection."""
        return best_total(self.counts, self.jokers, self.plus2, self.table, self.plus)

    def score_with(self, cards: Iterable[Card]) -> int:
        """The best score after adding ``cards``."""
        counts = list(self.counts)
        jokers, plus2 = self.jokers, self.plus2
        for card in cards:
            if card.is_colour:
                counts[self.colours.index(card)] += 1
            elif card is Card.PLUS2:
                plus2 += 1
            elif card.is_joker:
                jokers += 1
        return best_total(counts, jokers, plus2, self.table, self.plus)

    def gain(self, cards: Iterable[Card]) -> int:
        """How much taking ``cards`` would change the score."""
        return self.score_with(cards) - self.score()
