"""What keeping one action costs the server's database: the whole room saved
(``RoomSpace.save``: its snapshot rewritten, its actions emptied) against one action
kept (``RoomSpace.append``: one small row), and a room read back (``RoomSpace.load``:
its snapshot, then its actions played again), on SQLite and, if given, PostgreSQL.

Run: ``python benchmarks/store.py [--games 5] [--players 4] [--rooms 200] [--folder DIR]
[--postgres postgresql://USER@HOST/DB] [--postgres-only]``.

Plays ``--games`` games of scripted people and bots (in this process), each in two rooms
of the same deal under two codes: one saved whole after every action, the other keeping
each action as a row. SQLite: a new file in a temporary folder on the disk the data
directory would be on (``--folder``), each commit flushed to the disk (``synchronous=FULL``,
as the server runs it). PostgreSQL: the database ``--postgres`` names (its tables made if
need be; the rooms made here removed at the end). Prints the median time per action in
microseconds, elapsed and of this process's processor time (the database's own is not
counted for PostgreSQL), and at the games' last actions, where the whole save is at its
dearest; then the median time to read a finished game's room back. Then ``--rooms``
rooms keep their actions all at once, each one after the other as a server's rooms do
(each room's next action once its last is kept): actions kept a second, the time from an
action asked to its ``append`` returned (p50, p95), and this process's processor time per
action (group commit: the actions that come while a transaction commits share the next).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from coloretto.engine import Rules
from coloretto.engine.record import parse_record, record_text
from coloretto.online.server.database import Database, SharedDatabase, SqliteDatabase
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.rooms import Room, new_code
from coloretto.online.wire.protocol import Host

T = TypeVar("T")
Timing = tuple[float, float]
"""Elapsed and processor seconds."""


@dataclass
class Figures:
    whole: list[Timing] = field(default_factory=list)
    """Each action's whole save."""
    kept: list[Timing] = field(default_factory=list)
    """Each action kept as a row."""
    read: list[Timing] = field(default_factory=list)
    """Finished games' rooms read back."""
    ends: list[int] = field(default_factory=list)
    """Where each game's last action is in ``whole`` and ``kept``."""


async def timed(work: Awaitable[T], into: list[Timing]) -> T:
    """What ``work`` gives; its time added to ``into``."""
    started = time.perf_counter(), time.process_time()
    done = await work
    into.append((time.perf_counter() - started[0], time.process_time() - started[1]))
    return done


def twin(room: Room, code: str) -> Room:
    """The same room (the same deal, seats and actions) under another code."""
    snapshot = room.snapshot()
    text = record_text(snapshot.state, snapshot.seats, snapshot.meta)
    return Room.from_record(parse_record(text.replace(f'"{room.code}"', f'"{code}"')), code)


async def measure(space: RoomSpace, games: int, players: int) -> Figures:
    """Play the games, keeping each action both ways."""
    found = Figures()
    codes: list[str] = []
    log = logging.getLogger("benchmark")
    try:
        for number in range(games):
            room, _ = Room.open(new_code(), Host.of("Ana", Rules(players=players), "easy", 0, 30))
            room.join("Ben")
            room.start()
            saved = twin(room, new_code())
            codes += [room.code, saved.code]
            await space.create(room)
            await space.create(saved)
            rng = random.Random(number)
            while not room.session.game.is_over:
                ply = room.ply
                action = rng.choice(room.session.game.legal_actions())
                move = room.session.apply(action)
                saved.session.apply(action)
                await timed(space.save(saved), found.whole)
                await timed(space.append(room.code, ply, move, False), found.kept)
            found.ends.append(len(found.whole) - 1)
            for _ in range(5):
                again = await timed(space.load(room.code, log), found.read)
                assert again is not None
                assert again.session.game.history() == room.session.game.history()
    finally:
        for code in codes:
            await space.remove(code)
    return found


def report(name: str, found: Figures, games: int, players: int) -> None:
    ends = found.ends
    print(
        f"{name}: {len(found.whole)} actions of {games} games of {players} players, each "
        "kept both ways; the median per action (at the games' last actions), in µs:"
    )
    for label, times in (
        ("whole room saved (snapshot rewritten, actions emptied, one commit)", found.whole),
        ("one action kept (a row inserted, one commit)", found.kept),
    ):
        wall, cpu = (statistics.median(t[i] for t in times) * 1e6 for i in (0, 1))
        wall_end, cpu_end = (statistics.median(times[e][i] for e in ends) * 1e6 for i in (0, 1))
        print(
            f"  {label}: {wall:.0f} elapsed ({wall_end:.0f}), "
            f"{cpu:.0f} of processor time ({cpu_end:.0f})"
        )
    wall, cpu = (statistics.median(t[i] for t in found.read) * 1e6 for i in (0, 1))
    print(
        f"  a finished game's room read back (snapshot and its actions played again): "
        f"{wall:.0f} elapsed, {cpu:.0f} of processor time"
    )


async def at_once(space: RoomSpace, rooms: int, players: int) -> None:
    """``rooms`` rooms play a game each, all at once, every action kept; the figures."""
    log = logging.getLogger("benchmark")
    waits: list[float] = []

    async def one(number: int) -> None:
        room, _ = Room.open(new_code(), Host.of("Ana", Rules(players=players), "easy", 0, 30))
        room.start()
        await space.create(room)
        rng = random.Random(number)
        while not room.session.game.is_over:
            ply = room.ply
            move = room.session.apply(rng.choice(room.session.game.legal_actions()))
            asked = time.perf_counter()
            await space.append(room.code, ply, move, False)
            waits.append(time.perf_counter() - asked)
        again = await space.load(room.code, log)
        assert again is not None
        assert again.ply == room.ply
        await space.remove(room.code)

    load = os.getloadavg()
    started = time.perf_counter(), time.process_time()
    await asyncio.gather(*(one(number) for number in range(rooms)))
    wall, cpu = time.perf_counter() - started[0], time.process_time() - started[1]
    cuts = statistics.quantiles(waits, n=20)
    print(
        f"  {rooms} rooms at once (load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}): "
        f"{len(waits)} actions in {wall:.1f} s = {len(waits) / wall:.0f} actions/s; "
        f"an action asked to kept: p50 {cuts[9] * 1e3:.1f} ms, p95 {cuts[18] * 1e3:.1f} ms; "
        f"{cpu / len(waits) * 1e6:.0f} µs of processor time per action (rooms made, read "
        "back and removed included)"
    )


async def on(db: Database, args: argparse.Namespace, name: str) -> None:
    try:
        space = await RoomSpace.open(db, "benchmark")
        report(name, await measure(space, args.games, args.players), args.games, args.players)
        if args.rooms:
            await at_once(space, args.rooms, args.players)
    finally:
        await db.close()


async def main_async(args: argparse.Namespace) -> None:
    if not args.postgres_only:
        with tempfile.TemporaryDirectory(dir=args.folder) as home:
            sqlite = SqliteDatabase(Path(home) / "rooms.sqlite3")
            await sqlite.open()
            await on(sqlite, args, "SQLite")
    if args.postgres:
        shared = SharedDatabase(args.postgres, "coloretto-benchmark")
        await shared.open()
        await on(shared, args, "PostgreSQL")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rooms", type=int, default=200, help="rooms at once (0: none)")
    parser.add_argument("--folder", default=None, help="where the SQLite file goes")
    parser.add_argument("--postgres", metavar="URL", help="also a PostgreSQL database")
    parser.add_argument("--postgres-only", action="store_true", help="not SQLite")
    args = parser.parse_args()
    if args.postgres_only and not args.postgres:
        parser.error("--postgres-only needs --postgres URL")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
