"""A game or match being played at the keyboard: the engine's ``Match``, the players and bots.

The screens read it as a ``TableView`` (``coloretto.play.table_view``). It lives on the UI
thread; bots are handed immutable ``GameState`` objects (which are safe to read from a
worker thread), never the session.
"""

from __future__ import annotations

from dataclasses import replace

from coloretto.bots.guard import Answer
from coloretto.bots.players import BotPlayers
from coloretto.engine import Action, GameState, Match, Move
from coloretto.engine.seeds import match_ply, move_seed, random_seed, rematch_seed
from coloretto.play.analysis import Hints
from coloretto.play.config import GameConfig
from coloretto.play.table_view import Mover, has_next_game, shown_seed
from coloretto.store.saves import new_id


class Session:
    """A match (a single game is a match of one) with its players and their bots.

    >>> from coloretto.engine import Rules
    >>> from coloretto.play.config import GameConfig
    >>> session = Session(GameConfig.build(Rules(players=3), bot="greedy", seed=3))
    >>> session.seat_names, session.is_bot(0), session.is_bot(1)
    (('You', 'Bot 1', 'Bot 2'), False, True)
    """

    def __init__(
        self, config: GameConfig, match: Match | None = None, session_id: str | None = None
    ) -> None:
        self.config = config
        self.id = session_id or new_id()
        """The session's id: its save file's name; the games of a match share it."""
        if match is None:
            match = Match.start(config.rules, config.seed)
        self.seed: int | None = None if match.seed is None else int(match.seed)
        """The match's seed (drawn at random, ``random_seed``, when the config has none);
        ``None`` where it is withheld (``Match.seed``)."""
        self.match = match
        """The match: a new one, or one resumed from a save (``match``)."""
        self.seat_names: tuple[str, ...] = config.seat_names()
        specs = {p: player.bot for p, player in enumerate(config.players) if player.bot}
        self.bots = BotPlayers(specs, random_seed() if self.seed is None else self.seed)
        """The bots of the match, kept from move to move."""
        self.hints = Hints(config.hint_bot)
        """The hints of the match: the coach's one analysis, and the hints given (kept
        with the game: ``coloretto.play.saving``)."""

    # ------------------------------------------------------------------ who plays

    @property
    def game(self) -> GameState:
        """The game being played (or just finished)."""
        return self.match.game

    def is_bot(self, seat: int) -> bool:
        """True when a bot moves ``seat``."""
        return self.bots.plays(self.config.rules.controller(seat))

    def mover(self, seat: int) -> Mover:
        """Who moves ``seat``: a bot, or a person at this keyboard."""
        return Mover.BOT if self.is_bot(seat) else Mover.HERE

    def bot_move(self) -> Answer:
        """The move of the bot whose turn it is, through the guard (blocking: call it off the
        UI thread). Its seed depends on the match seed and the moves played so far only
        (``move_seed``), so a game resumed from a save goes on as it would have."""
        return self.bots.choose(
            self.game, time_limit=self.config.time_limit, game_number=self.match.game_number
        )

    @property
    def shown_seed(self) -> str:
        """The seed as the screens show it (``table_view.shown_seed``).

        >>> from coloretto.engine import Rules
        >>> Session(GameConfig.build(Rules(players=3), seed=3)).shown_seed
        'secret until the end'
        """
        return shown_seed(self.match)

    def bot_seed(self, seat: int) -> int:
        """The seed ``seat``'s bot is given for its move now (``move_seed``)."""
        return move_seed(self.bots.seed, seat, match_ply(self.game, self.match.game_number))

    @property
    def hotseat(self) -> bool:
        """True when more than one person plays at this keyboard."""
        return self.config.humans > 1

    # ------------------------------------------------------------------ playing

    def apply(self, action: Action) -> Move:
        """Play ``action`` for the seat to move; raises ``IllegalAction`` (saying why)."""
        self.match = self.match.apply(action)
        move = self.game.last_move
        assert move is not None
        return move

    @property
    def has_next_game(self) -> bool:
        """True when the current game is over and the match has more games."""
        return has_next_game(self.match)

    def next_game(self) -> None:
        """Deal the match's next game (the starting seat moves on)."""
        self.match = self.match.next_game()

    def rematch(self) -> Session:
        """A new session with the same players and a new seed: the next one when the seed
        was given (a rematch can be played again), else one picked at random (the seed was
        shown at the end: the next one would give the deck away)."""
        return Session(replace(self.config, seed=rematch_seed(self.config.seed)))
