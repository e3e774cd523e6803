"""A game or match being played at the keyboard: the engine's ``Match``, the players and bots.

The session is the screens' model. It lives on the UI thread; bots are handed immutable
``GameState`` objects (which are safe to read from a worker thread), never the session.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum

from coloretto.bots.guard import Analysis, Answer
from coloretto.bots.players import BotPlayers, match_ply, move_seed
from coloretto.engine import Action, ActionKind, GameState, Match, Move, SeedSecrecy
from coloretto.engine.setup import SEED_BITS, random_seed
from coloretto.play.config import GameConfig
from coloretto.store.saves import new_id


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
        specs[self.hint_player] = config.hint_bot
        self.bots = BotPlayers(specs, random_seed() if self.seed is None else self.seed)
        """The bots of the match, kept from move to move (the hint bot's number is
        ``hint_player``)."""

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

    @property
    def hint_player(self) -> int:
        """The hint bot's number in ``bots`` (after every seat's)."""
        return self.config.rules.seats

    def bot_move(self) -> Answer:
        """The move of the bot whose turn it is, through the guard (blocking: call it off the
        UI thread). Its seed depends on the match seed and the moves played so far only
        (``move_seed``), so a game resumed from a save goes on as it would have."""
        return self.bots.choose(
            self.game, time_limit=self.config.time_limit, game_number=self.match.game_number
        )

    def hint_analysis(self) -> Analysis:
        """The hint bot's values of every legal action for the seat to move, through the
        guard (blocking); ``Analysis(None, ...)`` when the hint bot cannot analyse."""
        return self.bots.analyse(
            self.game,
            self.hint_player,
            time_limit=self.config.time_limit,
            game_number=self.match.game_number,
        )

    def hint_choice(self) -> Answer:
        """The hint bot's choice for the seat to move, through the guard (blocking)."""
        return self.bots.choose(
            self.game,
            time_limit=self.config.time_limit,
            game_number=self.match.game_number,
            player=self.hint_player,
        )

    @property
    def shown_seed(self) -> str:
        """The seed as the screens show it: only once it may be (``Match.seed_secrecy``),
        since it deals every card to come (the same ``--seed`` elsewhere would show the deck).

        >>> from coloretto.engine import Rules
        >>> Session(GameConfig.build(Rules(players=3), seed=3)).shown_seed
        'secret until the end'
        """
        secrecy = self.match.seed_secrecy
        if secrecy is not SeedSecrecy.SHOWN:
            return f"secret {secrecy.value}"
        return "not known here" if self.seed is None else str(self.seed)

    def bot_seed(self, seat: int) -> int:
        """The seed ``seat``'s bot is given for its move now (``move_seed``)."""
        return move_seed(self.bots.seed, seat, match_ply(self.game, self.match.game_number))

    def controller_name(self, seat: int) -> str:
        """The name of the player who moves ``seat``."""
        return self.config.controller(seat).name

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
        return self.game.is_over and not self.match.is_over

    def next_game(self) -> None:
        """Deal the match's next game (the starting seat moves on)."""
        self.match = self.match.next_game()

    def rematch(self) -> Session:
        """A new session with the same players and a new seed: the next one when the seed
        was given (a rematch can be played again), else one picked at random (the seed was
        shown at the end: the next one would give the deck away)."""
        seed = None if self.config.seed is None else (self.config.seed + 1) % 2**SEED_BITS
        return Session(replace(self.config, seed=seed))

    # ------------------------------------------------------------------ the table now

    def row_takers(self) -> dict[int, int]:
        """Rows taken this round, each with the seat that took it."""
        game = self.game
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
