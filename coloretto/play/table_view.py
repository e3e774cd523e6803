"""What a screen may read of the game it shows: ``TableView``, the same for a game played
here (``Session``) and one played on a server (``RemoteView``).

A view is read-only to the screens: they draw it and send their moves to the ``Table``.

>>> from coloretto.engine import Rules
>>> from coloretto.play.config import GameConfig
>>> from coloretto.play.session import Session
>>> view: TableView = Session(GameConfig.build(Rules(players=3), bot="greedy", seed=3))
>>> view.mover(0), view.mover(1), view.shown_seed
(<Mover.HERE: 'here'>, <Mover.BOT: 'bot'>, 'secret until the end')
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol

from coloretto.engine import ActionKind, GameState, Match, SeedSecrecy
from coloretto.play.config import GameConfig
from coloretto.play.seed_text import deal_seed_text


class Mover(Enum):
    """Who moves a seat, as the front end that shows the game sees it."""

    HERE = "here"
    """A person at this front end."""
    BOT = "bot"
    """A bot (here, or on the server of an online game)."""
    PERSON = "person"
    """A person at another front end."""
    AWAY = "away"
    """A person at another front end whose connection is lost."""


class TableView(Protocol):
    """The game a screen shows: the match, its players and who moves each seat."""

    @property
    def id(self) -> str:
        """The game's id (a save's name, or an online room's)."""

    @property
    def config(self) -> GameConfig:
        """The rules and the players (names, and the bot of each bot)."""

    @property
    def match(self) -> Match:
        """The match as this front end knows it (an online one without its seat: the deck
        is not known here until the game is over)."""

    @property
    def game(self) -> GameState:
        """The game being played (or just finished)."""

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Each seat's name (a ghost's says whose it is)."""

    @property
    def shown_seed(self) -> str:
        """The seed as the screens show it, or why it is not shown."""

    @property
    def has_next_game(self) -> bool:
        """True when the current game is over and the match has more games."""

    def mover(self, seat: int) -> Mover:
        """Who moves ``seat``."""


def row_takers(game: GameState) -> dict[int, int]:
    """The rows taken this round, each with the seat that took it.

    >>> from coloretto.engine import DRAW, Rules, new_game
    >>> game = new_game(Rules(players=3), seed=1).apply(DRAW)
    >>> row_takers(game)
    {}
    """
    pending = sum(game.takes_this_round)
    takers: dict[int, int] = {}
    if not pending:
        return takers
    for move in reversed(game.history()):
        if move.action.kind is ActionKind.TAKE and move.action.row is not None:
            takers[move.action.row] = move.player
            if len(takers) == pending:
                break
    return takers


def shown_seed(match: Match) -> str:
    """``match``'s seed as a screen shows it: only once it may be (``Match.seed_secrecy``),
    since it deals every card to come (the same ``--seed`` elsewhere would show the deck).

    >>> from coloretto.engine import Rules
    >>> shown_seed(Match.start(Rules(players=3), seed=3))
    'secret until the end'
    """
    secrecy = match.seed_secrecy
    if secrecy is not SeedSecrecy.SHOWN:
        return f"secret {secrecy.value}"
    return "not known here" if match.seed is None else deal_seed_text(match.seed)


def has_next_game(match: Match) -> bool:
    """True when ``match``'s current game is over and the match has more games."""
    return match.game.is_over and not match.is_over
