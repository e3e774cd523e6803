"""Group commit (``GroupCommit``, under ``RoomSpace``'s writes), on a real SQLite file and
on a real PostgreSQL database: writes that come together share transactions (counted),
each caller returns only once its own transaction has committed, a write that fails
fails alone (its statements undone, the others of its transaction kept), writes keep
their order, and a bounded number wait. Then ``kill -9`` of a process whose rooms write
at once: every action told kept is there."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from coloretto.engine import Rules
from coloretto.online.server.database import Database, Row, StoreError, StoreUrl, Transaction
from coloretto.online.server.database import open_database as open_store
from coloretto.online.server.group_commit import GroupCommit
from coloretto.online.server.migrations import migrate
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.rooms import Room
from coloretto.online.wire.protocol import Host
from tests.online.conftest import ROOT
from tests.postgres import Postgres

T = TypeVar("T")
LOG = logging.getLogger("test-group-commit")


class Counted(Database):
    """A database that counts its commits (a statement outside a transaction is one),
    numbers its transactions (``begun``), and can hold each commit at a gate (``hold``)
    or refuse it (``refuse``)."""

    def __init__(self, db: Database) -> None:
        self.inner = db
        self.shared = db.shared
        self.commits = 0
        self.begun = 0
        self.gate = asyncio.Event()
        self.gate.set()
        self.refuse = False

    def hold(self) -> None:
        """Commits wait (their statements run) until ``release``."""
        self.gate.clear()

    def release(self) -> None:
        self.gate.set()

    async def execute(self, sql: str, *args: Any) -> int:
        self.commits += 1
        return await self.inner.execute(sql, *args)

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return await self.inner.fetch(sql, *args)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        self.begun += 1
        async with self.inner.transaction() as tx:
            yield tx
            await self.gate.wait()
            if self.refuse:
                raise StoreError("refused at the commit")
        self.commits += 1

    async def close(self) -> None:
        await self.inner.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> StoreUrl:
    """A new empty database: a SQLite file, or a database of the test cluster."""
    if request.param == "sqlite":
        return StoreUrl("sqlite", str(tmp_path / "rooms.sqlite3"))
    postgres: Postgres = request.getfixturevalue("postgres")
    return StoreUrl("postgresql", postgres.database())


def run(url: StoreUrl, work: Callable[[Counted], Awaitable[T]]) -> T:
    """``work`` on the database (its tables made), counted; closed after."""

    async def go() -> T:
        db = await open_store(url, "coloretto-test")
        try:
            await migrate(db)
            await db.execute("CREATE TABLE IF NOT EXISTS kept (n INTEGER PRIMARY KEY, seq INTEGER)")
            return await work(Counted(db))
        finally:
            await db.close()

    return asyncio.run(go())


def put(n: int, seq: int | None = None) -> Callable[[Transaction], Awaitable[int]]:
    """A write of row ``n`` to the test table (``seq``: a second column)."""
    return lambda tx: tx.execute("INSERT INTO kept (n, seq) VALUES (?, ?)", n, seq)


async def numbers(db: Database) -> list[int]:
    return [int(row[0]) for row in await db.fetch("SELECT n FROM kept ORDER BY n")]


def started_room(code: str) -> Room:
    room, _ = Room.open(code, Host.of("Ana", Rules(players=4), "easy", 0, 30))
    room.start()
    return room


def code_of(number: int) -> str:
    return (
        "RZZM" + "ABCDEFGHJKLMNPQRSTUVWXYZ"[number // 24] + "ABCDEFGHJKLMNPQRSTUVWXYZ"[number % 24]
    )


# ------------------------------------------------------------------ sharing transactions


def test_rooms_that_play_at_once_share_transactions(url: StoreUrl) -> None:
    """40 rooms each keep 5 actions, all at once: far fewer commits than actions, and
    every action read back."""
    rooms = [started_room(code_of(n)) for n in range(40)]
    rng = random.Random(3)

    async def work(db: Counted) -> list[int]:
        space = RoomSpace(db, "test")
        for room in rooms:
            await space.create(room)
        before = db.commits
        for _ in range(5):
            moves = []
            for room in rooms:
                ply = room.ply
                moves.append(
                    (
                        room.code,
                        ply,
                        room.session.apply(rng.choice(room.session.game.legal_actions())),
                    )
                )
            await asyncio.gather(
                *(space.append(code, ply, move, False) for code, ply, move in moves)
            )
        commits = db.commits - before
        plies = []
        for room in rooms:
            again = await space.load(room.code, LOG)
            assert again is not None
            plies.append(again.ply)
        return [commits, *plies]

    commits, *plies = run(url, work)
    assert plies == [5] * 40
    assert commits <= 10, f"200 actions took {commits} commits"


def test_a_write_returns_only_once_its_transaction_has_committed(url: StoreUrl) -> None:
    """Commits held at a gate: the writes' statements run, but no caller returns, and
    another connection sees none of them; once the gate opens, every caller returns and
    its row is there."""

    async def work(db: Counted) -> tuple[list[bool], list[int], list[int]]:
        writes = GroupCommit(db)
        db.hold()
        tasks = [asyncio.create_task(writes.write(put(n))) for n in range(10)]
        for _ in range(50):
            await asyncio.sleep(0.01)
        returned = [task.done() for task in tasks]
        seen = await beside(url, "SELECT n FROM kept ORDER BY n")
        db.release()
        await asyncio.gather(*tasks)
        return returned, seen, await beside(url, "SELECT n FROM kept ORDER BY n")

    returned, seen_held, seen_after = run(url, work)
    assert returned == [False] * 10
    assert seen_held == []
    assert seen_after == list(range(10))


async def beside(url: StoreUrl, sql: str) -> list[int]:
    """The first column of a query on a connection of its own (what another reader sees)."""
    if url.kind == "sqlite":
        db = sqlite3.connect(url.target, isolation_level=None, timeout=10)
        try:
            return [int(row[0]) for row in db.execute(sql)]
        finally:
            db.close()
    import asyncpg  # noqa: PLC0415 (the PostgreSQL tests only)

    connection = await asyncpg.connect(url.target)
    try:
        return [int(row[0]) for row in await connection.fetch(sql)]
    finally:
        await connection.close()


# ------------------------------------------------------------------ failing alone


def test_a_write_that_fails_fails_alone(url: StoreUrl) -> None:
    """In one transaction: good writes, a row already kept (the database refuses it), a
    write whose first statement is undone by its own exception after it ran, and a room
    whose code is taken. Each caller is told its own outcome; the others' rows are kept.
    The same failures alone in their transactions leave nothing either."""

    async def half_then_fail(tx: Transaction) -> None:
        await tx.execute("INSERT INTO kept (n) VALUES (?)", 100)
        raise RuntimeError("changed its mind")

    async def work(db: Counted) -> tuple[list[object], list[int], int, bool]:
        space = RoomSpace(db, "test")
        await space.writes.write(put(7))
        await space.create(started_room("TAKENA"))
        with pytest.raises(RuntimeError):  # alone in its transaction
            await space.writes.write(half_then_fail)
        with pytest.raises(StoreError):
            await space.writes.write(put(7))
        db.hold()
        first = asyncio.create_task(space.writes.write(put(0)))
        await asyncio.sleep(0.05)  # the first in a transaction of its own, at the gate
        begun = db.begun
        outcomes = asyncio.gather(
            space.writes.write(put(1)),
            space.writes.write(put(7)),
            space.writes.write(half_then_fail),
            space.create(started_room("TAKENA")),
            space.create(started_room("FRESHA")),
            space.writes.write(put(2)),
            return_exceptions=True,
        )
        await asyncio.sleep(0.05)
        db.release()
        told = await outcomes
        await first
        fresh = await space.status("FRESHA") == "playing"
        return (
            [type(t).__name__ if isinstance(t, BaseException) else t for t in told],
            (await numbers(db)),
            db.begun - begun,
            fresh,
        )

    told, kept, transactions, fresh = run(url, work)
    assert told == [1, "StoreError", "RuntimeError", "CodeTaken", None, 1]
    assert kept == [0, 1, 2, 7]
    assert transactions == 1
    assert fresh


def test_rows_added_together_go_in_one_statement_and_a_refused_one_fails_alone(
    url: StoreUrl,
) -> None:
    """Rows added one after the other in a transaction go to the database in one
    ``executemany`` (counted); one of them refused (a row already kept) fails alone, the
    rows beside it kept, as when each was a write of its own. Writes of other work
    between them keep their place."""
    add = "INSERT INTO kept (n, seq) VALUES (?, ?)"

    async def work(db: Counted) -> tuple[list[object], list[tuple[int, int]], int, int]:
        writes = GroupCommit(db)
        await writes.add(add, 7, 0)
        many = 0

        def counted(execute_many: Any) -> Any:
            async def execute(tx: Transaction, sql: str, rows: Any) -> None:
                nonlocal many
                many += 1
                await execute_many(tx, sql, rows)

            return execute

        db.hold()
        first = asyncio.create_task(writes.add(add, 0, 0))
        await asyncio.sleep(0.05)  # the first in a transaction of its own, at the gate
        begun = db.begun
        with pytest.MonkeyPatch.context() as patch:
            for kind in Transaction.__subclasses__():
                patch.setattr(kind, "execute_many", counted(kind.execute_many))
            outcomes = asyncio.gather(
                *(writes.add(add, n, 1) for n in (1, 2)),
                writes.write(lambda tx: tx.execute("UPDATE kept SET seq = 2 WHERE n = 1")),
                *(writes.add(add, n, 3) for n in (3, 7, 4)),
                return_exceptions=True,
            )
            await asyncio.sleep(0.05)
            db.release()
            told = await outcomes
        await first
        rows = await db.fetch("SELECT n, seq FROM kept ORDER BY n")
        named = [type(t).__name__ if isinstance(t, BaseException) else t for t in told]
        return named, [(int(n), int(seq)) for n, seq in rows], db.begun - begun, many

    told, kept, transactions, many = run(url, work)
    assert told == [None, None, 1, None, "StoreError", None]
    assert kept == [(0, 0), (1, 2), (2, 1), (3, 3), (4, 3), (7, 0)]
    assert transactions == 1
    assert many == 2  # rows 1 and 2; rows 3, 7 and 4 (refused, then added one by one)


def test_a_transaction_that_does_not_commit_fails_all_its_writes(url: StoreUrl) -> None:
    async def work(db: Counted) -> tuple[list[object], list[int]]:
        writes = GroupCommit(db)
        db.refuse = True
        told = await asyncio.gather(
            *(writes.write(put(n)) for n in range(5)), return_exceptions=True
        )
        db.refuse = False
        return [type(t).__name__ for t in told], await numbers(db)

    told, kept = run(url, work)
    assert told == ["StoreError"] * 5
    assert kept == []


def test_a_caller_cancelled_before_its_transaction_has_nothing_written(url: StoreUrl) -> None:
    async def work(db: Counted) -> list[int]:
        writes = GroupCommit(db)
        db.hold()
        first = asyncio.create_task(writes.write(put(0)))
        await asyncio.sleep(0.05)
        later = [asyncio.create_task(writes.write(put(n))) for n in (1, 2, 3)]
        await asyncio.sleep(0.01)
        later[1].cancel()
        db.release()
        await asyncio.gather(first, later[0], later[2])
        assert later[1].cancelled()
        return await numbers(db)

    assert run(url, work) == [0, 1, 3]


# ------------------------------------------------------------------ order and bounds


def test_writes_keep_their_order(url: StoreUrl) -> None:
    """Writes asked for at once run in the order asked (each numbered as it runs); a
    room saved, then played on while the save waits, keeps its action (the save, run
    after the action, would empty the room's actions)."""
    room = started_room("QRDERA")
    rng = random.Random(5)

    async def work(db: Counted) -> tuple[list[int], list[int], int, int]:
        space = RoomSpace(db, "test")
        await space.create(room)
        counter = iter(range(1000))

        def numbered(n: int) -> Callable[[Transaction], Awaitable[int]]:
            return lambda tx: tx.execute(
                "INSERT INTO kept (n, seq) VALUES (?, ?)", n, next(counter)
            )

        order = list(range(60))
        random.Random(1).shuffle(order)
        await asyncio.gather(*(space.writes.write(numbered(n)) for n in order))
        rows = await db.fetch("SELECT n FROM kept ORDER BY seq")
        db.hold()
        first = asyncio.create_task(space.writes.write(put(1000)))
        await asyncio.sleep(0.05)  # at the gate: the two below wait together
        begun = db.begun
        saving = asyncio.create_task(space.save(room))
        await asyncio.sleep(0)  # the room saved as it stands: no action yet
        ply = room.ply
        move = room.session.apply(rng.choice(room.session.game.legal_actions()))
        appending = asyncio.create_task(space.append(room.code, ply, move, False))
        await asyncio.sleep(0.05)
        db.release()
        await asyncio.gather(first, saving, appending)
        again = await space.load(room.code, LOG)
        assert again is not None
        return [int(row[0]) for row in rows], order, again.ply, db.begun - begun

    ran, asked, ply, transactions = run(url, work)
    assert ran == asked
    assert ply == 1
    assert transactions == 1


@pytest.mark.parametrize("bound", ["waiting", "batch"])
def test_a_bounded_number_of_writes_wait(url: StoreUrl, bound: str) -> None:
    """40 writes at once while a commit is held: with at most 4 waiting, or 4 in a
    transaction, no transaction holds more than 4, and all 40 are kept."""

    async def work(db: Counted) -> tuple[list[int], list[int]]:
        writes = (
            GroupCommit(db, max_waiting=4) if bound == "waiting" else GroupCommit(db, max_batch=4)
        )
        batches: dict[int, int] = {}

        def counted(n: int) -> Callable[[Transaction], Awaitable[int]]:
            async def write(tx: Transaction) -> int:
                batches[db.begun] = batches.get(db.begun, 0) + 1
                return await put(n)(tx)

            return write

        db.hold()
        tasks = [asyncio.create_task(writes.write(counted(n))) for n in range(40)]
        await asyncio.sleep(0.05)
        db.release()
        await asyncio.gather(*tasks)
        return sorted(batches.values()), await numbers(db)

    sizes, kept = run(url, work)
    assert max(sizes) == 4, sizes
    assert kept == list(range(40))


# ------------------------------------------------------------------ kill -9

CHILD = """
import asyncio, os, random, sys, time
from pathlib import Path
from coloretto.engine import Rules
from coloretto.online.server.database import SqliteDatabase
from coloretto.online.wire.protocol import Host
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.rooms import Room

async def play(space, code, rng):
    room, _ = Room.open(code, Host.of("Ana", Rules(players=5), "easy", 0, 30))
    room.start()
    await space.create(room)
    while not room.session.game.is_over:
        ply = room.ply
        move = room.session.apply(rng.choice(room.session.game.legal_actions()))
        await space.append(code, ply, move, False)
        os.write(1, f"{code} {ply}\\n".encode())  # one write: a kill never cuts a line
        await asyncio.sleep(rng.uniform(0, 0.002))

async def main() -> None:
    db = SqliteDatabase(Path(sys.argv[1]))
    await db.open()
    space = await RoomSpace.open(db, "child")
    rng = random.Random(int(sys.argv[2]))
    codes = ["KYLL" + a + b for a in "ABCD" for b in "ABCDE"]
    await asyncio.gather(*(play(space, code, random.Random(rng.random())) for code in codes))

asyncio.run(main())
"""


@pytest.mark.parametrize("seed", [1, 2])
def test_killed_while_rooms_write_together_keeps_every_action_told(
    tmp_path: Path, seed: int
) -> None:
    """20 rooms of one process keep their actions at once (group commit), each printed
    once its ``append`` returned; after ``kill -9``, every room has every action told,
    and at most the one it was writing more. SQLite (the file of the one process)."""
    path = tmp_path / "rooms.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    told: dict[str, int] = {}
    for line in child.stdout:
        code, ply = line.split()
        told[code] = int(ply)
        if sum(told.values()) >= 300:
            break
    time.sleep(random.Random(seed).uniform(0, 0.05))
    child.send_signal(signal.SIGKILL)
    for line in child.stdout:
        code, ply = line.split()
        told[code] = int(ply)
    child.wait()

    async def plies(db: Counted) -> dict[str, int]:
        space = RoomSpace(db, "test")
        found = {}
        for code in told:
            again = await space.load(code, LOG)
            assert again is not None
            found[code] = again.ply
        return found

    found = run(StoreUrl("sqlite", str(path)), plies)
    for code, ply in told.items():
        assert found[code] in (ply + 1, ply + 2), (code, ply, found[code])
