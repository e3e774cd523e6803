"""The Moves panel keeps its whole border at 80x24: late in a game the players' panel is
tall (every collection drawn) and a long message (a hint, the review's words) leaves the
column beside the table short; the players then scroll within their panel instead of
pushing the move log's bottom border off the column."""

from __future__ import annotations

from rich.text import Text

from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.widgets import MoveLog, Notice, SeatsPanel

from .conftest import SIZE, asynctest
from .test_replay import random_game, replay_of


@asynctest
async def test_the_move_log_keeps_its_bottom_border_beside_a_tall_players_panel() -> None:
    app = ReplayApp(replay_of(random_game(5)))  # 4 players, each collecting much
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        screen = app.screen
        tight = 0
        for lines in range(1, 7):  # the message line grows to its six lines
            screen.query_one(Notice).say(Text("\n".join(f"line {n}" for n in range(lines))))
            await pilot.pause()
            await pilot.pause()
            log, side = screen.query_one(MoveLog), screen.query_one("#side")
            seats = screen.query_one(SeatsPanel)
            tight += seats.max_scroll_y > 0
            shown = [strip.text for strip in screen._compositor.render_strips()]
            bottom = log.region.bottom - 1
            assert log.region.height >= 3
            assert log.region.bottom <= side.region.bottom, (lines, log.region, side.region)
            corners = shown[bottom][log.region.x], shown[bottom][log.region.right - 1]
            assert corners == ("╰", "╯"), (lines, shown[bottom])
            assert shown[log.region.y].startswith("╭─ Moves", log.region.x)
        assert tight  # the players did not fit: they scroll in their panel
