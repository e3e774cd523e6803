"""A game in a real browser: ``coloretto web`` serves it, headless chromium plays it.

What the page shows is read from its terminal's screen (see ``tests.web.page``); what the
game did is confirmed from the save in the visitor's own data directory.
"""

from __future__ import annotations

import contextlib
import re
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from coloretto.engine import Card
from coloretto.play.saving import load_session
from coloretto.play.session import Session
from coloretto.store.paths import DataDir
from coloretto.store.saves import latest_save
from coloretto.tui.glyphs import GLYPHS
from tests.web.page import VIEWPORT, Screen, web_server

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

SEED = 4
"""A deal in which the visitor ("You") plays first: the rows are empty on their turn."""

EMPTY = "·"
"""An empty place on a row."""

NAMES = {glyph.name: card for card, glyph in GLYPHS.items()}


def visitor_homes(temp: Path) -> set[Path]:
    """The visitors' data directories the server has now."""
    return set(temp.glob("coloretto-web-*/visitor-*"))


@contextlib.contextmanager
def visit(browser: BrowserContext, served: tuple[str, Path, Path]) -> Iterator[tuple[Screen, Path]]:
    """A visitor opens the page: its screen, and the data directory made for its game."""
    url, _, temp = served
    before = visitor_homes(temp)
    page = browser.new_page()
    try:
        page.goto(url)
        screen = Screen(page)
        screen.wait_for("Coloretto: a new game", "Start (ctrl+s)")
        assert screen.has_keyboard(), "the keys go to the game without a click first"
        new = visitor_homes(temp) - before
        assert len(new) == 1, f"one new data directory per visitor, not {sorted(new)}"
        yield screen, new.pop()
    finally:
        page.close()


def start(screen: Screen, *, click: bool) -> None:
    """Fill in the seed on the setup screen and start (a click on Start, or ctrl+s); wait
    for the visitor's first turn, then slow the bots down (so the table stays still while
    it is read)."""
    screen.click_text("random")  # the seed field's placeholder
    screen.press(*str(SEED))
    # A person sees the seed typed before starting (a key pressed at once could overtake it:
    # ctrl+s is the screen's key, handled before the field has had the digits).
    screen.wait_for_pattern(rf"Seed\s+{SEED}\s")
    if click:
        screen.click_text("Start (ctrl+s)")
    else:
        screen.press("Control+s")
    screen.wait_for("Your turn: draw a card (d)", "Deck 72 ·")
    screen.press("-", "-", "-")
    screen.wait_for("Bots now wait 2.5 s")


def row_label(screen: Screen, number: int) -> tuple[int, int, str]:
    """Where row ``number``'s number is on the screen (column, line), and that line."""
    pattern = re.compile(rf"^│\s*({number})\s")
    found = [
        (match.start(1), y, line)
        for y, line in enumerate(screen.lines())
        if (match := pattern.match(line))
    ]
    assert len(found) == 1, screen.text()
    return found[0]


def row_line(screen: Screen, number: int) -> str:
    """Row ``number``'s line with its number (and the cards' letters) on it."""
    return row_label(screen, number)[2]


def drawn(screen: Screen) -> Card:
    """The card the visitor drew, by the name the move log gives it."""
    return NAMES[screen.wait_for_pattern(r"You drew (.+?)\.")[1]]


def saved(home: Path, done: str, timeout: float = 10) -> Session:
    """The visitor's saved game, once the move log line ``done`` is in it."""
    deadline = time.monotonic() + timeout
    while True:
        path = latest_save(DataDir(home))
        if path is not None:
            session = load_session(path)
            if session.game.history() and session.game.drawn_card is None:
                return session
        assert time.monotonic() < deadline, f"no save after {done!r} in {home}"
        time.sleep(0.05)


def check_png(path: Path) -> None:
    """``path`` is a PNG of the browser's window, with something on it."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (VIEWPORT["width"], VIEWPORT["height"])
    assert len(data) > 20_000, f"an almost empty picture ({len(data)} bytes)"


def test_keys_play_in_the_browser(
    browser: BrowserContext, served: tuple[str, Path, Path], tmp_path: Path
) -> None:
    with visit(browser, served) as (screen, home):
        start(screen, click=False)
        assert row_line(screen, 1).count(EMPTY) == 3

        screen.press("d")
        screen.wait_for("Deck 71 ·", "Drawn")
        card = drawn(screen)
        screen.press("1")
        done = f"You put {GLYPHS[card].name} on row 1."
        screen.wait_for(done)
        line = row_line(screen, 1)
        assert line.count(EMPTY) == 2
        assert GLYPHS[card].letter in line.removeprefix("│").lstrip()[1:]  # beside the 1
        screen.page.screenshot(path=tmp_path / "board.png")
        check_png(tmp_path / "board.png")

        game = saved(home, done).game
        assert game.rows[0] == (card,)
        assert game.deck_size == 71
    _, server_home, _ = served
    assert not (server_home / "saves").exists() or not any((server_home / "saves").iterdir())


def test_clicks_play_in_the_browser(
    browser: BrowserContext, served: tuple[str, Path, Path]
) -> None:
    with visit(browser, served) as (screen, home):
        start(screen, click=True)
        screen.click_text("d draws")  # the deck
        screen.wait_for("Deck 71 ·", "Drawn")
        card = drawn(screen)
        column, line, _ = row_label(screen, 2)
        screen.click(column, line)
        done = f"You put {GLYPHS[card].name} on row 2."
        screen.wait_for(done)
        assert row_line(screen, 2).count(EMPTY) == 2
        assert row_line(screen, 1).count(EMPTY) == 3

        game = saved(home, done).game
        assert game.rows[1] == (card,)
        assert game.rows[0] == ()


def test_a_full_server_says_so(browser: BrowserContext, tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / "temp").mkdir()
    with web_server(tmp_path / "home", tmp_path / "temp", "--max-visitors", "1") as url:
        first = browser.new_page()
        second = browser.new_page()
        try:
            first.goto(url)
            Screen(first).wait_for("Coloretto: a new game")
            response = second.goto(url)
            assert response is not None
            assert response.status == 503
            assert "the server is full (games at once: 1); try again later." in second.content()
            first.close()  # the first visitor leaves: room for another
            deadline = time.monotonic() + 20
            while (response := second.goto(url)) is not None and response.status == 503:
                assert time.monotonic() < deadline, "no room after the first visitor left"
                time.sleep(0.2)
            Screen(second).wait_for("Coloretto: a new game")
        finally:
            second.close()
            if not first.is_closed():
                first.close()
