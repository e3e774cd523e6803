"""One seat's view of a game: everything but the order of the deck (and, for measurement
only, a view that holds the deck too)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from coloretto.engine.actions import Action
from coloretto.engine.cards import Card
from coloretto.engine.rules import Rules
from coloretto.engine.scoring import ScoreBreakdown

if TYPE_CHECKING:
    from coloretto.engine.state import GameState, Move


class PlayerView:
    """What one seat may know; this is all a bot is given.

    Only the order of the deck is hidden; which cards remain is public
    (``unseen``), and so is where the Last Round card lies. ``sample`` deals a
    full state consistent with the view, for search:

    >>> from coloretto.engine import Rules, new_game
    >>> view = new_game(Rules(players=3), seed=5).view(0)
    >>> view.deck_size, view.cards_before_last_round
    (64, 49)
    >>> guess = view.sample(random.Random(1))
    >>> guess.rows == view.rows and guess.current_player == view.current_player
    True
    """

    __slots__ = ("_seat", "_state")

    def __init__(self, state: GameState, seat: int) -> None:
        if not 0 <= seat < state.rules.seats:
            raise ValueError(f"there is no seat {seat}")
        self._state = state
        self._seat = seat

    @property
    def seat(self) -> int:
        """The seat this view belongs to."""
        return self._seat

    @property
    def seats(self) -> int:
        """How many seats the table has: the players, and the ghosts in the ghost variant."""
        return self._state.rules.seats

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self._state.rules

    @property
    def current_player(self) -> int:
        """The seat to move."""
        return self._state.current_player

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._state.is_over

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self._state.round

    @property
    def rows(self) -> tuple[tuple[Card, ...], ...]:
        """The cards on each row."""
        return self._state.rows

    @property
    def row_capacities(self) -> tuple[int, ...]:
        """How many cards each row holds."""
        return self._state.row_capacities

    @property
    def rows_taken(self) -> tuple[bool, ...]:
        """For each row, whether it was taken this round."""
        return self._state.rows_taken

    @property
    def takes_this_round(self) -> tuple[int, ...]:
        """Rows each seat has taken this round."""
        return self._state.takes_this_round

    @property
    def seats_out(self) -> tuple[bool, ...]:
        """For each seat, whether it sits out the rest of the round."""
        return self._state.seats_out

    @property
    def drawn_card(self) -> Card | None:
        """The card drawn this turn and not yet placed (face up: everyone sees it)."""
        return self._state.drawn_card

    @property
    def deck_size(self) -> int:
        """Cards left to draw (not counting the Last Round card)."""
        return self._state.deck_size

    @property
    def cards_before_last_round(self) -> int | None:
        """Cards to be drawn before the Last Round card shows (``None`` once it has)."""
        return self._state.cards_before_last_round

    @property
    def last_round(self) -> bool:
        """True once the Last Round card is out."""
        return self._state.last_round

    @property
    def colours(self) -> tuple[Card, ...]:
        """The colours in play."""
        return self._state.colours

    @property
    def removed_colours(self) -> tuple[Card, ...]:
        """The colours taken out at the deal."""
        return self._state.removed_colours

    @property
    def discards(self) -> tuple[Card, ...]:
        """Cards removed from play during the game."""
        return self._state.discards

    @property
    def last_move(self) -> Move | None:
        """The latest move, or ``None`` at the start."""
        return self._state.last_move

    def collection(self, seat: int) -> dict[Card, int]:
        """The cards ``seat`` has collected, by kind."""
        return self._state.collection(seat)

    @property
    def collections(self) -> tuple[dict[Card, int], ...]:
        """Every seat's collection, by kind, in seat order (``collection`` for each seat).

        >>> from coloretto.engine import Rules, new_game
        >>> view = new_game(Rules(players=3), seed=5).view(0)
        >>> len(view.collections) == view.seats == 3, sum(view.collections[0].values())
        (True, 1)
        """
        return tuple(self._state.collection(s) for s in range(self.seats))

    def counts(self, seat: int) -> tuple[int, ...]:
        """``seat``'s collection as counts indexed by card value (fast, for search)."""
        return self._state.counts(seat)

    def unseen(self) -> dict[Card, int]:
        """The cards still in the deck, by kind."""
        return self._state.unseen()

    def history(self) -> tuple[Move, ...]:
        """Every move so far, oldest first."""
        return self._state.history()

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions allowed to the seat to move."""
        return self._state.legal_actions()

    def scores(self) -> tuple[int, ...]:
        """Each seat's score if the game ended now."""
        return self._state.scores()

    def score_with(self, seat: int, cards: Iterable[Card] = ()) -> int:
        """``seat``'s best score if it also held ``cards``."""
        return self._state.score_with(seat, cards)

    def score_breakdown(self, seat: int) -> ScoreBreakdown[Card]:
        """How ``seat`` scores now."""
        return self._state.score_breakdown(seat)

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with this view: the unseen cards shuffled by ``rng``.

        The result depends only on what the view shows and on ``rng``, never on
        the real order of the deck.
        """
        return self._state.shuffled(rng)


class RevealedView(PlayerView):
    """A seat's view that also holds the whole game, the order of the deck included: for
    measurement only.

    Only the arena makes one, and only for the oracle (``coloretto.bots.oracle``), which
    measures how far a bot stands from a player who knows the next cards. Every other bot,
    in the game, the server, the hints and the arena alike, is given a ``PlayerView``, which
    has no way to the deck's order.

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=3), seed=5)
    >>> RevealedView(game, 0).true_state() is game
    True
    """

    __slots__ = ()

    def true_state(self) -> GameState:
        """The game itself, as the table holds it: the real order of the deck."""
        return self._state
