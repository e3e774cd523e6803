"""The bot loop: the bots' turns at a table played one after another, each through the
guard and paced so that people can follow them.

Every table whose bots play runs this one loop: the game on this machine
(``coloretto.play.table.LocalTable``), the server's rooms and the arena. A table says whose
turn it is (``BotTable.bot_turn``) and plays an answer (``BotTable.play_bot``); the caller
says how a bot is asked (in a thread of its own, in a worker process, or right away) and
how long to wait between two actions.

>>> import asyncio
>>> from coloretto.bots.players import BotPlayers
>>> from coloretto.engine import Rules, new_game
>>> class Bots:
...     def __init__(self):
...         self.state = new_game(Rules(players=2), seed=5)
...         self.bots = BotPlayers({0: "greedy", 1: "greedy"}, seed=5)
...     def bot_turn(self):
...         return None if self.state.is_over else BotTurn(self.state)
...     async def play_bot(self, turn, answer):
...         self.state = self.state.apply(answer.action)
...         return True
>>> table = Bots()
>>> async def ask(turn):
...     return table.bots.choose(turn.state, time_limit=5.0)
>>> asyncio.run(play_bots(table, ask))
>>> table.state.is_over
True
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from coloretto.bots.guard import Answer
from coloretto.engine import GameState

_T = TypeVar("_T")


@dataclass(frozen=True)
class BotTurn:
    """A bot's turn: the position, the game of the match it is in, and which bot plays it
    (``None``: the bot of the seat's player; else the number of another bot the table
    keeps, e.g. one standing in for a person who is away)."""

    state: GameState
    game_number: int = 1
    player: int | None = None


class BotTable(Protocol):
    """What the bot loop needs from a table."""

    def bot_turn(self) -> BotTurn | None:
        """The bots' turn now, or ``None`` when none is (a person is to move, the game is
        over, the table is gone)."""
        ...

    async def play_bot(self, turn: BotTurn, answer: Answer) -> bool:
        """Play ``answer`` (reporting its problem, if any) if the table still stands at
        ``turn``; ``False`` stops the loop."""
        ...


Ask = Callable[[BotTurn], Awaitable[Answer]]
"""How a bot is asked for its move at a turn (through the guard)."""


async def play_bots(table: BotTable, ask: Ask, pace: Callable[[], float] = lambda: 0.0) -> None:
    """Play the bots' turns at ``table`` until none is left: each bot asked (``ask``), its
    move played ``pace()`` seconds after the last at the earliest (thinking counts)."""
    loop = asyncio.get_running_loop()
    while (turn := table.bot_turn()) is not None:
        started = loop.time()
        answer = await ask(turn)
        wait = pace() - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        if not await table.play_bot(turn, answer):
            return


async def in_thread(work: Callable[[], _T]) -> _T:
    """``work()`` run in a daemon thread of its own, awaited: a bot that thinks there never
    holds up the event loop, nor the program's exit once nobody waits for it."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[_T] = loop.create_future()

    def resolve(result: _T) -> None:
        if not done.done():
            done.set_result(result)

    def fail(error: BaseException) -> None:
        if not done.done():
            done.set_exception(error)

    def run() -> None:
        try:
            result = work()
        except BaseException as error:
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for it
                loop.call_soon_threadsafe(fail, error)
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(resolve, result)

    threading.Thread(target=run, name="coloretto-bot-turn", daemon=True).start()
    return await done
