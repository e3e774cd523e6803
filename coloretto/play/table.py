"""The table a front end plays at: whose turn it is, what may be played, what happened.

``Table`` is the interface the game screen talks to; ``LocalTable`` is the game played on
this machine (the session, its bots asked through the guard, the keeper saving after every
action). A table seen over the network can implement the same interface.

Everything that happens reaches the front end as an event (``MovePlayed``, ``BotFailed``,
``NotSaved``, ``TableNews``), given to the listeners on the thread that caused it.

>>> from coloretto.engine import DRAW, Rules
>>> from coloretto.play.config import GameConfig
>>> table = LocalTable(Session(GameConfig.build(Rules(players=3), humans=3, seed=1)))
>>> seen = []
>>> table.subscribe(seen.append)
>>> table.act(DRAW)
>>> seen[0].lines[0].plain
'Player 3 drew pink.'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from coloretto.bots.driver import BotTurn, in_thread, play_bots
from coloretto.bots.guard import Answer
from coloretto.engine import Action, GameState, Move
from coloretto.play.advice import explain_hint, no_choice_hint
from coloretto.play.analysis import Hints
from coloretto.play.coach import Valuation
from coloretto.play.config import possessive
from coloretto.play.keeper import Keeper
from coloretto.play.session import Session
from coloretto.play.table_view import TableView
from coloretto.play.words import Line, describe_move
from coloretto.store.text import printable


@dataclass(frozen=True)
class MovePlayed:
    """An action was played: the move, the position before it, and the move in words."""

    move: Move
    before: GameState
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class BotFailed:
    """A bot failed (raised, answered nonsense, took too long): a fallback move was played."""

    seat: int
    report: str
    """What happened, in words (the fallback is played next, as a ``MovePlayed``)."""


@dataclass(frozen=True)
class NotSaved:
    """The disk refused to keep the game; play goes on. Each problem is told once."""

    problem: str


@dataclass(frozen=True)
class TableNews:
    """News from a table seen over the network: a player away or back, a lost connection,
    a move the server refused."""

    text: str


Event = MovePlayed | BotFailed | NotSaved | TableNews
"""What a table tells its listeners."""

Listener = Callable[[Event], None]


@dataclass(frozen=True)
class Hint:
    """The hint bot's advice for the seat to move, and why in a few words."""

    action: Action
    reason: str


class Table(Protocol):
    """What a front end needs from the game it shows: the model to draw, the moves that
    may be played, a way to play them, and news of everything that happens."""

    @property
    def view(self) -> TableView:
        """The match, its players and seat names: what the screen draws."""

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every event from now on."""

    def unsubscribe(self, listener: Listener) -> None:
        """Call ``listener`` no more (once subscribed, or never: nothing happens)."""

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat to move may play now (nothing once the game is over)."""

    def plays_here(self, seat: int) -> bool:
        """True when a person at this front end moves ``seat``."""

    def move_lines(self, ply: int, move: Move, before: GameState, after: GameState) -> list[Line]:
        """The game's move numbered ``ply`` in words, as the log tells it."""

    def keep(self) -> None:
        """Keep the game as it stands (a local table saves it)."""

    def act(self, action: Action) -> None:
        """Play ``action`` for the seat to move; raises ``IllegalAction`` saying why."""

    def bots_move(self, seat: int) -> bool:
        """True when this table's own bots move ``seat`` (the screen shows them thinking)."""

    async def run_bots(self) -> None:
        """Play the turns of this table's own bots, for as long as the table is shown (the
        screen runs it once it has drawn the table); each move comes as an event."""

    def hint(self) -> Hint:
        """Ask the hint bot for the seat to move (blocking), through the guard."""

    def set_pace(self, delay: float) -> None:
        """The bots that play here now wait ``delay`` seconds between actions."""

    def suspend(self) -> str | None:
        """The player leaves: keep the game, and say how to come back (or what went wrong)."""


class LocalTable:
    """The game played on this machine: its session, bots and keeper (``None``: nothing is
    written to disk)."""

    def __init__(self, session: Session, keeper: Keeper | None = None) -> None:
        self._session = session
        self.keeper = keeper
        self._listeners: list[Listener] = []
        self._problems: set[str] = set()
        self._wake: asyncio.Event | None = None
        """Set when a person has moved, while ``run_bots`` plays the bots."""

    @property
    def session(self) -> Session:
        """The match, its players and their bots."""
        return self._session

    @property
    def view(self) -> TableView:
        """The match as the screens read it (the session)."""
        return self._session

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every event from now on."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Call ``listener`` no more."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _tell(self, event: Event) -> None:
        for listener in list(self._listeners):
            listener(event)

    # ------------------------------------------------------------------ playing

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat to move may play now."""
        return self._session.game.legal_actions()

    def act(self, action: Action) -> None:
        """Play ``action``, keep the game on disk, and tell the listeners."""
        session = self._session
        before = session.game
        move = session.apply(action)
        self.keep()
        lines = self.move_lines(len(before.history()), move, before, session.game)
        self._tell(MovePlayed(move, before, tuple(lines)))
        if self._wake is not None:
            self._wake.set()

    def move_lines(self, ply: int, move: Move, before: GameState, after: GameState) -> list[Line]:
        """The move in words (``describe_move``)."""
        return describe_move(move, before, after, self._session.seat_names)

    def keep(self) -> None:
        """Save the game (and once it is over, keep it in the history and the statistics).

        Trouble with the disk is told once (``NotSaved``) and logged; play goes on.
        """
        if self.keeper is None:
            return
        problem = self.keeper.save(self._session)
        if problem is None and self._session.game.is_over:
            problem = self.keeper.finish(self._session)
        if problem is not None and problem not in self._problems:
            self._problems.add(problem)
            self._tell(NotSaved(problem))

    def suspend(self) -> str | None:
        """Save the game in progress; the message says how to resume it (or why it could not
        be saved). ``None`` when there is nothing to resume."""
        session = self._session
        lines = [] if session.match.is_over else [self._saved(session)]
        if self.keeper is not None:
            others = self.keeper.in_progress(besides=session)
            if others.games or others.more:
                lines.append("Also in progress (coloretto play --resume ID continues one):")
                lines += [f"  {game}" for game in others.lines()]
                lines.append("coloretto saves delete ID discards one you gave up.")
            elif others.unreadable:
                n, folder = others.unreadable, printable(str(others.data.saves))
                saves = "The other save" if n == 1 else f"The {n} other saves"
                lines.append(f"{saves} in {folder} cannot be read.")
        return "\n".join(lines) or None

    def _saved(self, session: Session) -> str:
        """Save the game in progress: how to resume it, or why it could not be saved."""
        problem = None if self.keeper is None else self.keeper.save(session)
        if problem is not None:
            return f"Sorry, {problem}."
        return "Your game is saved: coloretto play --resume continues it."

    # ------------------------------------------------------------------ bots and hints

    def plays_here(self, seat: int) -> bool:
        """True when a person at this keyboard moves ``seat`` (every seat but the bots')."""
        return not self._session.is_bot(seat)

    def bots_move(self, seat: int) -> bool:
        """True when a bot moves ``seat`` (here, on this machine)."""
        return self._session.is_bot(seat)

    async def run_bots(self) -> None:
        """Play the bots' turns (``play_bots``) for as long as the table is shown: each bot
        thinks in a thread of its own, and its move is played once the pace allows
        (``set_pace``). After a person's move the loop starts again."""
        self._wake = asyncio.Event()
        try:
            while True:
                await play_bots(self, self._ask, lambda: self._session.config.delay)
                await self._wake.wait()
                self._wake.clear()
        finally:
            self._wake = None

    def bot_turn(self) -> BotTurn | None:
        """A bot's turn at this table now, if it is one (``BotTable``)."""
        session = self._session
        game = session.game
        if game.is_over or not session.is_bot(game.current_player):
            return None
        return BotTurn(game, session.match.game_number)

    async def _ask(self, turn: BotTurn) -> Answer:
        return await in_thread(self._session.bot_move)

    async def play_bot(self, turn: BotTurn, answer: Answer) -> bool:
        """Play a bot's answer if the game still stands where it was asked; a failed bot is
        reported (``BotFailed``) before its replacement move is played."""
        if turn.state is not self._session.game:
            return True  # the game moved on meanwhile: ask again
        if answer.problem is not None:
            self._bot_failed(turn.state.current_player, answer)
        self.act(answer.action)
        return True

    def _bot_failed(self, seat: int, answer: Answer) -> None:
        """Log a bot's failure and tell the listeners, saying which move replaces it."""
        session = self._session
        name = session.seat_names[seat]
        spec = session.config.controller(seat).bot
        report = printable(f"{possessive(name)} bot ({spec}) failed: {answer.problem}")
        if self.keeper is not None:
            self.keeper.log.warning("%s; played %s instead", report, answer.action)
            report += f". It plays {answer.action} instead (logged in {self.keeper.data.log})"
        else:
            report += f". It plays {answer.action} instead"
        self._tell(BotFailed(seat, report))

    def hint(self) -> Hint:
        """Ask the hint bot what the seat to move should play, and why (``advise``)."""
        session = self._session
        return advise(session, session.hints)

    def set_pace(self, delay: float) -> None:
        """The bots' pace, changed during play: kept with the game (resumed, it goes on at
        this pace) and as the pace of the setup kept for next time (if one is)."""
        session = self._session
        session.config = replace(session.config, delay=delay)
        if self.keeper is not None:
            self.keeper.remember_pace(delay)


def advise(view: TableView, hints: Hints) -> Hint:
    """The hint for the seat to move in ``view``, and why: what a table answers when asked
    for a ``hint``.

    A move with no choice to make (``no_choice_hint``) is said at once, with no search.
    Otherwise the coach's one analysis (``Hints.advise``, through the guard: time limit,
    fallback; the hint is kept with the game) values every legal action: the hint is the
    best, compared with the next best in words, with the error of the difference. A hint
    bot that cannot analyse is asked for its choice.
    """
    state = view.game
    seat = state.current_player
    if (no_choice := no_choice_hint(state, view.seat_names)) is not None:  # no search
        return Hint(*no_choice)
    advice = hints.advise(state, view.match.game_number, view.config.time_limit)
    if advice.problem is not None:
        return Hint(advice.action, f"no hint this time (the hint bot failed: {advice.problem})")
    values = advice.valuation or Valuation({})
    return Hint(advice.action, explain_hint(state, seat, advice.action, values, view.seat_names))
