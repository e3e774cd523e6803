"""Connections that take the server's memory (issue 47): one that floods pings and never
reads, one that never reads what the server sends. Both are closed in a few seconds,
whatever they send, and the server's memory stays bounded."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from tests.online.raw_ws import (
    LEGIT,
    PING,
    Server,
    frame,
    handshake,
    held_by,
    host_request,
    open_ws,
    queued,
    receive,
    rss_mib,
    run,
    running,
    send,
    source,
    text,
)

GROWTH_MIB = 64
"""The most a ping flood may grow the server's resident memory by (the issue's target)."""


def test_a_ping_flood_is_closed_and_does_not_grow_the_server(tmp_path: Path) -> None:
    """Every ping costs a token of the connection's message budget (10 a second, 30 at
    once): a connection that sends pings and never reads is closed in seconds (code 1008,
    or the TCP connection simply ends), and the server's memory does not follow it."""
    with running(Server(tmp_path / "server")) as server:
        flooder = handshake(server.port, source("flood", 1))
        flooder.sendall(text(host_request()))  # a room of its own: not an idle connection
        time.sleep(0.3)
        before = rss_mib(server.pid)
        pings = b"".join(frame(PING, os.urandom(125)) for _ in range(200))
        flooder.settimeout(0.5)
        started = time.monotonic()
        closed_after = float("inf")
        most = before
        sent = 0
        looked = 0.0
        try:
            while (elapsed := time.monotonic() - started) < 15:
                try:
                    flooder.sendall(pings)
                    sent += 200
                except TimeoutError:
                    pass  # the server reads no more for now: is it still holding on?
                except OSError:
                    closed_after = elapsed
                    break
                if elapsed - looked >= 0.2:
                    looked = elapsed
                    most = max(most, rss_mib(server.pid))
                    if not held_by(server.pid, flooder):
                        closed_after = elapsed
                        break
                    if most - before > GROWTH_MIB:
                        break  # the verdict is clear: no need to feed it more
            time.sleep(0.5)
            most = max(most, rss_mib(server.pid))
        finally:
            flooder.close()
        seen = (
            f"{sent} pings sent in {time.monotonic() - started:.1f} s without reading; the "
            f"server grew from {before:.0f} to {most:.0f} MiB"
        )
        assert server.alive(), f"the server died under the flood ({seen}):\n{server.said()[-2000:]}"
        assert closed_after < 5, f"the flooder was not closed within 5 s ({seen})"
        assert most - before < GROWTH_MIB, f"the server grew {GROWTH_MIB} MiB or more ({seen})"
        deadline = time.monotonic() + 3
        while "flooding" not in server.audit() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "flooding" in server.audit(), f"no flooding in the audit log: {server.audit()!r}"


def test_a_connection_that_never_reads_is_closed(tmp_path: Path) -> None:
    """A watcher of a room where bots play fast (a match of 99 games, no delay, the host
    gone so the server deals every next game at once) that never reads: its buffers fill
    in about 2 s, and the server closes it within 10 s of that (20 s allowed here).

    The watcher's socket has a tiny receive buffer and small segments, so that the
    server's kernel buffer for it stays some 60 KiB (loopback's 64 KiB segments would let
    it grow to 4 MiB, which bots fill in minutes)."""
    with running(Server(tmp_path / "server")) as server:

        async def test() -> None:
            ana = await open_ws(server.url, LEGIT)
            await send(ana, host_request(rules={"players": 5}, games=99, away_after=0))
            room = (await receive(ana, "welcome"))["room"]
            await send(ana, {"type": "start"})
            await receive(ana, "game")
            slow = handshake(server.port, source("slow", 1), rcvbuf=1024)
            try:
                slow.sendall(text({"type": "watch", "version": 1, "room": room}))
                await asyncio.sleep(0.3)
                await ana.close()  # nobody else here: the bots play the whole match
                started = time.monotonic()
                while time.monotonic() - started < 20 and held_by(server.pid, slow):
                    await asyncio.sleep(0.2)
                waiting, unread = queued(slow)
                assert not held_by(server.pid, slow), (
                    f"a watcher that never reads is still connected after "
                    f"{time.monotonic() - started:.0f} s, with {unread} bytes it has not read "
                    f"and {waiting} more waiting in the server's kernel buffer for it"
                )
            finally:
                slow.close()

        run(test, 40)
        assert server.alive()
