"""The coach's review at 80x24 is taller than the screen: the keys bar offers the scroll
key (↑/↓, beside the chart's ←/→), and the whole review, to its last line, is reached
with it; where the review fits, the key is not offered."""

from __future__ import annotations

from pathlib import Path

from textual.containers import VerticalScroll

from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui import ColorettoApp
from coloretto.tui.widgets import KeysBar

from .conftest import SIZE, asynctest, text_of
from .review_fixtures import reviewed_record
from .test_review_chart import opened

LAST = "coloretto replay shows the grades move by move"
"""The review's last line."""

SCROLL = ("↑/↓", "down", "Scroll")


@asynctest
async def test_the_whole_review_is_reached_with_the_scroll_key_the_keys_bar_offers(
    tmp_path: Path,
) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        review = await opened(pilot, reviewed_record(), tmp_path)
        bar = review.query_one(KeysBar)
        assert SCROLL in bar.keys
        assert len(text_of(bar).rstrip()) <= SIZE[0]  # every key on the line
        screen = "\n".join(strip.text for strip in review._compositor.render_strips())
        assert LAST not in screen  # below the screen at first
        scroll = review.query_one("#review", VerticalScroll)
        for _ in range(200):
            if scroll.scroll_y >= scroll.max_scroll_y:
                break
            await pilot.press("down")
        await pilot.pause()
        screen = "\n".join(strip.text for strip in review._compositor.render_strips())
        assert LAST in " ".join(screen.split())
        await pilot.press("left")  # the chart keeps its keys
        await pilot.pause()
        assert "Decision" in [description for _, _, description in bar.keys]


@asynctest
async def test_no_scroll_key_where_the_review_fits(tmp_path: Path) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=(200, 90)) as pilot:
        review = await opened(pilot, reviewed_record(), tmp_path)
        assert review.query_one("#review", VerticalScroll).max_scroll_y == 0
        assert SCROLL not in review.query_one(KeysBar).keys
