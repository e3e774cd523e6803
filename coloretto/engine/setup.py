"""The deal: removed colours, starting cards, the deck order and the first player."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from coloretto.engine.cards import COLOURS, Card
from coloretto.engine.rules import Edition, Rules
from coloretto.engine.seeds import Seed, deal_random

CARDS_PER_COLOUR = 9
PLUS2_CARDS = 10
JOKERS = 3
CARDS_BELOW_LAST_ROUND = 15


@dataclass(frozen=True)
class Setup:
    """Everything fixed when the cards are dealt."""

    removed: tuple[Card, ...]
    """Colours taken out of the game (3 players: one, 2 players: two)."""
    starting: tuple[tuple[Card, ...], ...]
    """Each seat's starting cards, all of different colours."""
    deck: tuple[Card, ...]
    """The deck from top to bottom, the Last Round card in place."""
    first_player: int
    seed: Seed | None = None
    """The seed the deal came from, if any (kept so a deal can be reproduced)."""

    def check(self, rules: Rules) -> None:
        """Raise ``ValueError`` unless this is a deal the rules allow."""
        colours = rules.colour_count
        if len(set(self.removed)) != len(self.removed) or any(
            not c.is_colour for c in self.removed
        ):
            raise ValueError("removed colours must be distinct colours")
        if len(self.removed) != len(COLOURS) - colours:
            raise ValueError(
                f"{len(COLOURS) - colours} colour(s) must be removed for these rules, "
                f"not {len(self.removed)}"
            )
        if len(self.starting) != rules.seats:
            raise ValueError(f"starting cards are needed for {rules.seats} seats")
        dealt = [card for hand in self.starting for card in hand]
        for seat, hand in enumerate(self.starting):
            if len(hand) != rules.starting_cards:
                raise ValueError(
                    f"seat {seat} must start with {rules.starting_cards} card(s), not {len(hand)}"
                )
        if any(not c.is_colour or c in self.removed for c in dealt) or len(set(dealt)) != len(
            dealt
        ):
            raise ValueError("starting cards must be of different colours, all in play")
        if self.deck.count(Card.LAST_ROUND) != 1:
            raise ValueError("the deck must hold exactly one Last Round card")
        below = len(self.deck) - 1 - self.deck.index(Card.LAST_ROUND)
        if below != CARDS_BELOW_LAST_ROUND:
            raise ValueError(
                f"the Last Round card must have {CARDS_BELOW_LAST_ROUND} cards below it, "
                f"not {below}"
            )
        expected = full_deck(rules, self.removed)
        actual = Counter(dealt) + Counter(c for c in self.deck if c is not Card.LAST_ROUND)
        if actual != expected:
            diff = (actual - expected) + (expected - actual)
            names = ", ".join(sorted(card.text for card in diff))
            raise ValueError(f"the cards do not match the rules' deck (check: {names})")
        if not 0 <= self.first_player < rules.seats:
            raise ValueError(f"first player must be a seat 0-{rules.seats - 1}")


def full_deck(rules: Rules, removed: tuple[Card, ...]) -> Counter[Card]:
    """Every card of a game under ``rules`` (starting cards included, Last Round card not)."""
    cards: Counter[Card] = Counter(
        {colour: CARDS_PER_COLOUR for colour in COLOURS if colour not in removed}
    )
    cards[Card.PLUS2] = PLUS2_CARDS
    if rules.edition is Edition.ANNIVERSARY:
        cards[Card.JOKER] = JOKERS - 1
        cards[Card.GOLDEN_JOKER] = 1
    else:
        cards[Card.JOKER] = JOKERS
    return cards


def deal(rules: Rules, seed: Seed, first_player: int | None = None) -> Setup:
    """Deal a game from ``seed``: the same rules and seed always give the same deal."""
    rng = deal_random(seed)
    colours = list(COLOURS)
    rng.shuffle(colours)
    in_play, removed = colours[: rules.colour_count], tuple(sorted(colours[rules.colour_count :]))
    k = rules.starting_cards
    starting = tuple(tuple(sorted(in_play[s * k : (s + 1) * k])) for s in range(rules.seats))
    rest = [colour for colour in in_play for _ in range(CARDS_PER_COLOUR)]
    for hand in starting:
        for card in hand:
            rest.remove(card)
    rest += _SPECIALS[rules.edition]
    rng.shuffle(rest)
    deck = (
        *rest[:-CARDS_BELOW_LAST_ROUND],
        Card.LAST_ROUND,
        *rest[-CARDS_BELOW_LAST_ROUND:],
    )
    first = rng.randrange(rules.seats) if first_player is None else first_player
    return Setup(removed, starting, deck, first, seed)


_SPECIALS = {
    Edition.CLASSIC: [Card.PLUS2] * PLUS2_CARDS + [Card.JOKER] * JOKERS,
    Edition.ANNIVERSARY: [Card.PLUS2] * PLUS2_CARDS
    + [Card.JOKER] * (JOKERS - 1)
    + [Card.GOLDEN_JOKER],
}
