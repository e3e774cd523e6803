"""Bots think only for people (issue 57, "Rooms of bots alone"), on a real server process:
the bots of rooms whose people all left stop once the grace is over (30 s) and go on when
someone is back; one address's rooms of busy bots do not hold up another's bots."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coloretto.online.server.limits import Limits
from coloretto.online.server.room_server import run_server
from coloretto.online.wire.public import parse_move
from coloretto.store.paths import DataDir
from tests.online.conftest import kept_rooms
from tests.online.raw_ws import (
    LEGIT,
    Player,
    Server,
    open_ws,
    pending,
    receive,
    run,
    running,
    send,
    source,
)
from tests.online.test_shared_store import servers

GRACE = Limits().alone_seconds


def bots_room(**more: Any) -> dict[str, Any]:
    """Five seats, the host's played by a bot the moment they are away (``away_after``
    0): the others are normal bots."""
    return {"type": "host", "version": 1, "name": "Hog", "rules": {"players": 5}, "bot": "normal",
            "away_after": 0, **more}  # fmt: skip


async def open_and_leave(url: str, address: str, **more: Any) -> tuple[str, str]:
    """Open a room of bots from ``address``, start it, leave: its code and token."""
    ws = await open_ws(url, address)
    await send(ws, bots_room(**more))
    welcome = await receive(ws, "welcome")
    await send(ws, {"type": "start"})
    await receive(ws, "game")
    await ws.close()
    return str(welcome["room"]), str(welcome["token"])


async def watched(url: str, code: str, seconds: float) -> tuple[int, bool, int]:
    """Watch room ``code`` for ``seconds``: the moves played when the watcher came,
    whether its game is over, and the moves told while it watched."""
    ws = await open_ws(f"{url}/{code}", source("crowd", 2))
    try:
        await send(ws, {"type": "watch", "version": 1, "room": code})
        game = Player(ws, await receive(ws, "game"), 0).model
        told = await pending(ws, seconds)
    finally:
        await ws.close()
    return game.ply, game.state.is_over, sum(message["type"] == "move" for message in told)


@pytest.fixture(params=["sqlite", "postgresql"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Where rooms are opened and where their people come back: one process on SQLite,
    or two processes on one PostgreSQL database."""
    if request.param == "sqlite":
        with running(Server(tmp_path / "server")) as only:
            yield only, only
    else:
        with servers(tmp_path, request.getfixturevalue("pg_url")) as (first, second):
            yield first, second


def test_the_bots_of_a_room_left_alone_stop_after_the_grace_and_go_on_for_a_person(
    two: tuple[Server, Server],
) -> None:
    """One address opens two rooms of normal bots (a move a second), starts them and
    leaves. Once the grace is over (30 s), the rooms' games stand still (a watcher, who is
    no person of the room, sees no move in 4 s), their games not over; when the host comes
    back to one with their token (on PostgreSQL, through the other process), its bots
    play on."""
    first, second = two
    url, back_url = f"{first.url}/rooms", f"{second.url}/rooms"

    async def test() -> None:
        rooms = [await open_and_leave(url, source("hosts", 3), delay=1.0) for _ in range(2)]
        left = time.monotonic()
        await asyncio.sleep(GRACE + 3 - (time.monotonic() - left))
        for code, _ in rooms:
            played, over, told = await watched(back_url, code, 4.0)
            assert played >= 5, played  # the bots played a while
            assert not over
            assert told == 0, f"room {code}: {told} moves played 33 s after all left"
        code, token = rooms[0]
        ws = await open_ws(f"{back_url}/{code}", source("hosts", 3))
        await send(ws, {"type": "resume", "version": 1, "room": code, "token": token})
        back = Player(ws, await receive(ws, "game"), 0)
        before = back.seen
        await back.play(before + 5, seconds=30)
        assert back.seen >= before + 5, (before, back.seen)
        await ws.close()

    run(test, 90)


def test_a_game_left_alone_leaves_the_memory_and_comes_back_for_a_person(
    tmp_path: Path,
) -> None:
    """With a grace of 0.5 s and rooms let go after 1.5 s without anyone: a room of bots
    opened, started and left stops, is let go (kept in the database, marked left alone:
    no process takes it over, it holds no place among the server's rooms), its game where
    it stood; its host back with the token finds it so, and its bots play on."""

    async def test() -> None:
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        limits = Limits(alone_seconds=0.5, idle_seconds=1.5)
        serving = asyncio.create_task(
            run_server("127.0.0.1", 0, DataDir(tmp_path), limits=limits, ready=ready.set_result)
        )
        url = "ws://" + (await ready).split("ws://", 1)[1].split()[0] + "/rooms"
        kept = tmp_path / "rooms.sqlite3"

        def alone() -> list[tuple[str, int]]:
            with sqlite3.connect(kept, timeout=10) as db:
                return [tuple(row) for row in db.execute("SELECT code, alone FROM rooms")]

        try:
            code, token = await open_and_leave(url, source("hosts", 5), delay=0.2)
            await asyncio.sleep(3.0)
            assert alone() == [(code, 1)]
            (room,) = kept_rooms(kept)
            await asyncio.sleep(1.0)
            (still,) = kept_rooms(kept)
            assert still.ply == room.ply > 0, (room.ply, still.ply)
            assert not room.session.game.is_over
            ws = await open_ws(f"{url}/{code}", source("hosts", 5))
            await send(ws, {"type": "resume", "version": 1, "room": code, "token": token})
            back = Player(ws, await receive(ws, "game"), 0)
            assert back.seen == room.ply
            await back.play(room.ply + 5, seconds=30)
            assert back.seen >= room.ply + 5, (room.ply, back.seen)
            assert alone() == [(code, 0)]
            await ws.close()
        finally:
            serving.cancel()

    run(test, 60)


async def play_timed(url: str, seconds: float) -> list[float]:
    """A person plays a 3-player game against two easy bots for ``seconds`` (answering at
    once): each wait from their action sent to their next turn (their move and the two
    bots')."""
    waits: list[float] = []
    ws = await open_ws(url, LEGIT)
    try:
        await send(ws, {"type": "host", "version": 1, "name": "Ana", "rules": {"players": 3},
                        "bot": "easy", "delay": 0, "away_after": 600})  # fmt: skip
        await receive(ws, "welcome")
        await send(ws, {"type": "start"})
        player = Player(ws, await receive(ws, "game"), 0)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not player.model.state.is_over:
            if player.my_turn:
                await asyncio.sleep(0.12)  # within the message budget
                sent = time.monotonic()
                await player.turn()
                await player_told_until_turn(player)
                waits.append(time.monotonic() - sent)
            else:
                await player_told_until_turn(player)
    finally:
        await ws.close()
    return waits


async def player_told_until_turn(player: Player) -> None:
    """Read the moves told until it is the player's turn again (or the game is over)."""
    seen = player.seen
    while not player.model.state.is_over and (player.seen == seen or not player.my_turn):
        message = json.loads(await asyncio.wait_for(player.ws.recv(), 30))
        if message["type"] == "move":
            player.model.add(message["ply"], parse_move(message["move"]))
        assert message["type"] != "error", message


def test_one_address_rooms_of_busy_bots_do_not_hold_up_another_address_bots(
    tmp_path: Path,
) -> None:
    """A person plays against two easy bots; meanwhile another address opens 10 rooms of
    hard bots that play without pause (started and left). The person's wait from their
    action to their next turn stays short (p95 under 1.5 s, where new rooms of hard bots
    each counted as light until they had thought a second, four of their moves handed to
    a worker at once, make it seconds): an address has one move at a time in a worker,
    and its rooms count together, so its new rooms think hard from the start and stay
    off the worker kept for light rooms."""
    with running(Server(tmp_path / "server")) as server:
        url = f"{server.url}/rooms"

        async def test() -> list[float]:
            playing = asyncio.ensure_future(play_timed(url, 20))
            await asyncio.sleep(2)
            for _ in range(10):
                await open_and_leave(url, source("attack", 9), bot="hard", delay=0, games=99)
            return await playing

        waits: list[float] = []

        async def measured() -> None:
            waits.extend(await test())

        run(measured, 90)
    waits.sort()
    p95 = waits[int(0.95 * (len(waits) - 1))]
    assert len(waits) >= 10, waits
    assert p95 < 1.5, f"p95 {p95:.2f} s, waits {[round(w, 2) for w in waits]}"
