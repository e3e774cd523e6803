"""The cards of Coloretto: seven colours, jokers, "+2" cards and the Last Round card."""

from __future__ import annotations

from enum import IntEnum


class Card(IntEnum):
    """One kind of card.

    The seven colours come first (their values index per-colour counts), then
    the special cards. Every card has a lower-case text form used in game
    records and on the command line:

    >>> Card.GREEN.text, Card.PLUS2.text, Card.GOLDEN_JOKER.text
    ('green', '+2', 'golden-joker')
    >>> Card.from_text("last-round")
    <Card.LAST_ROUND: 10>
    """

    BLUE = 0
    BROWN = 1
    GRAY = 2
    GREEN = 3
    ORANGE = 4
    PINK = 5
    YELLOW = 6
    JOKER = 7
    GOLDEN_JOKER = 8
    PLUS2 = 9
    LAST_ROUND = 10

    @property
    def text(self) -> str:
        """The card's name as written in records: ``"blue"``, ``"joker"``, ``"+2"``..."""
        return _TEXT[self]

    @property
    def is_colour(self) -> bool:
        """True for the seven chameleon colours."""
        return self < Card.JOKER

    @property
    def is_joker(self) -> bool:
        """True for the ordinary and the golden joker."""
        return self is Card.JOKER or self is Card.GOLDEN_JOKER

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse a card name (``"blue"``, ``"joker"``, ``"+2"``, ...); raise ``ValueError``."""
        try:
            return _BY_TEXT[text.strip().lower()]
        except KeyError:
            names = ", ".join(f'"{name}"' for name in _BY_TEXT)
            raise ValueError(f"unknown card {text!r}: expected one of {names}") from None


COLOURS: tuple[Card, ...] = tuple(card for card in Card if card < Card.JOKER)
"""All seven colours, in their fixed order."""

COLLECTABLE: tuple[Card, ...] = tuple(card for card in Card if card is not Card.LAST_ROUND)
"""Every card kind that can end up in a player's collection."""

_TEXT: dict[Card, str] = {card: card.name.lower().replace("_", "-") for card in Card}
_TEXT[Card.PLUS2] = "+2"
_BY_TEXT: dict[str, Card] = {text: card for card, text in _TEXT.items()}
