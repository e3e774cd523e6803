"""A server's bot workers and helpers end with it however it ends: ``kill -9``, ``SIGTERM``,
or ``kill -9`` after a worker was itself killed and replaced. The server's process tree is
read from ``/proc`` while a room of bots plays; afterwards none of it may be left."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from coloretto.engine import Rules
from coloretto.online.client import RemoteTable
from coloretto.online.protocol import Host
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import AutoPlayer, ServerProcess, until

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

HOSTING = Host("Ana", Rules(players=4), "normal", 0, 60)
"""Ana and three bots, who think in the server's workers."""

GONE_WITHIN = 20.0
"""Seconds the processes left of a server may take to end (generous: the machine is busy)."""

Tree = dict[int, int]
"""Processes by id, each with its start time (so that a reused id is not taken for it)."""


def stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state, parent, ...), or
    ``None`` for no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def started(pid: int) -> int | None:
    """When ``pid`` started (clock ticks after boot), or ``None`` for no such process."""
    fields = stat(pid)
    return None if fields is None else int(fields[19])


def descendants(pid: int) -> Tree:
    """``pid``'s children, theirs, and so on."""
    found: Tree = {}
    parents = [pid]
    while parents:
        parent = parents.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                start = started(child)
                if start is not None and child not in found:
                    found[child] = start
                    parents.append(child)
    return found


def alive(tree: Tree) -> list[str]:
    """The processes of ``tree`` still running (a zombie has ended), with their commands."""
    running = []
    for pid, start in tree.items():
        fields = stat(pid)
        if fields is not None and fields[0] != "Z" and int(fields[19]) == start:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            running.append(f"{pid}: {command.decode(errors='replace')}")
    return running


def workers(tree: Tree) -> set[int]:
    """The bot workers of ``tree``."""
    return {pid for pid in tree if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()}


def gone(tree: Tree) -> list[str]:
    """Wait (``GONE_WITHIN`` seconds at most) until no process of ``tree`` runs; those still
    running then."""
    deadline = time.monotonic() + GONE_WITHIN
    while alive(tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(tree)


def end_all(tree: Tree) -> None:
    """Kill what is left of ``tree`` (what the old code left behind)."""
    for pid, start in tree.items():
        if alive({pid: start}):
            os.kill(pid, signal.SIGKILL)


def while_bots_play(server: ServerProcess, home: Path, then: Callable[[], Awaitable[None]]) -> None:
    """Ana plays a room of three bots on ``server``; once the bots have made a few moves,
    ``then()`` (Ana's client is stopped afterwards)."""

    async def test() -> None:
        ana = RemoteTable(server.address, HOSTING, Keeper(DataDir(home)))
        AutoPlayer(ana, 1)
        running = asyncio.create_task(ana.run())
        try:
            await until(lambda: ana.room is not None)
            ana.start()
            await until(lambda: ana.started and len(ana.view.game.history()) >= 12)
            await then()
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
    server = ServerProcess(tmp_path / "server").start()
    tree: Tree = {}
    try:

        async def end() -> None:
            tree.update(server_tree(server))
            assert server.process is not None
            server.process.send_signal(how)
            await asyncio.to_thread(server.process.wait, GONE_WITHIN)

        while_bots_play(server, tmp_path / "ana", end)
        assert gone(tree) == []
    finally:
        server.stop()
        end_all(tree)


def test_a_worker_replaced_after_its_death_ends_with_the_server(tmp_path: Path) -> None:
    """A bot worker killed is replaced at the next bot move; the server killed later takes
    the new worker with it too."""
    server = ServerProcess(tmp_path / "server").start()
    tree: Tree = {}
    try:

        async def end() -> None:
            assert server.process is not None
            pid = server.process.pid
            first = server_tree(server)
            tree.update(first)
            for worker in workers(first):
                os.kill(worker, signal.SIGKILL)
            await until(lambda: bool(workers(descendants(pid)) - set(first)), 60)
            tree.update(descendants(pid))
            server.kill9()

        while_bots_play(server, tmp_path / "ana", end)
        assert gone(tree) == []
    finally:
        server.stop()
        end_all(tree)
