"""What an open WebSocket connection costs a server process in memory with nothing of the
game in it: the floor under ``benchmarks/server.py``'s memory a room (two people, two
connections a room).

    python benchmarks/websocket_memory.py [--connections 2000] [--server websockets|ours]

A bare server runs in a process of its own: websockets' own asyncio server (the library
``coloretto server`` used before its own connections, no compression), or ``ours``: the
connections ``coloretto server`` serves its players with (``Gatekeeper``,
``GuardedConnection``: websockets' sans-IO protocol in a lean asyncio protocol, its caps
raised for the run). This script opens ``--connections`` connections to it, each sending
one message and reading its echo, holds them, and prints the server's resident memory
before and with them, and the difference a connection. Run it from the repository's
root with ``PYTHONPATH=.``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from websockets.asyncio.client import connect

SERVER = textwrap.dedent(
    """
    import asyncio
    from websockets.asyncio.server import serve

    async def echo(ws):
        async for message in ws:
            await ws.send(message)

    async def main():
        async with serve(echo, "127.0.0.1", 0, compression=None) as server:
            port = server.sockets[0].getsockname()[1]
            print(port, flush=True)
            await asyncio.Future()

    asyncio.run(main())
    """
)

OURS = textwrap.dedent(
    """
    import asyncio, contextlib, logging, tempfile
    from pathlib import Path
    from websockets.exceptions import ConnectionClosed
    from coloretto.online.server.audit import Audit
    from coloretto.online.server.gatekeeper import Gatekeeper
    from coloretto.online.server.limits import Limits

    async def echo(ws):
        with contextlib.suppress(ConnectionClosed):
            while True:
                await ws.send(await ws.recv())

    async def main():
        limits = Limits(max_connections=100_000, max_per_address=100_000)
        audit = Audit(Path(tempfile.mkdtemp()) / "audit.log")
        gate = Gatekeeper(limits, audit, logging.getLogger("memory"))
        gate.start()
        listening = await gate.listen(echo, "127.0.0.1", 0, None)
        print(listening.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()

    asyncio.run(main())
    """
)


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise SystemExit(f"no VmRSS for process {pid}")


async def held(port: int, connections: int, pid: int) -> tuple[int, int]:
    """The server's memory before and with ``connections`` open connections, in KiB."""
    before = rss_kib(pid)
    release = asyncio.Event()
    ready = asyncio.Semaphore(0)

    async def one() -> None:
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:
            await ws.send("hello")
            await ws.recv()
            ready.release()
            await release.wait()

    opened = [asyncio.ensure_future(one()) for _ in range(connections)]
    for _ in range(connections):
        await ready.acquire()
    await asyncio.sleep(1)
    with_them = rss_kib(pid)
    release.set()
    await asyncio.gather(*opened)
    return before, with_them


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--server", choices=("websockets", "ours"), default="websockets")
    args = parser.parse_args()
    code = OURS if args.server == "ours" else SERVER
    server = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True
    )  # fmt: skip
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        before, with_them = asyncio.run(held(port, args.connections, server.pid))
    finally:
        server.kill()
        server.wait()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, load {load}")
    print(
        f"a bare server ({args.server}): {before / 1024:.1f} MiB, {with_them / 1024:.1f} MiB with "
        f"{args.connections} connections open: "
        f"{(with_them - before) / args.connections:.1f} KiB a connection"
    )


if __name__ == "__main__":
    main()
