"""Rooms have addresses (issue 51): a connection names its room in the URL's path
(``/rooms/CODE``, a new room at ``/rooms``) so that a proxy can route on it. Against a real
server on loopback: the client and a raw connection join by address, an address that is
none of the server's is refused at the handshake with its HTTP status, an opening that
names another room than its address is refused, and ``/`` still serves older clients."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.http11 import Response

from coloretto.engine import Rules
from coloretto.online.client import remote_table as client_module
from coloretto.online.client.remote_table import RemoteTable, unreachable
from coloretto.online.wire.protocol import Host, Join, Watch
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import ROOT, ServerProcess, until
from tests.online.test_server import ask, receive

HOST = {"type": "host", "version": 1, "name": "Ana", "rules": {"players": 3}, "bot": "easy",
        "delay": 0}  # fmt: skip


def run(test: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


async def host_room(url: str) -> tuple[Any, str]:
    """Ana's connection to a new room opened at ``url``/rooms, and the room's code."""
    ana = await connect(f"{url}/rooms")
    welcome = await ask(ana, HOST)
    assert welcome["type"] == "welcome", welcome
    return ana, str(welcome["room"])


async def closed_with(ws: Any) -> tuple[str, int | None]:
    """The error code ``ws`` is sent and the close code the server closes it with."""
    error = await receive(ws, "error")
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    return str(error["code"]), ws.close_code


def test_people_join_and_watch_a_room_at_its_address(server: ServerProcess) -> None:
    async def test() -> None:
        ana, room = await host_room(server.url)
        async with ana, connect(f"{server.url}/rooms/{room}") as ben:
            welcome = await ask(ben, {"type": "join", "version": 1, "room": room, "name": "Ben"})
            assert (welcome["room"], welcome["seat"]) == (room, 1)
            token = welcome["token"]
            async with connect(f"{server.url}/rooms/{room}") as watcher:
                watched = await ask(watcher, {"type": "watch", "version": 1, "room": room})
                assert watched["seat"] is None
            await ben.close()
            async with connect(f"{server.url}/rooms/{room}") as again:
                resume = {"type": "resume", "version": 1, "room": room, "token": token}
                assert (await ask(again, resume))["seat"] == 1

    run(test)


def test_the_client_connects_at_the_rooms_address(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's table opens its room at ``/rooms`` and comes back (``resume``) at the
    room's address; a player joins and a watcher watches at the room's address."""
    urls: list[str] = []
    connections: list[ClientConnection] = []

    class Recording(connect):
        """``connect``, keeping each address and connection."""

        def __init__(self, url: str, **options: Any) -> None:
            urls.append(url)
            super().__init__(url, **options)

        async def __aenter__(self) -> ClientConnection:
            connection = await super().__aenter__()
            connections.append(connection)
            return connection

    monkeypatch.setattr(client_module, "connect", Recording)

    async def test() -> None:
        opening = Host.of("Ana", Rules(players=3), "easy", 0, 60)
        ana = RemoteTable(server.address, opening, Keeper(DataDir(tmp_path / "ana")))
        hosting = asyncio.create_task(ana.run())
        await until(lambda: ana.player == 0 and ana.room is not None)
        room = ana.room
        assert room is not None
        ben = RemoteTable(server.address, Join(room, "Ben"), Keeper(DataDir(tmp_path / "ben")))
        joining = asyncio.create_task(ben.run())
        await until(lambda: ben.player == 1)
        watcher = RemoteTable(server.address, Watch(room), Keeper(DataDir(tmp_path / "w")))
        watching = asyncio.create_task(watcher.run())
        await until(lambda: watcher.connected)
        await connections[0].close()  # Ana's connection drops: her table comes back by itself
        await until(lambda: len(urls) == 4 and ana.connected)
        assert ana.player == 0
        address = f"ws://{server.address}"
        assert urls == [f"{address}/rooms", *[f"{address}/rooms/{room}"] * 3]
        for table in (ana, ben, watcher):
            table.suspend()
        await asyncio.wait_for(asyncio.gather(hosting, joining, watching), 10)

    run(test)


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/nowhere", 404, "no such address: rooms are at /rooms/CODE"),
        ("/rooms/", 400, "not a room code"),
        ("/rooms/k7pq2m", 400, "not a room code"),  # codes are upper case
        ("/rooms/K7PQ2", 400, "not a room code"),
        ("/rooms/K7PQ2M/join", 404, "no such address"),
        ("/rooms/K7PQ2M/", 404, "no such address"),
        ("/coloretto/rooms/K7PQ2", 400, "not a room code"),
        ("/rooms/K7PQ2M?x=1", 400, "not a room code"),
        ("/rooms?room=K7PQ2M", 404, "no such address"),
        ("/" + "A" * 4000, 404, "no such address"),
        ("/rooms/%4B7PQ2M", 400, "not a room code"),  # no decoding: one spelling per room
    ],
)
def test_an_address_that_is_none_of_the_servers_is_refused_at_the_handshake(
    server: ServerProcess, path: str, status: int, says: str
) -> None:
    async def test() -> None:
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{server.url}{path}", open_timeout=5)
        response = refused.value.response
        assert response.status_code == status
        assert says in response.body.decode()

    run(test)
    audit = (server.home / "audit.log").read_text()
    assert "bad-path 127.0.0.1" in audit


def test_a_path_longer_than_a_request_line_is_cut_without_harm(server: ServerProcess) -> None:
    """A request line past what the server reads (8 KiB) is answered 414 and closed; the
    server stays up."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /rooms/" + b"A" * 20_000 + b" HTTP/1.1\r\n\r\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 414 "), answer[:100]

    async def still_serves() -> None:
        ana, _ = await host_room(server.url)
        await ana.close()

    run(still_serves)
    assert server.process is not None
    assert server.process.poll() is None


@pytest.mark.parametrize(
    ("path", "opening"),
    [
        ("/rooms/ABCDEF", {"type": "watch", "version": 1, "room": "QRSTUV"}),
        ("/rooms/ABCDEF", {"type": "join", "version": 1, "room": "QRSTUV", "name": "Ben"}),
        ("/rooms/ABCDEF", {"type": "resume", "version": 1, "room": "QRSTUV", "token": "t" * 24}),
        ("/rooms/ABCDEF", HOST),  # a new room is opened at /rooms only
        ("/rooms", {"type": "watch", "version": 1, "room": "ABCDEF"}),  # a room at its own
    ],
)
def test_an_opening_for_another_room_than_its_address_is_refused(
    server: ServerProcess, path: str, opening: dict[str, Any]
) -> None:
    async def test() -> None:
        async with connect(f"{server.url}{path}") as ws:
            await ws.send(json.dumps(opening))
            assert await closed_with(ws) == ("wrong-room", 1008)

    run(test)
    assert "wrong-room 127.0.0.1" in (server.home / "audit.log").read_text()


def test_a_room_named_by_its_address_is_the_one_joined(server: ServerProcess) -> None:
    """Two rooms: a connection at one room's address cannot reach the other's seats."""

    async def test() -> None:
        ana, first = await host_room(server.url)
        cy, second = await host_room(server.url)
        async with ana, cy, connect(f"{server.url}/rooms/{first}") as ben:
            join = {"type": "join", "version": 1, "room": second, "name": "Ben"}
            await ben.send(json.dumps(join))
            assert await closed_with(ben) == ("wrong-room", 1008)
            lobby = await receive(cy, "lobby")
            assert [seat and seat["name"] for seat in lobby["seats"]] == ["Ana", None, None]

    run(test)


def test_older_clients_still_play_at_the_servers_root(server: ServerProcess) -> None:
    """``/`` (where clients connected before rooms had addresses) serves any room named
    in the opening, as it did."""

    async def test() -> None:
        ana, room = await host_room(server.url)
        async with ana, connect(server.url) as ben, connect(server.url) as cy:
            assert (await ask(ben, {**HOST, "name": "Ben"}))["seat"] == 0
            join = {"type": "join", "version": 1, "room": room, "name": "Cy"}
            assert (await ask(cy, join))["seat"] == 1

    run(test)


def test_a_prefix_a_proxy_passes_on_is_read_past(server: ServerProcess, tmp_path: Path) -> None:
    """A proxy that serves the game under ``/coloretto/`` and passes the path on as it
    came: the server reads the room from the path's end, for the client of now (at
    ``/coloretto/rooms/CODE``) and of before (at ``/coloretto/``)."""

    async def test() -> None:
        base = f"{server.url}/coloretto/"
        ana = RemoteTable(base, Host.of("Ana", Rules(players=3), "easy", 0, 60),
                          Keeper(DataDir(tmp_path / "ana")))  # fmt: skip
        hosting = asyncio.create_task(ana.run())
        await until(lambda: ana.player == 0 and ana.room is not None)
        room = ana.room
        async with connect(f"{base}rooms/{room}") as ben, connect(base) as cy:
            join = {"type": "join", "version": 1, "room": room, "name": "Ben"}
            assert (await ask(ben, join))["seat"] == 1
            assert (await ask(cy, {**join, "name": "Cy"}))["seat"] == 2
        ana.suspend()
        await asyncio.wait_for(hosting, 10)

    run(test)


def test_a_refused_handshake_is_told_with_the_servers_answer() -> None:
    """Not "cannot reach the server": what the server (or a proxy) answered."""
    answer = Response(404, "Not Found", Headers(), b"no such address: rooms are at /rooms/CODE\n")
    assert unreachable("ws://h:9/x/", InvalidStatus(answer)) == (
        "the server at ws://h:9/x/ refused the connection (HTTP 404: no such address: rooms "
        "are at /rooms/CODE)"
    )
    assert unreachable("ws://h:9", InvalidStatus(Response(502, "Bad Gateway", Headers()))) == (
        "the server at ws://h:9 refused the connection (HTTP 502)"
    )


def test_a_server_makes_codes_that_start_with_its_prefixes(tmp_path: Path) -> None:
    """``--prefixes``: the codes a proxy routes to this server are the ones it makes."""
    process = ServerProcess(tmp_path / "server", options=("--prefixes", "s2")).start()
    try:

        async def test() -> list[str]:
            rooms = [await host_room(process.url) for _ in range(3)]
            for ws, _ in rooms:
                await ws.close()
            return [code for _, code in rooms]

        codes = asyncio.run(asyncio.wait_for(test(), 60))
        assert all(code[0] in "S2" for code in codes), codes
    finally:
        process.stop()


@pytest.mark.parametrize("prefixes", ["AIO", "", "A-B"])
def test_prefixes_outside_the_code_alphabet_are_a_usage_error(
    tmp_path: Path, prefixes: str
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "coloretto", "server", "--port", "0", "--prefixes", prefixes],
        capture_output=True, text=True, env=env, timeout=30, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "argument --prefixes: " in done.stderr
    assert "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" in done.stderr
    assert "Traceback" not in done.stderr
