"""The game server as a real process on loopback: strangers, hostile frames, a fuzzer, and a
server killed with ``kill -9`` in the middle of a game (its clients reconnect by themselves)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import ssl
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import structs
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidMessage

from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable, SeatRefused
from coloretto.online.server.room_server import Limits, run_server
from coloretto.online.wire.messages import GameMessage
from coloretto.online.wire.protocol import DEFAULT_AWAY_AFTER, Host, convert
from coloretto.online.wire.public import PublicGame
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import (
    ROOT,
    AutoPlayer,
    ServerProcess,
    certificate,
    history_record,
    kept_rooms,
    same_game,
    until,
)

RULES = {"players": 4, "scoring": "brown", "edition": "classic", "variant": "standard"}
HOSTING = Host.of("Ana", Rules(**RULES), "easy", 0, DEFAULT_AWAY_AFTER)  # type: ignore[arg-type]
HOST = HOSTING.to_json()


async def ask(ws: ClientConnection, message: dict[str, Any] | str) -> dict[str, Any]:
    """Send a frame, and read the answer."""
    await ws.send(message if isinstance(message, str) else json.dumps(message))
    return await receive(ws)


async def refusal(ws: ClientConnection, message: dict[str, Any] | str) -> str:
    """Send a frame, and read the error code it gets (other news skipped)."""
    await ws.send(message if isinstance(message, str) else json.dumps(message))
    return str((await receive(ws, "error"))["code"])


async def news(ws: ClientConnection, seconds: float = 0.3) -> list[dict[str, Any]]:
    """The messages that arrive within ``seconds``."""
    found = []
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                found.append(json.loads(await ws.recv()))
    return found


async def receive(ws: ClientConnection, kind: str | None = None) -> dict[str, Any]:
    """The next message (of type ``kind``, skipping others)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if kind is None or message["type"] == kind:
            return message


async def room_of_two(url: str) -> tuple[ClientConnection, ClientConnection, dict[str, Any]]:
    """Ana hosts, Ben joins, Ana starts (two bots): both connections and the game message."""
    ana = await connect(url)
    welcome = await ask(ana, HOST)
    ben = await connect(url)
    joined = await ask(ben, {"type": "join", "version": 1, "room": welcome["room"], "name": "Ben"})
    assert joined["seat"] == 1
    assert "token" in joined
    await ana.send(json.dumps({"type": "start"}))
    game = await receive(ana, "game")
    await receive(ben, "game")
    return ana, ben, {**game, "tokens": [welcome["token"], joined["token"]]}


async def codes_until_closed(ws: ClientConnection) -> list[str]:
    """The error codes the server sends until it closes the connection, then the code it
    closed with."""
    codes = []
    try:
        while True:
            codes.append((await receive(ws))["code"])
    except ConnectionClosed as closed:
        codes.append(str(closed.rcvd and closed.rcvd.code))
    return codes


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 60))


async def settled(url: str, room: str) -> PublicGame:
    """The game once its bots have played up to a person's turn, as a watcher sees it."""
    last = -1
    while True:
        async with connect(url) as watcher:
            await watcher.send(json.dumps({"type": "watch", "version": 1, "room": room}))
            game = await receive(watcher, "game")
        if len(game["moves"]) == last:
            told = convert(game, GameMessage, "game")
            model = PublicGame(told.rules, told.setup)
            for ply, move in enumerate(told.moves):
                model.add(ply, move)
            return model
        last = len(game["moves"])
        await asyncio.sleep(0.3)


def test_a_stranger_or_a_watcher_cannot_act_for_another_seat(server: ServerProcess) -> None:
    async def test() -> None:
        ana, ben, game = await room_of_two(server.url)
        room = game["room"]
        # What a seat is told: the deal without the deck and without its seed.
        assert set(game["setup"]) == {"removed", "starting", "first_player"}
        assert "seed" not in json.dumps(game)
        assert "deck" not in json.dumps(game)
        before = await settled(server.url, room)
        mover = before.state.current_player
        assert mover in (0, 1)  # the bots have played up to a person
        waiting = (ana, ben)[1 - mover]
        refused = await refusal(waiting, {"type": "act", "ply": before.ply, "action": "draw"})
        assert refused == "not-your-turn"
        stale = {"type": "act", "ply": before.ply + 5, "action": "draw"}
        assert await refusal((ana, ben)[mover], stale) == "stale"
        async with connect(server.url) as watcher:
            await ask(watcher, {"type": "watch", "version": 1, "room": room})
            refused = await refusal(watcher, {"type": "act", "ply": before.ply, "action": "draw"})
            assert refused == "watching"
        async with connect(server.url) as stranger:
            wrong = {"type": "resume", "version": 1, "room": room, "token": "x" * 32}
            assert await refusal(stranger, wrong) == "bad-token"
            late = {"type": "join", "version": 1, "room": room, "name": "Eve"}
            assert await refusal(stranger, late) == "started"
            # Still no seat: acting is refused before any room is named.
            refused = await refusal(stranger, {"type": "act", "ply": before.ply, "action": "draw"})
            assert refused == "no-room"
        assert (await settled(server.url, room)).state == before.state
        await ana.close()
        await ben.close()

    run(test)


def test_hostile_frames_get_an_error_or_a_closed_connection(server: ServerProcess) -> None:
    async def test() -> None:
        ana, ben, game = await room_of_two(server.url)
        room = game["room"]
        before = await settled(server.url, room)
        for frame, code in (
            ("{not json", "bad-request"),
            ("[1, 2]", "bad-request"),
            ('{"type": "act", "ply": "3", "action": "draw"}', "bad-request"),
            ('{"type": "act", "ply": 0, "action": "take 9"}', "bad-request"),
            ('{"type": "act", "ply": 0, "action": "draw", "seat": 2}', "bad-request"),
            ('{"type": "dance"}', "bad-request"),
            ('{"type": "host", "version": 99}', "version"),
            ("[" * 500 + "]" * 500, "bad-request"),
        ):
            assert await refusal(ben, frame) == code, frame
        await ben.send(b"\x00binary")
        assert (await receive(ben))["code"] == "bad-request"
        # A frame over the limit closes the connection (1009: too big).
        big = await connect(server.url)
        await big.send(json.dumps({"type": "watch", "version": 1, "room": room, "x": "y" * 5000}))
        with pytest.raises(ConnectionClosed) as closed:
            await receive(big)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009
        # Flooding closes the connection (1008: policy), after an error frame.
        flood = await connect(server.url)
        for _ in range(200):
            await flood.send('{"type": "dance"}')
        codes = await codes_until_closed(flood)
        assert codes[-2:] == ["flooding", "1008"]
        # Guessing room codes: a few wrong tries, then the address must wait.
        guesser = await connect(server.url)
        for number in range(40):
            code = f"ZZZZ{number % 10}{number // 10 + 2}"
            await guesser.send(json.dumps({"type": "watch", "version": 1, "room": code}))
        answers = await codes_until_closed(guesser)
        assert answers[0] == "no-room"
        assert answers[-2:] == ["too-many-tries", "1008"]
        # Nothing of this touched the game (this address must wait before it looks up a
        # room again, but the players' connections are seated): it goes on for them.
        moved = [m for m in await news(ana) if m["type"] == "move" and m["ply"] >= before.ply]
        assert moved == []
        mover = (ana, ben)[before.state.current_player]
        await mover.send(json.dumps({"type": "act", "ply": before.ply, "action": "draw"}))
        while (await receive(mover, "move"))["ply"] != before.ply:
            pass  # the bots' moves at the start, then this one
        await ana.close()
        await ben.close()

    run(test)


KNOWN = ["host", "join", "resume", "watch", "start", "act"]
values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
frames = st.one_of(
    st.text(max_size=200),
    st.fixed_dictionaries(
        {"type": st.sampled_from(KNOWN) | st.text(max_size=8)},
        optional={
            "version": st.sampled_from([1, 2, "1"]) | values,
            "room": st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ23456789", min_size=5, max_size=7),
            "name": st.text(max_size=40),
            "token": st.text(max_size=70),
            "ply": st.integers(-5, 2000) | values,
            "action": st.sampled_from(["draw", "take 1", "place 2", "take 0", "fly"]) | values,
            "rules": st.fixed_dictionaries({}, optional={"players": values | st.integers(1, 6)}),
            "bot": st.sampled_from(["easy", "hard", "search:iterations=999999"]) | values,
            "delay": values,
        },
    ).map(json.dumps),
)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(frames, min_size=1, max_size=6))
def fuzz_once(url: str, batch: list[str]) -> None:
    codes: list[int | None] = []

    async def test() -> None:
        async with connect(url) as ws:
            for frame in batch:
                await ws.send(frame)
                try:
                    answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
                except ConnectionClosed as closed:
                    codes.append(None if closed.rcvd is None else closed.rcvd.code)
                    break
                assert answer["type"] in {"error", "welcome", "lobby", "game", "presence"}
        assert set(codes) <= {1008, 1009}

    asyncio.run(test())


def test_the_protocol_fuzzed_against_the_running_server(server: ServerProcess) -> None:
    async def setup() -> tuple[str, list[str], int]:
        ana, ben, game = await room_of_two(server.url)
        await ana.close()
        await ben.close()
        return game["room"], game["tokens"], (await settled(server.url, game["room"])).ply

    room, tokens, before = asyncio.run(setup())
    fuzz_once(server.url)
    assert server.process is not None
    assert server.process.poll() is None, "the server died"

    async def after() -> None:
        # The room is as it was, and its people can still take their seats back.
        assert (await settled(server.url, room)).ply == before
        async with connect(server.url) as ana:
            welcome = await ask(
                ana, {"type": "resume", "version": 1, "room": room, "token": tokens[0]}
            )
            assert welcome["type"] == "welcome"
            assert welcome["seat"] == 0

    asyncio.run(after())


# ------------------------------------------------------------------ kill -9


def test_a_server_killed_mid_game_resumes_and_its_clients_reconnect(
    server: ServerProcess, tmp_path: Path
) -> None:
    """Ana's client here, Ben's in a process of his own: both reconnect by themselves."""
    homes = [tmp_path / "ana", tmp_path / "ben"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(homes[1])}
    ben: subprocess.Popen[str] | None = None

    async def test() -> None:
        nonlocal ben
        host = structs.replace(HOSTING, away_after=60)
        ana = RemoteTable(server.address, host, Keeper(DataDir(homes[0])))
        player = AutoPlayer(ana, 1)
        running = asyncio.create_task(ana.run())
        await until(lambda: ana.room is not None)
        ben = subprocess.Popen(
            [sys.executable, "-m", "tests.online.net_client", server.address, str(ana.room),
             "Ben", "2"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        await until(lambda: any(
            room.code == ana.room and "Ben" in room.people for room in server.rooms()
        ))  # fmt: skip
        ana.start()
        await until(lambda: ana.started and len(ana.view.game.history()) >= 30)
        server.kill9()
        await until(lambda: not ana.connected)
        server.start()
        await until(lambda: ana.machine.finished, 45)
        out, _ = await asyncio.to_thread(ben.communicate, timeout=45)
        for news in (player.news, out.splitlines()):
            assert any("reconnecting" in line for line in news)
            assert "Connected again." in news
        assert "finished" in out
        ana.suspend()
        await running

    try:
        asyncio.run(test())
    finally:
        if ben is not None and ben.poll() is None:
            ben.kill()
            ben.wait()
    on_server = server.finished_game()
    for home in homes:
        assert same_game(history_record(home), on_server)


def test_a_room_archived_as_it_is_read_reads_whole(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server archives a finished room the moment its last person leaves: its whole
    record written, its actions deleted. Read just then, between its snapshot and its
    actions, the room is still its whole game, not its snapshot alone (the game at its
    start: under load, the test above once read it so)."""
    path = server.home / "rooms.sqlite3"
    snapshot_read, archived = threading.Event(), threading.Event()
    connect_to = sqlite3.connect

    class Slow:
        """The reader's connection, which waits before the actions until the room is
        archived."""

        def __init__(self, *args: Any, **options: Any) -> None:
            self.db = connect_to(*args, **options)

        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if "room_actions" in sql and not snapshot_read.is_set():
                snapshot_read.set()
                assert archived.wait(30)
            return self.db.execute(sql, *args)

        def close(self) -> None:
            self.db.close()

    def actions_kept() -> int:
        with contextlib.closing(connect_to(path)) as db:
            return int(db.execute("SELECT count(*) FROM room_actions").fetchone()[0])

    async def test() -> dict[str, Any]:
        ana = RemoteTable(server.address, HOSTING, Keeper(DataDir(tmp_path / "ana")))
        AutoPlayer(ana, 1)
        running = asyncio.create_task(ana.run())
        await until(lambda: ana.room is not None)
        ana.start()
        await until(lambda: ana.machine.finished, 45)
        assert actions_kept() > 0  # the match is over, the room not yet archived
        monkeypatch.setattr(sqlite3, "connect", Slow)
        reading = asyncio.create_task(asyncio.to_thread(server.finished_game))
        assert await asyncio.to_thread(snapshot_read.wait, 30)
        ana.suspend()
        await running
        await until(lambda: actions_kept() == 0)
        archived.set()
        return await reading

    on_server = asyncio.run(asyncio.wait_for(test(), 90))
    assert same_game(history_record(tmp_path / "ana"), on_server)


def test_the_server_speaks_tls_with_a_certificate(tmp_path: Path) -> None:
    cert, key = certificate(tmp_path)
    server = ServerProcess(tmp_path / "server", options=("--certfile", str(cert), "--keyfile",
                                                         str(key)))  # fmt: skip
    try:
        server.start()
        assert server.scheme == "wss"

        async def test() -> None:
            told: list[object] = []
            stranger = RemoteTable(server.url, HOSTING, Keeper(DataDir(tmp_path / "zed")),
                                   tls=ssl.create_default_context())  # fmt: skip
            stranger.subscribe(told.append)
            await stranger.run()  # refused at once: no authority here signed the certificate
            assert told == [SeatRefused(
                f"the certificate of the server at {server.url} is not trusted here "
                "(self-signed certificate): --cafile names the authority that signed it"
            )]  # fmt: skip
            tls = ssl.create_default_context(cafile=cert)
            ana = RemoteTable(server.url, HOSTING, Keeper(DataDir(tmp_path / "ana")), tls=tls)
            running = asyncio.create_task(ana.run())
            await until(lambda: ana.player == 0)
            ana.suspend()
            await running
            with pytest.raises(InvalidMessage):  # plain WebSocket on a TLS port
                await connect(f"ws://{server.address}")

        run(test)
    finally:
        server.stop()


def test_rooms_nobody_is_in_are_let_go(tmp_path: Path) -> None:
    """A room whose game never started, left empty, is removed after a while."""

    async def test() -> None:
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        limits = Limits(lobby_seconds=0.3)
        serving = asyncio.create_task(
            run_server("127.0.0.1", 0, DataDir(tmp_path), limits=limits, ready=ready.set_result)
        )
        url = "ws://" + (await ready).split("ws://", 1)[1].split()[0]
        async with connect(url) as ana:
            room = (await ask(ana, HOST))["room"]
        kept = tmp_path / "rooms.sqlite3"
        assert [r.code for r in kept_rooms(kept)] == [room]
        await asyncio.sleep(0.8)
        assert kept_rooms(kept) == []
        async with connect(url) as ben:
            join = {"type": "join", "version": 1, "room": room, "name": "Ben"}
            assert await refusal(ben, join) == "no-room"
        serving.cancel()

    run(test)


def test_a_server_nobody_runs_is_told_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a free port, then nobody listening on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    told: list[object] = []
    table = RemoteTable(f"ws://127.0.0.1:{port}", HOSTING, Keeper(DataDir(tmp_path)))
    table.subscribe(told.append)
    run(table.run)
    assert told == [SeatRefused(
        f"cannot reach the server at ws://127.0.0.1:{port} (Connection refused): is coloretto "
        "server running there?"
    )]  # fmt: skip
