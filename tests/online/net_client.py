"""A player with no screen, in a process of its own (say, in another network namespace):
``python -m tests.online.net_client HOST:PORT CODE NAME SEED`` joins room ``CODE``, plays
its turns (taking a row whenever it can) until the game is over (its data directory is
``$COLORETTO_HOME``), then prints what the table told it and ``finished``."""

from __future__ import annotations

import asyncio
import sys

from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.protocol import Join
from tests.online.conftest import AutoPlayer


async def main(server: str, code: str, name: str, seed: int) -> None:
    table = RemoteTable(server, Join(code, name))
    player = AutoPlayer(table, seed, draws=0.0)  # takes at once: few moves, each one slow
    running = asyncio.create_task(table.run())
    async with asyncio.timeout(150):
        while not table.machine.finished:
            if running.done():
                raise SystemExit(f"the connection ended: {running.result()}")
            await asyncio.sleep(0.05)
    for news in player.news:
        print(news)
    print("finished", flush=True)
    table.suspend()
    await running


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
