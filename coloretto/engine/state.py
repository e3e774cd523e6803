"""A game in progress: the immutable ``GameState`` and ``new_game``."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from typing import Final, NamedTuple

from coloretto.engine.actions import (
    _PLACE,
    _TAKE,
    DRAW,
    Action,
    ActionKind,
    IllegalAction,
    IllegalReason,
)
from coloretto.engine.cards import COLLECTABLE, COLOURS, Card
from coloretto.engine.outcome import Outcome
from coloretto.engine.rules import Rules
from coloretto.engine.scoring import ScoreBreakdown, best_total, score
from coloretto.engine.seeds import Seed, random_seed
from coloretto.engine.setup import Setup, deal
from coloretto.engine.view import PlayerView

_JOKER = int(Card.JOKER)
_GOLDEN = int(Card.GOLDEN_JOKER)
_PLUS2 = int(Card.PLUS2)
_LAST_ROUND = int(Card.LAST_ROUND)
_KINDS = len(COLLECTABLE)
_CARDS = tuple(Card)
"""Every card by its value (``Card(k)`` without the enum's lookup)."""
_DRAW = ActionKind.DRAW
_History = tuple["_History", int, Action, Card | None, bool, int] | None
_Core = tuple[
    int,
    tuple[tuple[Card, ...], ...],
    int,
    int,
    int,
    int,
    int,
    Card | None,
    bool,
    _History,
    tuple[int, ...],
    tuple[tuple[int, ...], ...],
    tuple[Card, ...],
    bool,
    int,
]
# Indices into a state's core tuple (see GameState).
_POS: Final = 0
_ROWS: Final = 1
_FULL: Final = 2
_FILLED: Final = 3
_TAKEN: Final = 4
_OUT: Final = 5
_PLAYER: Final = 6
_HAND: Final = 7
_OVER: Final = 8
_HISTORY: Final = 9
_TAKES: Final = 10
_COLLS: Final = 11
_DISCARDS: Final = 12
_LAST: Final = 13
_ROUND: Final = 14
_PLACE_KIND = ActionKind.PLACE


class Move(NamedTuple):
    """One action in a game's history, as everyone at the table saw it."""

    player: int
    """The seat that acted."""
    action: Action
    card: Card | None = None
    """The card a draw revealed, or the card a golden joker brought in with a take."""
    last_round: bool = False
    """True when this move turned up the Last Round card (before ``card``)."""


class _Fixed:
    """What stays fixed during one game, shared by all its states."""

    __slots__ = (
        "all_rows",
        "all_seats",
        "caps",
        "colours",
        "deck",
        "deck_len",
        "last_round_at",
        "next_seat",
        "place_actions",
        "plus_colours",
        "quota",
        "rows",
        "rules",
        "setup",
        "table",
        "turn_actions",
        "unseen_at",
    )

    def __init__(self, rules: Rules, setup: Setup) -> None:
        self.rules = rules
        self.setup = setup
        self.deck = setup.deck
        self.deck_len = len(setup.deck)
        self.last_round_at = setup.deck.index(Card.LAST_ROUND)
        self.caps = rules.row_capacities
        self.rows = len(self.caps)
        self.all_rows = (1 << self.rows) - 1
        self.all_seats = (1 << rules.seats) - 1
        self.quota = rules.takes_per_round
        self.next_seat = _next_seat_table(rules.seats)
        self.place_actions, self.turn_actions = _action_tables(len(self.caps))
        self.table = rules.scoring.table
        self.plus_colours = rules.plus_colours
        self.colours = tuple(c for c in COLOURS if c not in setup.removed)
        self.unseen_at: dict[int, tuple[int, ...]] = {}
        """The undrawn cards' counts by kind, by deck position, as asked for."""


@cache
def _next_seat_table(seats: int) -> tuple[tuple[int, ...], ...]:
    """``[out_mask][seat]`` -> the next seat to move after ``seat`` (skipping seats out)."""
    table = []
    for out in range(1 << seats):
        row = []
        for seat in range(seats):
            following = [(seat + k) % seats for k in range(1, seats + 1)]
            row.append(next((s for s in following if not out >> s & 1), seat))
        table.append(tuple(row))
    return tuple(table)


@cache
def _flags(bits: int) -> tuple[tuple[bool, ...], ...]:
    """``[mask]`` -> for each of ``bits`` bits, whether it is set in ``mask``."""
    return tuple(tuple(bool(mask >> b & 1) for b in range(bits)) for mask in range(1 << bits))


@cache
def _action_tables(
    rows: int,
) -> tuple[tuple[tuple[Action, ...], ...], tuple[tuple[Action, ...], ...]]:
    """Legal-action tuples by bit mask: placements, and draw-or-take choices."""
    place = tuple(
        tuple(_PLACE[r] for r in range(rows) if mask >> r & 1) for mask in range(1 << rows)
    )
    turn = tuple(
        ((DRAW,) if key >> rows else ()) + tuple(_TAKE[r] for r in range(rows) if key >> r & 1)
        for key in range(1 << (rows + 1))
    )
    return place, turn


def new_game(rules: Rules | None = None, seed: Seed | None = None) -> GameState:
    """Deal a new game; the same rules and seed always give the same deal.

    >>> game = new_game(Rules(players=4), seed=7)
    >>> game.legal_actions()
    (Action.parse('draw'),)
    >>> game = game.apply("draw").apply("place 1")
    >>> [len(row) for row in game.rows]
    [1, 0, 0, 0]
    """
    rules = rules or Rules()
    if seed is None:
        seed = random_seed()
    return GameState._start(rules, deal(rules, seed))


class GameState:
    """One position of a game. Immutable: ``apply`` returns the next state.

    A state never changes once made, so a bot in another thread may hold it
    safely while the game goes on.
    """

    # The position is one flat tuple ``_c`` (unpacked into locals and rebuilt
    # whole), which is several times cheaper than copying many attributes: the
    # engine is the inner loop of every search bot. Its fields, in order:
    #   pos      index of the next card in the deck
    #   rows     the cards on each row
    #   full     bit mask of rows at capacity
    #   filled   bit mask of rows holding at least one card
    #   taken    bit mask of rows taken this round
    #   out      bit mask of seats that have taken all their rows this round
    #   player   seat to move
    #   hand     the drawn card waiting to be placed, or None
    #   over     whether the game has ended
    #   history  the latest move as (previous history, player, action, card, last_round,
    #            ply: the moves played so far, this one included)
    #   takes    rows taken this round, per seat
    #   colls    per seat, the count of each collectable card kind
    #   discards cards removed from play
    #   last     whether the Last Round card is out
    #   round    round number, from 1
    __slots__ = ("_c", "_t")

    _t: _Fixed
    _c: _Core

    def __init__(self) -> None:
        raise TypeError("use new_game() or GameState.from_setup() to start a game")

    @classmethod
    def from_setup(cls, rules: Rules, setup: Setup) -> GameState:
        """The first position of a game dealt as ``setup``; raises ``ValueError`` if invalid."""
        setup.check(rules)
        return cls._start(rules, setup)

    @classmethod
    def _start(cls, rules: Rules, setup: Setup) -> GameState:
        t = _Fixed(rules, setup)
        colls = []
        for hand in setup.starting:
            counts = [0] * _KINDS
            for card in hand:
                counts[card] += 1
            colls.append(tuple(counts))
        return _make(
            t,
            (0, ((),) * t.rows, 0, 0, 0, 0, setup.first_player, None, False, None,
             (0,) * rules.seats, tuple(colls), (), False, 1),
        )  # fmt: skip

    # ----------------------------------------------------------------- moves

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions allowed now (empty once the game is over), draw first."""
        pos, _, full, filled, taken, _, _, hand, over, _, _, _, _, _, _ = self._c
        if over:
            return ()
        t = self._t
        open_rows = t.all_rows & ~taken
        if hand is not None:
            return t.place_actions[open_rows & ~full]
        # The Last Round card always has cards below it, so any card left is drawable.
        can_draw = pos < t.deck_len and open_rows & ~full != 0
        return t.turn_actions[(filled & open_rows) | (can_draw << t.rows)]

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` may be played now."""
        try:
            self.apply(action)
        except (IllegalAction, ValueError):
            return False
        return True

    def apply(self, action: Action | str) -> GameState:
        """The state after ``action`` (an ``Action`` or its text, e.g. ``"take 2"``).

        Raises ``IllegalAction`` with a reason a player understands:

        >>> game = new_game(Rules(players=3), seed=1)
        >>> game.apply("take 1")
        Traceback (most recent call last):
        ...
        coloretto.engine.actions.IllegalAction: row 1 is empty
        """
        if isinstance(action, str):
            try:
                action = Action.parse(action)
            except ValueError as error:
                raise IllegalAction(IllegalReason.NOT_AN_ACTION, str(error)) from None
        kind = action.kind
        if kind is _DRAW:
            return self._draw(action)
        row = action.row
        if row is None or not 0 <= row < self._t.rows:
            raise IllegalAction(
                IllegalReason.NO_SUCH_ROW, f"there is no row {'?' if row is None else row + 1}"
            )
        if kind is _PLACE_KIND:
            return self._place(action, row)
        return self._take(action, row)

    def _draw(self, action: Action) -> GameState:
        t = self._t
        (
            pos,
            rows,
            full,
            filled,
            taken,
            out,
            player,
            hand,
            over,
            history,
            takes,
            colls,
            discards,
            last,
            round_,
        ) = self._c
        if over:
            raise IllegalAction(IllegalReason.GAME_OVER, "the game is over")
        if hand is not None:
            raise IllegalAction(
                IllegalReason.ALREADY_DRAWN, "you have already drawn a card", "place it on a row"
            )
        if pos >= t.deck_len:
            raise IllegalAction(IllegalReason.DECK_EMPTY, "the deck is empty", "take a row")
        if not t.all_rows & ~taken & ~full:
            raise IllegalAction(IllegalReason.NO_ROOM, "every row is full or taken", "take a row")
        card = t.deck[pos]
        pos += 1
        revealed_last = card == _LAST_ROUND
        if revealed_last:
            last = True
            card = t.deck[pos]
            pos += 1
        ply = 1 if history is None else history[5] + 1
        history = (history, player, action, card, revealed_last, ply)
        return _make(t, (pos, rows, full, filled, taken, out, player, card, False,
                         history, takes, colls, discards, last, round_))  # fmt: skip

    def _place(self, action: Action, row: int) -> GameState:
        (
            pos,
            rows,
            full,
            filled,
            taken,
            out,
            player,
            hand,
            over,
            history,
            takes,
            colls,
            discards,
            last,
            round_,
        ) = self._c
        if over:
            raise IllegalAction(IllegalReason.GAME_OVER, "the game is over")
        if hand is None:
            raise IllegalAction(IllegalReason.NOT_DRAWN, "draw a card first, or take a row")
        bit = 1 << row
        if taken & bit:
            raise IllegalAction(IllegalReason.ROW_TAKEN, f"row {row + 1} was taken this round")
        if full & bit:
            raise IllegalAction(IllegalReason.ROW_FULL, f"row {row + 1} is full")
        t = self._t
        new_rows = list(rows)
        cards = new_rows[row] = rows[row] + (hand,)
        if len(cards) == t.caps[row]:
            full |= bit
        ply = 1 if history is None else history[5] + 1
        history = (history, player, action, None, False, ply)
        return _make(t, (pos, tuple(new_rows), full, filled | bit, taken, out,
                         t.next_seat[out][player], None, False,
                         history, takes, colls, discards, last, round_))  # fmt: skip

    def _take(self, action: Action, row: int) -> GameState:
        (
            pos,
            rows,
            full,
            filled,
            taken,
            out,
            player,
            hand,
            over,
            history,
            takes,
            colls,
            discards,
            last,
            round_,
        ) = self._c
        if over:
            raise IllegalAction(IllegalReason.GAME_OVER, "the game is over")
        if hand is not None:
            raise IllegalAction(IllegalReason.ALREADY_DRAWN, "place the drawn card on a row first")
        bit = 1 << row
        if taken & bit:
            raise IllegalAction(IllegalReason.ROW_TAKEN, f"row {row + 1} was taken this round")
        if not filled & bit:
            raise IllegalAction(IllegalReason.ROW_EMPTY, f"row {row + 1} is empty")
        t = self._t
        cards = rows[row]
        counts = list(colls[player])
        for card in cards:
            counts[card] += 1
        bonus = None
        revealed_last = False
        if _GOLDEN in cards and pos < t.deck_len:
            bonus = t.deck[pos]
            pos += 1
            if bonus == _LAST_ROUND:
                revealed_last = last = True
                bonus = t.deck[pos]
                pos += 1
            counts[bonus] += 1
        new_colls = list(colls)
        new_colls[player] = tuple(counts)
        colls = tuple(new_colls)
        new_rows = list(rows)
        new_rows[row] = ()
        rows = tuple(new_rows)
        new_takes = list(takes)
        new_takes[player] += 1
        takes = tuple(new_takes)
        if new_takes[player] == t.quota:
            out |= 1 << player
        ply = 1 if history is None else history[5] + 1
        history = (history, player, action, bonus, revealed_last, ply)
        taken |= bit
        filled &= ~bit
        full &= ~bit
        if out == t.all_seats:
            # Every seat has taken: what is left is discarded, then the game
            # ends or new rows start with the seat that took last.
            discards += tuple(card for cards in rows for card in cards)
            rows = ((),) * t.rows
            full = filled = 0
            if last:
                return _make(t, (pos, rows, full, filled, taken, out, player, None, True,
                                 history, takes, colls, discards, last, round_))  # fmt: skip
            taken = out = 0
            takes = (0,) * len(takes)
            round_ += 1
        else:
            player = t.next_seat[out][player]
        # The deck can run out in some variants: then a seat that cannot take ends the game.
        over = pos >= t.deck_len and not filled & ~taken
        return _make(t, (pos, rows, full, filled, taken, out, player, None, over,
                         history, takes, colls, discards, last, round_))  # fmt: skip

    # --------------------------------------------------------------- queries

    @property
    def rules(self) -> Rules:
        """The rules this game is played under."""
        return self._t.rules

    @property
    def setup(self) -> Setup:
        """The deal (includes the deck order: hidden information)."""
        return self._t.setup

    @property
    def current_player(self) -> int:
        """The seat to move (once the game is over: the seat that moved last)."""
        return self._c[_PLAYER]

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._c[_OVER]

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self._c[_ROUND]

    @property
    def rows(self) -> tuple[tuple[Card, ...], ...]:
        """The cards on each row, oldest first."""
        return self._c[_ROWS]

    @property
    def row_capacities(self) -> tuple[int, ...]:
        """How many cards each row holds."""
        return self._t.caps

    @property
    def rows_taken(self) -> tuple[bool, ...]:
        """For each row, whether it was taken this round."""
        return _flags(self._t.rows)[self._c[_TAKEN]]

    @property
    def takes_this_round(self) -> tuple[int, ...]:
        """Rows each seat has taken this round."""
        return self._c[_TAKES]

    @property
    def seats_out(self) -> tuple[bool, ...]:
        """For each seat, whether it has taken all its rows and sits out the round."""
        return _flags(len(self._c[_TAKES]))[self._c[_OUT]]

    @property
    def drawn_card(self) -> Card | None:
        """The card drawn this turn and not yet placed."""
        return self._c[_HAND]

    @property
    def deck_size(self) -> int:
        """Cards left to draw (not counting the Last Round card)."""
        return self._remaining()

    @property
    def cards_before_last_round(self) -> int | None:
        """Cards to be drawn before the Last Round card shows (``None`` once it has)."""
        if self._c[_LAST]:
            return None
        return self._t.last_round_at - self._c[_POS]

    @property
    def last_round(self) -> bool:
        """True once the Last Round card is out: this round is the last."""
        return self._c[_LAST]

    @property
    def colours(self) -> tuple[Card, ...]:
        """The colours in play."""
        return self._t.colours

    @property
    def removed_colours(self) -> tuple[Card, ...]:
        """The colours taken out of the game at the deal."""
        return self._t.setup.removed

    @property
    def discards(self) -> tuple[Card, ...]:
        """Cards removed from play (left on the third row in the 2-player game)."""
        return self._c[_DISCARDS]

    def collection(self, seat: int) -> dict[Card, int]:
        """The cards ``seat`` has collected, by kind (only kinds held)."""
        return {_CARDS[k]: n for k, n in enumerate(self._c[_COLLS][seat]) if n}

    def counts(self, seat: int) -> tuple[int, ...]:
        """``seat``'s collection as counts indexed by card value (fast, for search).

        >>> new_game(Rules(players=3), seed=2).counts(0)[Card.PLUS2]
        0
        """
        return self._c[_COLLS][seat]

    def unseen(self) -> dict[Card, int]:
        """The cards still in the deck, by kind (public: only their order is hidden)."""
        t = self._t
        pos = self._c[_POS]
        counts = t.unseen_at.get(pos)
        if counts is None:
            kinds = [0] * (_KINDS + 1)  # the Last Round card counted last, and left out
            for card in t.deck[pos:]:
                kinds[card] += 1
            counts = t.unseen_at[pos] = tuple(kinds[:_KINDS])
        return {_CARDS[k]: n for k, n in enumerate(counts) if n}

    def history(self) -> tuple[Move, ...]:
        """Every move so far, oldest first."""
        moves = []
        node = self._c[_HISTORY]
        while node is not None:
            prev, player, action, card, last, _ = node
            moves.append(Move(player, action, card, last))
            node = prev
        return tuple(reversed(moves))

    @property
    def ply(self) -> int:
        """How many moves have been played: ``len(history())``, without making them.

        >>> from coloretto.engine import new_game
        >>> new_game(seed=1).apply("draw").apply("place 1").ply
        2
        """
        node = self._c[_HISTORY]
        return 0 if node is None else node[5]

    def moves_since(self, earlier: GameState) -> tuple[Move, ...] | None:
        """The moves that led from ``earlier`` to this position, oldest first, in as many
        steps as there are moves; ``None`` unless this position is ``earlier`` played on
        (the same game object's line: a game loaded again from its record is another).

        >>> game = new_game(seed=1).apply("draw")
        >>> [str(move.action) for move in game.apply("place 1").apply("draw").moves_since(game)]
        ['place 1', 'draw']
        >>> game.moves_since(game.apply("place 1")) is None
        True
        """
        if self._t is not earlier._t:
            return None
        start = earlier._c[_HISTORY]
        moves = []
        node = self._c[_HISTORY]
        while node is not start:
            if node is None:
                return None
            node, player, action, card, last, _ = node
            moves.append(Move(player, action, card, last))
        return tuple(reversed(moves))

    @property
    def last_move(self) -> Move | None:
        """The latest move, or ``None`` at the start."""
        if self._c[_HISTORY] is None:
            return None
        _, player, action, card, last, _ = self._c[_HISTORY]
        return Move(player, action, card, last)

    # --------------------------------------------------------------- scoring

    def scores(self) -> tuple[int, ...]:
        """Each seat's score if the game ended now (best joker assignment)."""
        return tuple(self.score_with(seat) for seat in range(len(self._c[_COLLS])))

    def score_with(self, seat: int, cards: Iterable[Card] = ()) -> int:
        """``seat``'s best score if it also held ``cards`` (a fast what-if for bots).

        >>> game = new_game(Rules(players=3), seed=2)
        >>> game.score_with(0), game.score_with(0, [Card.PLUS2, Card.PLUS2])
        (1, 5)
        """
        t = self._t
        counts = list(self._c[_COLLS][seat])
        for card in cards:
            counts[card] += 1
        return best_total(
            [counts[c] for c in t.colours],
            counts[_JOKER] + counts[_GOLDEN],
            counts[_PLUS2],
            t.table,
            t.plus_colours,
        )

    def final_scores(self) -> tuple[int, ...]:
        """Each seat's final score; raises ``ValueError`` while the game goes on."""
        if not self._c[_OVER]:
            raise ValueError("the game is not over yet")
        return self.scores()

    def score_breakdown(self, seat: int, cards: Iterable[Card] = ()) -> ScoreBreakdown[Card]:
        """How ``seat`` scores now (if it also held ``cards``: a what-if, as ``score_with``):
        sets, plus colours, where each joker goes, "+2"s.

        Golden jokers come first in ``jokers``.
        """
        t = self._t
        counts = list(self._c[_COLLS][seat])
        for card in cards:
            counts[card] += 1
        return score(
            {c: counts[c] for c in t.colours},
            jokers=counts[_JOKER] + counts[_GOLDEN],
            plus2=counts[_PLUS2],
            scoring=t.rules.scoring,
            plus_colours=t.plus_colours,
        )

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``: the players ranked by their
        totals (``Rules.player_totals``: a ghost seat ranks nowhere).

        >>> game = new_game(Rules(players=3), seed=1)
        >>> game.outcome() is None
        True
        """
        if not self._c[_OVER]:
            return None
        return Outcome.of(self._t.rules.player_totals(self.scores()))

    # ----------------------------------------------------- hidden information

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: everything but the order of the deck."""
        return PlayerView(self, seat)

    def with_deck_order(self, order: Sequence[Card]) -> GameState:
        """This position with the undrawn cards in another ``order`` (for search).

        ``order`` must hold exactly the undrawn cards; the Last Round card
        stays where it is, as everyone knows where it lies.
        """
        t = self._t
        rest = [c for c in t.deck[self._c[_POS] :] if c != _LAST_ROUND]
        if sorted(order) != sorted(rest):
            raise ValueError("the new order must hold exactly the undrawn cards")
        new_rest = [c for c in order if c != _LAST_ROUND]
        deck = list(t.deck[: self._c[_POS]]) + new_rest
        if not self._c[_LAST]:
            deck.insert(t.last_round_at, Card.LAST_ROUND)
        # The seed is dropped: it would give the real deck away.
        return _make(_Fixed(t.rules, replace(t.setup, deck=tuple(deck), seed=None)), self._c)

    def shuffled(self, rng: random.Random) -> GameState:
        """This position with the undrawn cards in a random order (a determinisation)."""
        rest = sorted(c for c in self._t.deck[self._c[_POS] :] if c != _LAST_ROUND)
        rng.shuffle(rest)
        return self.with_deck_order(rest)

    def _remaining(self) -> int:
        t = self._t
        pos = self._c[_POS]
        return t.deck_len - pos - (pos <= t.last_round_at)

    def __eq__(self, other: object) -> bool:
        """Two states are equal when they are the same game (rules and deal) after the
        same moves, e.g. a game and the same game loaded back from its record."""
        if not isinstance(other, GameState):
            return NotImplemented
        if self is other:
            return True
        return (
            self._t.rules == other._t.rules
            and self._t.setup == other._t.setup
            and self.history() == other.history()
        )

    def __hash__(self) -> int:
        return hash((self._t.rules, self._t.setup, self._c[_POS], self._c[_ROUND]))

    def __repr__(self) -> str:
        status = "over" if self._c[_OVER] else f"seat {self._c[_PLAYER]} to move"
        return (
            f"<GameState round {self._c[_ROUND]}, {status}, {self._remaining()} cards left"
            f"{', last round' if self._c[_LAST] else ''}>"
        )


_new_state = object.__new__


def _make(table: _Fixed, core: _Core) -> GameState:
    state: GameState = _new_state(GameState)
    state._t = table
    state._c = core
    return state
