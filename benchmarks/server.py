"""Game server load: many rooms at once, each with scripted people and bots.

Run: ``python benchmarks/server.py [--rooms 200] [--people 2] [--players 4] [--bot easy]
[--think SECONDS] [--delay SECONDS]``.
A real server process (its own data directory in a temporary folder; rooms saved after
every action, as always) listens on loopback; this process plays ``--people`` scripted
clients in every room (each keeps its model of the game from what the server tells, as a
real client does, and plays as soon as it is its turn), the server's bots play the other
seats. All rooms start together. With no thinking time and no pause for the bots (the
defaults) every client answers at once: the server is saturated, which measures its
throughput; ``--think 1 --delay 0.6`` (people who answer in a second, bots at the game's
default pace) measures the delay players would see.

Printed: actions per second over all rooms (people's and bots'), the time from a person's
action to the moment *every* client of the room has the update (p50, p95, p99, worst;
the target is p95 under 100 ms), and the server's memory: resident set at rest, at the
busiest, and per room. A benchmark, not a test: the figures depend on the machine and on
its load (printed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from coloretto.engine import DRAW, Rules
from coloretto.online.public import PublicGame

ROOT = Path(__file__).resolve().parents[1]

SERVER = """
import asyncio, sys
from pathlib import Path
from coloretto.online.server import Limits, run_server
from coloretto.store.paths import DataDir
limits = Limits(rooms_per_minute=100_000, max_rooms=100_000, messages_per_second=1000, burst=1000)
asyncio.run(run_server("127.0.0.1", 0, DataDir(Path(sys.argv[1])), limits=limits,
                       ready=lambda text: print(text, flush=True)))
"""
"""The server, with the per-address limits lifted: every client here comes from 127.0.0.1."""


@dataclass
class Room:
    """What the benchmark saw of one room: when each person's action was sent, and when
    each client heard of each action."""

    sent: dict[int, float] = field(default_factory=dict)
    heard: dict[int, list[float]] = field(default_factory=dict)
    actions: int = 0


def cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def client(
    ws: ClientConnection, player: int, room: Room, think: float, rng: random.Random
) -> None:
    """Play ``player``'s turns in the room until the game is over."""
    model: PublicGame | None = None
    done_for = -1
    async for text in ws:
        message = json.loads(text)
        kind = message["type"]
        if kind == "game":
            model = PublicGame(Rules(**message["rules"]), message["setup"])
            for ply, move in enumerate(message["moves"]):
                model.add(ply, move)
        elif kind == "move" and model is not None:
            model.add(message["ply"], message["move"])
            room.heard.setdefault(message["ply"], []).append(time.perf_counter())
        elif kind == "over":
            if player == 0 and model is not None:
                room.actions = model.ply
            return
        if model is None or model.state.is_over:
            continue
        state = model.state
        if state.rules.controller(state.current_player) == player and done_for != model.ply:
            legal = state.legal_actions()
            takes = [a for a in legal if a != DRAW]
            action = DRAW if DRAW in legal and (not takes or rng.random() < 0.7) else (
                rng.choice(takes or list(legal)))  # fmt: skip
            done_for = model.ply
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            room.sent[model.ply] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "ply": model.ply, "action": str(action)}))


async def one_room(url: str, number: int, args: argparse.Namespace, room: Room) -> None:
    rules = {"players": args.players}
    host = {"type": "host", "version": 1, "name": "P1", "rules": rules, "bot": args.bot,
            "delay": args.delay, "away_after": 600}  # fmt: skip
    rng = random.Random(number)
    connections = [await connect(url, max_size=2**20, compression=None)]
    await connections[0].send(json.dumps(host))
    code = json.loads(await connections[0].recv())["room"]
    for person in range(1, args.people):
        ws = await connect(url, max_size=2**20, compression=None)
        join = {"type": "join", "version": 1, "room": code, "name": f"P{person + 1}"}
        await ws.send(json.dumps(join))
        connections.append(ws)
    for ws in connections[1:]:  # wait for each seat before starting
        while json.loads(await ws.recv())["type"] != "welcome":
            pass
    await connections[0].send(json.dumps({"type": "start"}))
    await asyncio.gather(
        *(client(ws, p, room, args.think, rng) for p, ws in enumerate(connections))
    )
    for ws in connections:
        await ws.close()


async def watch_memory(pid: int, peak: list[int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak[0] = max(peak[0], rss(pid))
        await asyncio.sleep(0.1)


async def run(url: str, pid: int, args: argparse.Namespace) -> tuple[list[Room], float, int]:
    rooms = [Room() for _ in range(args.rooms)]
    peak = [0]
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch_memory(pid, peak, stop))
    start = time.perf_counter()
    await asyncio.gather(*(one_room(url, n, args, room) for n, room in enumerate(rooms)))
    seconds = time.perf_counter() - start
    stop.set()
    await watcher
    return rooms, seconds, peak[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--people", type=int, default=2, help="scripted clients per room")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="easy", help="the bots' level (easy: the greedy bot)")
    parser.add_argument(
        "--think", type=float, default=0.0,
        help="a scripted person's mean thinking time, in seconds (0: they answer at once)",
    )  # fmt: skip
    parser.add_argument("--delay", type=float, default=0.0, help="the bots' pace, in seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, home], stdout=subprocess.PIPE, text=True, env=env
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            url = "ws://" + line.split("ws://", 1)[1].split()[0]
            time.sleep(0.5)
            resting = rss(server.pid)
            cpu_before, mine = cpu_seconds(server.pid), time.process_time()
            rooms, seconds, peak = asyncio.run(run(url, server.pid, args))
            cpu = cpu_seconds(server.pid) - cpu_before
            mine = time.process_time() - mine
        finally:
            server.kill()
            server.wait()
    delays = [
        max(room.heard[ply]) - sent
        for room in rooms
        for ply, sent in room.sent.items()
        if len(room.heard.get(ply, ())) == args.people
    ]
    actions = sum(room.actions for room in rooms)
    cuts = statistics.quantiles(delays, n=100)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(
        f"{args.rooms} rooms at once, {args.players} players each ({args.people} scripted "
        f"clients thinking {args.think:g} s on average, {args.players - args.people} bots at "
        f"{args.bot} waiting {args.delay:g} s): {actions} actions in "
        f"{seconds:.1f} s = {actions / seconds:.0f} actions/s"
    )
    print(
        f"a person's action to every client's update ({len(delays)} actions): "
        f"p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms, "
        f"p99 {cuts[98] * 1000:.1f} ms, worst {max(delays) * 1000:.1f} ms (target p95 < 100 ms)"
    )
    print(
        f"processor time: the server {cpu:.1f} s ({cpu / actions * 1000:.2f} ms per action), "
        f"the scripted clients {mine:.1f} s"
    )
    print(
        f"server memory: {resting / 1024:.1f} MiB at rest, {peak / 1024:.1f} MiB at the "
        f"busiest: {(peak - resting) / args.rooms:.0f} KiB per room"
    )


if __name__ == "__main__":
    main()
