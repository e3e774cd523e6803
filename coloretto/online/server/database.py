"""The server's database: SQLite embedded (one process) or PostgreSQL (any number of
server processes on any number of machines), behind one small async interface.

``coloretto server --store URL`` names it: ``sqlite:///PATH`` (the default, a file in the
server's data directory) or ``postgresql://USER@HOST:PORT/DB`` (``postgres://`` too). Both
hold the same tables (``migrations.py``), written with ``?`` placeholders; PostgreSQL's
``$1`` ones are made from them. PostgreSQL also gives what several processes need
(``SharedDatabase``): session advisory locks that say which process plays a room, and
``LISTEN``/``NOTIFY`` to pass a room's messages to the process that plays it.

>>> parse_store_url("sqlite:///srv/coloretto/rooms.sqlite3")
StoreUrl(kind='sqlite', target='/srv/coloretto/rooms.sqlite3')
>>> parse_store_url("postgresql://coloretto@db.example.org/coloretto").kind
'postgresql'
>>> _numbered("SELECT a FROM t WHERE b = ? AND c = ?")
'SELECT a FROM t WHERE b = $1 AND c = $2'
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import re
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

Row = tuple[Any, ...]


class StoreError(OSError):
    """The database refused or could not be reached: what was asked is not done."""


class StoreUrl(NamedTuple):
    """A parsed ``--store`` address."""

    kind: str
    """``sqlite`` or ``postgresql``."""
    target: str
    """The SQLite file's path, or the PostgreSQL connection address."""


def parse_store_url(text: str) -> StoreUrl:
    """``--store``'s address; ``ValueError`` with a message for a player if it is neither
    ``sqlite:///PATH`` nor ``postgresql://…``."""
    if text.startswith("sqlite:///"):
        path = text.removeprefix("sqlite://")
        if len(path) < 2 or "\x00" in path:
            raise ValueError("sqlite:/// needs a file's absolute path, as sqlite:///srv/c.db")
        return StoreUrl("sqlite", path)
    if text.startswith(("postgresql://", "postgres://")):
        return StoreUrl("postgresql", text)
    raise ValueError(
        f"not a store address: {text[:60]!r} (give sqlite:///PATH or postgresql://HOST/DB)"
    )


class Database(ABC):
    """Statements and transactions, whichever the database."""

    shared: bool = False
    """True when several server processes may use the database at once."""

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement in a transaction of its own; how many rows it changed."""

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """The rows of one query."""

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Transaction]:
        """A transaction: every statement in it holds, or none (an exception rolls back)."""

    @abstractmethod
    async def close(self) -> None:
        """Let the database go."""


class Transaction(ABC):
    """Statements inside one transaction."""

    def __init__(self) -> None:
        self._deferred: list[str] = []
        """Savepoint statements not sent yet: they go with the next statement (in the same
        trip to the database) or before the commit."""
        self._savepoints = 0

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; how many rows it changed."""

    @abstractmethod
    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """The rows of one query."""

    @abstractmethod
    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once for each of ``rows`` (its arguments), in one trip to the
        database."""

    @contextlib.asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        """Statements that hold or go together inside the transaction: an exception undoes
        them alone (and goes on), the transaction goes on. Costs no trip of its own to
        the database: its statements go with the next one."""
        self._savepoints += 1
        name = f"s{self._savepoints}"
        self._deferred.append(f"SAVEPOINT {name}")
        try:
            yield
        except Exception:
            self._undo(name, f"ROLLBACK TO SAVEPOINT {name}")
            raise
        self._undo(name, None)

    def _undo(self, name: str, rollback: str | None) -> None:
        if self._deferred and self._deferred[-1] == f"SAVEPOINT {name}":
            self._deferred.pop()  # nothing ran inside it
            return
        if rollback is not None:
            self._deferred.append(rollback)
        self._deferred.append(f"RELEASE SAVEPOINT {name}")

    def _take_deferred(self) -> list[str]:
        taken, self._deferred = self._deferred, []
        return taken


# ---------------------------------------------------------------------- SQLite


_Job = tuple[Callable[..., Any], Sequence[Any], "asyncio.Future[Any]", asyncio.AbstractEventLoop]


class SqliteDatabase(Database):
    """A SQLite file, used by one process: statements run one at a time; a commit's flush
    to the disk and a statement outside a transaction in a thread of their own, off the
    event loop (handed over on a queue, the outcome handed back with
    ``call_soon_threadsafe``: what a commit costs the event loop is little more than the
    commit)."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        """Open an existing file to read only (``coloretto rooms``): nothing is written."""
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="sqlite", daemon=True)
        self._closed = False
        self._turn = asyncio.Lock()
        self._db: sqlite3.Connection | None = None

    async def open(self) -> None:
        """Open (or make) the file; ``StoreError`` if it cannot be."""
        await self._run(self._open)

    def _open(self) -> None:
        if self.read_only:
            try:
                uri = f"{self.path.absolute().as_uri()}?mode=ro"
                db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
                db.execute("PRAGMA busy_timeout=5000")
            except (OSError, sqlite3.Error) as error:
                raise StoreError(f"cannot open the database {self.path}: {error}") from None
            self._db = db
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=5000")
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the database {self.path}: {error}") from None
        self._db = db

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` in the database's thread."""
        if self._closed:
            raise StoreError("the database is closed")
        if not self._thread.is_alive():
            self._thread.start()
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._jobs.put((work, args, done, loop))
        try:
            return await done
        except sqlite3.Error as error:
            raise StoreError(f"the database refused: {error}") from None

    def _serve(self) -> None:
        """In the database's thread: each job in turn (one whose caller has gone is
        skipped), until ``close``."""
        while (job := self._jobs.get()) is not None:
            work, args, done, loop = job
            if done.cancelled():
                continue
            result, error = None, None
            try:
                result = work(*args)
            except Exception as failed:  # the caller's to handle
                error = failed
            with contextlib.suppress(RuntimeError):  # its event loop has closed: nobody waits
                loop.call_soon_threadsafe(_settle, done, result, error)

    @staticmethod
    def _inline(work: Callable[..., Any], *args: Any) -> Any:
        """``work`` on the event loop (a statement inside a transaction)."""
        try:
            return work(*args)
        except sqlite3.Error as error:
            raise StoreError(f"the database refused: {error}") from None

    def _statement(self, sql: str, args: Sequence[Any]) -> int:
        assert self._db is not None
        return self._db.execute(sql, args).rowcount

    def _query(self, sql: str, args: Sequence[Any]) -> list[Row]:
        assert self._db is not None
        return self._db.execute(sql, args).fetchall()

    def _within(self, before: list[str], sql: str, args: Sequence[Any], rows: bool) -> Any:
        """In the transaction: the statements ``before`` (``BEGIN``, savepoints), then
        ``sql``, in one trip to the database's thread; its rows or its count."""
        self._begin(before)
        assert self._db is not None
        cursor = self._db.execute(sql, args)
        return cursor.fetchall() if rows else cursor.rowcount

    def _begin(self, before: list[str]) -> None:
        """In the transaction: the statements ``before`` (``BEGIN``, savepoints)."""
        assert self._db is not None
        for statement in before:
            self._db.execute(statement)
        if not self._db.in_transaction:  # SQLite undid it all (a full disk, say)
            raise sqlite3.OperationalError("the transaction was rolled back")

    def _many(self, before: list[str], sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """In the transaction: the statements ``before``, then ``sql`` for each of ``rows``."""
        self._begin(before)
        assert self._db is not None
        self._db.executemany(sql, rows)

    async def execute(self, sql: str, *args: Any) -> int:
        async with self._turn:
            return int(await self._run(self._statement, sql, args))

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        async with self._turn:
            return list(await self._run(self._query, sql, args))

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._turn:
            tx = _SqliteTransaction(self)  # its BEGIN goes with its first statement
            try:
                yield tx
                await self._run(self._within, tx._take_deferred(), "COMMIT", (), False)
            except BaseException:
                with contextlib.suppress(StoreError):
                    await self._run(self._rollback)
                raise

    def _rollback(self) -> None:
        assert self._db is not None
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    async def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(StoreError):
                await self._run(self._db.close)
        self._closed = True
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()


def _settle(done: asyncio.Future[Any], result: Any, error: Exception | None) -> None:
    """On the event loop: a job's outcome told to its caller (if still there)."""
    if done.cancelled():
        return
    if error is None:
        done.set_result(result)
    else:
        done.set_exception(error)


class _SqliteTransaction(Transaction):
    """Its statements run on the event loop, its ``BEGIN IMMEDIATE`` with the first: they
    touch only the page cache, and nothing else writes to the file (one server a file:
    ``ServerInUse``; ``coloretto rooms`` only reads), so none of them waits. Only the
    commit, which flushes to the disk, goes to the database's thread."""

    def __init__(self, db: SqliteDatabase) -> None:
        super().__init__()
        self._db = db
        self._deferred.append("BEGIN IMMEDIATE")

    async def execute(self, sql: str, *args: Any) -> int:
        return int(self._db._inline(self._db._within, self._take_deferred(), sql, args, False))

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return list(self._db._inline(self._db._within, self._take_deferred(), sql, args, True))

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._db._inline(self._db._many, self._take_deferred(), sql, rows)


# ---------------------------------------------------------------------- PostgreSQL

_PLACEHOLDER = re.compile(r"\?")


def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``… (no statement here has a ``?``
    in a string)."""
    count = iter(range(1, 1000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


def _asyncpg_errors() -> tuple[type[BaseException], ...]:
    import asyncpg  # noqa: PLC0415 (only a shared database needs it)

    return (
        asyncpg.PostgresError,
        asyncpg.InterfaceError,
        asyncpg.InternalClientError,
        OSError,
        asyncio.TimeoutError,
    )


Listener = Callable[[str], None]
"""Told the payload of each notification on this process's channel."""


class SharedDatabase(Database):
    """PostgreSQL: a pool for statements, and one connection of the process's own (the
    control connection) that holds its advisory locks and listens on its channel. The
    database lets the locks go the moment that connection ends, however the process
    ends; then another process may take its rooms."""

    shared = True

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        """What the process calls itself to the database (``application_name``): other
        processes find who holds a room's lock by it."""
        self._pool: Any = None
        self._control: Any = None
        self._control_turn = asyncio.Lock()
        self._errors = _asyncpg_errors()
        self.lost: asyncio.Future[None] | None = None
        """Done when the control connection is lost (the locks with it)."""

    async def open(self, pool_size: int = 8) -> None:
        """Connect; ``StoreError`` if the database cannot be reached."""
        import asyncpg  # noqa: PLC0415 (only a shared database needs it)

        self.lost = asyncio.get_running_loop().create_future()
        try:
            async with asyncio.timeout(15):
                self._control = await asyncpg.connect(
                    self.url, server_settings={"application_name": self.name}
                )
                self._pool = await asyncpg.create_pool(
                    self.url,
                    min_size=1,
                    max_size=pool_size,
                    server_settings={"application_name": f"{self.name}/pool"},
                )
        except self._errors as error:
            await self.close()
            raise StoreError(f"cannot reach the database: {_said(error)}") from None
        self._control.add_termination_listener(self._terminated)

    def _terminated(self, _connection: Any) -> None:
        if self.lost is not None and not self.lost.done():
            self.lost.set_result(None)

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            return _count(await self._open_pool().execute(_numbered(sql), *args))
        except self._errors as error:
            raise StoreError(f"the database refused: {_said(error)}") from None

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            return [tuple(row) for row in await self._open_pool().fetch(_numbered(sql), *args)]
        except self._errors as error:
            raise StoreError(f"the database refused: {_said(error)}") from None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        try:
            async with self._open_pool().acquire() as connection, connection.transaction():
                tx = _PgTransaction(connection, self._errors)
                yield tx
                await tx.send_deferred(committing=True)
        except self._errors as error:
            raise StoreError(f"the database refused: {_said(error)}") from None

    def _open_pool(self) -> Any:
        if self._pool is None:
            raise StoreError("the database is closed")
        return self._pool

    async def control(self, sql: str, *args: Any) -> list[Row]:
        """A query on the control connection (advisory locks are held by it)."""
        async with self._control_turn:
            if self._control is None:
                raise StoreError("the database is closed")
            try:
                rows = await self._control.fetch(_numbered(sql), *args)
            except self._errors as error:
                raise StoreError(f"the database refused: {_said(error)}") from None
        return [tuple(row) for row in rows]

    async def listen(self, channel: str, listener: Listener) -> None:
        """Tell ``listener`` every notification on ``channel``."""

        def told(_connection: Any, _pid: int, _channel: str, payload: str) -> None:
            listener(payload)

        async with self._control_turn:
            try:
                await self._control.add_listener(channel, told)
            except self._errors as error:
                raise StoreError(f"cannot listen: {_said(error)}") from None

    async def close(self) -> None:
        for closing in (self._pool, self._control):
            if closing is not None:
                with contextlib.suppress(*self._errors):
                    async with asyncio.timeout(5):
                        await closing.close()
        self._pool = self._control = None


class _PgTransaction(Transaction):
    def __init__(self, connection: Any, errors: tuple[type[BaseException], ...]) -> None:
        super().__init__()
        self._connection = connection
        self._errors = errors

    async def send_deferred(self, *, committing: bool = False) -> None:
        """Send the savepoint statements not sent yet (one trip for them all); before the
        commit (which lets every savepoint go), only those that undo."""
        deferred = self._take_deferred()
        if committing:
            deferred = [statement for statement in deferred if not statement.startswith("RELEASE")]
        if deferred:
            await self._connection.execute("; ".join(deferred))

    async def execute(self, sql: str, *args: Any) -> int:
        try:
            await self.send_deferred()
            return _count(await self._connection.execute(_numbered(sql), *args))
        except self._errors as error:
            raise StoreError(f"the database refused: {_said(error)}") from None

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        try:
            await self.send_deferred()
            return [tuple(row) for row in await self._connection.fetch(_numbered(sql), *args)]
        except self._errors as error:
            raise StoreError(f"the database refused: {_said(error)}") from None

    async def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self.send_deferred()
            await self._connection.executemany(_numbered(sql), rows)
        except self._errors as error:
            raise StoreError(f"the database refused: {_said(error)}") from None


def _count(status: str) -> int:
    """The rows a statement changed, from PostgreSQL's status (``UPDATE 1``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _said(error: BaseException) -> str:
    return (str(error) or type(error).__name__).splitlines()[0][:200]


async def open_database(url: StoreUrl, name: str) -> Database:
    """The database ``url`` names, open; ``name``: what this process calls itself to a
    shared database. ``StoreError`` if it cannot be opened."""
    if url.kind == "sqlite":
        db = SqliteDatabase(Path(url.target))
        await db.open()
        return db
    shared = SharedDatabase(url.target, name)
    await shared.open()
    return shared
