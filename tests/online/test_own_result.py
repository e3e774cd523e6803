"""An online player's score screen says their own result ("You came 4th of 4…") and marks
their card "(you)", as a watcher's does not; the leave dialog keeps the command that takes
the seat back whole (on one line where the screen has room, else broken where a shell
still reads one command). Against a real server process where a server is involved."""

from __future__ import annotations

import asyncio
import random
import shlex
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.protocol import Host
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineApp, OnlineEndScreen
from coloretto.tui.screens import ConfirmQuit
from coloretto.tui.screens.online_game import OnlineGameScreen
from coloretto.tui.widgets import ScoreCard
from coloretto.tui.widgets.seats import MINUS
from tests.online.conftest import ServerProcess, until
from tests.online.pilot_client import play_turns
from tests.tui.conftest import make_config, text_of
from tests.tui.test_score_layout import ScoresApp, finished


def scores_of(screen: OnlineEndScreen) -> tuple[list[str], dict[int, str]]:
    """The headline's lines and each card's name (its lines before the breakdown)."""
    headline = text_of(screen.query_one("#headline")).splitlines()
    names = {}
    for card in screen.query(ScoreCard):
        lines = text_of(card).splitlines()
        first_set = next(i for i, line in enumerate(lines) if line[0] in ("+", MINUS))
        names[card.seat] = " ".join(lines[:first_set])
    return headline, names


@pytest.mark.parametrize(
    ("seed", "player", "expected"),
    [
        # Scores 17, 6, 13, 25 (Hana, Jo, Bot 1, Bot 2).
        (1, 1, ["Bot 2 wins with 25 points!", "You came 4th of 4 with 6 points."]),
        (1, 0, ["Bot 2 wins with 25 points!", "You came 2nd of 4 with 17 points."]),
        # Scores 20, 20, 22, 22: the bots share the win, Hana and Jo 3rd place.
        (
            2,
            1,
            [
                "Bot 1 and Bot 2 share the win with 22 points!",
                "You and Hana share 3rd place with 20 points each.",
            ],
        ),
        (9, 1, ["You win with 38 points!"]),  # 10, 38, 20, 26
        (1, None, ["Bot 2 wins with 25 points!"]),  # a watcher has no place of their own
    ],
)
def test_the_score_screen_says_ones_own_result(
    seed: int, player: int | None, expected: list[str]
) -> None:
    session = finished(make_config(4, humans=2, names=["Hana", "Jo"], seed=seed), seed)

    async def check() -> None:
        async with ScoresApp(OnlineEndScreen(session, player)).run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            screen = pilot.app.screen
            assert isinstance(screen, OnlineEndScreen)
            headline, names = scores_of(screen)
            assert headline == expected
            theirs = dict(enumerate(session.seat_names))
            if player is not None:
                theirs[player] += " (you)"
            assert names == theirs

    asyncio.run(check())


def shown_lines(widget: Widget) -> list[str]:
    """The lines ``widget`` shows on the screen."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.size))]


def as_the_shell_reads(lines: list[str]) -> list[str]:
    """The words of a command copied as these lines (a ``\\`` at a line's end joins it to
    the next)."""
    return shlex.split("\n".join(line.strip() for line in lines).replace("\\\n", " "))


async def leave_dialog(
    app: OnlineApp, table: RemoteTable, pilot: Pilot[None]
) -> tuple[ConfirmQuit, str]:
    """The host starts the room's game, then presses ``q``: the leave dialog, laid out,
    and the command that takes the seat back."""
    await until(lambda: table.room is not None)
    await pilot.press("s")
    await until(lambda: isinstance(app.screen, OnlineGameScreen) and table.started)
    await pilot.press("q")
    await until(lambda: isinstance(app.screen, ConfirmQuit) and app.screen.is_mounted)
    await asyncio.sleep(0.05)
    dialog = app.screen
    assert isinstance(dialog, ConfirmQuit)
    assert table.comeback is not None
    return dialog, table.comeback


def test_the_leave_dialog_keeps_the_command_on_one_line_and_the_scores_mark_ones_own(
    server: ServerProcess, tmp_path: Path
) -> None:
    """Jo hosts at 100x30 (bots take the other seats), opens the leave dialog, and plays
    the game to its end."""

    async def play() -> None:
        opening = Host.of("Jo", Rules(players=3), "easy", 0, 60)
        table = RemoteTable(server.address, opening, Keeper(DataDir(tmp_path / "jo")))
        app = OnlineApp(table, host=True)
        async with app.run_test(size=(100, 30)) as pilot:
            dialog, command = await leave_dialog(app, table, pilot)
            lines = [line.strip() for line in shown_lines(dialog.query_one("#confirm-question"))]
            assert command in lines, lines  # whole, on a line of its own
            await pilot.press("n")
            rng = random.Random(5)
            async with asyncio.timeout(60):
                while not isinstance(app.screen, OnlineEndScreen):
                    await play_turns(app, pilot, rng)
                    await pilot.pause(0.02)
            await pilot.pause()
            end = app.screen
            headline, names = scores_of(end)
            assert names == {0: "Jo (you)", 1: "Bot 1", 2: "Bot 2"}
            place = table.view.game.final_scores()
            if place[0] == max(place):  # Jo won, or shares the win
                assert headline[0].startswith("You "), headline
            else:
                assert headline[1].startswith(("You came ", "You and ")), headline
            await pilot.press("q")

    asyncio.run(asyncio.wait_for(play(), 90))


@pytest.mark.parametrize(("width", "folded"), [(80, True), (90, False)])
def test_a_command_too_long_for_the_screen_breaks_where_the_shell_reads_it_whole(
    server: ServerProcess, tmp_path: Path, width: int, folded: bool
) -> None:
    """A long server address and a long name (78 cells in all): at 80 columns the command
    cannot fit on one line and breaks between options, each line but the last ending in
    `` \\``; at 90 it fits whole."""

    async def play() -> None:
        address = f"127.000.000.001:{server.port}"  # the same server, spelt longer
        opening = Host.of("Alexandra Smithe", Rules(players=3), "easy", 0, 60)
        table = RemoteTable(address, opening, Keeper(DataDir(tmp_path / "al")))
        app = OnlineApp(table, host=True)
        async with app.run_test(size=(width, 24)) as pilot:
            dialog, command = await leave_dialog(app, table, pilot)
            assert len(command) == 78
            box = dialog.query_one("#confirm-box")
            assert dialog.region.contains_region(box.region)
            lines = shown_lines(dialog.query_one("#confirm-question"))
            start = next(i for i, line in enumerate(lines) if "coloretto join" in line)
            copied = [line for line in lines[start:] if line.strip()]
            if not folded:
                assert copied[0].strip() == command
                assert box.region.width == len(command) + 4  # as wide as it needs
            else:
                assert box.region.width == width - 4  # as wide as the screen allows
                assert all(line.rstrip().endswith(" \\") for line in copied[:-1]), copied
                assert not copied[-1].rstrip().endswith("\\")
                for line in copied:  # an option and its value stay together
                    assert not line.rstrip(" \\").endswith(("--server", "--name")), copied
                assert as_the_shell_reads(copied) == shlex.split(command)
            await pilot.press("n")
            await pilot.press("ctrl+c")

    asyncio.run(asyncio.wait_for(play(), 60))
