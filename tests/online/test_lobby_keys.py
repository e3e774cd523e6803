"""The lobby's keys, driven by Textual's pilot against a real server: the host removes a
person (``x``, then their seat's number) and closes the table (``l``); the person removed
reads why, and their client stops."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from pathlib import Path

from msgspec import structs
from websockets.asyncio.client import connect

from coloretto.engine import Rules
from coloretto.online.client.remote_table import LobbyChanged, RemoteTable, SeatRefused
from coloretto.online.wire.protocol import DEFAULT_AWAY_AFTER, Host, Join
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineApp
from coloretto.tui.screens.lobby import LobbyScreen
from coloretto.tui.widgets import Notice
from tests.online.conftest import ServerProcess, until
from tests.online.test_server import ask, receive

HOST = Host.of("Ana", Rules(players=4), "easy", 0, DEFAULT_AWAY_AFTER)


def notice(app: OnlineApp) -> str:
    return str(app.screen.query_one(Notice).render())


def footer_keys(app: OnlineApp) -> set[str]:
    """The keys the footer shows now."""
    return {key for key, active in app.screen.active_bindings.items() if active.binding.show}


def seated(app: OnlineApp) -> list[str | None]:
    lobby = app.lobby.lobby
    return [] if lobby is None else [None if seat is None else seat[0] for seat in lobby.seats]


def test_the_host_removes_a_person_and_closes_the_table_with_keys(
    server: ServerProcess, tmp_path: Path
) -> None:
    asyncio.run(asyncio.wait_for(host_keys(server, tmp_path), 60))


async def host_keys(server: ServerProcess, tmp_path: Path) -> None:
    ana = RemoteTable(server.address, HOST, Keeper(DataDir(tmp_path / "ana")))
    app = OnlineApp(ana, host=True)
    others: list[asyncio.Task[None]] = []
    refused: dict[str, list[str]] = {}

    def seat(name: str) -> RemoteTable:
        room = ana.room
        assert room is not None
        table = RemoteTable(server.address, Join(room, name),
                            Keeper(DataDir(tmp_path / name)))  # fmt: skip
        refused[name] = []
        table.subscribe(
            lambda e: refused[name].append(e.message) if isinstance(e, SeatRefused) else 0
        )
        others.append(asyncio.create_task(table.run()))
        return table

    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: ana.room is not None and app.lobby.lobby is not None)
            assert {"s", "x", "l", "q"} <= footer_keys(app)
            assert not {"2", "escape"} & footer_keys(app)
            await pilot.press("x")  # alone: nobody to remove
            assert "Nobody to remove: you are alone at the table." in notice(app)

            ben, cy = seat("Ben"), seat("Cy")
            await until(lambda: seated(app) == ["Ana", "Ben", "Cy", None])
            await pilot.press("x")
            assert "Remove whom? Press the number of their seat (2, 3), or Esc." in notice(app)
            assert {"2", "escape", "q"} <= footer_keys(app)
            assert not {"s", "x", "l"} & footer_keys(app)
            await pilot.press("4")
            assert "Nobody sits in seat 4: press another seat's number, or Esc." in notice(app)
            await pilot.press("s")  # not now: it says what works
            assert "Press the number of the seat of the person to remove, or Esc." in notice(app)
            await pilot.press("escape")
            assert "Nobody removed." in notice(app)
            assert {"s", "x", "l"} <= footer_keys(app)

            await pilot.press("x", "2")
            assert "Removing Ben from the table…" in notice(app)
            await until(lambda: seated(app) == ["Ana", None, "Cy", None])
            await until(lambda: refused["Ben"] == ["The host removed you from the table"])
            assert ben.closed
            assert not cy.closed

            await pilot.press("l")
            await asyncio.sleep(0.5)  # saved and told
            dee = seat("Dee")
            await until(lambda: bool(refused["Dee"]))
            assert refused["Dee"] == ["the host has closed this table to new players"]
            assert dee.player is None
            await pilot.press("q")
    finally:
        for task in others:
            task.cancel()


def test_the_lobby_shows_a_closed_table_and_l_opens_it(
    server: ServerProcess, tmp_path: Path
) -> None:
    async def test() -> None:
        ana = RemoteTable(server.address, HOST, Keeper(DataDir(tmp_path / "ana")))
        app = OnlineApp(ana, host=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: app.lobby.lobby is not None)
            await pilot.press("l")
            await until(lambda: app.lobby.lobby is not None and app.lobby.lobby.locked, 5)
            how = str(app.screen.query_one("#lobby-how").render())
            assert how.startswith("The table is closed to new players: l opens it again.")
            assert app.screen.active_bindings["l"].binding.description == "Unlock"
            await pilot.press("l")
            await until(lambda: app.lobby.lobby is not None and not app.lobby.lobby.locked)
            assert app.screen.active_bindings["l"].binding.description == "Lock"
            await pilot.press("q")

    asyncio.run(asyncio.wait_for(test(), 60))


def test_a_public_table_says_so_and_when_bots_fill_it(
    server: ServerProcess, tmp_path: Path
) -> None:
    """A public table that bots fill after a minute: its lobby says it is listed and at
    what time (the player's clock) the game starts."""

    async def test() -> str:
        opening = structs.replace(HOST, public=True, fill_after=60.0)
        ana = RemoteTable(server.address, opening, Keeper(DataDir(tmp_path / "ana")))
        app = OnlineApp(ana, host=True)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: app.lobby.lobby is not None)
            how = str(app.screen.query_one("#lobby-how").render())
            await pilot.press("q")
        return how

    start = datetime.now() + timedelta(seconds=60)
    how = asyncio.run(asyncio.wait_for(test(), 60))
    assert "A public table: coloretto lobby lists it." in how, how
    told = datetime.strptime(how.split("starts at ")[1][:8], "%H:%M:%S")
    apart = (told - start.replace(year=1900, month=1, day=1)).total_seconds() % 86400
    assert min(apart, 86400 - apart) < 10, how  # (a clock time: midnight may pass)


def test_a_person_removed_reads_why_and_their_client_stops(
    server: ServerProcess, tmp_path: Path
) -> None:
    async def test() -> None:
        async with connect(server.url) as host:
            room = (await ask(host, HOST.to_json()))["room"]
            ben = RemoteTable(server.address, Join(room, "Ben"), Keeper(DataDir(tmp_path / "ben")))
            seen: list[LobbyChanged] = []
            ben.subscribe(lambda e: seen.append(e) if isinstance(e, LobbyChanged) else None)
            app = OnlineApp(ben, host=False)
            async with app.run_test(size=(120, 40)) as pilot:
                await until(lambda: bool(seen))
                assert isinstance(app.screen, LobbyScreen)
                assert footer_keys(app) == {"q"}
                await pilot.press("x")  # the host's key: not this player's
                assert "Waiting in the room: q quits." in notice(app)
                await host.send(json.dumps({"type": "remove", "seat": 1}))
                await until(lambda: app.refusal is not None)
                assert app.refusal == "The host removed you from the table"
            assert ben.closed
            lobby = await receive(host, "lobby")
            while lobby["seats"][1] is not None:
                lobby = await receive(host, "lobby")

    asyncio.run(asyncio.wait_for(test(), 60))
