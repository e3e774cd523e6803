"""What everyone at an online table may know of the game, and a playable model built from it.

In Coloretto only the order of the deck is secret. The server sends the deal without it
(``PublicSetup``: the colours removed, the starting cards, the first seat) and every move
as the table saw it (``MoveForm``, ``move_json``: the card a draw turned up), each declared
once as a ``msgspec.Struct``. ``PublicGame`` rebuilds a
real engine state from that: the undrawn cards in an arbitrary order, each revealed card
moved to the top just before the move that turned it up. Legal moves, rows, collections
and scores are the real ones; only the order of the undrawn cards is invented, and nothing
drawn on screen depends on it.

>>> from coloretto.engine import Rules, new_game
>>> real = new_game(Rules(players=3), seed=8).apply("draw").apply("place 1")
>>> model = PublicGame(real.rules, PublicSetup.of(real.setup))
>>> for number, move in enumerate(real.history()):
...     _ = model.add(number, parse_move(move_json(move)))
>>> model.state.rows == real.rows and model.state.history() == real.history()
True
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Annotated, Any

import msgspec

from coloretto.engine import Action, Card, GameState, IllegalAction, Move, Rules, Setup
from coloretto.engine.setup import CARDS_BELOW_LAST_ROUND, full_deck
from coloretto.online.wire.protocol import MAX_SEAT, Frame, ProtocolError, convert

CardName = Annotated[str, msgspec.Meta(max_length=20, description="a card")]
Cards = Annotated[
    tuple[CardName, ...], msgspec.Meta(max_length=10, description="a short list of cards")
]


def _card(text: str) -> Card:
    try:
        return Card.from_text(text)
    except ValueError:
        raise ValueError(f"not a card: {text[:20]!r}") from None


class MoveForm(Frame, frozen=True):
    """One move as the table saw it (the format of a game record's actions): ``Move``'s
    wire form. ``card``: the card a draw turned up (or a golden joker brought in);
    ``last_round``: the move turned up the Last Round card."""

    player: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEAT + 1, description="a seat")]
    action: Annotated[str, msgspec.Meta(max_length=20, description="an action")]
    card: CardName | None = None
    last_round: Annotated[bool, msgspec.Meta(description="true or false")] = False

    def __post_init__(self) -> None:
        try:
            Action.parse(self.action)
        except ValueError:
            raise ValueError(f"not an action: {self.action[:20]!r}") from None
        if self.card is not None:
            _card(self.card)

    @classmethod
    def of(cls, move: Move) -> MoveForm:
        """``move``'s wire form (made once for each move: there are a few thousand)."""
        return _move_form(move)

    @property
    def move(self) -> Move:
        """The engine's ``Move``."""
        card = None if self.card is None else Card.from_text(self.card)
        return Move(self.player, Action.parse(self.action), card, self.last_round)


@cache
def _move_form(move: Move) -> MoveForm:
    card = None if move.card is None else move.card.text
    return MoveForm(move.player, str(move.action), card, move.last_round)


def move_json(move: Move) -> dict[str, Any]:
    """One move as the table saw it (the format of a game record's actions)."""
    return MoveForm.of(move).to_json()


def parse_move(data: object) -> Move:
    """A move as ``move_json`` writes it; ``ProtocolError`` unless it is one (whether it
    fits the game is ``PublicGame.add``'s to say)."""
    form: MoveForm = convert(data, MoveForm, "move")
    return form.move


Results = tuple[tuple[int, ...], ...]


class PublicSetup(Frame, frozen=True, omit_defaults=False, forbid_unknown_fields=False):
    """The deal as everyone sees it: the colours removed, the starting cards and the first
    seat; no deck order, no seed (they would give the deck away). Whether the cards fit
    the rules is ``PublicGame``'s to say."""

    removed: Cards
    starting: Annotated[
        tuple[Cards, ...], msgspec.Meta(max_length=MAX_SEAT + 1, description="one hand per seat")
    ]
    first_player: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEAT, description="a seat")]

    def __post_init__(self) -> None:
        for text in (*self.removed, *(text for hand in self.starting for text in hand)):
            _card(text)

    @classmethod
    def of(cls, setup: Setup) -> PublicSetup:
        """What everyone may know of ``setup``."""
        return cls(
            tuple(card.text for card in setup.removed),
            tuple(tuple(card.text for card in hand) for hand in setup.starting),
            setup.first_player,
        )

    def check(self, rules: Rules) -> None:
        """``ValueError`` unless it has one hand per seat of ``rules`` and a seat to start."""
        if len(self.starting) != rules.seats:
            raise ValueError("setup.starting: expected one hand per seat")
        if not self.first_player < rules.seats:
            raise ValueError("setup.first_player: expected a seat")

    @property
    def cards(self) -> tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
        """The colours removed and the starting hands, as the engine's cards."""
        removed = tuple(Card.from_text(text) for text in self.removed)
        return removed, tuple(
            tuple(Card.from_text(text) for text in hand) for hand in self.starting
        )


class PublicGame:
    """A game rebuilt from what the table saw: ``state`` is a real engine state whose
    undrawn cards are in an invented order. Raises ``ProtocolError`` on anything that does
    not fit the rules (a server can be wrong, or not a server at all)."""

    def __init__(self, rules: Rules, setup: PublicSetup) -> None:
        try:
            removed, hands = setup.cards
            starting = Counter(card for hand in hands for card in hand)
            rest = full_deck(rules, removed) - starting
            deck = sorted(rest.elements())
            deck.insert(len(deck) - CARDS_BELOW_LAST_ROUND, Card.LAST_ROUND)
            self.state = GameState.from_setup(
                rules, Setup(removed, hands, tuple(deck), setup.first_player, None)
            )
            self._ply = 0
        except (ValueError, TypeError) as problem:
            raise ProtocolError(f"setup: {problem}") from None

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return self._ply

    def add(self, ply: int, move: Move) -> Move:
        """Play the move the table saw as number ``ply`` (from 0); returns it."""
        if ply != self.ply:
            raise ProtocolError(f"move {ply} arrived after {self.ply} moves")
        state = self.state
        if move.card is not None:
            rest = sorted(Counter(state.unseen()).elements())
            if move.card not in rest:
                raise ProtocolError(f"move {ply}: no {move.card.text} card is left to turn up")
            rest.remove(move.card)
            state = state.with_deck_order([move.card, *rest])
        try:
            after = state.apply(move.action)
        except IllegalAction as problem:
            raise ProtocolError(f"move {ply}: {problem}") from None
        if after.last_move != move:
            raise ProtocolError(f"move {ply} does not fit the game")
        self.state = after
        self._ply += 1
        return move
