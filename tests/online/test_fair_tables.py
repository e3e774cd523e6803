"""Fair tables against a real server on loopback: the host removes a person or closes the
table, names that look alike get a number, a seat opened on a second connection closes
the first, and a key pressed while the connection is down is sent once it is back (or
clearly refused)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from coloretto.engine import Rules
from coloretto.online.client import remote_table as client_module
from coloretto.online.client.remote_table import RemoteTable, SeatKeys, SeatRefused
from coloretto.online.wire.protocol import Host, Join, Watch
from coloretto.play.keeper import Keeper
from coloretto.play.table import TableNews
from coloretto.store.paths import DataDir
from tests.online.conftest import ServerProcess, until
from tests.online.test_server import ask, receive, refusal

RULES = {"players": 4, "scoring": "brown", "edition": "classic", "variant": "standard"}
HOST = {"type": "host", "version": 1, "name": "Ana", "rules": RULES, "bot": "easy", "delay": 0}


def run(test: Callable[[], Any]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


def join(room: str, name: str) -> dict[str, Any]:
    return {"type": "join", "version": 1, "room": room, "name": name}


async def lobby_where(
    ws: ClientConnection, holds: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The next lobby message for which ``holds`` is true (others skipped)."""
    while not holds(lobby := await receive(ws, "lobby")):
        pass
    return lobby


def names(lobby: dict[str, Any]) -> list[str | None]:
    return [None if seat is None else seat["name"] for seat in lobby["seats"]]


async def closed_with(ws: ClientConnection) -> tuple[list[str], int | None]:
    """The error codes ``ws`` receives until the server closes it, and the close code."""
    codes = []
    try:
        while True:
            message = await receive(ws)
            if message["type"] == "error":
                codes.append(message["code"])
    except ConnectionClosed as closed:
        return codes, closed.rcvd and closed.rcvd.code


class Events:
    """Everything a table tells, kept."""

    def __init__(self, table: RemoteTable) -> None:
        self.seen: list[object] = []
        table.subscribe(self.seen.append)

    @property
    def refusals(self) -> list[str]:
        return [e.message for e in self.seen if isinstance(e, SeatRefused)]

    @property
    def news(self) -> list[str]:
        return [e.text for e in self.seen if isinstance(e, TableNews)]


# ------------------------------------------------------------------ the host's table


def test_the_host_removes_a_person_who_is_told_and_does_not_come_back(
    server: ServerProcess, tmp_path: Path
) -> None:
    async def test() -> None:
        async with connect(server.url) as ana:
            room = (await ask(ana, HOST))["room"]
            data = DataDir(tmp_path / "ben")
            ben = RemoteTable(server.address, Join(room, "Ben"), Keeper(data))
            events = Events(ben)
            running = asyncio.create_task(ben.run())
            await lobby_where(ana, lambda lobby: names(lobby)[1] == "Ben")
            token = ben.machine.token
            assert token is not None
            assert SeatKeys(data).get(ben.server, room, "Ben") == token

            await ana.send(json.dumps({"type": "remove", "seat": 1}))
            await asyncio.wait_for(running, 10)  # it ends: no reconnecting by itself
            assert events.refusals == ["The host removed you from the table"]
            assert ben.closed
            assert SeatKeys(data).get(ben.server, room, "Ben") is None  # nothing to resume
            await lobby_where(ana, lambda lobby: names(lobby) == ["Ana", None, None, None])

            async with connect(server.url) as again:  # the token opens nothing any more
                resume = {"type": "resume", "version": 1, "room": room, "token": token}
                assert await refusal(again, resume) == "bad-token"
            async with connect(server.url) as cy:  # the seat is free for someone else
                assert (await ask(cy, join(room, "Cy")))["seat"] == 1

    run(test)


def test_a_removed_person_on_a_raw_connection_gets_removed_and_a_closed_connection(
    server: ServerProcess,
) -> None:
    async def test() -> None:
        async with connect(server.url) as ana, connect(server.url) as ben:
            room = (await ask(ana, HOST))["room"]
            await ask(ben, join(room, "Ben"))
            await ana.send(json.dumps({"type": "remove", "seat": 1}))
            assert await closed_with(ben) == (["removed"], 1008)

    run(test)


def test_only_the_host_removes_and_locks_and_only_before_the_start(server: ServerProcess) -> None:
    async def test() -> None:
        async with connect(server.url) as ana, connect(server.url) as ben:
            room = (await ask(ana, HOST))["room"]
            await ask(ben, join(room, "Ben"))
            for request in ({"type": "remove", "seat": 0}, {"type": "lock"}, {"type": "unlock"}):
                assert await refusal(ben, request) == "not-host"
            assert await refusal(ana, {"type": "remove", "seat": 0}) == "bad-seat"
            assert await refusal(ana, {"type": "remove", "seat": 2}) == "bad-seat"
            assert await refusal(ana, {"type": "remove", "seat": 9}) == "bad-request"
            await ana.send(json.dumps({"type": "start"}))
            await receive(ana, "game")
            assert await refusal(ana, {"type": "remove", "seat": 1}) == "started"
            assert await refusal(ana, {"type": "lock"}) == "started"
            assert (await receive(ben, "game"))["players"][1]["name"] == "Ben"

    run(test)


def test_a_locked_table_takes_nobody_new_until_it_is_opened_again(server: ServerProcess) -> None:
    async def test() -> None:
        async with connect(server.url) as ana:
            room = (await ask(ana, HOST))["room"]
            async with connect(server.url) as ben:
                token = (await ask(ben, join(room, "Ben")))["token"]
            await ana.send(json.dumps({"type": "lock"}))
            await receive(ana, "lobby")  # told once the lock is saved
            async with connect(server.url) as cy:
                assert await refusal(cy, join(room, "Cy")) == "locked"
            async with connect(server.url) as ben:  # a seat taken before stays its person's
                resume = {"type": "resume", "version": 1, "room": room, "token": token}
                assert (await ask(ben, resume))["seat"] == 1
            async with connect(server.url) as watcher:
                assert (await ask(watcher, {"type": "watch", "version": 1, "room": room}))[
                    "seat"
                ] is None
            await ana.send(json.dumps({"type": "unlock"}))
            await receive(ana, "lobby")
            async with connect(server.url) as cy:
                assert (await ask(cy, join(room, "Cy")))["seat"] == 2

    run(test)


def test_the_lobby_says_whether_the_table_is_locked(server: ServerProcess) -> None:
    async def test() -> None:
        async with connect(server.url) as ana:
            await ask(ana, HOST)
            assert (await receive(ana, "lobby")).get("locked") is False
            await ana.send(json.dumps({"type": "lock"}))
            assert (await receive(ana, "lobby")).get("locked") is True
            await ana.send(json.dumps({"type": "unlock"}))
            assert (await receive(ana, "lobby")).get("locked") is False

    run(test)


def test_names_that_look_alike_get_a_number_and_the_you_marker_is_refused(
    server: ServerProcess,
) -> None:
    async def test() -> None:
        async with connect(server.url) as ana:
            room = (await ask(ana, HOST))["room"]
            greek = "\u0391\u039d\u0391"  # "ANA" in Greek capitals
            async with connect(server.url) as second, connect(server.url) as third:
                await ask(second, join(room, greek))
                await ask(third, join(room, "\uff41\uff4e\uff41"))  # fullwidth "ana"
                lobby = await lobby_where(ana, lambda lobby: None not in names(lobby)[:3])
                assert names(lobby) == ["Ana", f"{greek} 2", "\uff41\uff4e\uff41 3", None]
            async with connect(server.url) as spoof:
                await spoof.send(json.dumps(join(room, "Ana (you)")))
                error = await receive(spoof, "error")
                assert error["code"] == "bad-name"
                assert "(you) marks each player's own seat" in error["message"]

    run(test)


# ------------------------------------------------------------------ one seat, one connection


def test_a_seat_opened_on_a_second_connection_closes_the_first(
    server: ServerProcess, tmp_path: Path
) -> None:
    async def test() -> None:
        async with connect(server.url) as ana:
            room = (await ask(ana, HOST))["room"]
            ben = RemoteTable(server.address, Join(room, "Ben"), Keeper(DataDir(tmp_path / "b")))
            events = Events(ben)
            running = asyncio.create_task(ben.run())
            await lobby_where(ana, lambda lobby: names(lobby)[1] == "Ben")
            assert ben.machine.token is not None
            resume = {"type": "resume", "version": 1, "room": room, "token": ben.machine.token}
            async with connect(server.url) as elsewhere:
                assert (await ask(elsewhere, resume))["seat"] == 1
                await asyncio.wait_for(running, 10)  # the first one stops, for good
                assert events.refusals == [
                    "Your seat was taken up on another connection (the same seat opened "
                    "elsewhere): this one is closed"
                ]
                await asyncio.sleep(0.5)  # Ben stays present: his seat has a connection
                await ana.send(json.dumps({"type": "start"}))
                game = await receive(elsewhere, "game")
                assert game["player"] == 1
                assert game["away"] == []

    run(test)


def test_the_first_connection_of_a_seat_taken_up_elsewhere_is_closed_and_cannot_act(
    server: ServerProcess,
) -> None:
    async def test() -> None:
        async with connect(server.url) as ana, connect(server.url) as first:
            room = (await ask(ana, HOST))["room"]
            token = (await ask(first, join(room, "Ben")))["token"]
            await ana.send(json.dumps({"type": "start"}))
            await receive(first, "game")
            resume = {"type": "resume", "version": 1, "room": room, "token": token}
            async with connect(server.url) as second:
                assert (await ask(second, resume))["seat"] == 1
                codes, closed = await closed_with(first)
                assert (codes, closed) == (["replaced"], 1008)
                assert (await receive(second, "game"))["player"] == 1

    run(test)


def test_a_room_with_too_many_watchers_ends_the_watchers_table(tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "server", options=("--max-watchers", "0"))
    try:
        server = process.start()

        async def test() -> None:
            async with connect(server.url) as ana:
                room = (await ask(ana, HOST))["room"]
                watcher = RemoteTable(server.address, Watch(room),
                                      Keeper(DataDir(tmp_path / "w")))  # fmt: skip
                events = Events(watcher)
                await asyncio.wait_for(watcher.run(), 10)
                assert events.refusals == ["The room has too many watchers: try again later"]

        run(test)
    finally:
        process.stop()


# ------------------------------------------------------------------ a key while disconnected


class Relay:
    """A TCP relay to the server that can be cut (its connections dropped, new ones shut
    at once) and healed: the network of one client going down and coming back."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.up = True
        self.writers: set[asyncio.StreamWriter] = set()
        self.port = 0

    async def start(self) -> Relay:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers |= {writer, up_writer}
        await asyncio.gather(
            self._pump(reader, up_writer), self._pump(up_reader, writer), return_exceptions=True
        )

    @staticmethod
    async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    def cut(self) -> None:
        self.up = False
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()

    def close(self) -> None:
        self.cut()
        self.server.close()


@pytest.fixture
def slow_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reconnect once a second (the relay decides when the network is back)."""
    monkeypatch.setattr(client_module, "RETRY_SECONDS", (1.0,))


async def alone_with_bots(
    server: ServerProcess, tmp_path: Path, away_after: float
) -> tuple[RemoteTable, Events, Relay, asyncio.Task[None]]:
    """Ana hosts a 3-player game with two bots, through a relay, and starts it; once it is
    her turn: her table, what it told, the relay and the task running the table."""
    relay = await Relay(server.port).start()
    opening = Host.of("Ana", Rules(**{**RULES, "players": 3}), "easy", 0, away_after)  # type: ignore[arg-type]
    table = RemoteTable(f"127.0.0.1:{relay.port}", opening, Keeper(DataDir(tmp_path / "ana")))
    events = Events(table)
    running = asyncio.create_task(table.run())
    await until(lambda: table.player == 0)
    table.start()
    await until(lambda: table.started and table.plays_here(table.view.game.current_player))
    return table, events, relay, running


def test_a_key_pressed_while_disconnected_is_sent_once_connected_again(
    server: ServerProcess, tmp_path: Path, slow_retries: None
) -> None:
    async def test() -> None:
        table, events, relay, running = await alone_with_bots(server, tmp_path, away_after=600)
        try:
            ply = len(table.view.game.history())
            relay.cut()
            await until(lambda: not table.connected)
            action = table.legal_actions()[-1]
            table.act(action)
            assert events.news[-1] == (
                "Not connected to the server: your move is sent once connected again, if the "
                "game is still where it was."
            )
            relay.up = True
            await until(lambda: len(table.view.game.history()) > ply, 15)
            move = table.view.game.history()[ply]
            assert (move.player, move.action) == (0, action)
            assert ply not in table.view.covered
            assert not any("not sent" in news for news in events.news)
        finally:
            table.closed = True
            relay.close()
            running.cancel()

    run(test)


def test_a_key_pressed_while_disconnected_is_refused_once_the_game_went_on(
    server: ServerProcess, tmp_path: Path, slow_retries: None
) -> None:
    async def test() -> None:
        table, events, relay, running = await alone_with_bots(server, tmp_path, away_after=0)
        try:
            ply = len(table.view.game.history())
            relay.cut()
            await until(lambda: not table.connected)
            table.act(table.legal_actions()[0])
            await asyncio.sleep(1.5)  # a bot plays for Ana, away, at once
            relay.up = True
            refused = "You were disconnected: that move was not sent (the game went on)."
            await until(lambda: refused in events.news, 15)
            assert ply in table.view.covered  # the bot's move, not hers
        finally:
            table.closed = True
            relay.close()
            running.cancel()

    run(test)
