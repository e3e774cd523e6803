"""Game server load: many rooms at once, each with scripted people and bots.

Run: ``python benchmarks/server.py [--rooms 200] [--people 2] [--players 4] [--bot easy]
[--think SECONDS] [--delay SECONDS] [--rate ROOMS_PER_SECOND] [--processes N]
[--store sqlite|postgres] [--servers K] [--postgres URL] [--cross F] [--seconds S]``
(from the repository's root with ``PYTHONPATH=.``).
The server is ``coloretto server`` as deployed, a process of its own with its own data
directory in a temporary folder, listening on loopback, its limits as they ship (only
``--max-connections`` is raised to the connections the run needs, when the server has the
option). ``--store sqlite`` (the default) is one process on its embedded database;
``--store postgres`` runs ``--servers`` processes on one PostgreSQL: a throwaway cluster
the benchmark starts and stops (``tests/postgres.py``, Debian's server) or the empty
database ``--postgres URL``. Each process has its own port, data directory and room-code
prefixes (``--prefixes``, the 32 characters split between them), and the clients connect
as a proxy would route them (``docs/online.md``, "Several processes"): a room is hosted
at ``/rooms`` on the processes in turn, and its people connect to ``/rooms/CODE`` on the
process its code's first character names, which plays it. ``--cross F`` sends a fraction
``F`` of the people (spread evenly; a host so chosen hosts, then takes its seat up on the
other process with its token) to another process than the one that plays their room, so
that their moves go through the database's relay (``LISTEN``/``NOTIFY``).

This side plays ``--people`` scripted clients in every room (each keeps its model of the
game from what the server tells, as a real client does, and plays when it is its turn);
the server's bots play the other seats. Every client connects from an address of its own
in 127.0.0.0/8, as people come from addresses of their own: the server's limits per
address stay as they are. Rooms open ``--rate`` a second, at most ``--connecting``
handshakes at once; a handshake refused (or timed out) is tried again after a pause.
With no thinking time and no pause for the bots (the defaults) every client answers at
once (as fast as the server lets a connection send, ``GAP``): the server is saturated,
which measures its throughput; ``--think 1 --delay 0.6`` (people who answer in a second,
bots at the game's default pace) measures the delay players would see.

``--seconds S`` ends the run after ``S`` seconds (rooms still in play are left, not
failed), for runs whose games would take longer than one wants to wait.

Printed: the machine (cores, load before and after), actions per second over all rooms
(people's and bots'; and over the busiest 30 s), the time from a person's action to its
own client's update (the move message back) and to the moment *every* client of the room
has it (p50, p95, p99, worst), the bots' pace (from a move to a bot's move
after it: ``--delay`` while the server keeps up), the server's processor time per action
(each process and those it started, from ``/proc``), the database's processor time (the
cluster's processes, when the cluster is the benchmark's own), the servers' memory at
rest, at the busiest and per room, and what the scripted clients cost. A room that
fails (a handshake refused ``--tries`` times, a connection lost, nothing heard for
``--stall`` seconds in a game not over) is counted and the first ones are shown; so are
the warnings and errors in the servers' logs. A benchmark, not a test: the figures depend
on the machine and on its load.
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
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from coloretto.engine import DRAW
from coloretto.online.wire.messages import GameMessage
from coloretto.online.wire.protocol import CODE_ALPHABET, convert
from coloretto.online.wire.public import PublicGame, parse_move

ROOT = Path(__file__).resolve().parents[1]

GAP = 0.11
"""The least time between two actions a client sends (the server lets a connection send 10
messages a second)."""

FIRST_ADDRESS = int(ipaddress.IPv4Address("127.1.0.1"))
"""The address of the first client; the others follow it (all in 127.0.0.0/8)."""

BUSIEST = 30
"""The window (seconds) of the busiest actions per second."""


@dataclass
class Room:
    """What the benchmark saw of one room: when each person's action was sent (and by
    whom), and when each client heard of each action; and the game as the room's clients
    know it (one model for all of them: they are told the same moves)."""

    sent: dict[int, tuple[int, float]] = field(default_factory=dict)
    heard: dict[int, dict[int, float]] = field(default_factory=dict)
    """For each ply, when each client (by its player) was told of it."""
    model: PublicGame | None = None
    crossed: set[int] = field(default_factory=set)
    """The players connected to another process than the one playing the room."""
    code: str = ""
    seats: list[int] = field(default_factory=list)
    """The seats this side's clients hold."""


@dataclass
class Seen:
    """What one client process saw (times in seconds): the delays, the bots' pace,
    actions (and how many were first heard in each second of the run), handshakes tried
    again, rooms that failed and its own processor time."""

    own: list[float] = field(default_factory=list)
    """From a person's action to its own client's update."""
    own_crossed: list[float] = field(default_factory=list)
    """The same, of the people connected to another process than their room's."""
    delays: list[float] = field(default_factory=list)
    """From a person's action to the last of the room's clients' update."""
    paces: list[float] = field(default_factory=list)
    """The time from each move to a bot's move after it (the bots' pace kept or not)."""
    actions: int = 0
    per_second: list[int] = field(default_factory=list)
    retries: int = 0
    failed: list[str] = field(default_factory=list)
    cpu: float = 0.0
    seconds: float = 0.0
    """From the first room's opening to the last action heard (or the cut)."""
    routed: int = 0
    """People connected to the process that plays their room."""
    crossed: int = 0
    """People connected to another process (served through the relay)."""


@dataclass(frozen=True)
class Servers:
    """The server processes' URLs and the characters each one's room codes start with."""

    urls: tuple[str, ...]
    prefixes: tuple[str, ...]

    def of(self, code: str) -> int:
        """The process a room code leads to (as a proxy routes on its first character)."""
        return next(i for i, chars in enumerate(self.prefixes) if code[0] in chars)


def split_prefixes(count: int) -> list[str]:
    """The 32 characters of room codes split into ``count`` runs, one a process."""
    size, extra = divmod(len(CODE_ALPHABET), count)
    runs, at = [], 0
    for i in range(count):
        end = at + size + (i < extra)
        runs.append(CODE_ALPHABET[at:end])
        at = end
    return runs


def crosses(person: int, fraction: float) -> bool:
    """Whether person number ``person`` (over all rooms) connects to another process
    than the one playing its room: ``fraction`` of them, spread evenly."""
    return int((person + 1) * fraction) > int(person * fraction)


# ---------------------------------------------------------------------- the clients


class Stalled(Exception):
    """Nothing heard for ``--stall`` seconds in a game not over."""


async def client(  # noqa: PLR0917
    ws: ClientConnection,
    player: int,
    room: Room,
    args: argparse.Namespace,
    rng: random.Random,
    deadline: float,
) -> None:
    """Play ``player``'s turns in the room until the game is over (or ``deadline``,
    ``time.monotonic``), each once this client has been told of every move before it."""
    heard = 0
    done_for = -1
    last = 0.0
    while True:
        waited = min(args.stall, deadline - time.monotonic())
        try:
            async with asyncio.timeout(waited):
                text = await ws.recv()
        except TimeoutError:
            if time.monotonic() >= deadline:
                return
            raise Stalled(stalled(room, player, args.stall)) from None
        message = json.loads(text)
        kind = message.get("type")
        if kind == "game":
            if room.model is None:
                told = convert(message, GameMessage, "game")
                room.model = PublicGame(told.rules, told.setup)
                for ply, move in enumerate(told.moves):
                    room.model.add(ply, move)
            heard = len(message["moves"])
        elif kind == "move" and room.model is not None:
            ply = message["ply"]
            if ply == room.model.ply:  # the first of the room's clients told of it
                room.model.add(ply, parse_move(message["move"]))
            heard = ply + 1
            room.heard.setdefault(ply, {})[player] = time.monotonic()
        elif kind == "over":
            return
        elif kind == "error":
            raise ConnectionError(f"player {player}: {message.get('code')}: {message}")
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
            wait = rng.uniform(0, 2 * args.think) if args.think else 0.0
            await asyncio.sleep(max(wait, last + GAP - time.monotonic()))
            last = time.monotonic()
            if last >= deadline:
                return
            room.sent[model.ply] = (player, last)
            await ws.send(json.dumps({"type": "act", "ply": model.ply, "action": str(action)}))


def stalled(room: Room, player: int, stall: float) -> str:
    """Why a client heard nothing: the room, the move it waits for and whose it is."""
    said = f"room {room.code}, player {player}: nothing heard for {stall:g} s"
    if room.model is None:
        return f"{said}, no game yet"
    state = room.model.state
    turn = state.rules.controller(state.current_player)
    whose = "held here" if turn in room.seats else "a bot's or a seat no client here holds"
    return f"{said} at ply {room.model.ply}, seat {turn}'s turn ({whose}; seats here {room.seats})"


class Connector:
    """Opens connections from addresses of their own, a bounded number at once, trying a
    refused handshake again after a pause."""

    def __init__(self, at_once: int, tries: int) -> None:
        self.gate = asyncio.Semaphore(at_once)
        self.tries = tries
        self.retries = 0

    async def open(
        self, url: str, number: int, opening: dict[str, Any], expect: str
    ) -> tuple[ClientConnection, dict[str, Any]]:
        """Connection ``number`` to ``url`` (its address: ``FIRST_ADDRESS + number``), its
        opening request sent and the first answer of type ``expect`` received."""
        address = str(ipaddress.IPv4Address(FIRST_ADDRESS + number))
        attempt = 1
        while True:
            ws = None
            try:
                async with self.gate:
                    ws = await connect(
                        url,
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


async def one_room(  # noqa: PLR0917
    connector: Connector,
    servers: Servers,
    number: int,
    args: argparse.Namespace,
    room: Room,
    seen: Seen,
    deadline: float,
) -> None:
    """Open room ``number`` (after its turn in the ramp) on the process whose turn it is,
    seat its people (each on the process that plays the room, or on another one for
    ``--cross``), play it out."""
    rules = {"players": args.players}
    host = {"type": "host", "version": 1, "name": "P1", "rules": rules, "bot": args.bot,
            "delay": args.delay, "away_after": 600}  # fmt: skip
    rng = random.Random(number)
    first = number * args.people
    count = len(servers.urls)
    ws, welcome = await connector.open(
        f"{servers.urls[number % count]}/rooms", first, host, "welcome"
    )
    connections = [ws]
    try:
        code = welcome["room"]
        plays = servers.of(code)
        if plays != number % count:
            raise ConnectionError(f"room {code} made on process {number % count}, not {plays}")

        seats = room.seats = [welcome["seat"]]
        room.code = code

        def url_for(person: int) -> str:
            at = plays
            if count > 1 and crosses(first + person, args.cross):
                at = (plays + 1 + (first + person) % (count - 1)) % count
                seen.crossed += 1
            else:
                seen.routed += 1
            return f"{servers.urls[at]}/rooms/{code}"

        if (url := url_for(0)) != f"{servers.urls[plays]}/rooms/{code}":
            resume = {"type": "resume", "version": 1, "room": code, "token": welcome["token"]}
            ws, _ = await connector.open(url, first, resume, "welcome")
            connections.append(ws)  # the host's seat, taken up on another process
            await connections.pop(0).close()
            room.crossed.add(seats[0])
        for person in range(1, args.people):
            join = {"type": "join", "version": 1, "room": code, "name": f"P{person + 1}"}
            url = url_for(person)
            # the seat the server gives (a join seated whose answer came too late for this
            # side, tried again, takes another seat: the first one's person is away)
            ws, joined = await connector.open(url, first + person, join, "welcome")
            connections.append(ws)
            seats.append(joined["seat"])
            if not url.startswith(servers.urls[plays] + "/"):
                room.crossed.add(joined["seat"])
        await connections[0].send(json.dumps({"type": "start"}))
        await asyncio.gather(
            *(
                client(ws, seat, room, args, rng, deadline)
                for seat, ws in zip(seats, connections, strict=True)
            )
        )
    finally:
        for ws in connections:
            await ws.close()


async def play_rooms(
    servers: Servers, numbers: list[int], args: argparse.Namespace, start: float
) -> Seen:
    """Play the rooms ``numbers``, room ``n`` opened ``n / args.rate`` seconds after
    ``start`` (``time.monotonic``), until they are over or ``args.seconds`` have passed."""
    connector = Connector(args.connecting, args.tries)
    rooms = {n: Room() for n in numbers}
    seen = Seen()

    deadline = float("inf") if args.seconds is None else start + args.seconds

    async def paced(number: int) -> None:
        await asyncio.sleep(max(0.0, start + number / args.rate - time.monotonic()))
        if time.monotonic() >= deadline:
            return
        try:
            await one_room(connector, servers, number, args, rooms[number], seen, deadline)
        except (ConnectionError, ConnectionClosed, Stalled) as problem:
            seen.failed.append(f"room {number}: {problem!r}")

    cpu = time.process_time()
    playing = [asyncio.ensure_future(paced(n)) for n in numbers]
    left = None if args.seconds is None else deadline + 25 - time.monotonic()
    _, late = await asyncio.wait(playing, timeout=left)  # handshakes under way at the cut
    for task in late:
        task.cancel()
    if late:
        await asyncio.wait(late, timeout=15)
    seen.cpu = time.process_time() - cpu
    seen.retries = connector.retries
    end = min(deadline, max((t for r in rooms.values() for h in r.heard.values()
                             for t in h.values()), default=start))  # fmt: skip
    seen.seconds = end - start
    seen.per_second = [0] * (int(seen.seconds) + 1)
    for room in rooms.values():
        for told in room.heard.values():
            at = min(told.values()) - start
            if 0 <= at <= seen.seconds:
                seen.actions += 1
                seen.per_second[int(at)] += 1
        for ply, (player, sent) in room.sent.items():
            told = room.heard.get(ply, {})
            if player in told:
                (seen.own_crossed if player in room.crossed else seen.own).append(
                    told[player] - sent
                )
            if len(told) == args.people:
                seen.delays.append(max(told.values()) - sent)
        seen.paces.extend(
            min(told.values()) - min(room.heard[ply - 1].values())
            for ply, told in room.heard.items()
            if ply not in room.sent and room.heard.get(ply - 1)
        )
    return seen


def client_process(
    servers: Servers, numbers: list[int], args: argparse.Namespace, start: float
) -> Seen:
    """One process of scripted clients (``--processes``)."""
    raise_open_files()
    return asyncio.run(play_rooms(servers, numbers, args, start))


def raise_open_files() -> int:
    """Raise this process's open-file limit to the hard limit; returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# ---------------------------------------------------------------------- the servers


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


def cpu_seconds(pid: int, reaped: bool = False) -> tuple[float, float]:
    """The processor time process ``pid`` has used (user and system), and that of the
    processes it started, in seconds; with ``reaped``, that of its children that ended
    (and were waited for) too, as PostgreSQL's backends do."""
    ticks = [0, 0]
    for each in processes(pid):
        try:
            fields = _stat(each)
        except OSError:
            continue  # ended meanwhile
        ticks[each != pid] += int(fields[11]) + int(fields[12])
        if reaped and each == pid:
            ticks[1] += int(fields[13]) + int(fields[14])
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


def start_server(
    home: Path, args: argparse.Namespace, options: list[str]
) -> tuple[subprocess.Popen[str], str]:
    """``coloretto server`` on a free port of 127.0.0.1, its data directory in ``home``,
    with ``options``; returns it and its URL."""
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(args.code), "COLORETTO_HOME": str(home / "data")}
    command = [sys.executable, "-m", "coloretto", "server", "--host", "127.0.0.1", "--port", "0"]
    shown = subprocess.run(
        [*command, "--help"], capture_output=True, text=True, env=env, cwd=args.code, check=True
    ).stdout
    if "--max-connections" in shown:
        command += ["--max-connections", str(args.rooms * args.people + 100)]
    if "--max-rooms" in shown:
        command += ["--max-rooms", str(args.rooms + 100)]
    command += options
    output = (home / "server.out").open("w")
    server = subprocess.Popen(
        command, stdout=output, stderr=subprocess.STDOUT, text=True, env=env, cwd=args.code
    )
    for _ in range(600):
        text = (home / "server.out").read_text()
        if "ws://" in text:
            return server, "ws://" + text.split("ws://", 1)[1].split()[0].rstrip("/")
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise SystemExit(f"the server did not start: {(home / 'server.out').read_text()}")


def stop_server(server: subprocess.Popen[str]) -> None:
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@contextmanager
def database(args: argparse.Namespace) -> Iterator[tuple[str | None, int | None]]:
    """The store's URL for ``--store postgres`` (``None`` for SQLite, each process's
    own) and the PostgreSQL cluster's main process, when the cluster is this run's own."""
    if args.store == "sqlite":
        yield None, None
    elif args.postgres:
        yield args.postgres, None
    else:
        from tests.postgres import running_postgres  # noqa: PLC0415 (needs the repository)

        with running_postgres() as cluster:
            url = cluster.database()
            pid = (cluster.folder / "data" / "postmaster.pid").read_text().split()[0]
            yield url, int(pid)


def watch_memory(pids: list[int], peak: list[int], stop: threading.Event) -> None:
    while not stop.wait(0.2):
        for i, pid in enumerate(pids):
            peak[i] = max(peak[i], rss(pid))


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
        "--store", choices=("sqlite", "postgres"), default="sqlite",
        help="sqlite: one server process on its own database (the default); postgres: "
        "--servers processes on one PostgreSQL",
    )  # fmt: skip
    parser.add_argument("--servers", type=int, default=1, help="server processes (1)")
    parser.add_argument(
        "--postgres", metavar="URL",
        help="an empty PostgreSQL database (default: a throwaway cluster of this run's own)",
    )  # fmt: skip
    parser.add_argument(
        "--cross", type=float, default=0.0, metavar="F",
        help="the fraction of people who connect to another process than their room's (0)",
    )  # fmt: skip
    parser.add_argument(
        "--seconds", type=float, default=None,
        help="end the run after this many seconds (default: when every game is over)",
    )  # fmt: skip
    parser.add_argument(
        "--stall", type=float, default=60.0,
        help="a room fails when a client hears nothing for this many seconds (60)",
    )  # fmt: skip
    parser.add_argument(
        "--code", type=Path, default=ROOT,
        help="the source tree the server runs from (say, an older commit's, to compare)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.store == "sqlite" and args.servers != 1:
        parser.error("--store sqlite is one server process: --servers 1")
    if args.cross and args.servers < 2:
        parser.error("--cross needs --servers 2 or more")
    if not 0 <= args.cross <= 1:
        parser.error("--cross is a fraction, from 0 to 1")
    files = raise_open_files()
    need = args.rooms * args.people // args.processes + 100
    if files < need:
        raise SystemExit(f"{need} open files are needed, the hard limit is {files}")
    before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder, database(args) as (url, cluster):
        started: list[subprocess.Popen[str]] = []
        try:
            prefixes = split_prefixes(args.servers)
            urls = []
            for number, chars in enumerate(prefixes):
                options = [] if url is None else ["--store", url, "--prefixes", chars]
                server, address = start_server(Path(folder) / f"server{number}", args, options)
                started.append(server)
                urls.append(address)
            servers = Servers(tuple(urls), tuple(prefixes))
            time.sleep(0.5)
            pids = [server.pid for server in started]
            resting = [rss(pid) for pid in pids]
            peak = list(resting)
            stop = threading.Event()
            watcher = threading.Thread(target=watch_memory, args=(pids, peak, stop))
            watcher.start()
            cpu_before = [cpu_seconds(pid) for pid in pids]
            db_before = cpu_seconds(cluster, reaped=True) if cluster else (0.0, 0.0)
            started_at = time.perf_counter()
            seen = run_clients(servers, args)
            seconds = time.perf_counter() - started_at
            cpu = [
                (after[0] - was[0], after[1] - was[1])
                for was, after in zip(cpu_before, map(cpu_seconds, pids), strict=True)
            ]
            db = None
            if cluster:
                db_after = cpu_seconds(cluster, reaped=True)
                db = sum(db_after) - sum(db_before)
            stop.set()
            watcher.join()
        finally:
            for server in started:  # all at once: none takes over another's rooms
                server.terminate()
            for server in started:
                stop_server(server)
        logs = problems_logged(Path(folder))
        if logs:
            logs.insert(0, f"(the servers' logs are kept in {keep_logs(Path(folder))})")
    report(args, seen, Used(seconds, cpu, db, resting, peak, before), logs)


def problems_logged(folder: Path) -> list[str]:
    """The servers' log lines that say something went wrong: warnings and errors of
    their logs, every line of their audit logs (refusals, broken limits, failed saves),
    and what they printed besides the address they listen on."""
    lines = []
    for log in sorted(folder.glob("server*/data/*.log")):
        audit = log.name.startswith("audit")
        for line in log.read_text(errors="replace").splitlines():
            if audit or any(w in line for w in ("ERROR", "WARNING", "CRITICAL", "Traceback")):
                lines.append(f"{log.parent.parent.name}/{log.name}: {line}")
    for out in sorted(folder.glob("server*/server.out")):
        for line in out.read_text(errors="replace").splitlines()[1:]:
            lines.append(f"{out.parent.name}/server.out: {line}")
    return lines


def keep_logs(folder: Path) -> Path:
    """Copy the servers' logs (and what they printed) out of the run's folder, which is
    deleted; returns where they are."""
    kept = Path(tempfile.mkdtemp(prefix="coloretto-bench-logs-", dir="/tmp"))
    for each in [*folder.glob("server*/data/*.log*"), *folder.glob("server*/server.out")]:
        target = kept / each.relative_to(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(each.read_bytes())
    return kept


def run_clients(servers: Servers, args: argparse.Namespace) -> Seen:
    """Play every room, in this process or in ``args.processes`` of them."""
    numbers = list(range(args.rooms))
    start = time.monotonic() + 0.5 * (args.processes > 1)  # the processes' start-up
    if args.processes == 1:
        return asyncio.run(play_rooms(servers, numbers, args, start))
    share = [numbers[i :: args.processes] for i in range(args.processes)]
    count = len(share)
    with ProcessPoolExecutor(args.processes) as pool:
        parts = list(
            pool.map(client_process, [servers] * count, share, [args] * count, [start] * count)
        )
    seen = Seen()
    for part in parts:
        seen.own += part.own
        seen.own_crossed += part.own_crossed
        seen.delays += part.delays
        seen.paces += part.paces
        seen.actions += part.actions
        seen.per_second = [a + b for a, b in zip_longest(seen.per_second, part.per_second)]
        seen.retries += part.retries
        seen.failed += part.failed
        seen.cpu += part.cpu
        seen.seconds = max(seen.seconds, part.seconds)
        seen.routed += part.routed
        seen.crossed += part.crossed
    return seen


def zip_longest(a: list[int], b: list[int]) -> Iterator[tuple[int, int]]:
    for i in range(max(len(a), len(b))):
        yield (a[i] if i < len(a) else 0), (b[i] if i < len(b) else 0)


@dataclass
class Used:
    """What the servers used: seconds of the run, processor seconds of each server
    process (its own, and of the processes it started) and of the database (``None``:
    not measured), memory (KiB) at rest and at the busiest of each; and the machine's
    load before the run."""

    seconds: float
    cpu: list[tuple[float, float]]
    db: float | None
    resting: list[int]
    peak: list[int]
    load: tuple[float, float, float]


def percentiles(label: str, values: list[float]) -> str:
    values = sorted(values)
    if len(values) < 2:
        return f"{label}: too few actions"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return (
        f"{label} ({len(values)} actions): p50 {cuts[49] * 1000:.1f} ms, "
        f"p95 {cuts[94] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms, "
        f"worst {values[-1] * 1000:.1f} ms"
    )


def report(args: argparse.Namespace, seen: Seen, used: Used, logs: list[str]) -> None:
    before, after = used.load, os.getloadavg()
    seconds = used.seconds
    print(
        f"machine: {os.cpu_count()} cores, load {before[0]:.2f} {before[1]:.2f} "
        f"{before[2]:.2f} before, {after[0]:.2f} {after[1]:.2f} {after[2]:.2f} after"
    )
    where = "SQLite, 1 server process" if args.store == "sqlite" else (
        f"PostgreSQL ({'the given database' if args.postgres else 'a throwaway cluster'}), "
        f"{args.servers} server processes")  # fmt: skip
    print(
        f"store: {where}; people connected to the process that plays their room: "
        f"{seen.routed}, to another one (relayed): {seen.crossed}"
    )
    cut = f" (cut after {args.seconds:g} s)" if args.seconds is not None else ""
    size = max(1, min(BUSIEST, len(seen.per_second)))
    window = [
        sum(seen.per_second[i : i + size]) / size
        for i in range(max(1, len(seen.per_second) - size + 1))
    ]
    print(
        f"{args.rooms} rooms opened {args.rate:g} a second, {args.players} players each "
        f"({args.people} scripted clients thinking {args.think:g} s on average, "
        f"{args.players - args.people} bots at {args.bot} waiting {args.delay:g} s): "
        f"{seen.actions} actions in {seen.seconds:.1f} s{cut} = "
        f"{seen.actions / max(seen.seconds, 1e-9):.0f} "
        f"actions/s; the busiest {size} s: {max(window):.0f} actions/s"
    )
    print(
        f"handshakes tried again: {seen.retries}; rooms that failed: {len(seen.failed)}"
        + "".join(f"\n  {line}" for line in seen.failed[:5])
    )
    print(percentiles("a person's action to its own update", seen.own) + " (target p95 < 250 ms)")
    if seen.own_crossed:
        print(percentiles("  the same, relayed (connected to another process)", seen.own_crossed))
    print(percentiles("a person's action to every client's update", seen.delays))
    paces = sorted(seen.paces)
    if len(paces) >= 2:
        cuts = statistics.quantiles(paces, n=100, method="inclusive")
        print(
            f"the bots' pace, from the move before to a bot's move ({len(paces)} moves): "
            f"p50 {cuts[49] * 1000:.0f} ms, p95 {cuts[94] * 1000:.0f} ms "
            f"(they wait {args.delay * 1000:.0f} ms)"
        )
    cpu = sum(sum(each) for each in used.cpu)
    per_action = cpu / seen.actions * 1000 if seen.actions else float("nan")
    print(
        f"processor time: the servers {cpu:.1f} s ({per_action:.2f} ms per action), "
        f"the scripted clients {seen.cpu:.1f} s ({args.processes} processes)"
    )
    for number, (own, children) in enumerate(used.cpu):
        print(
            f"  server process {number}: {own + children:.1f} s (its process {own:.1f} s = "
            f"{own / seconds * 100:.0f}% of a core, its bot workers {children:.1f} s)"
        )
    if used.db is not None:
        per_action = used.db / seen.actions * 1000 if seen.actions else float("nan")
        print(
            f"  the database (the cluster's processes): {used.db:.1f} s = "
            f"{used.db / seconds * 100:.0f}% of a core ({per_action:.2f} ms per action)"
        )
    for number, (resting, peak) in enumerate(zip(used.resting, used.peak, strict=True)):
        print(
            f"server process {number} memory: {resting / 1024:.1f} MiB at rest, "
            f"{peak / 1024:.1f} MiB at the busiest: "
            f"{(peak - resting) / args.rooms * args.servers:.0f} KiB per room"
        )
    print(
        f"the servers' logs: {len(logs)} warnings or errors"
        + "".join(f"\n  {line[:300]}" for line in logs[:10])
    )


if __name__ == "__main__":
    main()
