"""Snapshots of the main, score and setup screens at 80x24 and 120x40 with a fixed seed.

Update them (after looking at the change) with ``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from coloretto.tui import ColorettoApp

from .conftest import (
    SIZE,
    game_screen,
    key_for,
    make_app,
    merge_backgrounds,
    play_to_end,
    settle,
)

SnapCompare = Callable[..., bool]
LARGE = (120, 40)


async def a_few_rounds_in(pilot: Pilot[None]) -> None:
    """Play until round 3, then draw a card: rows, collections and a drawn card on screen."""
    await settle(pilot)
    while game_screen(pilot).view.game.round < 3:
        await pilot.press(key_for(game_screen(pilot).view.game))
        await settle(pilot)
    await pilot.press("d")
    # Under a loaded parallel run the picture sometimes kept lines from a partial update
    # (the same text and colours, drawn in more pieces): lay out and draw it all again.
    await pilot.wait_for_scheduled_animations()
    pilot.app.screen.refresh(layout=True)
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("size", [SIZE, LARGE], ids=["80x24", "120x40"])
def test_main_screen(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(
        make_app(4, humans=1, seed=1), terminal_size=size, run_before=a_few_rounds_in
    )


@pytest.mark.parametrize("size", [SIZE, LARGE], ids=["80x24", "120x40"])
def test_main_screen_five_players(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    names = ["Alexandra"]
    assert snap_compare(
        make_app(5, humans=1, seed=1, names=names), terminal_size=size, run_before=a_few_rounds_in
    )


def test_main_screen_without_colour(
    snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(
        make_app(4, humans=1, seed=1), terminal_size=SIZE, run_before=a_few_rounds_in
    )


async def the_end(pilot: Pilot[None]) -> None:
    await play_to_end(pilot)
    await pilot.pause()


@pytest.mark.parametrize("size", [SIZE, LARGE], ids=["80x24", "120x40"])
def test_end_screen(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(4, humans=1, seed=1), terminal_size=size, run_before=the_end)


@pytest.mark.parametrize("size", [SIZE, LARGE], ids=["80x24", "120x40"])
def test_end_screen_five_players(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = make_app(5, humans=1, seed=1, names=["Alexandra"])
    assert snap_compare(app, terminal_size=size, run_before=the_end)


@pytest.mark.parametrize("size", [SIZE, LARGE], ids=["80x24", "120x40"])
def test_setup_screen(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """The first field has the focus: its label and value stand out."""
    assert snap_compare(ColorettoApp(), terminal_size=size)


def _rect(fill: str, x: float, width: float, y: float = 1.5) -> str:
    return (
        f'<rect fill="{fill}" x="{x:g}" y="{y:g}" width="{width:g}" height="24.65" '
        'shape-rendering="crispEdges"/>'
    )


def test_snapshots_compare_runs_of_one_background_as_one() -> None:
    # Columns 0-1 and 2-5 of one colour are one run; a new colour, a gap or a new line
    # starts another.
    split = _rect("#121212", 0, 24.4) + _rect("#121212", 24.4, 48.8) + _rect("#412f17", 73.2, 12.2)
    whole = _rect("#121212", 0, 73.2) + _rect("#412f17", 73.2, 12.2)
    assert merge_backgrounds(split) == merge_backgrounds(whole) == whole
    apart = _rect("#121212", 0, 12.2) + _rect("#121212", 24.4, 12.2)
    assert merge_backgrounds(apart) == apart
    lines = _rect("#121212", 0, 12.2) + _rect("#121212", 12.2, 12.2, y=25.9)
    assert merge_backgrounds(lines) == lines
    text = _rect("#121212", 0, 12.2) + "<text>a</text>" + _rect("#121212", 12.2, 12.2)
    assert merge_backgrounds(text) == text
