"""Attacks on the game server, measured (issue 47): a ping flood, a thousand hostile
connections, a thousand watchers of one room.

Run: ``python benchmarks/attacks.py [--flood-seconds 20] [--hostile 1250] [--addresses 50]
[--watchers 1000] [--parts abc]``.

Each part starts a real ``coloretto server`` as deployed (default limits, its own data
directory in a temporary folder, on 127.0.0.1) and attacks it from this process, on
loopback only, from source addresses in 127.0.0.0/8 (each client binds its own):

(a) ping flood: one raw connection (the WebSocket handshake done by hand) watches a room
    (another one hosts it, reads its welcome and nothing more), then sends masked pings
    without ever reading, for ``--flood-seconds``; when the server closes it, the attacker
    connects again and goes on (as an attacker would). Printed: the
    server's resident memory before, at its peak and after, when the first connection was
    closed, and how many connections were used or refused. Target: growth < 64 MiB.
(b) hostile connections: ``--hostile`` connections tried from ``--addresses`` source
    addresses (the first of each address hosts a room, the others watch it), held open: by
    default 25 an address, 5 more than its cap of 20, so that 1,000 are open and 250
    refused. Meanwhile, a second apart, and five times once they are all made, a
    legitimate client from an address of its own connects, hosts a room and gets its
    lobby. Printed: how many hostile connections were let in or refused (and how), and the
    legitimate clients' times. Target: < 2 s.
(c) watchers: ``--watchers`` connections from many addresses watch one room's lobby, with
    the same legitimate clients meanwhile and after. Printed as (b).

A benchmark, not a test: the figures depend on the machine and on its load (printed).
Everything is bounded in time; the servers are killed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import platform
import re
import resource
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]

HOST = {"type": "host", "version": 1, "name": "Ana", "rules": {"players": 3}, "bot": "easy",
        "delay": 0, "away_after": 60}  # fmt: skip


class Server:
    """``coloretto server`` with default limits in its own data directory; what it prints
    goes to a file there."""

    def __init__(self, folder: Path) -> None:
        self.home = folder / "data"
        self.output = folder / "output.txt"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(self.home)}
        command = [sys.executable, "-m", "coloretto", "server", "--host", "127.0.0.1",
                   "--port", "0"]  # fmt: skip
        with self.output.open("w") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT
            )
        self.port = 0
        deadline = time.monotonic() + 20
        while not self.port:
            for line in self.output.read_text(errors="replace").splitlines():
                if "Coloretto server on " in line:
                    self.line = line
                    self.port = int(line.split("ws://", 1)[1].split()[0].rsplit(":", 1)[1])
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {self.output.read_text()}")
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def rss(self) -> float:
        """The server's resident memory in MiB (0 once it is gone)."""
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def tracebacks(self) -> int:
        return self.output.read_text(errors="replace").count("Traceback")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@contextlib.contextmanager
def serving(name: str) -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix=f"coloretto-attack-{name}-") as folder:
        server = Server(Path(folder))
        try:
            print(f"  {server.line}")
            yield server
        finally:
            alive = server.process.poll() is None
            server.stop()
            print(
                f"  server {'alive' if alive else 'DEAD'} at the end; "
                f"{server.tracebacks()} tracebacks printed"
            )


# ------------------------------------------------------------------ raw WebSocket


def masked(opcode: int, payload: bytes) -> bytes:
    """One client frame (FIN, masked), payload under 126 bytes."""
    mask = os.urandom(4)
    body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


def raw_connection(port: int, address: str) -> socket.socket | str:
    """A socket from ``address`` with the WebSocket upgrade done by hand, or what the
    server answered instead (its status line, or why it failed)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(5)
    try:
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
            chunk = sock.recv(1)
            if not chunk:
                break
            answer += chunk
    except OSError as error:
        sock.close()
        return type(error).__name__
    status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
    if " 101 " not in status + " ":
        sock.close()
        return status or "cut"
    return sock


def _hex(address: tuple[str, int]) -> str:
    (number,) = struct.unpack("<I", socket.inet_aton(address[0]))
    return f"{number:08X}:{address[1]:04X}"


def held_by(pid: int, sock: socket.socket) -> bool:
    """Whether process ``pid`` still holds the server's end of ``sock``."""
    try:
        wanted = (_hex(sock.getpeername()), _hex(sock.getsockname()))
    except OSError:
        return False
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (fields[1], fields[2]) == wanted and fields[9] != "0":
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{fields[9]}]":
                            return True
    return False


def ping_flood(server: Server, seconds: float) -> None:
    """(a): see the module."""
    owner = raw_connection(server.port, "127.0.4.2")
    assert not isinstance(owner, str), owner
    owner.sendall(_text(json.dumps(HOST).encode()))
    said = b""
    while (found := re.search(rb'"room": ?"([A-Z0-9]{6})"', said)) is None and len(said) < 8192:
        said += owner.recv(4096)  # the owner reads its welcome, then nothing
    assert found is not None, said
    watch = _text(json.dumps({"type": "watch", "version": 1, "room": found[1].decode()}).encode())
    time.sleep(0.5)
    before = peak = server.rss()
    pings = b"".join(masked(0x9, os.urandom(125)) for _ in range(200))
    started = time.monotonic()
    first_closed: float | None = None
    connections, refused, sent = 0, Counter[str](), 0
    sock: socket.socket | None = None
    looked = 0.0
    while (elapsed := time.monotonic() - started) < seconds:
        if sock is None:
            made = raw_connection(server.port, "127.0.4.1")
            if isinstance(made, str):
                refused[made] += 1
                time.sleep(0.05)
                continue
            sock, connections = made, connections + 1
            sock.sendall(watch)  # a watcher of a room: no idle connection to close
            sock.settimeout(0.5)
        closed = False
        try:
            sock.sendall(pings)
            sent += 200
        except TimeoutError:
            pass
        except OSError:
            closed = True
        if elapsed - looked >= 0.25:
            looked = elapsed
            peak = max(peak, server.rss())
            closed = closed or not held_by(server.process.pid, sock)
        if closed:
            first_closed = elapsed if first_closed is None else first_closed
            sock.close()
            sock = None
    if sock is not None:
        sock.close()
    owner.close()
    peak = max(peak, server.rss())
    time.sleep(1)
    after = server.rss()
    closed_at = "never" if first_closed is None else f"after {first_closed:.2f} s"
    refusals = dict(refused) or "none"
    print(
        f"  {sent:,} pings in {seconds:.0f} s over {connections} connections "
        f"(refused: {refusals}); the first connection closed {closed_at}"
    )
    verdict = "ok" if peak - before < 64 else "OVER the 64 MiB target"
    print(
        f"  server memory: {before:.0f} MiB before, {peak:.0f} at the peak "
        f"(+{peak - before:.0f}: {verdict}), {after:.0f} a second after"
    )


def _text(payload: bytes) -> bytes:
    """A masked text frame of up to 64 KiB."""
    mask = os.urandom(4)
    body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    size = (
        bytes([0x80 | len(payload)])
        if len(payload) < 126
        else (bytes([0x80 | 126]) + struct.pack("!H", len(payload)))
    )
    return bytes([0x81]) + size + mask + body


# ------------------------------------------------------------------ many connections


async def attempt(
    url: str, address: str, opening: dict[str, Any]
) -> tuple[str, ClientConnection | None, dict[str, Any] | None]:
    """One connection from ``address`` sending ``opening``: what came of it, the open
    connection and its first answer."""
    try:
        ws = await connect(url, local_addr=(address, 0), open_timeout=10, close_timeout=1)
    except InvalidStatus as refused:
        return f"HTTP {refused.response.status_code}", None, None
    except (OSError, TimeoutError, InvalidHandshake) as error:
        return type(error).__name__, None, None
    try:
        await ws.send(json.dumps(opening))
        async with asyncio.timeout(10):
            answer: dict[str, Any] = json.loads(await ws.recv())
    except (ConnectionClosed, TimeoutError) as error:
        ws.transport.abort()
        return type(error).__name__, None, None
    if answer["type"] == "error":
        ws.transport.abort()
        return f"error {answer['code']}", None, None
    return answer["type"], ws, answer


async def visit(url: str, number: int) -> float | str:
    """A legitimate client from an address of its own (127.0.1.``number``): connect, host
    a room, get its lobby. The seconds it took, or why it failed."""
    started = time.monotonic()
    try:
        async with asyncio.timeout(30):
            ws = await connect(url, local_addr=(f"127.0.1.{number}", 0), open_timeout=30)
            await ws.send(json.dumps(HOST))
            while json.loads(await ws.recv())["type"] != "lobby":
                pass
            await ws.close()
    except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as error:
        return f"failed after {time.monotonic() - started:.2f} s: {error!r}"
    return time.monotonic() - started


async def visitor(url: str, number: int) -> float | str:
    """``visit`` in a process of its own (the attackers' event loop does not slow it)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--visit", url, str(number), stdout=asyncio.subprocess.PIPE
    )
    out, _ = await child.communicate()
    answer: float | str = json.loads(out or b'"no answer"')
    return answer


class Visitors:
    """Legitimate clients, one after the other (a second apart) while an attack is made,
    then five more once it is: each connects, hosts a room and gets its lobby, each in a
    process of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.during: list[float | str] = []
        self.after: list[float | str] = []

    async def meanwhile(self, attack: asyncio.Future[Any]) -> None:
        while not attack.done() and len(self.during) < 120:
            self.during.append(await visitor(self.url, len(self.during) + 1))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(attack), 1)

    async def then(self) -> None:
        for number in range(5):
            self.after.append(await visitor(self.url, 121 + number))

    def report(self) -> None:
        for when, visits in (("during the attack", self.during), ("after", self.after)):
            times = [t for t in visits if isinstance(t, float)]
            failures = [t for t in visits if isinstance(t, str)]
            if not visits:
                print(f"  legitimate clients {when}: none (the attack was over at once)")
                continue
            ok = times and not failures and max(times) < 2
            verdict = "ok" if ok else "OVER the 2 s target"
            figures = (
                f"median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms"
                if times
                else "none got in"
            )
            print(f"  legitimate clients {when}: {len(visits)}, {figures} ({verdict})")
            for failure in failures[:3]:
                print(f"    one {failure}")


def report(outcomes: list[str], held: list[ClientConnection], seconds: float) -> None:
    let_in = sum(1 for ws in held if ws.state.name == "OPEN")
    print(
        f"  {len(outcomes)} hostile connections tried in {seconds:.1f} s: "
        f"{dict(Counter(outcomes))}; {let_in} open now"
    )


async def hostile(server: Server, total: int, addresses: int) -> None:
    """(b): see the module."""
    limit = asyncio.Semaphore(64)
    held: list[ClientConnection] = []
    outcomes: list[str] = []

    async def one_address(number: int, count: int) -> None:
        address = f"127.0.{10 + number // 250}.{1 + number % 250}"
        async with limit:
            outcome, ws, answer = await attempt(server.url, address, HOST)
        outcomes.append(outcome)
        if ws is None or answer is None:
            return
        held.append(ws)
        watch = {"type": "watch", "version": 1, "room": answer["room"]}
        for _ in range(count - 1):
            async with limit:
                outcome, ws, _ = await attempt(server.url, address, watch)
            outcomes.append(outcome)
            if ws is not None:
                held.append(ws)

    share = [total // addresses + (n < total % addresses) for n in range(addresses)]
    started = time.monotonic()
    visitors = Visitors(server.url)
    attack = asyncio.gather(*(one_address(n, share[n]) for n in range(addresses)))
    await visitors.meanwhile(attack)
    await attack
    report(outcomes, held, time.monotonic() - started)
    print(f"  server memory: {server.rss():.0f} MiB")
    await visitors.then()
    visitors.report()
    for ws in held:
        ws.transport.abort()


async def watchers(server: Server, total: int) -> None:
    """(c): see the module."""
    outcome, owner, answer = await attempt(server.url, "127.0.20.1", HOST)
    if owner is None or answer is None:
        raise SystemExit(f"the room to watch could not be hosted: {outcome}")
    watch = {"type": "watch", "version": 1, "room": answer["room"]}
    limit = asyncio.Semaphore(64)

    async def one(number: int) -> tuple[str, ClientConnection | None, Any]:
        async with limit:
            address = f"127.0.{21 + number // 200}.{1 + number % 200}"
            return await attempt(server.url, address, watch)

    started = time.monotonic()
    visitors = Visitors(server.url)
    attack = asyncio.gather(*(one(n) for n in range(total)))
    await visitors.meanwhile(attack)
    results = await attack
    held = [ws for _, ws, _ in results if ws is not None]
    report([outcome for outcome, _, _ in results], held, time.monotonic() - started)
    print(f"  server memory: {server.rss():.0f} MiB")
    await visitors.then()
    visitors.report()
    for ws in [owner, *held]:
        ws.transport.abort()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flood-seconds", type=float, default=20)
    parser.add_argument("--hostile", type=int, default=1250)
    parser.add_argument("--addresses", type=int, default=50)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--parts", default="abc", help="the parts to run (default abc)")
    parser.add_argument("--visit", nargs=2, metavar=("URL", "NUMBER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.visit:
        print(json.dumps(asyncio.run(visit(args.visit[0], int(args.visit[1])))))
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(args.hostile, args.watchers) + 200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    print(
        f"{platform.node()}: {os.cpu_count()} cores, load {load}; "
        f"Python {platform.python_version()}; open files {files}"
    )

    if "a" in args.parts:
        print(f"(a) ping flood from one address, {args.flood_seconds:.0f} s")
        with serving("flood") as server:
            ping_flood(server, args.flood_seconds)
    if "b" in args.parts:
        print(f"(b) {args.hostile} hostile connections from {args.addresses} addresses")
        with serving("hostile") as server:
            asyncio.run(asyncio.wait_for(hostile(server, args.hostile, args.addresses), 180))
    if "c" in args.parts:
        print(f"(c) {args.watchers} watchers of one room")
        with serving("watchers") as server:
            asyncio.run(asyncio.wait_for(watchers(server, args.watchers), 180))


if __name__ == "__main__":
    main()
