"""Relayed connections end at both processes, and a process serves from the moment its
port opens (issue 57): two real server processes on one throwaway PostgreSQL.

A relayed connection is counted by each process in its log (``relayed connections: N
passed on to other processes, M served here``, when the numbers change, every 5 s at
most): the tests read those lines, as an operator would.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from tests.online.raw_ws import LEGIT, Server, open_ws, receive, rss_mib, send, source
from tests.online.test_shared_store import room_url, seat, servers

COUNT = re.compile(r"relayed connections: (\d+) passed on to other processes, (\d+) served here")

CYCLES = 2000
"""Reconnections of the loop (fewer if they do not fit in ``LOOP_SECONDS``)."""

LOOP_SECONDS = 45.0

BYTES_A_CYCLE = 1536
"""The most a process may grow a reconnection (the leak was 6.5 KiB), beyond 1 MiB of
noise."""


def relay_count(server: Server) -> tuple[int, int] | None:
    """The connections ``server`` last logged as passed on and served for others."""
    log = server.home / "coloretto.log"
    found = COUNT.findall(log.read_text(errors="replace")) if log.is_file() else []
    return (int(found[-1][0]), int(found[-1][1])) if found else None


async def counted(server: Server, expected: tuple[int, int], seconds: float = 20) -> None:
    """Wait until ``server`` logs ``expected`` (passed on, served) as its relay's count."""
    deadline = time.monotonic() + seconds
    while (now := relay_count(server)) != expected:
        assert time.monotonic() < deadline, f"{server.home.name} logged {now}, not {expected}"
        await asyncio.sleep(0.2)


async def drain(ws: ClientConnection) -> None:
    """Read and drop what ``ws`` is told until it closes (a client that never reads is
    cut)."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def closing(ws: ClientConnection, seconds: float = 10) -> tuple[list[Any], int | None]:
    """What ``ws`` is told until it is closed (within ``seconds``), and the close code."""
    told = []
    async with asyncio.timeout(seconds):
        with contextlib.suppress(ConnectionClosed):
            async for text in ws:
                told.append(text)
    return told, ws.close_code


async def hosted(first: Server) -> tuple[ClientConnection, str, asyncio.Future[None]]:
    """Ana hosts a room on ``first`` and stays (what she is told read and dropped)."""
    ana, welcome = await seat(first, LEGIT, {"type": "host", "name": "Ana",
                              "rules": {"players": 3}, "bot": "easy", "delay": 0,
                              "away_after": 60})  # fmt: skip
    return ana, welcome["room"], asyncio.ensure_future(drain(ana))


def test_a_guest_reconnecting_through_another_process_again_and_again_leaves_nothing_behind(
    tmp_path: Path, pg_url: str
) -> None:
    """Ben, seated in a room the first process plays, takes his seat up through the
    second 2,000 times, each connection replacing the last: each old one is closed for
    him, both processes count one relayed connection (then none once he leaves), and
    their memory stays where it was (the leak was 6.5 KiB a cycle at the first)."""
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> None:
            ana, code, reading = await hosted(first)
            ben, joined = await seat(first, source("player", 3), {"type": "join",
                                     "room": code, "name": "Ben"})  # fmt: skip
            resume = {"type": "resume", "room": code, "token": joined["token"]}

            async def cycle() -> None:
                nonlocal ben
                old = ben
                ben, _ = await seat(second, source("player", 3), resume)
                told, closed_with = await closing(old)
                assert closed_with == 1008, (closed_with, told)

            for _ in range(100):
                await cycle()
            await asyncio.sleep(2)
            before = rss_mib(first.pid), rss_mib(second.pid)
            started = time.monotonic()
            cycles = 0
            while cycles < CYCLES and time.monotonic() - started < LOOP_SECONDS:
                await cycle()
                cycles += 1
            await asyncio.sleep(6)  # settled, and the relay's count logged if it changed
            after = rss_mib(first.pid), rss_mib(second.pid)
            figures = {"cycles": cycles, "before": before, "after": after}
            assert cycles >= 300, figures
            for was, now in zip(before, after, strict=True):
                assert (now - was) * 2**20 < 2**20 + cycles * BYTES_A_CYCLE, figures
            await counted(first, (0, 1))
            await counted(second, (1, 0))
            await ben.close()
            await counted(first, (0, 0))
            await counted(second, (0, 0))
            await ana.close()
            await reading

        asyncio.run(asyncio.wait_for(test(), 150))


def test_a_relayed_connection_the_playing_process_closes_is_closed_and_forgotten_by_both(
    tmp_path: Path, pg_url: str
) -> None:
    """The first process plays the room; Ben and Cy are connected through the second.
    Ben takes his seat up on the first directly (his relayed connection is replaced) and
    Ana removes Cy from the table: each is told why, their connections are closed by the
    second process, and neither process keeps them."""
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> None:
            ana, code, reading = await hosted(first)
            relayed = []
            for number, name in enumerate(("Ben", "Cy"), 3):
                ws, joined = await seat(second, source("player", number), {"type": "join",
                                        "room": code, "name": name})  # fmt: skip
                relayed.append((ws, joined))
            await counted(first, (0, 2))
            await counted(second, (2, 0))
            (ben, ben_joined), (cy, cy_joined) = relayed

            ben_here, _ = await seat(first, source("player", 3), {"type": "resume",
                                     "room": code, "token": ben_joined["token"]})  # fmt: skip
            told, closed_with = await closing(ben)
            assert any('"replaced"' in text for text in told), told
            assert closed_with == 1008, closed_with
            await counted(first, (0, 1))
            await counted(second, (1, 0))

            await send(ana, {"type": "remove", "seat": cy_joined["seat"]})
            told, closed_with = await closing(cy)
            assert any('"removed"' in text for text in told), told
            assert closed_with == 1008, closed_with
            await counted(first, (0, 0))
            await counted(second, (0, 0))
            await ben_here.close()
            await ana.close()
            await reading

        asyncio.run(asyncio.wait_for(test(), 90))


def test_a_relayed_connection_its_client_closes_is_forgotten_by_both(
    tmp_path: Path, pg_url: str
) -> None:
    """Ben (closing properly) and Cy (dropping the connection) leave their relayed
    connections: the first process marks them away (its handlers ended) and neither
    process keeps them. Then Ben comes back through the second process, which is killed
    (``kill -9``): the first marks him away and forgets his connection."""
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> None:
            ana, welcome = await seat(first, LEGIT, {"type": "host", "name": "Ana",
                                      "rules": {"players": 3}, "bot": "easy",
                                      "delay": 0, "away_after": 60})  # fmt: skip
            code = welcome["room"]
            joined = {}
            clients = []
            for number, name in enumerate(("Ben", "Cy"), 3):
                ws, joined[name] = await seat(second, source("player", number), {"type": "join",
                                              "room": code, "name": name})  # fmt: skip
                clients.append(ws)
            await counted(first, (0, 2))
            await counted(second, (2, 0))
            ben, cy = clients
            await ben.close()
            cy.transport.abort()
            await away(ana, {joined["Ben"]["seat"], joined["Cy"]["seat"]})
            await counted(first, (0, 0))
            await counted(second, (0, 0))

            await seat(second, source("player", 3), {"type": "resume", "room": code,
                       "token": joined["Ben"]["token"]})  # fmt: skip
            await away(ana, {joined["Cy"]["seat"]})
            await counted(first, (0, 1))
            second.kill9()
            await away(ana, {joined["Ben"]["seat"], joined["Cy"]["seat"]})
            await counted(first, (0, 0))
            await ana.close()

        asyncio.run(asyncio.wait_for(test(), 90))


async def away(ws: ClientConnection, seats: set[int], seconds: float = 10) -> None:
    """Wait until ``ws`` is told that the people of ``seats`` (and only they) are away."""
    async with asyncio.timeout(seconds):
        while True:
            message = await receive(ws)
            if message["type"] == "presence" and set(message["away"]) == seats:
                return


async def first_answer(server: Server, address: str, request: dict[str, Any]) -> dict[str, Any]:
    """Connect to ``server`` from ``address`` at the first moment its port takes a
    connection (tried without pause, 20 s at most), send ``request``: the first answer."""
    deadline = time.monotonic() + 20
    while True:
        try:
            ws = await open_ws(room_url(server, request.get("room")), address, seconds=5)
            break
        except OSError:
            assert time.monotonic() < deadline, "the port never opened"
            await asyncio.sleep(0.002)
    try:
        await send(ws, {"version": 1, **request})
        try:
            return await receive(ws, seconds=10)
        except TimeoutError:
            return {"type": "nothing in 10 s"}
    finally:
        await ws.close()


def test_a_restarted_process_answers_every_connection_from_the_moment_its_port_opens(
    tmp_path: Path, pg_url: str
) -> None:
    """The second process is killed and started again on its port; clients try to
    connect to it without pause meanwhile (as a proxy sends players back the moment it
    can): Ben taking up his seat in a room the first process plays, watchers of that
    room (all relayed) and a host of a new room there. The first thing each is told is
    its welcome."""
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> list[dict[str, Any]]:
            ana, code, reading = await hosted(first)
            ben, joined = await seat(first, source("player", 3), {"type": "join",
                                     "room": code, "name": "Ben"})  # fmt: skip
            await ben.close()
            second.kill9()
            clients = [
                first_answer(second, source("player", 3),
                             {"type": "resume", "room": code, "token": joined["token"]}),
                *(first_answer(second, source("crowd", n), {"type": "watch", "room": code})
                  for n in range(1, 5)),
                first_answer(second, source("hosts", 1), {"type": "host", "name": "Zoe",
                             "rules": {"players": 3}, "bot": "easy", "delay": 0,
                             "away_after": 60}),
            ]  # fmt: skip
            answers = asyncio.gather(*clients)
            await asyncio.to_thread(second.start)
            told = await answers
            await ana.close()
            await reading
            return told

        told = asyncio.run(asyncio.wait_for(test(), 90))
    assert [answer["type"] for answer in told] == ["welcome"] * len(told), told
