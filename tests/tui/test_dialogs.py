"""The dialogs say each thing once and keep a command on one line at 80x24."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from coloretto.tui.screens import ConfirmQuit, HelpScreen

from .conftest import SIZE, asynctest, make_app, settle, text_of


def shown_lines(widget: Widget) -> list[str]:
    """The lines ``widget`` shows on the screen, as plain text."""
    size = widget.size
    return [strip.text.strip() for strip in widget.render_lines(Region(0, 0, *size))]


@asynctest
async def test_the_quit_dialog_keeps_the_command_on_one_line_at_80x24() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmQuit)
        box = dialog.query_one("#confirm-box")
        assert box.border_title == "Quit"
        lines = shown_lines(dialog.query_one("#confirm-question"))
        assert "coloretto play --resume continues it." in lines, lines
        assert dialog.region.contains_region(box.region)


@asynctest
async def test_the_help_names_its_keys_once() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        box = pilot.app.screen.query_one("#help-box")
        body = text_of(pilot.app.screen.query_one("#help-text"))
        assert body.splitlines()[0].strip() == "Keys"  # the section's heading...
        assert box.border_title == "Help"  # ...and not the box's title again
