"""The rules (``r``) and the keys (``?``) open at once: the rules are set once for a width,
before they are asked for, and drawn a line at a time; the help is set once."""

from __future__ import annotations

import asyncio

import pytest

from coloretto.tui.screens import GameScreen, HelpScreen, RulesScreen, dialogs

from .conftest import SIZE, asynctest, make_app, settle, text_of


async def rules_set(width: int) -> None:
    """Wait until the game screen has set the rules for ``width`` (in a worker thread)."""
    for _ in range(2000):
        if width in dialogs._set_rules:
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the rules were not set for width {width}")


def shown_rules(screen: RulesScreen) -> str:
    view = screen.query_one(dialogs.RulesView)
    return "\n".join(line.text for line in view.lines)


@asynctest
async def test_the_rules_are_ready_before_r_and_open_in_one_widget() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await rules_set(dialogs.rules_width(SIZE[0]))
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        # One widget for all of the rules (Textual's Markdown makes one for each block).
        assert len(screen.query("*")) <= 3
        assert "Coloretto is a card game by Michael Schacht" in shown_rules(screen)
        assert "Last Round" in shown_rules(screen)
        view = screen.query_one(dialogs.RulesView)
        assert view.width_set == view.scrollable_content_region.width == dialogs.rules_width(80)
        await pilot.press("pagedown")
        await pilot.pause()
        assert view.scroll_y > 0
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


@asynctest
async def test_rules_not_yet_set_for_a_width_come_a_moment_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dialogs, "_set_rules", {})
    monkeypatch.setattr(dialogs, "prepare_rules", lambda screen: None)
    monkeypatch.setattr("coloretto.tui.screens.game.prepare_rules", lambda screen: None)
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        await rules_set(dialogs.rules_width(100))
        for _ in range(200):
            await pilot.pause()
            if "Michael Schacht" in shown_rules(screen):
                break
        assert "Michael Schacht" in shown_rules(screen)
        assert list(dialogs._set_rules) == [dialogs.rules_width(100)]


def test_the_rules_are_set_as_wide_as_the_room_lets_them() -> None:
    assert dialogs.rules_width(80) == 71  # the smallest terminal: 76 - frame - margins
    assert dialogs.rules_width(120) == dialogs.RULES_WIDTH  # no wider than easy to read
    lines = dialogs.set_rules(40)
    assert max(line.cell_length for line in lines) <= 40
    assert dialogs.set_rules(40) is lines  # set once


@asynctest
async def test_the_help_is_set_once() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        shown = screen.query_one("#help-text")
        assert "draw the top card of the deck" in text_of(shown)
        await pilot.press("escape")
        await pilot.press("question_mark")
        assert app.screen.query_one("#help-text").content is shown.content  # type: ignore[attr-defined]
