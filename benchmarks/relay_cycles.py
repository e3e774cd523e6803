"""A guest's reconnection loop through the relay, measured (issue 57): the memory of both
server processes before and after ``--cycles`` reconnections.

Run: ``PYTHONPATH=. python benchmarks/relay_cycles.py [--cycles 10000] [--warm-up 200]
[--settle 5] [--postgres URL]``.

Two real ``coloretto server`` processes, A and B, on one PostgreSQL (a throwaway cluster,
``tests/postgres.py``, or the empty database ``--postgres URL``), each with its own data
directory in a temporary folder, on loopback. Ana hosts a room on A and stays (what she
is told is read and dropped); Ben joins it on A. Then Ben takes his seat up again through
B with his token, ``--cycles`` times, each new connection replacing the last (A closes
the old one, "your seat was taken up on another connection", and B closes it for Ben):
every cycle opens a connection to B, resumes, waits for the welcome and for the old
connection to be closed. The loop is as fast as the processes answer.

Printed: the resident memory (``VmRSS``) of A and B after ``--warm-up`` cycles and after
the loop (Ben's last connection closed, then ``--settle`` seconds), the growth per cycle,
the cycle rate, and the relay's own count of its connections as each process last logged
it (``relayed connections: ...`` in ``coloretto.log``).

A benchmark, not a test (``tests/online/test_relay_lifecycle.py`` runs a shorter loop):
the figures depend on the machine and its load. Everything is bounded in time; the
servers and the cluster are stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.postgres import running_postgres

ROOT = Path(__file__).resolve().parents[1]

HOST = {"type": "host", "version": 1, "name": "Ana", "rules": {"players": 3}, "bot": "easy",
        "delay": 0, "away_after": 60}  # fmt: skip


class Server:
    """``coloretto server`` on ``--store URL`` in its own data directory; what it prints
    goes to a file there."""

    def __init__(self, folder: Path, url: str) -> None:
        self.home = folder / "data"
        self.output = folder / "output.txt"
        folder.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(self.home)}
        command = [sys.executable, "-m", "coloretto", "server", "--host", "127.0.0.1",
                   "--port", "0", "--store", url]  # fmt: skip
        with self.output.open("w") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT
            )
        self.port = 0
        deadline = time.monotonic() + 30
        while not self.port:
            for line in self.output.read_text(errors="replace").splitlines():
                if "Coloretto server on " in line:
                    self.port = int(line.split("ws://", 1)[1].split()[0].rsplit(":", 1)[1])
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: {self.output.read_text()}")
            time.sleep(0.05)

    def url(self, code: str | None = None) -> str:
        return f"ws://127.0.0.1:{self.port}/rooms" + (f"/{code}" if code else "")

    def rss(self) -> float:
        """The server's resident memory in MiB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise SystemExit("the server is gone")

    def relay_count(self) -> str:
        """The last count of relayed connections the server logged (``-`` if none)."""
        log = self.home / "coloretto.log"
        lines = log.read_text(errors="replace").splitlines() if log.is_file() else []
        counts = [line.split("relayed connections: ", 1)[1] for line in lines
                  if "relayed connections: " in line]  # fmt: skip
        return counts[-1] if counts else "-"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@contextlib.contextmanager
def two_servers(url: str | None) -> Iterator[tuple[Server, Server]]:
    with contextlib.ExitStack() as stack:
        if url is None:
            url = stack.enter_context(running_postgres()).database()
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="coloretto-relay-")))
        started: list[Server] = []
        stack.callback(lambda: [server.stop() for server in started])
        for name in ("a", "b"):
            started.append(Server(folder / name, url))
        yield started[0], started[1]


async def opened(url: str, request: dict[str, Any]) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection to ``url`` that sent ``request``, and its welcome (within 10 s)."""
    ws = await connect(url, open_timeout=10, close_timeout=1)
    await ws.send(json.dumps({"version": 1, **request}))
    async with asyncio.timeout(10):
        while (message := json.loads(await ws.recv()))["type"] != "welcome":
            if message["type"] == "error":
                raise SystemExit(f"refused: {message}")
    return ws, message


async def drain(ws: ClientConnection) -> None:
    """Read and drop what ``ws`` is told (a client that does not read is cut)."""
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def closed(ws: ClientConnection, seconds: float = 10) -> None:
    """Wait until ``ws`` is closed (what it is told meanwhile dropped)."""
    async with asyncio.timeout(seconds):
        await drain(ws)


async def loop(a: Server, b: Server, cycles: int, warm_up: int, settle: float) -> dict[str, Any]:
    ana, welcome = await opened(a.url(), HOST)
    reading = asyncio.ensure_future(drain(ana))
    code = welcome["room"]
    ben, joined = await opened(a.url(code), {"type": "join", "room": code, "name": "Ben"})
    token = joined["token"]
    figures: dict[str, Any] = {}
    started = time.monotonic()
    for cycle in range(warm_up + cycles):
        if cycle == warm_up:
            await asyncio.sleep(settle)
            figures["before"] = (a.rss(), b.rss())
            started = time.monotonic()
        old = ben
        ben, _ = await opened(b.url(code), {"type": "resume", "room": code, "token": token})
        await closed(old)
    figures["seconds"] = time.monotonic() - started
    await ben.close()
    await asyncio.sleep(settle)
    figures["after"] = (a.rss(), b.rss())
    await ana.close()
    reading.cancel()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--warm-up", type=int, default=200)
    parser.add_argument("--settle", type=float, default=5.0)
    parser.add_argument("--postgres", help="an empty database (default: a throwaway cluster)")
    options = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load {' '.join(map(str, os.getloadavg()))}")
    with two_servers(options.postgres) as (a, b):
        figures = asyncio.run(loop(a, b, options.cycles, options.warm_up, options.settle))
        counts = a.relay_count(), b.relay_count()
    cycles, seconds = options.cycles, figures["seconds"]
    print(f"{cycles} cycles in {seconds:.1f} s: {cycles / seconds:.0f} a second")
    for number, name in enumerate(("A (plays the room)", "B (relays Ben)")):
        before, after = figures["before"][number], figures["after"][number]
        growth = (after - before) * 1024
        print(f"{name}: RSS {before:.1f} MiB after the warm-up, {after:.1f} MiB after the loop"
              f" ({growth:+.0f} KiB, {growth / cycles * 1024:+.0f} bytes a cycle);"
              f" last logged: {counts[number]}")  # fmt: skip


if __name__ == "__main__":
    main()
