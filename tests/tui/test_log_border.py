"""The Moves panel keeps its whole border at 80x24: late in a game the players' panel is
tall (every collection drawn) and a long message (a hint, the review's words) leaves the
column beside the table short; the players then scroll within their panel instead of
pushing the move log's bottom border off the column."""

from __future__ import annotations

from rich.text import Text
from textual.screen import Screen

from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.widgets import MoveLog, Notice, SeatsPanel

from .conftest import SIZE, asynctest
from .test_replay import random_game, replay_of


def border_shown(screen: Screen[object]) -> bool:
    """True when the Moves panel's whole border is on screen, inside the column beside the
    table."""
    log, side = screen.query_one(MoveLog), screen.query_one("#side")
    if log.region.height < 3 or log.region.bottom > side.region.bottom:
        return False
    shown = [strip.text for strip in screen._compositor.render_strips()]
    bottom = log.region.bottom - 1
    corners = shown[bottom][log.region.x], shown[bottom][log.region.right - 1]
    return corners == ("╰", "╯") and shown[log.region.y].startswith("╭─ Moves", log.region.x)


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
            for _ in range(100):  # laid out and drawn a refresh or two later (at most 1 s)
                await pilot.pause(0.01)
                if border_shown(screen):
                    break
            log = screen.query_one(MoveLog)
            assert border_shown(screen), (lines, log.region, screen.query_one("#side").region)
            tight += screen.query_one(SeatsPanel).max_scroll_y > 0
        assert tight  # the players did not fit: they scroll in their panel
