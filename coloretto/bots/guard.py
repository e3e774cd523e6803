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

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from coloretto.bots.base import Analyst, Bot, Budget, Estimate
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

    def ask() -> object:
        bot = make_bot()
        return bot.choose(view, legal) if budget is None else bot.choose(view, legal, budget)

    run = _within(ask, time_limit)
    problem = run.problem
    if problem is None:
        if is_legal(run.result, legal):
            assert isinstance(run.result, Action)
            return Answer(run.result, run.seconds)
        problem = f"it answered {_show(run.result)}, which is not a legal action"
    return Answer(fallback(view, legal), run.seconds, problem, timed_out=run.timed_out)


@dataclass(frozen=True)
class Analysis:
    """A bot's estimates of every legal action (``None`` if it failed or cannot analyse),
    how long it took, and what went wrong (``None`` if nothing); ``timed_out`` as in
    ``Answer``."""

    estimates: Mapping[Action, Estimate] | None
    seconds: float
    problem: str | None = None
    timed_out: bool = False


def guarded_analysis(
    make_bot: Callable[[], Bot],
    view: PlayerView,
    legal: Sequence[Action],
    time_limit: float,
    budget: Budget | None = None,
) -> Analysis:
    """Make the bot and ask it to value every one of ``legal`` (``Analyst.analyse``),
    within ``time_limit`` seconds, like ``guarded_choice``.

    A bot without ``analyse`` gives ``Analysis(None, ...)`` with no problem; an answer
    that misses a legal action, names another, or holds numbers out of range is a problem.
    """

    def ask() -> object:
        bot = make_bot()
        if not isinstance(bot, Analyst):
            return None
        return bot.analyse(view, legal, budget)

    run = _within(ask, time_limit)
    if run.problem is not None or run.result is None:
        return Analysis(None, run.seconds, run.problem, run.timed_out)
    estimates, problem = checked_estimates(run.result, legal)
    return Analysis(estimates, run.seconds, problem)


def checked_estimates(
    answer: object, legal: Sequence[Action]
) -> tuple[dict[Action, Estimate] | None, str | None]:
    """An analyst's answer as estimates of exactly ``legal``, or ``None`` and why not."""
    if not isinstance(answer, Mapping):
        return None, f"it answered {_show(answer)}, not a mapping of actions to estimates"
    try:
        estimates = {action: answer[action] for action in legal if action in answer}
    except Exception as error:
        return None, f"its answer could not be read ({type(error).__name__})"
    if len(estimates) != len(legal) or len(answer) != len(legal):
        return None, "its answer does not value exactly the legal actions"
    for action, estimate in estimates.items():
        if not isinstance(estimate, Estimate) or not _sound(estimate):
            return None, f"it valued {action} as {_show(estimate)}"
    return estimates, None


def _sound(estimate: Estimate) -> bool:
    numbers = (estimate.win, estimate.margin, estimate.win_error, estimate.margin_error)
    if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in numbers):
        return False
    return 0.0 <= estimate.win <= 1.0 and abs(estimate.margin) <= MAX_MARGIN


MAX_MARGIN = 1000.0
"""The largest margin (points) an estimate may claim."""


@dataclass(frozen=True)
class _Run:
    result: object
    seconds: float
    problem: str | None = None
    timed_out: bool = False


def _within(ask: Callable[[], object], time_limit: float) -> _Run:
    """Run ``ask`` in a daemon thread for at most ``time_limit`` seconds: its result and
    the seconds it took, or what went wrong (it raised, or did not answer in time)."""
    outcome: list[object] = []
    spent: list[float] = []

    def run() -> None:
        start = time.perf_counter()
        try:
            outcome.append(ask())
        except BaseException as error:
            outcome.append(error)
        spent.append(time.perf_counter() - start)

    thread = threading.Thread(target=run, name="coloretto-bot", daemon=True)
    thread.start()
    thread.join(time_limit)
    if not outcome:
        return _Run(None, time_limit, f"it did not answer within {time_limit:g} s", True)
    seconds = spent[0] if spent else time_limit
    if isinstance(outcome[0], BaseException):
        error = outcome[0]
        return _Run(None, seconds, f"it raised {type(error).__name__}: {error}")
    return _Run(outcome[0], seconds)


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
