"""Snapshots of the main screen and the score screen at 80x24 with a fixed seed.

Update them (after looking at the change) with ``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from .conftest import SIZE, game_screen, key_for, make_app, play_to_end, settle

SnapCompare = Callable[..., bool]


async def a_few_rounds_in(pilot: Pilot[None]) -> None:
    """Play until round 3, then draw a card: rows, collections and a drawn card on screen."""
    await settle(pilot)
    while game_screen(pilot).session.game.round < 3:
        await pilot.press(key_for(game_screen(pilot).session.game))
        await settle(pilot)
    await pilot.press("d")
    await pilot.pause()


def test_main_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(
        make_app(4, humans=1, seed=1), terminal_size=SIZE, run_before=a_few_rounds_in
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


def test_end_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(4, humans=1, seed=1), terminal_size=SIZE, run_before=the_end)
