"""The coach's review at 80x24 is taller than the screen: the keys bar offers the scroll
key (↑/↓, beside the chart's ←/→), and the whole review, to its last line, is reached
with it; where the review fits, the key is not offered. The same for the chart over a
replay (``c``), whose decision's words may not fit under it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.screen import Screen

from coloretto.engine import GameRecord
from coloretto.play.coach import StoredHint, Valuation
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.play.review import Review, positions, review_of, with_review
from coloretto.store.paths import DataDir
from coloretto.tui import ColorettoApp
from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.screens.review import ChartScreen, ReviewChart
from coloretto.tui.widgets import KeysBar

from .conftest import SIZE, asynctest, text_of
from .review_fixtures import reviewed_record
from .test_review_chart import opened

LAST = "coloretto replay shows the grades move by move"
"""The review's last line."""

SCROLL = ("↑/↓", "down", "Scroll")


def on_screen(screen: Screen[object]) -> str:
    """What ``screen`` shows, as text, its lines' words (a box's sides left out) joined by
    single spaces."""
    lines = (strip.text.replace("│", " ") for strip in screen._compositor.render_strips())
    return " ".join(" ".join(lines).split())


async def settled(
    pilot: Pilot[None], bar: KeysBar, wanted: tuple[str, str, str] | None = SCROLL
) -> list[tuple[str, str, str]]:
    """The keys ``bar`` shows once ``wanted`` is among them (the bar changes a refresh after
    the layout that makes it: at most 2 s), or after a few refreshes (``wanted`` None)."""
    for _ in range(5 if wanted is None else 200):
        if wanted in bar.keys:
            break
        await pilot.pause(0.01)
    return bar.keys


async def shows(pilot: Pilot[None], screen: Screen[object], text: str) -> bool:
    """True once ``screen`` shows ``text`` (drawn a refresh after the scroll: at most 2 s)."""
    for _ in range(200):
        if text in on_screen(screen):
            return True
        await pilot.pause(0.01)
    return False


def hinted() -> GameRecord:
    """The fixture's reviewed game, each decision hinted (the best move): the words under
    the chart are a clause longer ("the hint in the game was to ...")."""
    record = reviewed_record()
    review = review_of(record, positions(record))
    assert review is not None
    decisions = {
        ply: replace(d, hint=StoredHint(d.best, Valuation(d.estimates), "search", 0))
        for ply, d in review.decisions.items()
    }
    return with_review(record, Review(review.bot, review.seed, decisions))


@asynctest
async def test_the_whole_review_is_reached_with_the_scroll_key_the_keys_bar_offers(
    tmp_path: Path,
) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        review = await opened(pilot, reviewed_record(), tmp_path)
        bar = review.query_one(KeysBar)
        assert SCROLL in await settled(pilot, bar)
        assert len(text_of(bar).rstrip()) <= SIZE[0]  # every key on the line
        assert LAST not in on_screen(review)  # below the screen at first
        scroll = review.query_one("#review", VerticalScroll)
        assert scroll.scroll_y == 0  # opened at its top: the title and the chart's axis
        assert "The coach's review" in on_screen(review)
        for _ in range(200):
            if scroll.scroll_y >= scroll.max_scroll_y:
                break
            await pilot.press("down")
        assert await shows(pilot, review, LAST)
        await pilot.press("left")  # the chart keeps its keys
        await pilot.pause()
        assert "Decision" in [description for _, _, description in bar.keys]


@asynctest
async def test_no_scroll_key_where_the_review_fits(tmp_path: Path) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=(200, 90)) as pilot:
        review = await opened(pilot, reviewed_record(), tmp_path)
        assert review.query_one("#review", VerticalScroll).max_scroll_y == 0
        assert SCROLL not in await settled(pilot, review.query_one(KeysBar), wanted=None)


@asynctest
async def test_the_chart_over_the_replay_scrolls_to_its_decision_s_last_words() -> None:
    app = ReplayApp(Replay.from_record(hinted(), "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChartScreen)
        box = screen.query_one("#chart-box", VerticalScroll)
        for _ in range(20):  # the mistakes in turn, to one whose words do not fit
            if box.max_scroll_y > 0:
                break
            await pilot.press("n")
            await pilot.pause()
        assert box.max_scroll_y > 0
        bar = screen.query_one(KeysBar)
        assert SCROLL in await settled(pilot, bar)
        assert len(text_of(bar).rstrip()) <= SIZE[0]
        chart = screen.query_one(ReviewChart)
        last = " ".join(text_of(chart.query_one("#chart-detail")).split())[-60:]
        assert last not in on_screen(screen)  # cut at first
        for _ in range(20):
            if box.scroll_y >= box.max_scroll_y:
                break
            await pilot.press("down")
        assert await shows(pilot, screen, last)
