"""A TCP relay that delays everything by a fixed time each way, keeping the order:
``python -m tests.online.delay_relay PORT HOST TARGET_PORT SECONDS`` listens on
127.0.0.1:PORT and forwards to HOST:TARGET_PORT. It stands in for ``tc netem delay`` on a
kernel without the netem queueing discipline; packet loss is the kernel's (nftables)."""

from __future__ import annotations

import asyncio
import sys

CHUNK = 65536


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Copy ``reader`` to ``writer``, each chunk ``delay`` seconds after it came."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            due, data = await queue.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if not data:
                writer.close()
                return
            writer.write(data)
            await writer.drain()

    delivering = asyncio.create_task(deliver())
    try:
        while data := await reader.read(CHUNK):
            queue.put_nowait((loop.time() + delay, data))
    except OSError:
        pass
    queue.put_nowait((loop.time() + delay, b""))
    await delivering


async def main(port: int, host: str, target: int, delay: float) -> None:
    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(host, target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            pump(reader, up_writer, delay), pump(up_reader, writer, delay), return_exceptions=True
        )

    server = await asyncio.start_server(relay, "127.0.0.1", port)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])))
