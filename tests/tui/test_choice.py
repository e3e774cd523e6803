"""The setup screen's drop-down lists: one widget each (``Choice``), ←/→ stepping through
the options, Enter opening them in a menu; the screen is a few dozen widgets, not seventy."""

from __future__ import annotations

from coloretto.tui import ColorettoApp
from coloretto.tui.screens import SetupScreen
from coloretto.tui.widgets.choice import Choice, ChoiceMenu

from .conftest import SIZE, asynctest


@asynctest
async def test_a_choice_steps_with_the_arrows_and_picks_from_its_menu() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        level = screen.query_one("#level", Choice)
        level.focus()
        assert level.value == "normal"
        await pilot.press("right")
        assert level.value == "hard"
        await pilot.press("right")  # after the last, the first
        assert level.value == level.options[0][1]
        await pilot.press("left", "left")
        assert level.value == "normal"
        await pilot.press("enter")
        menu = pilot.app.screen
        assert isinstance(menu, ChoiceMenu)
        assert menu.query_one("#choice-menu").region.y == level.region.bottom  # under it
        await pilot.press("up", "enter")
        assert pilot.app.screen is screen
        assert level.value == "easy"
        assert screen.focused is level
        await pilot.press("space", "escape")  # nothing picked
        assert level.value == "easy"


@asynctest
async def test_fewer_players_leave_no_more_people_than_players() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        humans = screen.query_one("#humans", Choice)
        humans.value = 4
        screen.query_one("#players", Choice).value = 2
        await pilot.pause()
        assert [value for _, value in humans.options] == [0, 1, 2]
        assert humans.value == 2


@asynctest
async def test_the_setup_screen_is_a_few_dozen_widgets() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert len(list(screen.walk_children())) <= 50  # Textual's Select: seventy
