"""The tutorial in a real browser page: ``coloretto web`` serves it, headless chromium opens
it from the first screen and plays its first steps with real key presses; what the page
shows is read from its terminal (``tests.web.page``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from coloretto.play.tutorial import STEPS
from tests.web.page import Screen

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

STEP = f"Step {{}} of {len(STEPS)}: "
"""How the turn line starts at each step."""


def test_a_visitor_starts_the_tutorial_and_plays_its_first_steps(
    browser: BrowserContext, served: tuple[str, Path, Path]
) -> None:
    url, _, _ = served
    page = browser.new_page()
    try:
        page.goto(url)
        screen = Screen(page)
        screen.wait_for("New to Coloretto? Press t for a 3-minute tutorial.")
        assert screen.has_keyboard(), "the keys go to the game without a click first"
        screen.press("t")
        screen.wait_for(STEP.format(1) + "press Enter to go on", "Welcome to", "Enter Go on")
        screen.press("Enter")
        screen.wait_for(STEP.format(2) + "press Enter to go on", "This is you.")
        screen.press("Enter")
        screen.wait_for(STEP.format(3) + "press d to draw a card", "d Draw")
        screen.press("2")  # not the move asked for: a hint, and nothing changes
        screen.wait_for("Row 2 is empty: press d to draw a card first.")
        assert STEP.format(3) in screen.text()
        screen.press("d")
        screen.wait_for(STEP.format(4) + "press 1 to put the card on row 1", "Green, like")
        screen.press("1")  # then Ben and Ana play, at the bots' pace
        screen.wait_for(STEP.format(5) + "press d to draw a card", "Ben put brown")
        screen.press("Escape")
        screen.wait_for("Leave the tutorial?")
        screen.press("y")  # back to the first screen
        screen.wait_for("Coloretto: a new game", "Start (ctrl+s)")
    finally:
        page.close()
