"""A bot that fails in any way never stops a game: its move is replaced by a legal one."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence

import pytest

from coloretto.bots.base import Bot, Budget
from coloretto.bots.greedy import GreedyBot
from coloretto.bots.guard import guarded_choice
from coloretto.engine import Action, GameState, PlayerView, new_game


class Scripted:
    """A bot whose ``choose`` does whatever ``behave`` does."""

    def __init__(self, behave: object) -> None:
        self.behave = behave

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        result = self.behave(legal)  # type: ignore[operator]
        return result  # type: ignore[no-any-return]


class Unequal:
    """An answer that cannot even be compared."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing me")

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        raise RuntimeError("no printing me")


def ask(behave: object, state: GameState | None = None, limit: float = 2.0) -> tuple[Action, str]:
    game = state or new_game(seed=4).apply("draw")
    legal = game.legal_actions()
    answer = guarded_choice(lambda: Scripted(behave), game.view(game.current_player), legal, limit)
    assert answer.action in legal
    assert answer.problem is not None
    return answer.action, answer.problem


def fail(legal: Sequence[Action]) -> Action:
    raise ZeroDivisionError("division by zero")


@pytest.mark.parametrize(
    ("behave", "says"),
    [
        (fail, "it raised ZeroDivisionError: division by zero"),
        (lambda legal: "place 1", "it answered 'place 1', which is not a legal action"),
        (lambda legal: None, "it answered None"),
        (lambda legal: Action.take(4), "it answered Action.parse('take 5')"),
        (lambda legal: Unequal(), "it answered a Unequal, which is not a legal action"),
        (lambda legal: (_ for _ in ()).throw(SystemExit(3)), "it raised SystemExit: 3"),
    ],
)
def test_a_failing_bot_gets_a_legal_fallback_and_a_reason(behave: object, says: str) -> None:
    _, problem = ask(behave)
    assert problem.startswith(says)


def test_a_bot_that_hangs_is_abandoned_after_its_time_limit() -> None:
    release = threading.Event()

    def hang(legal: Sequence[Action]) -> Action:
        release.wait(30)
        return legal[0]

    start = time.perf_counter()
    try:
        _, problem = ask(hang, limit=0.2)
    finally:
        release.set()
    assert problem == "it did not answer within 0.2 s"
    assert time.perf_counter() - start < 2


def test_a_bot_that_cannot_be_made_is_reported() -> None:
    game = new_game(seed=2)

    def broken() -> Bot:
        raise ImportError("no module named 'mybot'")

    answer = guarded_choice(broken, game.view(game.current_player), game.legal_actions(), 1)
    assert answer.problem == "it raised ImportError: no module named 'mybot'"
    assert answer.action in game.legal_actions()


def test_the_fallback_is_the_greedy_move() -> None:
    game = new_game(seed=4).apply("draw")
    action, _ = ask(fail, game)
    assert action == GreedyBot().choose(game.view(game.current_player), game.legal_actions())


def test_a_sound_bot_is_played_as_it_chose() -> None:
    game = new_game(seed=4)
    legal = game.legal_actions()
    answer = guarded_choice(
        lambda: Scripted(lambda legal: legal[-1]), game.view(game.current_player), legal, 2
    )
    assert answer == type(answer)(legal[-1], answer.seconds, None)


def test_moves_asked_one_after_another_share_one_thread() -> None:
    threads: set[threading.Thread] = set()

    def note(legal: Sequence[Action]) -> Action:
        threads.add(threading.current_thread())
        return legal[0]

    game = new_game(seed=4)
    for _ in range(20):
        answer = guarded_choice(
            lambda: Scripted(note), game.view(game.current_player), game.legal_actions(), 2
        )
        assert answer.problem is None
    assert len(threads) == 1
    assert threading.main_thread() not in threads


def test_a_bot_asked_while_another_hangs_gets_its_own_thread_and_answers() -> None:
    release = threading.Event()

    def hang(legal: Sequence[Action]) -> Action:
        release.wait(30)
        return legal[0]

    try:
        _, problem = ask(hang, limit=0.1)
        assert problem == "it did not answer within 0.1 s"
        _, problem = ask(fail)
        assert problem.startswith("it raised ZeroDivisionError")
    finally:
        release.set()


def test_a_forked_child_asks_its_bots_in_threads_of_its_own() -> None:
    ask(fail)  # this process has an idle thread, which a forked child does not get
    pid = os.fork()
    if pid == 0:  # the child: a sound bot answers, not a timeout for want of a thread
        game = new_game(seed=4)
        legal = game.legal_actions()
        answer = guarded_choice(
            lambda: Scripted(lambda legal: legal[-1]), game.view(game.current_player), legal, 5
        )
        os._exit(0 if answer.problem is None and answer.action == legal[-1] else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
