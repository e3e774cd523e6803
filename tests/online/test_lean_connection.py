"""The server's own WebSocket connections (``online.server.connection``) on real sockets
on loopback: what websockets' own server did for them, they do themselves (messages in
fragments, text that is no UTF-8, keepalive pings, a handshake that never ends, going
away when the server stops)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import struct
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from coloretto.online.server import connection
from coloretto.online.server.audit import Audit
from coloretto.online.server.connection import GuardedConnection
from coloretto.online.server.gatekeeper import Gatekeeper
from coloretto.online.server.limits import Limits

TEXT, CONT, CLOSE, PING = 0x1, 0x0, 0x8, 0x9


async def echo(ws: GuardedConnection) -> None:
    """Send back every message, until the client closes."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            message = await ws.recv()
            await ws.send(message if isinstance(message, str) else message.decode())


@contextlib.asynccontextmanager
async def listening(tmp_path: Path) -> AsyncIterator[tuple[Gatekeeper, int]]:
    """A gatekeeper serving ``echo`` on a free port of 127.0.0.1."""
    gate = Gatekeeper(Limits(), Audit(tmp_path / "audit.log"), logging.getLogger("test"))
    gate.start()
    server = await gate.listen(echo, "127.0.0.1", 0, None)
    try:
        yield gate, server.sockets[0].getsockname()[1]
    finally:
        await gate.close(server)
        gate.stop()


def client_frame(opcode: int, payload: bytes, *, fin: bool = True) -> bytes:
    """A masked client frame (short payloads only)."""
    assert len(payload) < 126
    mask = os.urandom(4)
    body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + body


async def opened(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A raw connection with its upgrade done."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = await reader.readuntil(b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 101 "), answer
    return reader, writer


async def server_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The next frame the server sends (short payloads only): its opcode and payload."""
    head = await reader.readexactly(2)
    size = head[1] & 0x7F
    assert size < 126
    return head[0] & 0x0F, await reader.readexactly(size)


def run(test: Coroutine[object, object, None]) -> None:
    asyncio.run(asyncio.wait_for(test, 30))


def test_a_message_in_fragments_is_read_whole(tmp_path: Path) -> None:
    async def test() -> None:
        async with listening(tmp_path) as (_, port):
            reader, writer = await opened(port)
            writer.write(client_frame(TEXT, b"hel", fin=False) + client_frame(CONT, b"lo"))
            assert await server_frame(reader) == (TEXT, b"hello")
            writer.close()

    run(test())


def test_text_that_is_no_utf8_closes_the_connection_with_1007(tmp_path: Path) -> None:
    async def test() -> None:
        async with listening(tmp_path) as (_, port):
            reader, writer = await opened(port)
            writer.write(client_frame(TEXT, b"\xff\xfe"))
            opcode, payload = await server_frame(reader)
            assert opcode == CLOSE
            assert struct.unpack("!H", payload[:2])[0] == 1007
            assert await reader.read() == b""  # the server closes its end
            writer.close()

    run(test())


def test_a_client_that_answers_no_ping_is_closed_with_1011(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heard from nothing for ``PING_SECONDS``: pinged; no answer for as long again:
    closed (the sweep runs each second)."""
    monkeypatch.setattr(connection, "PING_SECONDS", 0.5)

    async def test() -> None:
        async with listening(tmp_path) as (gate, port):
            reader, writer = await opened(port)
            assert await server_frame(reader) == (PING, b"")
            opcode, payload = await server_frame(reader)
            assert opcode == CLOSE
            assert payload == struct.pack("!H", 1011) + b"keepalive ping timeout"
            assert await reader.read() == b""
            writer.close()
            await asyncio.sleep(0.1)
            assert not gate.open

    run(test())


def test_a_client_that_answers_its_pings_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection, "PING_SECONDS", 0.5)

    async def test() -> None:
        async with listening(tmp_path) as (gate, port), connect(f"ws://127.0.0.1:{port}") as ws:
            await asyncio.sleep(3.5)  # pinged at least twice, each answered by the library
            await ws.send("still here")
            assert await ws.recv() == "still here"
            assert len(gate.open) == 1

    run(test())


def test_a_handshake_that_never_ends_is_cut_and_uncounted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(connection, "OPEN_SECONDS", 0.5)

    async def test() -> None:
        async with listening(tmp_path) as (gate, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
            await asyncio.sleep(0.1)
            assert gate.book.total == 1
            with contextlib.suppress(ConnectionError):
                assert await asyncio.wait_for(reader.read(), 5) == b""
            writer.close()
            await asyncio.sleep(0.1)
            assert gate.book.total == 0
            assert not gate.open

    run(test())


def test_the_server_stopping_closes_its_connections_with_1001(tmp_path: Path) -> None:
    async def test() -> None:
        gate = Gatekeeper(Limits(), Audit(tmp_path / "audit.log"), logging.getLogger("test"))
        gate.start()
        server = await gate.listen(echo, "127.0.0.1", 0, None)
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as ws:
            await ws.send("hello")
            assert await ws.recv() == "hello"
            await gate.close(server)  # returns once every handler has
            assert not gate.served
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            assert ws.close_code == 1001
        gate.stop()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()

    run(test())
