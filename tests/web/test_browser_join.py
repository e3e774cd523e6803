"""``coloretto web --server``: a visitor types a room's code in the page and plays online,
against a real ``coloretto server`` process and a host at that server."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from coloretto.engine import Rules
from coloretto.online.client.remote_table import LobbyChanged, RemoteTable
from coloretto.online.wire import protocol
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import ServerProcess, certificate
from tests.web.page import Screen, web_server

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


class Host:
    """Ann's seat at a room of ``server``: a table talking to it on a thread of its own."""

    def __init__(
        self, server: ServerProcess, home: Path, tls: ssl.SSLContext | None = None
    ) -> None:
        opening = protocol.Host.of("Ann", Rules(players=3), "easy", 0, protocol.DEFAULT_AWAY_AFTER)
        self.table = RemoteTable(server.url, opening, Keeper(DataDir(home)), tls=tls)
        self.seated: list[str] = []
        self.table.subscribe(self._heard)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._run(),))

    def _heard(self, event: object) -> None:
        if isinstance(event, LobbyChanged):
            self.seated = [seat[0] for seat in event.seats if seat is not None]

    async def _run(self) -> None:
        self.task = asyncio.current_task()
        with contextlib.suppress(asyncio.CancelledError):
            await self.table.run()

    def wait(self, condition: object, what: str, timeout: float = 15) -> None:
        deadline = time.monotonic() + timeout
        while not condition():  # type: ignore[operator]
            assert time.monotonic() < deadline, f"no {what} after {timeout:g} s"
            time.sleep(0.05)

    def start_game(self) -> None:
        self.loop.call_soon_threadsafe(self.table.start)

    def stop(self) -> None:
        self.table.closed = True
        if self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.task.cancel)
            self.thread.join(10)
        self.loop.close()


@contextlib.contextmanager
def hosting(server: ServerProcess, home: Path, tls: ssl.SSLContext | None = None) -> Iterator[Host]:
    host = Host(server, home, tls)
    host.thread.start()
    try:
        yield host
    finally:
        host.stop()


@pytest.mark.parametrize("tls", [False, True], ids=["ws", "wss"])
def test_a_web_visitor_types_a_code_and_plays_online(
    browser: BrowserContext, tmp_path: Path, tls: bool
) -> None:
    # With TLS, the server's certificate is signed by no authority this computer trusts:
    # the web server passes --cafile on to each visitor's join, as one checked absolute path.
    (tmp_path / "web-home").mkdir()
    (tmp_path / "web-temp").mkdir()
    options: tuple[str, ...] = ()
    trust: tuple[str, ...] = ()
    context = None
    if tls:
        cert, key = certificate(tmp_path)
        options = ("--certfile", str(cert), "--keyfile", str(key))
        trust = ("--cafile", str(cert))
        context = ssl.create_default_context(cafile=cert)
    server = ServerProcess(tmp_path / "server", options=options)
    try:
        server.start()
        assert server.scheme == ("wss" if tls else "ws")
        shown = server.url if tls else server.address
        with (
            hosting(server, tmp_path / "ann", context) as host,
            web_server(tmp_path / "web-home", tmp_path / "web-temp", "--server", shown, *trust)
            as url,
        ):  # fmt: skip
            host.wait(lambda: host.table.room is not None and bool(host.seated), "room")
            play_in_the_page(browser, url, shown, host)
    finally:
        server.stop()


def play_in_the_page(browser: BrowserContext, url: str, address: str, host: Host) -> None:
    """Zoe opens the page, types a wrong code, then Ann's room's code and her name; Ann
    starts; Zoe draws a card on her turn (Ann and the bot playing theirs)."""
    room = host.table.room
    assert room is not None
    page = browser.new_page()
    try:
        page.goto(url)
        screen = Screen(page)
        screen.wait_for(f"Join a room on {address}", "Room code", "Join (Enter)")
        assert screen.has_keyboard()
        screen.press(*"nope", "Enter")
        screen.wait_for("'nope' is not a room code (six letters and digits)")
        screen.press(*["Backspace"] * 4, *room.lower())
        screen.wait_for(f"▊  {room.lower()} ")  # the code typed in its field, then Enter
        screen.press("Enter")
        screen.wait_for("Type your name")  # the name field is empty: the keys go there now
        screen.press(*"Zoe", "Enter")
        host.wait(lambda: "Zoe" in host.seated, "Zoe in the room")
        screen.wait_for(f"Room {room}", "Waiting for Ann to start the game")
        host.start_game()
        screen.wait_for_pattern(r"Deck \d+ ·")  # the board
        table = host.table
        host.wait(lambda: table.started, "the game")
        assert table.view.seat_names[:2] == ("Ann", "Zoe")
        acted = -1
        deadline = time.monotonic() + 20
        while "Your turn (Zoe): draw a card (d)" not in screen.text():
            game = table.view.game
            ply = len(game.history())
            if table.plays_here(game.current_player) and acted != ply:
                acted = ply  # Ann's turn: she draws (or takes a row if she must)
                host.loop.call_soon_threadsafe(table.act, table.legal_actions()[0])
            assert time.monotonic() < deadline, screen.text()
            time.sleep(0.05)
        screen.press("d")
        screen.wait_for("Zoe drew")
        game = table.view.game
        host.wait(lambda: game.current_player == 1 and game.drawn_card is not None, "Zoe's draw")
    finally:
        page.close()
