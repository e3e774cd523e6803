"""The bots at a table: one bot per player, made once and kept for the whole match.

Every front end asks its bots through ``BotPlayers``: the game on this machine, the
server's rooms, the hint and the arena, so the bot people play is the bot the arena
measured. A bot is made on its first move and then kept: it sees every move of the game
in the views it is given, and what it learns from them (the search bot's model of its
opponents, ``coloretto.bots.model.Memory``) carries from one move to the next.

Before each move a bot that has ``reseed`` (``Reseeded``) is given a seed that depends only
on the match's seed, the seat and the moves played, so a bot kept for the whole game and
one made again after a break (a game resumed from its save, a server restarted) choose
alike when their budget is counted in iterations. A bot made in the middle of a game that
has ``catch_up`` (``CatchesUp``) first takes in the game so far, without a time limit,
so that it knows its opponents as well as the bot it replaces did.

>>> from coloretto.engine import Rules, new_game
>>> players = BotPlayers({0: "greedy", 1: "random"}, seed=7)
>>> game = new_game(Rules(players=2), seed=7)
>>> answer = players.choose(game, time_limit=5.0)
>>> answer.action in game.legal_actions(), answer.problem
(True, None)
>>> kept = players.bot(0)
>>> players.choose(game.apply(answer.action), time_limit=5.0).problem, players.bot(0) is kept
(None, True)
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from coloretto.bots.base import Analyst, Bot, Budget, Estimate
from coloretto.bots.guard import Analysis, Answer, guarded_analysis, guarded_choice
from coloretto.bots.registry import make_bot
from coloretto.engine import Action, GameState, PlayerView
from coloretto.engine.seeds import Seed, match_ply, move_seed
from coloretto.engine.view import RevealedView


@runtime_checkable
class Reseeded(Protocol):
    """A bot whose randomness can be set before a move (optional for a bot)."""

    def reseed(self, seed: int) -> None:
        """Draw from ``seed`` from now on."""
        ...


@runtime_checkable
class CatchesUp(Protocol):
    """A bot that learns from the game it sees (optional for a bot)."""

    def catch_up(self, view: PlayerView) -> None:
        """Take in everything ``view`` shows of the game so far, without a time limit."""
        ...


def budget_for(time_limit: float) -> Budget:
    """What a bot is told it may spend on a move it must answer within ``time_limit``
    seconds: half of it, so a bot that keeps to its budget is never cut short.

    >>> budget_for(5.0)
    Budget(seconds=2.5, iterations=None)
    """
    return Budget(seconds=time_limit / 2)


class BotPlayers:
    """The bots of one match: ``specs`` names the bot spec of each player (by the player's
    number: in the ghost variant one bot moves a player's two seats) that bots play, and
    ``seed`` is the match's seed. More bots may be kept the same way under numbers after
    the players' (the hint bot).

    The bots are asked through the guard (``coloretto.bots.guard``): a bot that raises,
    answers nonsense or is late is replaced for that move by a sound one. A bot is lent to
    one question at a time: one still thinking (a late bot in its abandoned thread, or a
    second hint asked before the first is answered) is not asked again until it is done;
    meanwhile a new bot, made for the one question, answers (after catching up).

    ``measuring`` (the arena's tables only, never a game's) lets a spec name the oracle
    (``coloretto.bots.oracle``), which is shown the whole game; every other bot is
    shown its seat's view alone, as in the game.
    """

    def __init__(self, specs: Mapping[int, str], seed: Seed, *, measuring: bool = False) -> None:
        self.specs: Mapping[int, str] = dict(specs)
        """Each bot's spec, by player."""
        self.seed = seed
        self.measuring = measuring
        self._bots: dict[int, Bot] = {}
        self._lent: set[int] = set()
        self._lock = threading.Lock()

    def plays(self, player: int) -> bool:
        """True when a bot plays ``player``."""
        return player in self.specs

    def bot(self, player: int) -> Bot | None:
        """``player``'s bot as kept now (``None`` before its first move)."""
        with self._lock:
            return self._bots.get(player)

    def _lend(self, player: int, view: PlayerView, seat: int, ply: int) -> _Lent:
        """``player``'s bot for one question about ``view``, reseeded as ``seat``'s at
        ``ply`` (``move_seed``): the one kept, or a new one (kept unless the kept one is
        still lent), which first catches up with the game. Raises ``BotError``."""
        with self._lock:
            free = player not in self._lent
            bot = self._bots.get(player) if free else None
            if free:
                self._lent.add(player)
        lent = _Lent(self, player if free else None)
        try:
            if bot is None:
                bot = self._make(self.specs[player], seed=move_seed(self.seed, seat, ply))
                if view.history() and isinstance(bot, CatchesUp):
                    bot.catch_up(view)
                if free:
                    with self._lock:
                        self._bots[player] = bot
            if isinstance(bot, Reseeded):
                bot.reseed(move_seed(self.seed, seat, ply))
        except BaseException:
            lent.give_back()
            raise
        lent.bot = bot
        return lent

    def _make(self, spec: str, seed: int) -> Bot:
        """The bot ``spec`` names (the oracle too when ``measuring``). Raises ``BotError``."""
        if not self.measuring:
            return make_bot(spec, seed)
        from coloretto.bots.oracle import make_measured_bot  # noqa: PLC0415 (the search)

        return make_measured_bot(spec, seed)

    def _view(self, state: GameState, seat: int, player: int) -> PlayerView:
        """What ``player``'s bot is shown of ``state`` to move ``seat``: the seat's view,
        or when ``measuring`` the whole game if the bot is the oracle."""
        if self.measuring:
            from coloretto.bots.oracle import sees_the_deck  # noqa: PLC0415 (the search)

            if sees_the_deck(self.specs[player]):
                return RevealedView(state, seat)
        return state.view(seat)

    def _returned(self, player: int) -> None:
        with self._lock:
            self._lent.discard(player)

    def choose(
        self,
        state: GameState,
        *,
        time_limit: float,
        game_number: int = 1,
        player: int | None = None,
    ) -> Answer:
        """A move for the seat to move in ``state`` (game ``game_number`` of the match) from
        its player's bot, or from ``player``'s (another bot kept here), through the guard:
        within ``time_limit`` seconds (``budget_for``)."""
        seat = state.current_player
        who = state.rules.controller(seat) if player is None else player
        view = self._view(state, seat, who)
        ply = match_ply(state, game_number)
        seed_seat = seat if player is None else player
        return guarded_choice(
            lambda: self._lend(who, view, seed_seat, ply),
            view,
            state.legal_actions(),
            time_limit,
            budget_for(time_limit),
        )

    def analyse(
        self,
        state: GameState,
        player: int,
        *,
        time_limit: float,
        game_number: int = 1,
    ) -> Analysis:
        """``player``'s bot values every legal action for the seat to move in ``state``
        (``Analyst.analyse``; ``Analysis(None, ...)`` for a bot that cannot), through the
        guard, like ``choose``."""
        view = state.view(state.current_player)
        ply = match_ply(state, game_number)
        return guarded_analysis(
            lambda: self._lend(player, view, player, ply),
            view,
            state.legal_actions(),
            time_limit,
            budget_for(time_limit),
        )


class _Lent:
    """A bot lent to one question: given back to its ``BotPlayers`` once answered (or
    failed), so the next question may have it."""

    def __init__(self, owner: BotPlayers, player: int | None) -> None:
        self._owner = owner
        self._player = player
        self.bot: Bot | None = None

    def give_back(self) -> None:
        if self._player is not None:
            self._owner._returned(self._player)
            self._player = None

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The lent bot's choice (``Bot.choose``)."""
        assert self.bot is not None
        try:
            return (
                self.bot.choose(view, legal)
                if budget is None
                else self.bot.choose(view, legal, budget)
            )
        finally:
            self.give_back()

    def analyse(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Mapping[Action, Estimate] | None:
        """The lent bot's values (``Analyst.analyse``), or ``None`` if it cannot value."""
        try:
            if not isinstance(self.bot, Analyst):
                return None
            return self.bot.analyse(view, legal, budget)
        finally:
            self.give_back()
