"""The game at an online table as its client knows it: ``RemoteView`` holds it, once.

The match (and its game) lives in the view; the moves the server tells are played on it
(``add``) through the public model that checks them (``PublicGame``); once the game is
over, its whole record (deck and all) takes its place (``finish``).
"""

from __future__ import annotations

from dataclasses import replace

from coloretto.engine import GameState, Match, Move
from coloretto.online.wire.messages import RatingChange
from coloretto.online.wire.protocol import ProtocolError
from coloretto.online.wire.public import PublicGame, Results
from coloretto.play.config import GameConfig
from coloretto.play.session import Session
from coloretto.play.table_view import Mover, has_next_game, shown_seed


class RemoteView:
    """The game a screen shows at an online table (a ``TableView``): the real players and
    the game as the table saw it, without the order of the undrawn cards; once the game is
    over, the whole match as its record came (``finish``).

    ``public`` is the model that checks and plays the moves the server tells (``add``);
    a view made without one only shows ``game``."""

    def __init__(
        self,
        config: GameConfig,
        game: GameState,
        room_id: str,
        here: int | None,
        results: Results = (),
        *,
        public: PublicGame | None = None,
    ) -> None:
        self.config = config
        self.id = room_id
        self.match = Match(config.rules, None, game, results)
        self.seat_names: tuple[str, ...] = config.seat_names()
        self.here = here
        """The player at this front end (``None``: watching)."""
        self.away: frozenset[int] = frozenset()
        """The players whose connection is lost (a bot covers for them after a while)."""
        self.out_of_time: frozenset[int] = frozenset()
        """The players who ran out of time too often: a bot plays their moves at once."""
        self.covered: frozenset[int] = frozenset()
        """The actions (by number) of this game that a bot played for a person away."""
        self.final: Session | None = None
        """The finished game as its whole record came (``None``: not over, or not yet)."""
        self.rated: tuple[RatingChange, ...] = ()
        """How this game changed the ratings, once the server told (a rated game's)."""
        self._public = public

    @property
    def game(self) -> GameState:
        """The game as far as it is known here."""
        return self.match.game

    @property
    def shown_seed(self) -> str:
        """The seed, once the match is over and its record has come (secret until then:
        it would give the deck away)."""
        return shown_seed(self.match)

    @property
    def has_next_game(self) -> bool:
        """True when the current game is over and the match has more games."""
        return has_next_game(self.match)

    def mover(self, seat: int) -> Mover:
        """Who moves ``seat``: the player here, a bot (on the server), another person, or a
        person whose connection is lost."""
        player = self.config.rules.controller(seat)
        if player in self.out_of_time:
            return Mover.BOT
        if player == self.here:
            return Mover.HERE
        if player in self.away:
            return Mover.AWAY
        return Mover.PERSON if self.config.controller(seat).is_human else Mover.BOT

    def add(self, ply: int, move: Move) -> Move:
        """Play the move the server told as number ``ply``; ``ProtocolError`` if it does
        not fit the game."""
        if self._public is None:
            raise ProtocolError(f"move {ply} on a game shown without its moves")
        played = self._public.add(ply, move)
        self.match = replace(self.match, game=self._public.state)
        return played

    def finish(self, final: Session) -> None:
        """The game's whole record came (``final``, the match so far): it takes the place
        of the game as the table saw it (the deck, and the seed if shown)."""
        self.final = final
        self.match = final.match

    def stood_in(self) -> frozenset[int]:
        """The people of the game for whom a bot played a move while they were away (the
        game is left out of their statistics)."""
        moves = self.game.history()
        players = self.config.players
        return frozenset(
            player
            for ply in self.covered
            if ply < len(moves)
            and players[player := self.game.rules.controller(moves[ply].player)].is_human
        )
