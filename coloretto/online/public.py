"""What everyone at an online table may know of the game, and a playable model built from it.

In Coloretto only the order of the deck is secret. The server sends the deal without it
(``PublicSetup``: the colours removed, the starting cards, the first seat) and every move
as the table saw it (``move_json``: the card a draw turned up). ``PublicGame`` rebuilds a
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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from coloretto.engine import Action, Card, GameState, IllegalAction, Move, Rules, Setup
from coloretto.engine.setup import CARDS_BELOW_LAST_ROUND, full_deck
from coloretto.online.protocol import MAX_SCORE, ProtocolError


def move_json(move: Move) -> dict[str, Any]:
    """One move as the table saw it (the format of a game record's actions)."""
    entry: dict[str, Any] = {"player": move.player, "action": str(move.action)}
    if move.last_round:
        entry["last_round"] = True
    if move.card is not None:
        entry["card"] = move.card.text
    return entry


Results = tuple[tuple[int, ...], ...]


def match_progress(rules: Rules, data: object) -> tuple[int, Results]:
    """The game number and the earlier games' scores of a ``game`` message's ``match``,
    checked against ``rules`` (``None``: the first game); ``ProtocolError`` saying what is
    wrong.

    >>> match_progress(Rules(players=3, games=2), {"game": 2, "results": [[10, 4, -2]]})
    (2, ((10, 4, -2),))
    >>> match_progress(Rules(players=3, games=2), {"game": 3, "results": []})
    Traceback (most recent call last):
    ...
    coloretto.online.protocol.ProtocolError: match.game: expected a whole number from 1 to 2
    """
    if data is None:
        return 1, ()
    if not isinstance(data, Mapping) or set(data) != {"game", "results"}:
        raise ProtocolError("match: expected the game's number and the earlier results")
    number = data["game"]
    if type(number) is not int or not 1 <= number <= rules.games:
        raise ProtocolError(f"match.game: expected a whole number from 1 to {rules.games}")
    results = data["results"]
    if not isinstance(results, list) or len(results) != number - 1:
        raise ProtocolError(f"match.results: expected the scores of {number - 1} games")
    for scores in results:
        if (
            not isinstance(scores, list)
            or len(scores) != rules.seats
            or not all(type(s) is int and -MAX_SCORE <= s <= MAX_SCORE for s in scores)
        ):
            raise ProtocolError(
                f"match.results: expected {rules.seats} scores a game, each from "
                f"-{MAX_SCORE} to {MAX_SCORE}"
            )
    return number, tuple(tuple(scores) for scores in results)


def _card(value: object) -> Card:
    if not isinstance(value, str) or len(value) > 20:
        raise ProtocolError("expected a card")
    try:
        return Card.from_text(value)
    except ValueError:
        raise ProtocolError(f"not a card: {value[:20]!r}") from None


def _cards(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) > 10:
        raise ProtocolError("expected a short list of cards")
    return tuple(_card(item) for item in value)


def parse_move(data: object) -> Move:
    """A move as ``move_json`` writes it; ``ProtocolError`` unless it is one (whether it
    fits the game is ``PublicGame.add``'s to say)."""
    if not isinstance(data, Mapping) or set(data) - {"player", "action", "card", "last_round"}:
        raise ProtocolError("expected a move")
    player, text = data.get("player"), data.get("action")
    if type(player) is not int or not isinstance(text, str):
        raise ProtocolError("expected a move's player and action")
    try:
        action = Action.parse(text[:20])
    except ValueError:
        raise ProtocolError("not an action") from None
    card = _card(data["card"]) if "card" in data else None
    return Move(player, action, card, data.get("last_round", False) is True)


@dataclass(frozen=True)
class PublicSetup:
    """The deal as everyone sees it: the colours removed, the starting cards and the first
    seat; no deck order, no seed (they would give the deck away)."""

    removed: tuple[Card, ...]
    starting: tuple[tuple[Card, ...], ...]
    first_player: int

    @classmethod
    def of(cls, setup: Setup) -> PublicSetup:
        """What everyone may know of ``setup``."""
        return cls(setup.removed, setup.starting, setup.first_player)

    def to_json(self) -> dict[str, Any]:
        """The deal as the ``game`` message's ``setup``."""
        return {
            "removed": [card.text for card in self.removed],
            "starting": [[card.text for card in hand] for hand in self.starting],
            "first_player": self.first_player,
        }

    @classmethod
    def parse(cls, data: object, rules: Rules) -> PublicSetup:
        """The deal ``to_json`` wrote, for a game of ``rules``; ``ProtocolError`` unless it
        has one short hand per seat and a seat to start (whether the cards fit is
        ``PublicGame``'s to say)."""
        if not isinstance(data, Mapping):
            raise ProtocolError("setup: expected an object")
        hands = data.get("starting")
        if not isinstance(hands, list) or len(hands) != rules.seats:
            raise ProtocolError("setup.starting: expected one hand per seat")
        first = data.get("first_player")
        if type(first) is not int or not 0 <= first < rules.seats:
            raise ProtocolError("setup.first_player: expected a seat")
        return cls(_cards(data.get("removed")), tuple(_cards(hand) for hand in hands), first)


class PublicGame:
    """A game rebuilt from what the table saw: ``state`` is a real engine state whose
    undrawn cards are in an invented order. Raises ``ProtocolError`` on anything that does
    not fit the rules (a server can be wrong, or not a server at all)."""

    def __init__(self, rules: Rules, setup: PublicSetup) -> None:
        try:
            starting = Counter(card for hand in setup.starting for card in hand)
            rest = full_deck(rules, setup.removed) - starting
            deck = sorted(rest.elements())
            deck.insert(len(deck) - CARDS_BELOW_LAST_ROUND, Card.LAST_ROUND)
            self.state = GameState.from_setup(
                rules, Setup(setup.removed, setup.starting, tuple(deck), setup.first_player, None)
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
