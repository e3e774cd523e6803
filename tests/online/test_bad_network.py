"""The same kind of game over a bad network: Ben's client runs in a network namespace of
its own, behind 200 ms of delay each way and 5% packet loss, and the game still ends with
the same record at Ben's, at the host's and on the server.

The impairment is ``tc netem delay 200ms loss 5%`` on both ends of the link when the kernel
has the netem queueing discipline. A kernel built without it (``CONFIG_NET_SCH_NETEM``
unset: ``tc`` answers "Specified qdisc kind is unknown") gets the same impairment another
way: the loss from nftables (``numgen random mod 100 < 5 drop``, each way, counted), the
delay from a relay in the namespace that holds every chunk for 200 ms each way.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from coloretto.engine import Rules, load_record
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.protocol import Host
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import ROOT, AutoPlayer, ServerProcess, history_record

DELAY = 0.2
LOSS = 5
RELAY_PORT = 7000


def ip(*args: str, namespace: str | None = None, check: bool = True) -> str:
    """Run ``ip`` (or, with a first argument ``tc`` or ``nft``, that tool), in
    ``namespace`` if given; returns what it printed."""
    tool = ["ip"] if args[0] not in {"tc", "nft"} else []
    command = [*(["ip", "netns", "exec", namespace] if namespace else []), *tool, *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
    return done.stdout + done.stderr


@dataclass
class Link:
    """A network namespace joined to this one by a veth pair, impaired."""

    namespace: str
    outside: str
    """This side's address (the server listens there)."""
    netem: str | None
    """``None`` when netem does the impairment; otherwise why it could not."""

    def lost(self) -> int:
        """Packets nftables dropped so far (0 with netem)."""
        if self.netem is None:
            return 0
        rules = ip("nft", "list", "table", "inet", "impair", namespace=self.namespace)
        return sum(int(n) for n in re.findall(r"counter packets (\d+)", rules))


@pytest.fixture
def link() -> Iterator[Link]:
    pid = os.getpid()
    namespace, outer, inner = f"colnet{pid}", f"cn{pid}a", f"cn{pid}b"
    net = f"10.211.{pid % 250}"
    try:
        ip("netns", "add", namespace)
        ip("link", "add", outer, "type", "veth", "peer", "name", inner)
        ip("link", "set", inner, "netns", namespace)
        ip("addr", "add", f"{net}.1/30", "dev", outer)
        ip("link", "set", outer, "up")
        ip("addr", "add", f"{net}.2/30", "dev", inner, namespace=namespace)
        ip("link", "set", inner, "up", namespace=namespace)
        ip("link", "set", "lo", "up", namespace=namespace)
        netem = f"delay {int(DELAY * 1000)}ms loss {LOSS}%".split()
        problem = None
        try:
            ip("tc", "qdisc", "add", "dev", outer, "root", "netem", *netem)
            ip("tc", "qdisc", "add", "dev", inner, "root", "netem", *netem, namespace=namespace)
        except RuntimeError as error:
            problem = str(error)
            for hook in ("input", "output"):
                if hook == "input":
                    ip("nft", "add", "table", "inet", "impair", namespace=namespace)
                ip("nft", "add", "chain", "inet", "impair", hook,
                   f"{{ type filter hook {hook} priority 0 ; }}", namespace=namespace)  # fmt: skip
                ip("nft", "add", "rule", "inet", "impair", hook, "iifname" if hook == "input"
                   else "oifname", inner, "numgen", "random", "mod", "100", "<", str(LOSS),
                   "counter", "drop", namespace=namespace)  # fmt: skip
        yield Link(namespace, f"{net}.1", problem)
    finally:
        ip("netns", "del", namespace, check=False)
        ip("link", "del", outer, check=False)


def test_a_game_over_a_slow_lossy_network_ends_the_same_everywhere(
    link: Link, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "server", host=link.outside)
    homes = {"ana": tmp_path / "ana", "ben": tmp_path / "ben"}
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(homes["ben"])}
    inside = ["ip", "netns", "exec", link.namespace, sys.executable, "-m"]
    helpers: list[subprocess.Popen[str]] = []
    try:
        server.start()
        target = f"{server.address}"
        if link.netem is not None:  # no netem: the relay delays, nftables loses
            relay = subprocess.Popen(
                [*inside, "tests.online.delay_relay", str(RELAY_PORT), link.outside,
                 str(server.port), str(DELAY)],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            helpers.append(relay)
            assert relay.stdout is not None
            assert relay.stdout.readline().strip() == "ready"
            target = f"127.0.0.1:{RELAY_PORT}"
        rules = {"players": 3, "scoring": "brown", "edition": "classic", "variant": "standard"}
        opening = Host.of("Ana", Rules(**rules), "easy", 0, 60)  # type: ignore[arg-type]
        ana = RemoteTable(server.address, opening, Keeper(DataDir(homes["ana"])))
        AutoPlayer(ana, 4)

        async def play() -> float:
            running = asyncio.create_task(ana.run())
            async with asyncio.timeout(150):
                while ana.room is None:
                    await asyncio.sleep(0.02)
                ben = subprocess.Popen(
                    [*inside, "tests.online.net_client", target, ana.room, "Ben", "5"],
                    cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    text=True,
                )  # fmt: skip
                helpers.append(ben)
                while len(ana.machine.away) or not ana.room or not _seated(server, ana.room):
                    await asyncio.sleep(0.05)
                start = time.monotonic()
                ana.start()
                while not ana.machine.finished:
                    await asyncio.sleep(0.05)
                out, _ = await asyncio.to_thread(ben.communicate, timeout=60)
                assert "finished" in out, out
            ana.suspend()
            await running
            return time.monotonic() - start

        seconds = asyncio.run(play())
    finally:
        for helper in helpers:
            helper.kill()
            helper.wait()
        server.stop()
    on_server = server.finished_game()
    record = load_record(on_server)
    for home in homes.values():
        mine = history_record(home)
        for key in ("rules", "seats", "setup", "actions", "result"):
            assert mine[key] == on_server[key], (home, key)
    # The impairment was there: each of Ben's moves waited for the delay both ways, and
    # packets were lost (and sent again) on the way.
    ben_moves = sum(1 for move in record.state.history() if move.player == 1)
    assert seconds >= ben_moves * 2 * DELAY
    if link.netem is not None:
        assert link.lost() > 0
    print(f"\nnetem: {link.netem or 'yes'}; {ben_moves} moves by Ben in {seconds:.1f} s; "
          f"{link.lost()} packets dropped")  # fmt: skip


def _seated(server: ServerProcess, room: str) -> bool:
    """True once the room kept in the server's database shows a second person."""
    return any(
        kept.code == room and sum(p is not None for p in kept.people) >= 2
        for kept in server.rooms()
    )
