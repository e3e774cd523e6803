"""A server's bot workers and helpers end with it however it ends: ``kill -9``, ``SIGTERM``,
or ``kill -9`` after a worker was itself killed and replaced. The server's process tree is
read from ``/proc`` while a room of bots plays; afterwards none of it may be left."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.protocol import Host
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import AutoPlayer, ServerProcess, until
from tests.processes import Tree, alive, command, descendants, end_all, gone

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

HOSTING = Host.of("Ana", Rules(players=4), "normal", 0, 60)
"""Ana and three bots, who think in the server's workers."""

WORKERS = ("--bot-workers", "2")
"""The server's options: two bot workers (the default)."""

GONE_WITHIN = 20.0
"""Seconds the processes left of a server may take to end (generous: the machine is busy)."""


def workers(tree: Tree) -> set[int]:
    """The bot workers of ``tree`` (spawned by ``multiprocessing``)."""
    return {pid for pid in tree if "spawn_main" in command(pid)}


def while_bots_play(
    server: ServerProcess, home: Path, then: Callable[[RemoteTable], Awaitable[None]]
) -> None:
    """Ana plays a room of three bots on ``server``; once the bots have made a few moves,
    ``then(her table)`` (her client is stopped afterwards)."""

    async def test() -> None:
        ana = RemoteTable(server.address, HOSTING, Keeper(DataDir(home)))
        AutoPlayer(ana, 1)
        running = asyncio.create_task(ana.run())
        try:
            await until(lambda: ana.room is not None)
            ana.start()
            await until(lambda: ana.started and len(ana.view.game.history()) >= 12)
            await then(ana)
        finally:
            ana.suspend()
            await asyncio.wait_for(running, 30)

    asyncio.run(asyncio.wait_for(test(), 120))


def server_tree(server: ServerProcess) -> Tree:
    """The server's processes below it: two bot workers and the resource tracker at least."""
    assert server.process is not None
    tree = descendants(server.process.pid)
    assert len(workers(tree)) == 2, alive(tree)
    assert len(tree) >= 3, alive(tree)
    return tree


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_a_server_ended_mid_game_leaves_no_process_behind(
    tmp_path: Path, how: signal.Signals
) -> None:
    server = ServerProcess(tmp_path / "server", options=WORKERS).start()
    tree: Tree = {}
    try:

        async def end(ana: RemoteTable) -> None:
            tree.update(server_tree(server))
            assert server.process is not None
            server.process.send_signal(how)
            await asyncio.to_thread(server.process.wait, GONE_WITHIN)

        while_bots_play(server, tmp_path / "ana", end)
        assert gone(tree, GONE_WITHIN) == []
    finally:
        server.stop()
        end_all(tree)


def test_a_worker_replaced_after_its_death_ends_with_the_server(tmp_path: Path) -> None:
    """The bot workers killed are replaced at the next bot move; the server killed once the
    new worker has answered takes it with it too."""
    server = ServerProcess(tmp_path / "server", options=WORKERS).start()
    tree: Tree = {}
    try:

        async def end(ana: RemoteTable) -> None:
            assert server.process is not None
            pid = server.process.pid
            first = server_tree(server)
            tree.update(first)
            for worker in workers(first):
                os.kill(worker, signal.SIGKILL)
            await until(lambda: bool(workers(descendants(pid)) - set(first)), 60)
            moves = len(ana.view.game.history())
            await until(lambda: len(ana.view.game.history()) >= moves + 8, 60)
            tree.update(descendants(pid))
            server.kill9()

        while_bots_play(server, tmp_path / "ana", end)
        assert gone(tree, GONE_WITHIN) == []
    finally:
        server.stop()
        end_all(tree)
