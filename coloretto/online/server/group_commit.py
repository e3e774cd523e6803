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
from typing import Any, TypeVar

from coloretto.online.server.database import Database, StoreError, Transaction

T = TypeVar("T")

Write = Callable[[Transaction], Awaitable[T]]
"""Work on a transaction: statements, and what they give back."""

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
        self._room = asyncio.Semaphore(max_waiting)
        self._waiting: deque[tuple[Write[Any], asyncio.Future[Any]]] = deque()
        self._writer: asyncio.Task[None] | None = None

    async def write(self, work: Write[T]) -> T:
        """What ``work`` gives, once the transaction it ran in has committed; the
        exception it raised (its statements undone, the others' kept), or ``StoreError``
        if the transaction did not commit (then nothing of it is kept). A caller
        cancelled before its transaction begins has nothing written."""
        async with self._room:
            done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
            self._waiting.append((work, done))
            if self._writer is None:
                self._writer = asyncio.create_task(self._write_all(), name="group-commit")
            return await done

    async def _write_all(self) -> None:
        """Commit what waits, batch after batch, until nothing does."""
        batch: list[tuple[Write[Any], asyncio.Future[Any]]] = []
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

    async def _commit(self, batch: list[tuple[Write[Any], asyncio.Future[Any]]]) -> None:
        """One transaction for ``batch``: each write in a savepoint of its own (a write
        alone needs none: what fails undoes its transaction); then each caller told."""
        told: list[tuple[bool, Any]] = []
        try:
            async with self.db.transaction() as tx:
                if len(batch) == 1:
                    told.append((True, await batch[0][0](tx)))
                else:
                    told = [await _in_savepoint(tx, work) for work, _ in batch]
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


async def _in_savepoint(tx: Transaction, work: Write[Any]) -> tuple[bool, Any]:
    """True and what ``work`` gave, or False and the exception it raised (undone)."""
    try:
        async with tx.savepoint():
            return True, await work(tx)
    except Exception as error:  # its caller's to handle
        return False, error
