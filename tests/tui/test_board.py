"""The board uses the space it has: cards grow with the terminal, the players fill the room
the log leaves, and each seat says its bot's level and (in a match) the running total."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult

from coloretto.engine import Card, score
from coloretto.tui.widgets import MoveLog, RowView, SeatsPanel, SeatView
from coloretto.tui.widgets.seats import MINUS, TIMES, SeatInfo, SidePanel

from .conftest import SIZE, asynctest, game_screen, make_app, settle, text_of


async def card_height(size: tuple[int, int], players: int = 4) -> int:
    app = make_app(players, humans=1, seed=1)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.pause()
        return game_screen(pilot).query_one("#row-1", RowView).size.height


@asynctest
async def test_cards_grow_with_the_terminal() -> None:
    small = await card_height(SIZE)
    large = await card_height((120, 40))
    assert 2 <= small < large
    assert await card_height(SIZE, players=5) >= 2


@asynctest
async def test_hiding_the_log_gives_its_room_to_the_players() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        seats = screen.query_one(SeatsPanel)
        side = seats.parent
        assert side is not None
        before = seats.region.height
        await pilot.press("l")
        await pilot.pause()
        await pilot.pause()
        assert not screen.query_one(MoveLog).display
        assert seats.region.bottom == side.region.bottom
        assert seats.region.height > before


@asynctest
async def test_a_seat_shows_the_bot_level_and_the_match_total() -> None:
    app = make_app(3, humans=1, seed=2, games=2)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        bot = text_of(screen.query_one("#seat-2", SeatView)).splitlines()[0]
        assert "Bot 1 (greedy)" in bot
        assert "match" in bot
        you = text_of(screen.query_one("#seat-1", SeatView)).splitlines()[0]
        assert "(" not in you


@asynctest
async def test_wide_names_keep_the_points_in_line() -> None:
    app = make_app(3, humans=1, seed=1, names=["李小龍"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        ends = set()
        for seat in screen.query(SeatView):
            head = text_of(seat).splitlines()[0]
            ends.add(cell_len(head[: head.index("pt") + 3].rstrip()))
        assert len(ends) == 1, ends


class _OneSeat(App[None]):
    """One seat's panel beside nothing, ``width`` cells wide: room for tall columns."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def compose(self) -> ComposeResult:
        with SidePanel():
            yield SeatsPanel(1)

    def on_mount(self) -> None:
        self.query_one(SidePanel).styles.width = self.width


@asynctest
@pytest.mark.parametrize("width", [30, 60])
async def test_a_collection_keeps_its_groups_at_any_width(width: int) -> None:
    colours = (Card.BLUE, Card.BROWN, Card.GRAY, Card.GREEN, Card.ORANGE, Card.PINK)
    held = {**dict.fromkeys(colours, 2), Card.YELLOW: 1, Card.JOKER: 1, Card.PLUS2: 2}
    breakdown = score({c: held[c] for c in (*colours, Card.YELLOW)}, jokers=1, plus2=2)
    info = SeatInfo("Ana", None, held, breakdown, "", False, None)
    app = _OneSeat(width)
    async with app.run_test(size=(80, 40)) as pilot:
        panel = app.query_one(SeatsPanel)
        panel.show([info], plain=True)
        await pilot.pause()
        seat = app.query_one(SeatView)
        lines = text_of(seat).splitlines()[1:]
        room = seat.content_size.width
        assert all(cell_len(line) <= room for line in lines), lines  # nothing wraps
        shown = " ".join(lines)
        assert shown.count("[*]") == 0  # the joker shows as the * of the colour it counts for
        assert "*" in shown
        assert "[+2]" in shown
        assert f"{TIMES}2" in shown
        if width == 30:  # too narrow for 9 columns: lines of counts, each group's sign kept
            assert all(line.lstrip()[:1] in ("+", MINUS, "[") for line in lines), lines
        else:
            assert any("[B]" in line and "[G]" in line for line in lines[:-1]), lines  # columns
