"""Handshakes HTTP calls malformed, against a real server: a request without exactly one
``Host`` is answered 400; no malformed handshake of any kind (odd bytes, long and many
headers, duplicates, truncated requests, an account claimed on a connection with two
``Host`` headers) writes a traceback or more than a few lines to ``coloretto.log``; and
``coloretto.log`` is rotated at 1 MiB with five old files kept, however much a client
makes the server write."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import ssl
from pathlib import Path

import pytest

from coloretto.store.incidents import BACKUPS, MAX_BYTES
from tests.online.conftest import certificate
from tests.online.raw_ws import Server, frame, host_request, open_ws, receive, running, send
from tests.online.raw_ws import text as text_frame

CLOSE = 0x8


def upgrade(port: int, *, host: list[bytes] | None = None, extra: bytes = b"",
            path: bytes = b"/rooms", method: bytes = b"GET",
            version: bytes = b"HTTP/1.1") -> bytes:  # fmt: skip
    """A WebSocket upgrade request with the ``Host`` headers ``host`` (by default the
    server's own) and the header lines ``extra``."""
    key = base64.b64encode(os.urandom(16))
    hosts = [b"127.0.0.1:%d" % port] if host is None else host
    return (
        method + b" " + path + b" " + version + b"\r\n"
        + b"".join(b"Host: " + value + b"\r\n" for value in hosts)
        + b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
        + b"\r\nSec-WebSocket-Version: 13\r\n" + extra + b"\r\n"
    )  # fmt: skip


def exchange(port: int, source: str, request: bytes, then: bytes = b"", *,
             finish: bool = True, tls: ssl.SSLContext | None = None,
             seconds: float = 5.0) -> bytes:  # fmt: skip
    """Send ``request`` from ``source`` and read the server's answer; if it upgrades the
    connection, send ``then`` (frames), read what comes until the server closes or says
    nothing for 0.3 s, and close. What the server sent (``finish`` false: the client
    hangs up once the request is sent; ``tls``: over TLS)."""
    with contextlib.ExitStack() as held:
        sock = held.enter_context(socket.socket())
        sock.settimeout(seconds)
        sock.bind((source, 0))
        sock.connect(("127.0.0.1", port))
        if tls is not None:
            sock = held.enter_context(tls.wrap_socket(sock, server_hostname="127.0.0.1"))
        sock.sendall(request)
        if not finish:
            return b""
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionError):
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(65536)
                if not chunk:
                    return answer
                answer += chunk
            if answer.startswith(b"HTTP/1.1 101 "):
                sock.sendall(then)
                sock.settimeout(0.3)
                with contextlib.suppress(TimeoutError):
                    while chunk := sock.recv(65536):
                        answer += chunk
                sock.settimeout(seconds)
                sock.sendall(frame(CLOSE, b"\x03\xe8"))
            while chunk := sock.recv(65536):
                answer += chunk
        return answer


@pytest.mark.parametrize(
    ("hosts", "reason"),
    [
        ([b"127.0.0.1:PORT", b"127.0.0.1:PORT"], b"more than one Host header"),
        ([b"127.0.0.1:PORT", b"evil.example.org"], b"more than one Host header"),
        ([], b"no Host header"),
        ([b""], b"a Host header that names no host"),
        ([b"games example org"], b"a Host header that names no host"),
        ([b"g\xe4mes.example.org:7787"], b"a Host header that names no host"),
    ],
)
def test_a_handshake_without_exactly_one_host_gets_400(
    tmp_path: Path, hosts: list[bytes], reason: bytes
) -> None:
    """RFC 9112: "A server MUST respond with a 400 (Bad Request) status code to any
    HTTP/1.1 request message that lacks a Host header field and to any that contains more
    than one Host header field line or a Host header field with an invalid field value."
    """
    with running(Server(tmp_path / "home")) as server:
        port = b"%d" % server.port
        request = upgrade(server.port, host=[host.replace(b"PORT", port) for host in hosts])
        answer = exchange(server.port, "127.0.0.1", request)
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
        assert answer.endswith(reason + b"\n"), answer
        assert "bad-request 127.0.0.1: " + reason.decode() in server.audit()


def malformed(port: int) -> list[tuple[bytes, bytes, bool]]:
    """Handshakes of every kind a stranger may send: (request, frames after an upgrade,
    whether to wait for the server's answer)."""
    claim = {"name": "Ana", "signature": base64.urlsafe_b64encode(bytes(64)).decode()[:86]}
    two_hosts = [b"127.0.0.1:%d" % port, b"127.0.0.1:%d" % port]
    challenge = text_frame({"type": "challenge"})
    with_account = text_frame(host_request(account=claim))
    return [
        (upgrade(port, host=two_hosts), challenge + with_account, True),
        (upgrade(port, host=[b"127.0.0.1:%d" % port, b"other:1"]), with_account, True),
        (upgrade(port, host=[]), with_account, True),
        (upgrade(port, host=[b"\xff\xfe\x80"]), with_account, True),
        (upgrade(port, host=[b"a\tb"]), b"", True),
        (upgrade(port, extra=b"X-Odd: \x00\x01\x02\r\n"), b"", True),
        (upgrade(port, extra=b"X-Odd: \xc3\x28\xff\r\n"), challenge + with_account, True),
        (upgrade(port, extra=b"Bad Name: x\r\n"), b"", True),
        (upgrade(port, extra=b"X-Long: " + b"a" * 9000 + b"\r\n"), b"", True),
        (upgrade(port, extra=b"".join(b"X-%d: x\r\n" % n for n in range(200))), b"", True),
        (upgrade(port, path=b"/rooms/" + b"A" * 9000), b"", True),
        (upgrade(port, path=b"/rooms/\xff\xfe%00"), b"", True),
        (upgrade(port, path=b"/rooms/K7PQ2M?x=%ff"), b"", True),
        (upgrade(port, extra=b"Sec-WebSocket-Key: AAAA\r\n"), b"", True),
        (upgrade(port, extra=b"Sec-WebSocket-Version: 99\r\n"), b"", True),
        (upgrade(port, extra=b"Sec-WebSocket-Extensions: ;;;=\xff\r\n"), b"", True),
        (upgrade(port, extra=b"Sec-WebSocket-Protocol: ,,, \xff\r\n"), b"", True),
        (upgrade(port, extra=b"Upgrade: h2c\r\nConnection: close\r\n"), b"", True),
        (upgrade(port, extra=b"Content-Length: 5\r\n"), b"", True),
        (upgrade(port, extra=b"Transfer-Encoding: chunked\r\n"), b"", True),
        (upgrade(port, extra=b"X-Forwarded-For: garbage, ::zz\r\n"), b"", True),
        (upgrade(port, method=b"POST"), b"", True),
        (upgrade(port, version=b"HTTP/1.0"), b"", True),
        (upgrade(port, version=b"HTTP/9"), b"", True),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64), b"", True),
        (b"GET / HTTP/1.1\r\nHost: x:1\r\n", b"", False),
        (b"\r\n\r\n\r\n", b"", True),
        (b"GET\r\n\r\n", b"", True),
    ]


def test_malformed_handshakes_never_write_a_traceback(tmp_path: Path) -> None:
    """300 malformed handshakes (the issue's case among them: two ``Host`` headers and
    an account claimed, which crashed the handler and wrote a traceback each, 309 KB for
    300); the server writes no traceback anywhere, next to nothing to ``coloretto.log``,
    and serves the next player."""
    home = tmp_path / "home"
    with running(Server(home)) as server:
        kinds = malformed(server.port)
        for number in range(300):
            request, then, finish = kinds[number % len(kinds)]
            exchange(server.port, f"127.0.8.{1 + number % 200}", request, then, finish=finish)

        async def player() -> str:
            ws = await open_ws(f"ws://127.0.0.1:{server.port}/rooms", "127.0.0.2")
            await send(ws, host_request())
            welcome = await receive(ws, "welcome")
            await ws.close()
            return str(welcome["room"])

        assert asyncio.run(asyncio.wait_for(player(), 20))
        assert server.alive()
        log = home / "coloretto.log"
        written = log.read_text(errors="replace") if log.exists() else ""
        assert "Traceback" not in written, written[:3000]
        assert len(written) < 2048, written[:3000]
        assert "Traceback" not in server.said()
        assert "bad-request 127.0.8." in server.audit()


def test_nothing_malformed_over_tls_or_in_tls_itself_writes_a_traceback(tmp_path: Path) -> None:
    """A server of ``wss://``: plain HTTP, a broken TLS hello, a hello cut short, and the
    malformed handshakes over TLS (100 connections)."""
    cert, key = certificate(tmp_path)
    home = tmp_path / "home"
    with running(Server(home, ("--certfile", str(cert), "--keyfile", str(key)))) as server:
        tls = ssl.create_default_context(cafile=str(cert))
        broken = [
            (upgrade(server.port), b"", True),
            (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(600), b"", True),
            (b"\x16\x03\x01\x00\x05", b"", False),
        ]
        for number in range(10):
            for request, then, finish in broken:
                exchange(server.port, f"127.0.8.{1 + number}", request, then, finish=finish)
        kinds = malformed(server.port)
        for number in range(70):
            request, then, finish = kinds[number % len(kinds)]
            exchange(server.port, f"127.0.8.{1 + number}", request, then, finish=finish, tls=tls)
        assert server.alive()
        log = home / "coloretto.log"
        written = log.read_text(errors="replace") if log.exists() else ""
        assert "Traceback" not in written, written[:3000]
        assert len(written) < 2048, written[:3000]
        assert "Traceback" not in server.said()


def test_coloretto_log_is_rotated_and_bounded_however_much_a_client_makes_it_write(
    tmp_path: Path,
) -> None:
    """A server whose ``coloretto.log`` and five old files are full (a long run) is made to
    write more: a player takes their seat up again and again on new connections (a line
    each). The full file becomes ``coloretto.log.1``, the oldest is dropped, no file
    passes 1 MiB and there are never more than six."""
    home = tmp_path / "home"
    home.mkdir()
    log = home / "coloretto.log"
    line = b"2026-01-01 00:00:00,000 INFO an old line of a long run\n"
    log.write_bytes(line * ((MAX_BYTES - 2000) // len(line)))
    for number in range(1, BACKUPS + 1):
        Path(f"{log}.{number}").write_bytes(b"old file %d\n" % number + line * 100)
    with running(Server(home)) as server:
        url = f"ws://127.0.0.1:{server.port}/rooms"

        async def flood() -> None:
            ws = await open_ws(url, "127.0.0.2")
            await send(ws, host_request())
            welcome = await receive(ws, "welcome")
            room, token = welcome["room"], welcome["token"]
            for number in range(60):
                ws = await open_ws(f"{url}/{room}", f"127.0.7.{1 + number}")
                await send(ws, {"type": "resume", "version": 1, "room": room, "token": token})
                await receive(ws, "lobby")

        asyncio.run(asyncio.wait_for(flood(), 60))
    files = sorted(home.glob("coloretto.log*"))
    assert [path.name for path in files] == ["coloretto.log"] + [
        f"coloretto.log.{number}" for number in range(1, BACKUPS + 1)
    ]
    assert all(path.stat().st_size <= MAX_BYTES for path in files)
    assert Path(f"{log}.1").read_bytes().startswith(line)  # the full one, rotated
    assert Path(f"{log}.2").read_bytes().startswith(b"old file 1\n")
    assert not any(b"old file 5\n" in path.read_bytes() for path in files)  # dropped
    assert b"a connection of player 0 closed" in log.read_bytes()
