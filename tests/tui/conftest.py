"""Helpers for driving the Textual app with its pilot: fast bots, no delay, fixed seeds."""

from __future__ import annotations

import asyncio
import functools
import os
import re
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, ParamSpec

import pytest
import pytest_textual_snapshot
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
            and not screen.view.game.is_over
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


async def until_a_bots_turn(pilot: Pilot[None], screen: GameScreen) -> None:
    """Play our first move if it is ours, so that a bot is to move (and thinking)."""
    if not screen.busy:
        await pilot.press("d")
        await pilot.press(str(screen.view.game.legal_actions()[0].row + 1))  # type: ignore[operator]
    await pilot.pause()
    assert screen.busy


async def play_to_end(pilot: Pilot[None], max_keys: int = 2000) -> int:
    """Play by key presses until the score screen shows; returns the keys pressed."""
    keys = 0
    while True:
        await settle(pilot)
        if isinstance(pilot.app.screen, EndScreen):
            return keys
        await pilot.press(key_for(game_screen(pilot).view.game))
        keys += 1
        assert keys < max_keys, "the game does not end"


@pytest.fixture(autouse=True)
def quick_idle_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pilot checks for an idle app in 20 ms sleeps; 2 ms steps make whole games
    three times quicker to play. Correctness does not depend on it: each key press still
    waits for the screen to process every pending message, and ``settle`` waits for bots."""
    monkeypatch.setattr(textual_wait, "SLEEP_GRANULARITY", 0.002)
    monkeypatch.setattr(textual_wait, "SLEEP_IDLE", 0.0002)


_BACKGROUND = re.compile(
    r'<rect fill="(?P<fill>#[0-9a-f]{6})" x="(?P<x>[0-9.]+)" y="(?P<y>[0-9.]+)" '
    r'width="(?P<width>[0-9.]+)" height="(?P<height>[0-9.]+)" shape-rendering="crispEdges"/>'
)


def merge_backgrounds(svg: str) -> str:
    """``svg`` (a screenshot) with each run of side-by-side background rects of one colour
    drawn as one rect: the same picture, whatever segments the screen was drawn in."""
    out: list[str] = []
    run: list[float] = []  # the run so far: x, width
    fill = y = height = ""
    end = 0
    for rect in _BACKGROUND.finditer(svg):
        x, width = float(rect["x"]), float(rect["width"])
        joins = (
            run
            and svg[end : rect.start()].strip() == ""
            and (rect["fill"], rect["y"], rect["height"]) == (fill, y, height)
            and abs(run[0] + run[1] - x) < 0.01
        )
        if joins:
            run[1] = x + width - run[0]
        else:
            if run:
                out.append(_rect(fill, run, y, height))
            out.append(svg[end : rect.start()])
            run = [x, width]
            fill, y, height = rect["fill"], rect["y"], rect["height"]
        end = rect.end()
    if run:
        out.append(_rect(fill, run, y, height))
    out.append(svg[end:])
    return "".join(out)


def _rect(fill: str, run: list[float], y: str, height: str) -> str:
    """One background rect, as Rich writes it."""
    x, width = (format(round(value, 2), "g") for value in run)
    return (
        f'<rect fill="{fill}" x="{x}" y="{y}" width="{width}" height="{height}" '
        'shape-rendering="crispEdges"/>'
    )


@pytest.fixture
def snap_compare(
    snap_compare: Callable[..., bool], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., bool]:
    """The plug-in's ``snap_compare``, comparing screenshots with their background rects
    merged (``merge_backgrounds``): under load Textual sometimes draws a run of blank
    cells in two segments rather than one, which changes the SVG but not the picture."""
    normalize = pytest_textual_snapshot.normalize_svg
    monkeypatch.setattr(
        pytest_textual_snapshot, "normalize_svg", lambda svg: merge_backgrounds(normalize(svg))
    )
    return snap_compare
