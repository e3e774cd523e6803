"""``coloretto join`` without a code: the join screen, against a real server process."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from coloretto.engine import Rules
from coloretto.online.client.remote_table import LobbyChanged, RemoteTable
from coloretto.online.wire.protocol import DEFAULT_AWAY_AFTER, Host, Join
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import JoinForm, OnlineApp
from coloretto.tui.screens import GameScreen
from coloretto.tui.screens.join import JoinScreen
from coloretto.tui.widgets import Notice
from tests.online.conftest import ServerProcess


def notice(app: OnlineApp) -> str:
    return str(app.screen.query_one(Notice).render())


async def until(condition: Callable[[], bool], seconds: float = 10) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


async def type_into(pilot: Pilot[None], field: str, text: str) -> None:
    """Empty the field ``field`` and type ``text`` into it."""
    box = pilot.app.screen.query_one(field, Input)
    box.focus()
    box.value = ""
    await pilot.press(*text)


def test_a_bad_code_is_told_then_a_good_one_joins(server: ServerProcess, tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(bad_code_then_good_code(server, tmp_path), 30))


async def bad_code_then_good_code(server: ServerProcess, tmp_path: Path) -> None:
    """Bob's join screen: a code too short, a room the server does not know, Ann's room."""
    opening = Host.of("Ann", Rules(players=3), "easy", 0, DEFAULT_AWAY_AFTER)
    host = RemoteTable(server.address, opening, Keeper(DataDir(tmp_path / "ann")))
    seen: list[LobbyChanged] = []
    host.subscribe(lambda event: seen.append(event) if isinstance(event, LobbyChanged) else None)
    hosting = asyncio.create_task(host.run())
    made: list[RemoteTable] = []

    def table_for(code: str, name: str, keeper: Keeper) -> RemoteTable:
        made.append(RemoteTable(server.address, Join(code, name), keeper))
        return made[-1]

    form = JoinForm(server.address, "Bob", table_for)
    app = OnlineApp(form, host=False, keeper=Keeper(DataDir(tmp_path / "bob")))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: bool(seen))
            room = seen[-1].room
            assert isinstance(app.screen, JoinScreen)
            assert app.screen.query_one("#join-code", Input).has_focus

            await pilot.press(*"K7PQ2", "enter")  # five characters: not a code
            await pilot.pause()
            assert "'K7PQ2' is not a room code (six letters and digits)" in notice(app)
            assert isinstance(app.screen, JoinScreen)
            assert not made

            await type_into(pilot, "#join-code", "K7PQ22" if room != "K7PQ22" else "K7PQ23")
            await pilot.press("enter")  # a code, but no such room: back, with the server's words
            await until(lambda: isinstance(app.screen, JoinScreen) and "no room" in notice(app))
            assert app.screen.query_one("#join-name", Input).value == "Bob"
            assert app.refusal is None  # still running: another code may be typed

            await pilot.press(*["backspace"] * 6, *room.lower(), "enter")  # as a person would
            await until(lambda: any(seat and seat[0] == "Bob" for seat in seen[-1].seats))
            host.start()
            await until(lambda: isinstance(app.screen, GameScreen))
            assert app.table is made[-1]
            assert app.table.player == 1
            assert app.table.view.seat_names[1] == "Bob"
            await pilot.press("ctrl+c")
    finally:
        host.closed = True
        hosting.cancel()
