"""The board uses the space it has: cards grow with the terminal, the players fill the room
the log leaves (every seat drawn alike), and each seat says its bot's level and (in a
match) the running total; the marks on the board read as what they are."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult

from coloretto.engine import Card, score
from coloretto.tui.widgets import MoveLog, Notice, RowView, SeatsPanel, SeatView
from coloretto.tui.widgets.rows import HATCH, MIN_HATCH, fresh_style
from coloretto.tui.widgets.seats import MINUS, TIMES, SeatInfo, SidePanel, collection_lines

from .conftest import SIZE, asynctest, game_screen, key_for, make_app, settle, text_of


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


@pytest.mark.parametrize("players", [4, 5])
@asynctest
async def test_at_80x24_a_bot_that_took_a_row_keeps_its_level(players: int) -> None:
    app = make_app(players, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        seen = False
        while screen.view.game.round < 3:  # the bots take rows before the person, often
            game = screen.view.game
            for seat in range(1, players):
                view = screen.query_one(f"#seat-{seat + 1}", SeatView)
                first = text_of(view).splitlines()[0]
                assert f"Bot {seat} (greedy)" in first, first
                seen |= view.has_class("-out")  # it took a row this round
            await pilot.press(key_for(game))
            await settle(pilot)
            await pilot.pause()
        assert seen


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


def test_the_plus2_cards_stand_with_the_plus_colours_not_after_the_minus_ones() -> None:
    held = {Card.GREEN: 5, Card.BROWN: 2, Card.GRAY: 2, Card.ORANGE: 2, Card.PLUS2: 2}
    breakdown = score({c: n for c, n in held.items() if c is not Card.PLUS2}, plus2=2)
    for width in (None, 30, 22):
        lines = [line.plain for line in collection_lines(held, breakdown, plain=True, width=width)]
        shown = [line for line in lines if "[+2]" in line]
        assert len(shown) == 1, lines
        assert shown[0].startswith("+"), lines
        assert MINUS not in shown[0].split("[+2]")[0], lines  # not in the minus group


@asynctest
async def test_with_the_log_hidden_every_seat_is_drawn_alike() -> None:
    # One seat's columns are too wide for the panel: every seat is drawn in lines then.
    colours = (Card.BLUE, Card.BROWN, Card.GRAY, Card.GREEN, Card.ORANGE, Card.PINK)
    wide = {**dict.fromkeys(colours, 2), Card.YELLOW: 1, Card.PLUS2: 2}
    narrow = {Card.BLUE: 3, Card.PINK: 2}
    infos = [
        SeatInfo(
            name, None, held, score({c: held[c] for c in held if c in colours}), "", False, None
        )
        for name, held in (("Ana", wide), ("Ben", narrow), ("Cy", narrow))
    ]
    app = _OneSeat(34)
    async with app.run_test(size=(80, 40)) as pilot:
        panel = app.query_one(SeatsPanel)
        panel.show(infos, plain=True)
        await pilot.pause()
        bodies = [text_of(seat).splitlines()[1:] for seat in app.query(SeatView)]
        assert all(len(body) == len(bodies[1]) for body in bodies[1:])
        # Lines of blocks with their counts ([B]3), not columns with counts underneath.
        assert all(
            all("]" in line and line.lstrip()[:1] in ("+", MINUS) for line in body)
            for body in bodies[1:]
        ), bodies


@asynctest
async def test_a_taken_row_has_no_stray_hatch_after_its_taker() -> None:
    app = make_app(5, humans=1, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        taken = [view for view in screen.query(RowView) if view.has_class("-taken")]
        while not taken:
            await pilot.press(key_for(screen.view.game))
            await settle(pilot)
            taken = [view for view in screen.query(RowView) if view.has_class("-taken")]
        for view in taken:
            first = text_of(view).splitlines()[0].rstrip()
            assert "taken by" in first
            hatch = first.split("taken by", 1)[1]
            assert hatch.count(HATCH) == 0 or hatch.count(HATCH) >= MIN_HATCH, first


@asynctest
async def test_the_row_a_card_was_put_on_is_lit_and_the_message_says_so_alike() -> None:
    app = make_app(4, humans=4, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        await pilot.press("d", "2")
        row = screen.query_one("#row-2", RowView)
        assert row.styles.background.a > 0  # lit
        message = screen.query_one(Notice).content
        assert isinstance(message, Text)
        lit = fresh_style(app)
        spans = [message.plain[s.start : s.end] for s in message.spans if s.style == lit]
        assert spans == ["row 2"]
        await pilot.press("question_mark")
        assert "lit row" in text_of(pilot.app.screen.query_one("#help-text"))
