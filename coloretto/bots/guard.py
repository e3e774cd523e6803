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
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

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
    job = _Job(ask)
    _Runner.take().run(job)
    if not job.done.wait(time_limit):
        return _Run(None, time_limit, f"it did not answer within {time_limit:g} s", True)
    if isinstance(job.result, BaseException):
        error = job.result
        return _Run(None, job.seconds, f"it raised {type(error).__name__}: {error}")
    return _Run(job.result, job.seconds)


class _Job:
    """One question for a bot, and its answer once ``done`` is set."""

    __slots__ = ("ask", "done", "result", "seconds")

    def __init__(self, ask: Callable[[], object]) -> None:
        self.ask = ask
        self.done = threading.Event()
        self.result: object = None
        self.seconds = 0.0


class _Runner:
    """A daemon thread that asks bots one question at a time and, each answered, waits
    among the idle ones for the next: a move does not pay for a thread's start. One that
    never answers is abandoned (it cannot keep the program from exiting); one that answers
    late is idle again."""

    _idle: ClassVar[list[_Runner]] = []  # the last to finish first: list.pop is atomic

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="coloretto-bot", daemon=True).start()

    @classmethod
    def take(cls) -> _Runner:
        """An idle runner, or a new one."""
        try:
            return cls._idle.pop()
        except IndexError:
            return cls()

    def run(self, job: _Job) -> None:
        """Ask ``job``'s question now, in this runner's thread."""
        self._jobs.put(job)

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            start = time.perf_counter()
            try:
                job.result = job.ask()
            except BaseException as error:
                job.result = error
            job.seconds = time.perf_counter() - start
            _Runner._idle.append(self)
            job.done.set()
            del job  # the bot's question and its view are not kept while idle

    @classmethod
    def forget_idle(cls) -> None:
        """Start afresh (in a forked child, whose idle runners' threads were not copied)."""
        cls._idle = []


os.register_at_fork(after_in_child=_Runner.forget_idle)


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
