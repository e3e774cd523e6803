"""Asking a bot for a move without trusting it: a bot (perhaps a plug-in) that raises,
answers with something that is not a legal action, or takes too long is replaced for
that move by a legal fallback, and the problem is described so it can be reported.

>>> from coloretto.engine import new_game
>>> game = new_game(seed=1)
>>> class Broken:
...     def choose(self, view, legal, budget=None):
...         raise RuntimeError("out of ideas")
>>> answer = guarded_choice(Broken, game.view(game.current_player), game.legal_actions(), 5)
>>> answer.problem, answer.action in game.legal_actions()
('it raised RuntimeError: out of ideas', True)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from coloretto.bots.base import Bot, Budget
from coloretto.bots.greedy import GreedyBot
from coloretto.engine import Action, PlayerView


@dataclass(frozen=True)
class Answer:
    """The action to play, how long the bot took, and what went wrong (``None`` if nothing).

    ``timed_out`` tells a bot that did not answer in time from one that failed otherwise.
    """

    action: Action
    seconds: float
    problem: str | None = None
    timed_out: bool = False


def guarded_choice(
    make_bot: Callable[[], Bot],
    view: PlayerView,
    legal: Sequence[Action],
    time_limit: float,
    budget: Budget | None = None,
) -> Answer:
    """Make the bot and ask it for a move, within ``time_limit`` seconds.

    The bot runs in a daemon thread: one that never answers is abandoned (it cannot
    keep the program from exiting) and the fallback is played. ``budget``, if given,
    is passed on to the bot. The seconds reported are the bot's own (making it and
    choosing), not the thread's start.
    """
    outcome: list[object] = []
    spent: list[float] = []

    def ask() -> None:
        start = time.perf_counter()
        try:
            bot = make_bot()
            outcome.append(
                bot.choose(view, legal) if budget is None else bot.choose(view, legal, budget)
            )
        except BaseException as error:
            outcome.append(error)
        spent.append(time.perf_counter() - start)

    thread = threading.Thread(target=ask, name="coloretto-bot", daemon=True)
    thread.start()
    thread.join(time_limit)
    if not outcome:
        problem = f"it did not answer within {time_limit:g} s"
        return Answer(fallback(view, legal), time_limit, problem, timed_out=True)
    seconds = spent[0] if spent else time_limit
    if isinstance(outcome[0], BaseException):
        error = outcome[0]
        problem = f"it raised {type(error).__name__}: {error}"
    elif is_legal(outcome[0], legal):
        assert isinstance(outcome[0], Action)
        return Answer(outcome[0], seconds)
    else:
        problem = f"it answered {_show(outcome[0])}, which is not a legal action"
    return Answer(fallback(view, legal), seconds, problem)


def fallback(view: PlayerView, legal: Sequence[Action]) -> Action:
    """A sound move for a failed bot: the greedy bot's choice."""
    try:
        return GreedyBot().choose(view, legal)
    except Exception:
        return legal[0]


def is_legal(answer: object, legal: Sequence[Action]) -> bool:
    try:
        return isinstance(answer, Action) and answer in legal
    except Exception:
        return False


def _show(answer: object) -> str:
    try:
        text = repr(answer)
    except Exception:
        text = f"a {type(answer).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."
