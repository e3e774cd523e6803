"""Helpers for driving the Textual app with its pilot: fast bots, no delay, fixed seeds."""

from __future__ import annotations

import asyncio
import functools
import os
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, ParamSpec

import pytest
from rich.console import Console
from textual import _wait as textual_wait
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from coloretto.engine import DRAW, ActionKind, GameState, Rules
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.screens import EndScreen, GameScreen

SIZE = (80, 24)
"""The smallest terminal the game is made for."""

P = ParamSpec("P")


def asynctest(test: Callable[P, Coroutine[Any, Any, None]]) -> Callable[P, None]:
    """Run an ``async`` test in its own event loop (no pytest plug-in needed)."""

    @functools.wraps(test)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


def make_config(
    players: int = 4,
    *,
    humans: int = 1,
    names: Sequence[str] = (),
    seed: int = 1,
    bot: str = "greedy",
    **rules: object,
) -> GameConfig:
    """A game with fast, deterministic bots and no pause between their moves."""
    return GameConfig.build(
        Rules(players=players, **rules),  # type: ignore[arg-type]
        humans=humans,
        names=names,
        bot=bot,
        seed=seed,
        delay=0,
        hint_bot="greedy",
    )


def make_app(players: int = 4, **kwargs: object) -> ColorettoApp:
    """The app, straight into a game made by ``make_config``."""
    return ColorettoApp(make_config(players, **kwargs))  # type: ignore[arg-type]


def render_text(renderable: object, width: int = 200) -> str:
    """A Rich renderable as plain text."""
    with open(os.devnull, "w") as devnull:
        console = Console(width=width, record=True, color_system=None, file=devnull)
        console.print(renderable)
    return console.export_text()


def text_of(widget: Widget) -> str:
    """What a ``Static`` widget shows, as plain text."""
    assert isinstance(widget, Static), widget
    return render_text(widget.content)


def game_screen(pilot: Pilot[None]) -> GameScreen:
    """The game screen (below any dialog or the score screen)."""
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    raise AssertionError(f"no game screen in {pilot.app.screen_stack}")


async def settle(pilot: Pilot[None], timeout: float = 30.0) -> None:
    """Wait until a person is to move or the score screen shows (bots play meanwhile)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = app.screen
        if isinstance(screen, EndScreen):
            await pilot.pause()  # let the score screen finish mounting
            break
        if (
            isinstance(screen, GameScreen)
            and not screen.busy
            and not screen.session.game.is_over
            and screen.is_mounted
        ):
            break
        await asyncio.sleep(0.001)
    else:
        raise AssertionError(f"the game did not come back to a person in {timeout} s")


def key_for(game: GameState) -> str:
    """A simple, deterministic player's next key: place on the first row that has room,
    draw while no row holds two cards, else take the fullest row (few keys per game)."""
    legal = game.legal_actions()
    if game.drawn_card is not None:
        row = legal[0].row
        assert row is not None
        return str(row + 1)
    takes = [a for a in legal if a.kind is ActionKind.TAKE]
    if DRAW in legal and (not takes or max(len(game.rows[a.row or 0]) for a in takes) < 2):
        return "d"
    best = max(takes, key=lambda a: (len(game.rows[a.row or 0]), -(a.row or 0)))
    assert best.row is not None
    return str(best.row + 1)


async def play_to_end(pilot: Pilot[None], max_keys: int = 2000) -> int:
    """Play by key presses until the score screen shows; returns the keys pressed."""
    keys = 0
    while True:
        await settle(pilot)
        if isinstance(pilot.app.screen, EndScreen):
            return keys
        await pilot.press(key_for(game_screen(pilot).session.game))
        keys += 1
        assert keys < max_keys, "the game does not end"


@pytest.fixture(autouse=True)
def quick_idle_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pilot checks for an idle app in 20 ms sleeps; 2 ms steps make whole games
    three times quicker to play. Correctness does not depend on it: each key press still
    waits for the screen to process every pending message, and ``settle`` waits for bots."""
    monkeypatch.setattr(textual_wait, "SLEEP_GRANULARITY", 0.002)
    monkeypatch.setattr(textual_wait, "SLEEP_IDLE", 0.0002)
