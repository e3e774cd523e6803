"""Tools for the attack tests (issue 47): a server process with a lowered open-file limit
and its output kept in a file, raw WebSocket sockets (the handshake done by hand, masked
frames sent, nothing ever read), what ``/proc`` says of the server (its memory, the
connections it still holds), and a player that plays its seat from what the server tells.

Everything here is bounded in time; every address is on loopback (127.0.0.0/8, where any
address can be a client's source address: ``source("attack", 7)`` is 127.0.x.7).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from coloretto.online.wire.messages import GameMessage
from coloretto.online.wire.protocol import convert
from coloretto.online.wire.public import PublicGame, parse_move
from tests.online.conftest import ROOT, ServerProcess, choose

TEXT = 0x1
PING = 0x9

NETWORKS = {"player": 0, "attack": 9, "crowd": 6, "flood": 4, "slow": 5, "hosts": 7}
"""The third byte of each kind of client's source addresses (127.0.N.x)."""

LEGIT = "127.0.0.2"
"""The legitimate client's address: never the attackers'."""

PER_ADDRESS = 20
"""The default cap on one address's open connections."""


def source(kind: str, number: int) -> str:
    """The ``number``-th (1 to 250) source address of clients of ``kind``."""
    assert 1 <= number <= 250, number
    return f"127.0.{NETWORKS[kind]}.{number}"


# ------------------------------------------------------------------ the server

LIMITED = (
    "import os, resource, sys; n = int(sys.argv[1]); "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); os.execv(sys.argv[2], sys.argv[2:])"
)
"""Runs a command with an open-file limit (``ulimit -n``): ``python -c LIMITED N COMMAND...``."""


class Server(ServerProcess):
    """``coloretto server`` with its output (stdout and stderr) kept in a file, read at any
    time (a pipe nobody drains would stall a server that writes a lot), and optionally a
    lowered open-file limit (``ulimit -n``)."""

    def __init__(
        self, home: Path, options: tuple[str, ...] = (), open_files: int | None = None
    ) -> None:
        super().__init__(home, options=options)
        self.open_files = open_files
        self.output = home.parent / f"{home.name}-output.txt"
        """Everything the server printed, over all its runs."""

    def start(self) -> Server:
        """Start (on the port it had, after a restart) and wait (10 s at most) for the line
        that says where it listens; a server that exits first fails with what it said."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(self.home)}
        command = [sys.executable, "-m", "coloretto", "server", "--host", self.host,
                   "--port", str(self.port), *self.options]  # fmt: skip
        if self.open_files is not None:  # the limit set, then the same process is the server
            command = [sys.executable, "-c", LIMITED, str(self.open_files), *command]
        self.output.touch()
        offset = self.output.stat().st_size
        with self.output.open("a") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
            )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            said = self.output.read_bytes()[offset:].decode(errors="replace")
            for line in said.splitlines():
                if "Coloretto server on " in line:
                    self.scheme, address = (
                        line.split("Coloretto server on ", 1)[1].split()[0].split("://")
                    )
                    self.port = int(address.rsplit(":", 1)[1])
                    return self
            if self.process.poll() is not None:
                raise AssertionError(
                    f"the server {' '.join(self.options)} exited with status "
                    f"{self.process.returncode}, saying:\n{said}"
                )
            time.sleep(0.05)
        raise AssertionError("the server did not say where it listens within 10 s")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def said(self) -> str:
        """All the server printed so far (on stdout and stderr)."""
        return self.output.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def audit(self) -> str:
        """The audit log of the server's data directory (``""`` when there is none)."""
        path = self.home / "audit.log"
        return path.read_text(errors="replace") if path.is_file() else ""


@contextlib.contextmanager
def running(server: Server) -> Iterator[Server]:
    """The server started, and killed at the end whatever happens."""
    try:
        yield server.start()
    finally:
        server.stop()


def run(test: Callable[[], Awaitable[object]], seconds: float = 50) -> None:
    """Run an async test, at most ``seconds``."""
    asyncio.run(asyncio.wait_for(test(), seconds))


# ------------------------------------------------------------------ /proc


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid`` in MiB (``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def _hex_address(address: tuple[str, int]) -> str:
    """An IPv4 address and port as ``/proc/net/tcp`` writes them (``0100007F:1F90``)."""
    (number,) = struct.unpack("<I", socket.inet_aton(address[0]))
    return f"{number:08X}:{address[1]:04X}"


def _tcp_line(local: tuple[str, int], remote: tuple[str, int]) -> list[str] | None:
    """The fields of the line of ``/proc/net/tcp`` of the socket from ``local`` to
    ``remote`` (``None``: the kernel has no such socket)."""
    wanted = (_hex_address(local), _hex_address(remote))
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (fields[1], fields[2]) == wanted:
            return fields
    return None


def held_by(pid: int, sock: socket.socket) -> bool:
    """Whether process ``pid`` still has the server's end of ``sock`` open (a socket the
    process closed may linger in the kernel a while, owned by nobody: not held)."""
    try:
        fields = _tcp_line(sock.getpeername(), sock.getsockname())
    except OSError:
        return False
    if fields is None or fields[9] == "0":
        return False
    wanted = f"socket:[{fields[9]}]"
    with contextlib.suppress(OSError):
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == wanted:
                    return True
    return False


def queued(sock: socket.socket) -> tuple[int, int]:
    """Bytes the server's end of ``sock`` has waiting to be sent (sent but not yet taken
    by ``sock``'s window, or not sent), and bytes ``sock`` has received but not read."""
    try:
        server = _tcp_line(sock.getpeername(), sock.getsockname())
        client = _tcp_line(sock.getsockname(), sock.getpeername())
    except OSError:
        return 0, 0
    sending = int(server[4].split(":")[0], 16) if server else 0
    receiving = int(client[4].split(":")[1], 16) if client else 0
    return sending, receiving


# ------------------------------------------------------------------ raw WebSocket


def frame(opcode: int, payload: bytes = b"") -> bytes:
    """One whole client frame: FIN set, masked (as RFC 6455 wants from a client)."""
    head = bytes([0x80 | opcode])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        assert len(payload) < 1 << 16
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    mask = os.urandom(4)
    body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return head + mask + body


def text(message: dict[str, Any]) -> bytes:
    """A request as a text frame."""
    return frame(TEXT, json.dumps(message).encode())


def handshake(
    port: int, address: str, *, rcvbuf: int | None = None, timeout: float = 5.0
) -> socket.socket:
    """A socket from ``address`` to the server on 127.0.0.1:``port`` with the WebSocket
    upgrade done by hand (``rcvbuf``: a receive buffer this small, set before connecting,
    so that the window the server sees stays small). Fails unless the answer is 101."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            # Small segments too: loopback's 64 KiB segments would let the server's kernel
            # buffer grow to megabytes (its size follows the congestion window's bytes).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        sock.settimeout(timeout)
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer and len(answer) < 16384:
            chunk = sock.recv(1)  # byte by byte: not a byte of what follows is read
            if not chunk:
                break
            answer += chunk
        status = answer.split(b"\r\n", 1)[0]
        assert b" 101 " in status + b" ", f"the upgrade was answered {status!r}"
    except BaseException:
        sock.close()
        raise
    return sock


# ------------------------------------------------------------------ WebSocket clients


async def open_ws(url: str, address: str, seconds: float = 5.0) -> ClientConnection:
    """A WebSocket connection from source ``address`` (its handshake at most ``seconds``)."""
    return await connect(
        url, local_addr=(address, 0), open_timeout=seconds, close_timeout=1, max_size=1 << 22
    )


async def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    await ws.send(json.dumps(message))


async def receive(
    ws: ClientConnection, kind: str | None = None, seconds: float = 10
) -> dict[str, Any]:
    """The next message (of type ``kind``, others skipped; an error fails), within
    ``seconds``."""
    async with asyncio.timeout(seconds):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if kind is None or message["type"] == kind:
                return message
            assert message["type"] != "error", f"waiting for {kind}, got {message}"


async def pending(ws: ClientConnection, seconds: float = 0.3) -> list[dict[str, Any]]:
    """The messages that arrive within ``seconds`` (until the connection closes)."""
    found: list[dict[str, Any]] = []
    with contextlib.suppress(TimeoutError, ConnectionClosed):
        async with asyncio.timeout(seconds):
            while True:
                found.append(json.loads(await ws.recv()))
    return found


def host_request(**changes: Any) -> dict[str, Any]:
    """A ``host`` request: 3 players, easy bots, no delay, 60 s before a bot stands in."""
    return {"type": "host", "version": 1, "name": "Ana", "rules": {"players": 3},
            "bot": "easy", "delay": 0, "away_after": 60, **changes}  # fmt: skip


def abort(connections: list[ClientConnection]) -> None:
    """Drop connections at once (no closing handshake to wait for)."""
    for ws in connections:
        ws.transport.abort()


async def host_here(url: str, address: str) -> str:
    """Connect from ``address`` and host a room: the room's code once its lobby came."""
    ws = await open_ws(url, address)
    await send(ws, host_request(name="Zoe"))
    room = str((await receive(ws, "welcome", 5))["room"])
    await receive(ws, "lobby", 5)
    await ws.close()
    return room


class Player:
    """A person's seat played from what the server tells: ``model`` is the game rebuilt
    from the ``game`` message and every ``move`` after it (a move missing or out of order
    fails at once), ``seen`` how many moves were told."""

    def __init__(self, ws: ClientConnection, game: dict[str, Any], seat: int) -> None:
        assert game["type"] == "game", game
        self.ws = ws
        self.seat = seat
        told = convert(game, GameMessage, "game")
        self.model = PublicGame(told.rules, told.setup)
        for ply, move in enumerate(told.moves):
            self.model.add(ply, move)
        self.rng = random.Random(seat)

    @property
    def seen(self) -> int:
        return self.model.ply

    @property
    def my_turn(self) -> bool:
        state = self.model.state
        return not state.is_over and state.current_player == self.seat

    async def play(self, moves: int, seconds: float = 20) -> None:
        """Play this seat's turns until at least ``moves`` moves were played in all and it
        is this seat's turn again (not played: the bots wait for it, nothing moves), or the
        game is over."""
        acted = -1  # the move this seat last sent (not sent again while it is not told)
        async with asyncio.timeout(seconds):
            while not self.model.state.is_over:
                if self.my_turn and acted != self.seen:
                    if self.seen >= moves:
                        return
                    acted = self.seen
                    await self.turn()
                message = await receive(self.ws)
                if message["type"] == "move":
                    self.model.add(message["ply"], parse_move(message["move"]))
                elif message["type"] == "error":
                    raise AssertionError(f"the server refused a move: {message}")

    async def turn(self) -> None:
        """Send this seat's choice of action (it is to move), as the next move."""
        action = choose(self.model.state.legal_actions(), self.rng)
        await send(self.ws, {"type": "act", "ply": self.seen, "action": str(action)})
