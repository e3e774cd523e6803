"""The dialogs say each thing once and keep a command on one line at 80x24."""

from __future__ import annotations

import itertools
import shlex

import pytest
from rich.cells import cell_len
from textual.geometry import Region
from textual.widget import Widget

from coloretto.tui.screens import ConfirmQuit, HelpScreen
from coloretto.tui.screens.dialogs import fold_command

from .conftest import SIZE, asynctest, make_app, settle, text_of
from .test_score_layout import ScoresApp

COMMAND = shlex.join(
    ["coloretto", "join", "K7PQ2M", "--server", "games.example.org:7797", "--name", "Ana's pal"]
)
"""A command to copy, 74 cells long."""


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
        assert box.region.width == ConfirmQuit.WIDTH  # no command needs more


def as_the_shell_reads(lines: list[str]) -> list[str]:
    """The words of a command copied as these lines (as a shell reads them: a ``\\`` at
    a line's end joins it to the next)."""
    return shlex.split("\n".join(lines).replace("\\\n", " "))


@pytest.mark.parametrize("width", [12, *range(26, 80, 6), 74, 80])
def test_a_command_breaks_only_where_it_still_copies_as_one(width: int) -> None:
    lines = fold_command(COMMAND, width)
    assert as_the_shell_reads(lines) == shlex.split(COMMAND)  # even where a word is too long
    if cell_len(COMMAND) <= width:
        assert lines == [COMMAND]
        return
    if width < len("  games.example.org:7797 \\"):
        return  # the server's address cannot fit on a line: it sticks out
    assert all(cell_len(line) <= width for line in lines), lines
    assert len({cell_len(line) for line in lines}) == 1  # lined up, centred as a block
    assert all(line.endswith(" \\") for line in lines[:-1])
    for line, after in itertools.pairwise(lines):
        option = line.removesuffix("\\").split()[-1]
        value = after.split()[0]
        pair = f"  {option} {value} \\"
        if option.startswith("--") and cell_len(pair) <= width:  # it would fit: kept together
            raise AssertionError(f"{option} parted from {value}: {lines}")


def test_what_is_no_shell_command_stays_whole() -> None:
    assert fold_command("coloretto play 'unclosed", 10) == ["coloretto play 'unclosed"]
    assert fold_command("coloretto   play --resume", 10) == ["coloretto   play --resume"]


@pytest.mark.parametrize(("size", "lines"), [((100, 30), 1), ((80, 24), 2)])
@asynctest
async def test_the_box_widens_for_a_command_up_to_the_screens_width(
    size: tuple[int, int], lines: int
) -> None:
    question = f"Leave the table? To take your seat back:\n{COMMAND}"
    async with ScoresApp(ConfirmQuit(question=question)).run_test(size=size) as pilot:
        await pilot.pause()
        dialog = pilot.app.screen
        box = dialog.query_one("#confirm-box")
        shown = [line.strip() for line in shown_lines(dialog.query_one("#confirm-question"))]
        start = shown.index("Leave the table? To take your seat back:")
        command = [line for line in shown[start + 1 :] if line][:lines]
        assert as_the_shell_reads(command) == shlex.split(COMMAND)
        if lines == 1:
            assert command == [COMMAND]
            assert box.region.width == cell_len(COMMAND) + 4  # border and padding
        else:
            assert box.region.width == size[0] - 4
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
