"""Group commit: the store's writes that come while a transaction commits wait for it,
then go together in the next one, so that one flush to the disk keeps them all.

Each write is a small piece of work on a transaction (``Write``), run inside a savepoint
of its own (but when it is alone in its transaction): one that fails (a constraint, a
``CodeTaken``) is undone alone, its caller told, and the others of its transaction go
on. A caller's ``write`` returns only once the transaction that holds its work has
committed, so a write returned is on the disk, as when each write had a transaction of
its own. Writes run in the order they came (the rooms' actions in their order). When
nothing is being committed a write goes at once; while a commit is under way the writes
that come wait for the next one, ``max_batch`` at most in one transaction; past
``max_waiting`` writes waiting, a caller waits before its write is taken (the store's
pace holds the server back, rather than its memory growing).

A write that only adds a row (``add``, a room's action) is a statement and its arguments,
not work: the rows added one after the other in a transaction go to the database in one
``executemany``, in one savepoint; if that fails, they are added again one by one, each
in its own, so that only the rows refused fail.

>>> import asyncio, tempfile
>>> from pathlib import Path
>>> from coloretto.online.server.database import SqliteDatabase
>>> async def demo() -> tuple[object, ...]:
...     db = SqliteDatabase(Path(tempfile.mkdtemp()) / "demo.sqlite3")
...     await db.open()
...     await db.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
...     writes = GroupCommit(db)
...     async def put(tx: Transaction, n: int) -> int:
...         return await tx.execute("INSERT INTO t (n) VALUES (?)", n)
...     done = await asyncio.gather(
...         *(writes.write(lambda tx, n=n: put(tx, n)) for n in range(5)),
...         writes.write(lambda tx: put(tx, 1)),  # taken: fails alone
...         return_exceptions=True,
...     )
...     rows = await db.fetch("SELECT n FROM t ORDER BY n")
...     await db.close()
...     return done[:5], type(done[5]).__name__, len(rows), writes.transactions
>>> asyncio.run(demo())  # six writes, one transaction; the one that fails, alone
([1, 1, 1, 1, 1], 'StoreError', 5, 1)
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from itertools import groupby
from typing import Any, NamedTuple, TypeVar

from coloretto.online.server.database import Database, StoreError, Transaction

T = TypeVar("T")

Write = Callable[[Transaction], Awaitable[T]]
"""Work on a transaction: statements, and what they give back."""


class _Add(NamedTuple):
    """A write that adds one row: ``sql`` with ``args``."""

    sql: str
    args: tuple[Any, ...]

    async def __call__(self, tx: Transaction) -> None:
        await tx.execute(self.sql, *self.args)


_Waiting = tuple[Write[Any] | _Add, asyncio.Future[Any]]

MAX_BATCH = 256
"""The most writes in one transaction."""

MAX_WAITING = 4096
"""The most writes waiting for a transaction; more callers wait to be taken."""


class GroupCommit:
    """The writes to ``db`` grouped into as few transactions as they can be."""

    def __init__(
        self, db: Database, *, max_batch: int = MAX_BATCH, max_waiting: int = MAX_WAITING
    ) -> None:
        self.db = db
        self.max_batch = max_batch
        self.transactions = 0
        """The transactions committed so far."""
        self.max_waiting = max_waiting
        self._taken = 0
        """The writes taken and not yet returned (``max_waiting`` at most)."""
        self._blocked: deque[asyncio.Future[None]] = deque()
        """The callers waiting to be taken, in order."""
        self._waiting: deque[_Waiting] = deque()
        self._writer: asyncio.Task[None] | None = None

    async def write(self, work: Write[T]) -> T:
        """What ``work`` gives, once the transaction it ran in has committed; the
        exception it raised (its statements undone, the others' kept), or ``StoreError``
        if the transaction did not commit (then nothing of it is kept). A caller
        cancelled before its transaction begins has nothing written."""
        done: T = await self._write(work)
        return done

    async def add(self, sql: str, *args: Any) -> None:
        """``write`` of the statement ``sql`` that adds one row (``args``), added with the
        rows of the same statement next to it in its transaction (see the module)."""
        await self._write(_Add(sql, args))

    async def _write(self, work: Write[Any] | _Add) -> Any:
        loop = asyncio.get_running_loop()
        if self._taken < self.max_waiting and not self._blocked:
            self._taken += 1
        else:  # a place is handed over by a write that returns (``_leave``)
            place: asyncio.Future[None] = loop.create_future()
            self._blocked.append(place)
            try:
                await place
            except asyncio.CancelledError:
                if place.done() and not place.cancelled():
                    self._leave()  # handed a place while being cancelled: pass it on
                raise
        try:
            done: asyncio.Future[Any] = loop.create_future()
            self._waiting.append((work, done))
            if self._writer is None:
                self._writer = asyncio.create_task(self._write_all(), name="group-commit")
            return await done
        finally:
            self._leave()

    def _leave(self) -> None:
        """A write taken has returned: its place goes to the next caller waiting."""
        self._taken -= 1
        while self._blocked:
            place = self._blocked.popleft()
            if not place.done():  # not cancelled
                self._taken += 1
                place.set_result(None)
                return

    async def _write_all(self) -> None:
        """Commit what waits, batch after batch, until nothing does."""
        batch: list[_Waiting] = []
        try:
            while self._waiting:
                batch = []
                while self._waiting and len(batch) < self.max_batch:
                    work, done = self._waiting.popleft()
                    if not done.done():  # its caller was cancelled
                        batch.append((work, done))
                if batch:
                    await self._commit(batch)
        finally:
            self._writer = None
            left = [*batch, *self._waiting]  # none unless this task was cancelled
            self._waiting.clear()
            for _, done in left:
                if not done.done():
                    done.set_exception(StoreError("not written: the store is stopping"))

    async def _commit(self, batch: list[_Waiting]) -> None:
        """One transaction for ``batch``: each write in a savepoint of its own (a write
        alone needs none: what fails undoes its transaction), the rows added one after
        the other together; then each caller told."""
        told: list[tuple[bool, Any]] = []
        try:
            async with self.db.transaction() as tx:
                if len(batch) == 1:
                    told.append((True, await batch[0][0](tx)))
                else:
                    for sql, run in groupby((work for work, _ in batch), _statement):
                        works = list(run)
                        if sql is None or len(works) == 1:
                            told += [await _in_savepoint(tx, work) for work in works]
                        else:
                            told += await _added(tx, sql, works)
        except Exception as error:  # not committed: nothing of the batch is kept
            for _, done in batch:
                if not done.done():
                    done.set_exception(error if len(batch) == 1 else StoreError(str(error)))
            return
        self.transactions += 1
        for (_, done), (ok, value) in zip(batch, told, strict=True):
            if done.done():
                continue
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)


async def _in_savepoint(tx: Transaction, work: Write[Any] | _Add) -> tuple[bool, Any]:
    """True and what ``work`` gave, or False and the exception it raised (undone)."""
    try:
        async with tx.savepoint():
            return True, await work(tx)
    except Exception as error:  # its caller's to handle
        return False, error


def _statement(work: Write[Any] | _Add) -> str | None:
    """The statement of a write that adds a row; ``None`` for other work."""
    return work.sql if isinstance(work, _Add) else None


async def _added(
    tx: Transaction, sql: str, adds: list[Write[Any] | _Add]
) -> list[tuple[bool, Any]]:
    """Each of ``adds`` (rows of ``sql``) added, all in one savepoint and one
    ``executemany``, or (if that fails) each in its own: ``_in_savepoint``'s outcomes."""
    try:
        async with tx.savepoint():
            await tx.execute_many(sql, [add.args for add in adds if isinstance(add, _Add)])
    except Exception:  # which ones? each alone says
        return [await _in_savepoint(tx, add) for add in adds]
    return [(True, None)] * len(adds)
