"""Many connections against one server (issue 47): caps on connections per address and in
all, refused before the server's file descriptors run out; a lobby whose watchers cost
O(1) messages each; rooms waiting for their game capped per address."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.online.raw_ws import (
    LEGIT,
    PER_ADDRESS,
    Player,
    Server,
    abort,
    host_here,
    host_request,
    open_ws,
    pending,
    receive,
    run,
    running,
    send,
    source,
)

REFUSALS = {"HTTP 429", "HTTP 503", "InvalidMessage"}
"""What a connection past a cap may get: HTTP 429 (past the address's cap), 503 (past the
total), or, far past a cap, the TCP connection cut before any answer (``InvalidMessage``):
answering costs the server more than cutting."""

FEW = 4
"""The most lobby messages a connection may get while a crowd comes to watch its lobby."""


async def attempt(
    url: str, address: str, opening: dict[str, Any]
) -> tuple[str, ClientConnection | None]:
    """One connection from ``address`` sending ``opening``: what came of it (``welcome``,
    an error's code, ``HTTP 429``, ``TimeoutError``...) and the connection if it is open."""
    try:
        ws = await open_ws(url, address, seconds=8)
    except InvalidStatus as refused:
        return f"HTTP {refused.response.status_code}", None
    except (OSError, TimeoutError, InvalidHandshake) as error:
        return type(error).__name__, None
    try:
        await send(ws, opening)
        answer = await receive(ws, seconds=8)
    except (ConnectionClosed, TimeoutError) as error:
        abort([ws])
        return type(error).__name__, None
    if answer["type"] == "error":
        abort([ws])
        return str(answer["code"]), None
    return str(answer["type"]), ws


def test_a_flood_of_connections_is_refused_before_descriptors_run_out(tmp_path: Path) -> None:
    """Finding 4, with ``ulimit -n 256``: 400 watchers from one address. Beyond the
    address's cap (20) the handshake is refused with HTTP 429 (503 beyond the total cap,
    lowered to 256 - 64 by the server itself; far past a cap it may be cut unanswered) and
    nothing waits for a descriptor; the server prints no traceback; a player
    from another address plays on (every move told) and another hosts a room; after a
    ``kill -9`` the room comes back at the last move its player saw."""
    server = Server(tmp_path / "server", open_files=256)
    problems: list[str] = []
    with running(server):

        async def test() -> None:
            ana = await open_ws(server.url, LEGIT)
            await send(ana, host_request())
            welcome = await receive(ana, "welcome")
            room, token = welcome["room"], welcome["token"]
            await send(ana, {"type": "start"})
            player = Player(ana, await receive(ana, "game"), 0)
            await player.play(4)

            watch = {"type": "watch", "version": 1, "room": room}
            attacker = source("attack", 1)
            outcomes = await asyncio.gather(
                *(attempt(server.url, attacker, watch) for _ in range(400))
            )
            held = [ws for _, ws in outcomes if ws is not None]
            said = Counter(outcome for outcome, _ in outcomes)
            try:
                if len(held) > PER_ADDRESS:
                    problems.append(f"{len(held)} connections held from one address: {said}")
                if "HTTP 429" not in said or set(said) - {*REFUSALS, "welcome"}:
                    problems.append(f"not refused with HTTP 429 (or 503, or cut): {said}")
                try:
                    await player.play(player.seen + 10)
                except (AssertionError, TimeoutError, ConnectionClosed) as error:
                    problems.append(f"the player could not play on: {error!r}")
                try:
                    await host_here(server.url, source("player", 3))
                except (OSError, TimeoutError, InvalidHandshake, AssertionError) as error:
                    problems.append(f"a newcomer could not host a room: {error!r}")
                await asyncio.sleep(0.3)  # the player's turn: nothing moves, nothing is saved
                server.kill9()
            finally:
                abort(held)
                abort([ana])
            if "Traceback" in server.said():
                count = server.said().count("Traceback")
                last = server.said()[-700:]
                problems.append(f"the server printed {count} tracebacks, the last:\n{last}")
            server.start()
            back = await open_ws(server.url, LEGIT)
            await send(back, {"type": "resume", "version": 1, "room": room, "token": token})
            game = await receive(back, "game")
            if (saved := len(game["moves"])) != player.seen:
                problems.append(
                    f"after kill -9 the room came back at move {saved}; "
                    f"its player had seen {player.seen}"
                )
            await back.close()

        run(test)
    assert not problems, "\n".join(problems)


def test_watchers_joining_a_lobby_cost_each_connection_few_messages(tmp_path: Path) -> None:
    """Finding 5: 25 watchers come to a lobby one after the other. Each gets its
    ``welcome`` and one ``lobby``; those already there get at most a few ``lobby``
    messages in all (a watcher changes no seat; lobby news is coalesced), not one for each
    newcomer."""
    with running(Server(tmp_path / "server")) as server:

        async def test() -> None:
            ana = await open_ws(server.url, LEGIT)
            await send(ana, host_request(rules={"players": 5}))
            room = (await receive(ana, "welcome"))["room"]
            first = [await receive(ana, "lobby")]
            watchers: list[ClientConnection] = []
            try:
                for number in range(25):
                    ws = await open_ws(server.url, source("crowd", 1 + number % 5))
                    watchers.append(ws)
                    await send(ws, {"type": "watch", "version": 1, "room": room})
                    opening = [await receive(ws), await receive(ws)]
                    assert [m["type"] for m in opening] == ["welcome", "lobby"], opening
                    first.append(opening[1])
                await asyncio.sleep(1)  # time for coalesced news to come
                later = await asyncio.gather(*(pending(ws) for ws in [ana, *watchers]))
            finally:
                abort([ana, *watchers])
            lobbies = [1 + sum(m["type"] == "lobby" for m in news) for news in later]
            assert max(lobbies) <= FEW, (
                f"lobby messages received by the host and each watcher in order: {lobbies} "
                f"(at most {FEW} each)"
            )

        run(test)


def test_a_room_has_a_bounded_number_of_watchers(tmp_path: Path) -> None:
    """A watcher beyond the room's cap (30 by default) gets the error ``crowded`` and its
    connection is closed (code 1008)."""
    with running(Server(tmp_path / "server")) as server:

        async def test() -> None:
            ana = await open_ws(server.url, LEGIT)
            await send(ana, host_request())
            room = (await receive(ana, "welcome"))["room"]
            watch = {"type": "watch", "version": 1, "room": room}
            watchers: list[ClientConnection] = []
            try:
                for number in range(30):
                    outcome, ws = await attempt(server.url, source("crowd", 1 + number % 2), watch)
                    assert ws is not None, f"watcher {number + 1} of 30: {outcome}"
                    watchers.append(ws)
                late = await open_ws(server.url, source("crowd", 3))
                watchers.append(late)
                await send(late, watch)
                told = await pending(late, 3)
                codes = [m.get("code", m["type"]) for m in told]
                assert "crowded" in codes, f"the 31st watcher was told {codes}, not crowded"
                await asyncio.sleep(0.5)
                assert late.close_code == 1008, (
                    f"the 31st watcher's connection closed with {late.close_code}, not 1008"
                )
            finally:
                abort([ana, *watchers])

        run(test)


async def host_rooms(url: str, address: str, tries: int) -> list[tuple[str, Any]]:
    """``tries`` rooms hosted from ``address`` one after the other, each connection kept
    open while it has its room: what each try got, with its open connection."""
    return [await attempt(url, address, host_request()) for _ in range(tries)]


def test_an_address_keeps_at_most_three_rooms_waiting(tmp_path: Path) -> None:
    """An address may host at most 3 rooms whose game has not started: its 4th ``host``
    gets the error ``too-many-rooms``."""
    with running(Server(tmp_path / "server")) as server:

        async def test() -> None:
            tries = await asyncio.gather(
                *(host_rooms(server.url, source("hosts", n), 6) for n in range(1, 6))
            )
            try:
                got = [[outcome for outcome, _ in row] for row in tries]
                wanted = ["welcome"] * 3 + ["too-many-rooms"] * 3
                assert all(row == wanted for row in got), (
                    f"each address's 6 tries to host got {got}, not {wanted}"
                )
            finally:
                abort([ws for row in tries for _, ws in row if ws is not None])

        run(test)


def test_many_addresses_cannot_fill_the_server(tmp_path: Path) -> None:
    """Finding 6, with ``--max-rooms 200``: 60 addresses each try to host 6 rooms (their
    connections kept open). At most 3 succeed from each address, so a legitimate client
    from another address can still host."""
    server = Server(tmp_path / "server", options=("--max-rooms", "200"))
    with running(server):

        async def test() -> None:
            limit = asyncio.Semaphore(20)

            async def one(number: int) -> list[tuple[str, Any]]:
                async with limit:
                    return await host_rooms(server.url, source("hosts", number), 6)

            tries = await asyncio.gather(*(one(n) for n in range(1, 61)))
            try:
                hosted = [sum(outcome == "welcome" for outcome, _ in row) for row in tries]
                assert max(hosted) <= 3, f"rooms hosted by each of 60 addresses: {hosted}"
                await host_here(server.url, LEGIT)
            finally:
                abort([ws for row in tries for _, ws in row if ws is not None])

        run(test)


def test_connections_past_the_total_cap_are_refused_with_503(tmp_path: Path) -> None:
    """With ``--max-connections 5``, a sixth connection (from a sixth address: no address
    is past its own cap) is refused with HTTP 503 and a plain-text reason."""
    with running(Server(tmp_path / "server", options=("--max-connections", "5"))) as server:

        async def test() -> None:
            held = [await open_ws(server.url, source("crowd", n)) for n in range(1, 6)]
            status, body = 101, ""
            try:
                held.append(await open_ws(server.url, source("crowd", 6)))
            except InvalidStatus as refused:
                status = refused.response.status_code
                body = (refused.response.body or b"").decode(errors="replace")
            finally:
                abort(held)
            assert status == 503, f"a sixth connection past the cap of 5 got {status} {body!r}"
            assert body.strip(), "a 503 with no reason"

        run(test, 30)
