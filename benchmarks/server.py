"""Game server load: many rooms at once, each with scripted people and bots.

Run: ``python benchmarks/server.py [--rooms 200] [--people 2] [--players 4] [--bot easy]
[--think SECONDS] [--delay SECONDS] [--rate ROOMS_PER_SECOND] [--processes N]``.
The server is ``coloretto server`` as deployed, a process of its own with its own data
directory in a temporary folder, listening on loopback, its limits as they ship (only
``--max-connections`` is raised to the connections the run needs, when the server has the
option). This side plays ``--people`` scripted clients in every room (each keeps its model
of the game from what the server tells, as a real client does, and plays when it is its
turn); the server's bots play the other seats. Every client connects from an address of
its own in 127.0.0.0/8, as people come from addresses of their own: the server's limits
per address stay as they are. Rooms open ``--rate`` a second, at most ``--connecting``
handshakes at once; a handshake refused (or timed out) is tried again after a pause.
With no thinking time and no pause for the bots (the defaults) every client answers at
once (as fast as the server lets a connection send, ``GAP``): the server is saturated,
which measures its throughput; ``--think 1 --delay 0.6``
(people who answer in a second, bots at the game's default pace) measures the delay
players would see.

Printed: the machine (cores, load before and after), actions per second over all rooms
(people's and bots'), the time from a person's action to the moment *every* client of the
room has the update (p50, p95, p99, worst), the bots' pace (from a move to a bot's move
after it: ``--delay`` while the server keeps up), the server's processor time per action
(its process and those it started, from ``/proc``), its memory at rest, at the busiest
and per room, and what the scripted clients cost. A benchmark, not a test: the figures
depend on the machine and on its load.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from coloretto.engine import DRAW
from coloretto.online.messages import GameMessage
from coloretto.online.public import PublicGame, parse_move

ROOT = Path(__file__).resolve().parents[1]

GAP = 0.11
"""The least time between two actions a client sends (the server lets a connection send 10
messages a second)."""

FIRST_ADDRESS = int(ipaddress.IPv4Address("127.1.0.1"))
"""The address of the first client; the others follow it (all in 127.0.0.0/8)."""


@dataclass
class Room:
    """What the benchmark saw of one room: when each person's action was sent, and when
    each client heard of each action; and the game as the room's clients know it (one
    model for all of them: they are told the same moves)."""

    sent: dict[int, float] = field(default_factory=dict)
    heard: dict[int, list[float]] = field(default_factory=dict)
    actions: int = 0
    model: PublicGame | None = None


@dataclass
class Seen:
    """What one client process saw (times in seconds): the delays, the bots' pace,
    actions, handshakes tried again, rooms that failed and its own processor time."""

    delays: list[float] = field(default_factory=list)
    paces: list[float] = field(default_factory=list)
    """The time from each move to a bot's move after it (the bots' pace kept or not)."""
    actions: int = 0
    retries: int = 0
    failed: list[str] = field(default_factory=list)
    cpu: float = 0.0


# ---------------------------------------------------------------------- the clients


async def client(
    ws: ClientConnection, player: int, room: Room, think: float, rng: random.Random
) -> None:
    """Play ``player``'s turns in the room until the game is over, each once this client
    has been told of every move before it."""
    heard = 0
    done_for = -1
    last = 0.0
    async for text in ws:
        message = json.loads(text)
        kind = message.get("type")
        if kind == "game":
            if room.model is None:
                told = GameMessage.parse(message)
                room.model = PublicGame(told.rules, told.setup)
                for ply, move in enumerate(told.moves):
                    room.model.add(ply, move)
            heard = len(message["moves"])
        elif kind == "move" and room.model is not None:
            ply = message["ply"]
            if ply == room.model.ply:  # the first of the room's clients told of it
                room.model.add(ply, parse_move(message["move"]))
            heard = ply + 1
            room.heard.setdefault(ply, []).append(time.perf_counter())
        elif kind == "over":
            if player == 0 and room.model is not None:
                room.actions = room.model.ply
            return
        model = room.model
        if model is None or heard != model.ply or model.state.is_over:
            continue
        state = model.state
        if state.rules.controller(state.current_player) == player and done_for != model.ply:
            legal = state.legal_actions()
            takes = [a for a in legal if a != DRAW]
            action = DRAW if DRAW in legal and (not takes or rng.random() < 0.7) else (
                rng.choice(takes or list(legal)))  # fmt: skip
            done_for = model.ply
            wait = rng.uniform(0, 2 * think) if think else 0.0
            await asyncio.sleep(max(wait, last + GAP - time.perf_counter()))
            room.sent[model.ply] = last = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "ply": model.ply, "action": str(action)}))


class Connector:
    """Opens connections from addresses of their own, a bounded number at once, trying a
    refused handshake again after a pause."""

    def __init__(self, url: str, at_once: int, tries: int) -> None:
        self.url = url
        self.gate = asyncio.Semaphore(at_once)
        self.tries = tries
        self.retries = 0

    async def open(
        self, number: int, opening: dict[str, Any], expect: str
    ) -> tuple[ClientConnection, dict[str, Any]]:
        """Connection ``number`` (its address: ``FIRST_ADDRESS + number``), its opening
        request sent and the first answer of type ``expect`` received."""
        address = str(ipaddress.IPv4Address(FIRST_ADDRESS + number))
        attempt = 1
        while True:
            ws = None
            try:
                async with self.gate:
                    ws = await connect(
                        self.url,
                        max_size=2**20,
                        compression=None,
                        open_timeout=20,
                        local_addr=(address, 0),
                    )
                    await ws.send(json.dumps(opening))
                    async with asyncio.timeout(20):
                        while (answer := json.loads(await ws.recv())).get("type") != expect:
                            if answer.get("type") == "error":  # say, the server is full
                                raise ConnectionError(answer.get("code"))
                return ws, answer
            except (OSError, TimeoutError, InvalidHandshake, ConnectionClosed) as problem:
                if ws is not None:
                    await ws.close()
                if attempt == self.tries:
                    raise ConnectionError(f"{address}: {problem!r}") from None
            self.retries += 1
            await asyncio.sleep(min(5.0, 0.5 * attempt) * random.uniform(0.5, 1.5))
            attempt += 1


async def one_room(connector: Connector, number: int, args: argparse.Namespace, room: Room) -> None:
    """Open room ``number`` (after its turn in the ramp), seat its people, play it out."""
    rules = {"players": args.players}
    host = {"type": "host", "version": 1, "name": "P1", "rules": rules, "bot": args.bot,
            "delay": args.delay, "away_after": 600}  # fmt: skip
    rng = random.Random(number)
    first = number * args.people
    ws, welcome = await connector.open(first, host, "welcome")
    connections = [ws]
    try:
        for person in range(1, args.people):
            join = {"type": "join", "version": 1, "room": welcome["room"], "name": f"P{person + 1}"}
            ws, _ = await connector.open(first + person, join, "welcome")
            connections.append(ws)
        await connections[0].send(json.dumps({"type": "start"}))
        await asyncio.gather(
            *(client(ws, p, room, args.think, rng) for p, ws in enumerate(connections))
        )
    finally:
        for ws in connections:
            await ws.close()


async def play_rooms(url: str, numbers: list[int], args: argparse.Namespace) -> Seen:
    """Play the rooms ``numbers``, room ``n`` opened ``n / args.rate`` seconds in."""
    connector = Connector(url, args.connecting, args.tries)
    rooms = {n: Room() for n in numbers}
    seen = Seen()
    start = time.perf_counter()

    async def paced(number: int) -> None:
        await asyncio.sleep(max(0.0, start + number / args.rate - time.perf_counter()))
        try:
            await one_room(connector, number, args, rooms[number])
        except (ConnectionError, ConnectionClosed) as problem:
            seen.failed.append(f"room {number}: {problem!r}")

    cpu = time.process_time()
    await asyncio.gather(*(paced(n) for n in numbers))
    seen.cpu = time.process_time() - cpu
    seen.retries = connector.retries
    for room in rooms.values():
        seen.actions += room.actions
        seen.delays.extend(
            max(room.heard[ply]) - sent
            for ply, sent in room.sent.items()
            if len(room.heard.get(ply, ())) == args.people
        )
        seen.paces.extend(
            min(heard) - min(room.heard[ply - 1])
            for ply, heard in room.heard.items()
            if ply not in room.sent and room.heard.get(ply - 1)
        )
    return seen


def client_process(url: str, numbers: list[int], args: argparse.Namespace) -> Seen:
    """One process of scripted clients (``--processes``)."""
    raise_open_files()
    return asyncio.run(play_rooms(url, numbers, args))


def raise_open_files() -> int:
    """Raise this process's open-file limit to the hard limit; returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# ---------------------------------------------------------------------- the server


def processes(pid: int) -> list[int]:
    """``pid`` and every process it started (and they started), from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(_stat(int(entry.name))[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(children.get(found[-1], ()))
    return found


def _stat(pid: int) -> list[str]:
    """``/proc/PID/stat``'s fields after the command's name (state, parent, ...)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The processor time process ``pid`` has used (user and system), and that of the
    processes it started, in seconds."""
    ticks = [0, 0]
    for each in processes(pid):
        try:
            fields = _stat(each)
        except OSError:
            continue  # ended meanwhile
        ticks[each != pid] += int(fields[11]) + int(fields[12])
    return ticks[0] / os.sysconf("SC_CLK_TCK"), ticks[1] / os.sysconf("SC_CLK_TCK")


def rss(pid: int) -> int:
    """The resident memory of process ``pid`` and those it started, in KiB."""
    total = 0
    for each in processes(pid):
        try:
            lines = Path(f"/proc/{each}/status").read_text().splitlines()
        except OSError:
            continue
        total += sum(int(line.split()[1]) for line in lines if line.startswith("VmRSS:"))
    return total


def start_server(home: Path, args: argparse.Namespace) -> tuple[subprocess.Popen[str], str]:
    """``coloretto server`` on a free port of 127.0.0.1; returns it and its URL."""
    env = {**os.environ, "PYTHONPATH": str(args.code), "COLORETTO_HOME": str(home / "data")}
    command = [sys.executable, "-m", "coloretto", "server", "--host", "127.0.0.1", "--port", "0"]
    shown = subprocess.run(
        [*command, "--help"], capture_output=True, text=True, env=env, cwd=args.code, check=True
    ).stdout
    if "--max-connections" in shown:
        command += ["--max-connections", str(args.rooms * args.people + 100)]
    output = (home / "server.out").open("w")
    server = subprocess.Popen(
        command, stdout=output, stderr=subprocess.STDOUT, text=True, env=env, cwd=args.code
    )
    for _ in range(300):
        text = (home / "server.out").read_text()
        if "ws://" in text:
            return server, "ws://" + text.split("ws://", 1)[1].split()[0]
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise SystemExit(f"the server did not start: {(home / 'server.out').read_text()}")


def watch_memory(pid: int, peak: list[int], stop: threading.Event) -> None:
    while not stop.wait(0.2):
        peak[0] = max(peak[0], rss(pid))


# ---------------------------------------------------------------------- the run


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
    parser.add_argument("--rate", type=float, default=50.0, help="rooms opened a second (50)")
    parser.add_argument("--connecting", type=int, default=32, help="handshakes at once (32)")
    parser.add_argument("--tries", type=int, default=8, help="tries of a handshake (8)")
    parser.add_argument("--processes", type=int, default=1, help="client processes (1)")
    parser.add_argument(
        "--code", type=Path, default=ROOT,
        help="the source tree the server runs from (say, an older commit's, to compare)",
    )  # fmt: skip
    args = parser.parse_args()
    files = raise_open_files()
    need = args.rooms * args.people // args.processes + 100
    if files < need:
        raise SystemExit(f"{need} open files are needed, the hard limit is {files}")
    before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder), args)
        try:
            time.sleep(0.5)
            resting = rss(server.pid)
            peak = [resting]
            stop = threading.Event()
            watcher = threading.Thread(target=watch_memory, args=(server.pid, peak, stop))
            watcher.start()
            cpu_before, started = cpu_seconds(server.pid), time.perf_counter()
            seen = run_clients(url, args)
            seconds = time.perf_counter() - started
            cpu_after = cpu_seconds(server.pid)
            cpu = (cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1])
            stop.set()
            watcher.join()
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    report(args, seen, Server(seconds, cpu, resting, peak[0], before))


def run_clients(url: str, args: argparse.Namespace) -> Seen:
    """Play every room, in this process or in ``args.processes`` of them."""
    numbers = list(range(args.rooms))
    if args.processes == 1:
        return asyncio.run(play_rooms(url, numbers, args))
    share = [numbers[i :: args.processes] for i in range(args.processes)]
    with ProcessPoolExecutor(args.processes) as pool:
        parts = list(pool.map(client_process, [url] * args.processes, share, [args] * len(share)))
    seen = Seen()
    for part in parts:
        seen.delays += part.delays
        seen.paces += part.paces
        seen.actions += part.actions
        seen.retries += part.retries
        seen.failed += part.failed
        seen.cpu += part.cpu
    return seen


@dataclass
class Server:
    """What the server used: seconds of the run, processor seconds, memory (KiB) at rest
    and at the busiest; and the machine's load before the run."""

    seconds: float
    cpu: tuple[float, float]
    """Its own process's, and that of the processes it started."""
    resting: int
    peak: int
    load: tuple[float, float, float]


def report(args: argparse.Namespace, seen: Seen, used: Server) -> None:
    before, after = used.load, os.getloadavg()
    seconds, resting, peak = used.seconds, used.resting, used.peak
    cpu = sum(used.cpu)
    print(
        f"machine: {os.cpu_count()} cores, load {before[0]:.2f} {before[1]:.2f} "
        f"{before[2]:.2f} before, {after[0]:.2f} {after[1]:.2f} {after[2]:.2f} after"
    )
    print(
        f"{args.rooms} rooms opened {args.rate:g} a second, {args.players} players each "
        f"({args.people} scripted clients thinking {args.think:g} s on average, "
        f"{args.players - args.people} bots at {args.bot} waiting {args.delay:g} s): "
        f"{seen.actions} actions in {seconds:.1f} s = {seen.actions / seconds:.0f} actions/s"
    )
    print(
        f"handshakes tried again: {seen.retries}; rooms that failed: {len(seen.failed)}"
        + "".join(f"\n  {line}" for line in seen.failed[:5])
    )
    delays = sorted(seen.delays)
    if len(delays) >= 2:
        cuts = statistics.quantiles(delays, n=100)
        print(
            f"a person's action to every client's update ({len(delays)} actions): "
            f"p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms, "
            f"p99 {cuts[98] * 1000:.1f} ms, worst {delays[-1] * 1000:.1f} ms "
            "(target p95 < 250 ms)"
        )
    paces = sorted(seen.paces)
    if len(paces) >= 2:
        cuts = statistics.quantiles(paces, n=100)
        print(
            f"the bots' pace, from the move before to a bot's move ({len(paces)} moves): "
            f"p50 {cuts[49] * 1000:.0f} ms, p95 {cuts[94] * 1000:.0f} ms "
            f"(they wait {args.delay * 1000:.0f} ms)"
        )
    per_action = cpu / seen.actions * 1000 if seen.actions else float("nan")
    print(
        f"processor time: the server {cpu:.1f} s ({per_action:.2f} ms per action; its "
        f"process {used.cpu[0]:.1f} s, those it started {used.cpu[1]:.1f} s), "
        f"the scripted clients {seen.cpu:.1f} s ({args.processes} processes)"
    )
    print(
        f"server memory: {resting / 1024:.1f} MiB at rest, {peak / 1024:.1f} MiB at the "
        f"busiest: {(peak - resting) / args.rooms:.0f} KiB per room"
    )


if __name__ == "__main__":
    main()
