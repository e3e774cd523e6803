"""The server database's tables, made and upgraded in numbered steps.

Each step runs in one transaction with the number it brings the schema to; a database
already at a step skips it. On PostgreSQL the steps run under an advisory lock, so two
server processes started at once never upgrade the same database together. A database
newer than this program (a step it does not know) is refused rather than guessed at.

>>> import asyncio, tempfile
>>> from pathlib import Path
>>> from coloretto.online.server.database import SqliteDatabase
>>> async def fresh() -> int:
...     db = SqliteDatabase(Path(tempfile.mkdtemp()) / "rooms.sqlite3")
...     await db.open()
...     await migrate(db)
...     version = await schema_version(db)
...     await db.close()
...     return version
>>> asyncio.run(fresh()) == len(STEPS)
True
"""

from __future__ import annotations

from coloretto.online.server.account_keys import rekey_accounts
from coloretto.online.server.database import Database, SharedDatabase, StoreError

STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "rooms and their actions",
        (
            """CREATE TABLE rooms (
                code TEXT PRIMARY KEY,
                lock_key INTEGER,
                status TEXT NOT NULL,
                record TEXT NOT NULL,
                base INTEGER NOT NULL,
                updated DOUBLE PRECISION NOT NULL,
                finished DOUBLE PRECISION
            )""",
            "CREATE INDEX rooms_by_status ON rooms (status, finished)",
            """CREATE TABLE room_actions (
                code TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
                ply INTEGER NOT NULL,
                entry TEXT NOT NULL,
                PRIMARY KEY (code, ply)
            )""",
        ),
    ),
    (
        "accounts and ratings",
        (
            """CREATE TABLE accounts (
                folded TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                key TEXT NOT NULL,
                created DOUBLE PRECISION NOT NULL
            )""",
            """CREATE TABLE ratings (
                folded TEXT PRIMARY KEY REFERENCES accounts (folded),
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL
            )""",
            """CREATE TABLE rated_games (
                code TEXT NOT NULL,
                game INTEGER NOT NULL,
                rated DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (code, game)
            )""",
        ),
    ),
    (
        "public tables for the lobby",
        (
            "ALTER TABLE rooms ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE rooms ADD COLUMN summary TEXT",
        ),
    ),
    (
        "the skeleton the accounts are keyed by",
        ("CREATE TABLE account_keys (version TEXT NOT NULL)",),
    ),
    (
        "budgets shared by the processes, and who opened each public table",
        (
            """CREATE TABLE budget_counts (
                subject TEXT NOT NULL,
                window_start BIGINT NOT NULL,
                used INTEGER NOT NULL,
                until DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (subject, window_start)
            )""",
            "CREATE INDEX budget_counts_by_end ON budget_counts (until)",
            "ALTER TABLE rooms ADD COLUMN host_key TEXT",
            "ALTER TABLE rooms ADD COLUMN host_account TEXT",
            "ALTER TABLE rooms ADD COLUMN seated INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE rooms ADD COLUMN opened DOUBLE PRECISION",
            "ALTER TABLE rooms ADD COLUMN alone INTEGER NOT NULL DEFAULT 0",
            "CREATE INDEX rooms_by_host ON rooms (host_key, status)",
        ),
    ),
)
"""Each step's purpose and statements, in order: step ``n`` brings the schema to ``n``."""

_RELAY = """CREATE TABLE IF NOT EXISTS relay_messages (
    id BIGSERIAL PRIMARY KEY,
    body TEXT NOT NULL,
    sent DOUBLE PRECISION NOT NULL
)"""
"""PostgreSQL only: messages between processes too long for a notification."""

MIGRATION_LOCK = (0x436F6C6F, 0)
"""The advisory lock held while a PostgreSQL database is upgraded."""


async def schema_version(db: Database) -> int:
    """The step the database is at (0: empty)."""
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    rows = await db.fetch("SELECT MAX(version) FROM schema_version")
    return int(rows[0][0] or 0)


async def migrate(db: Database) -> int:
    """Bring the database to the last step, and its accounts to this program's name
    skeleton (``account_keys``); returns how many steps ran. ``StoreError`` if the
    database is newer than this program or refuses a step."""
    if isinstance(db, SharedDatabase):
        await db.control("SELECT pg_advisory_lock(?, ?)", *MIGRATION_LOCK)
    try:
        start = await schema_version(db)
        if start > len(STEPS):
            raise StoreError(
                f"the database is at schema step {start}, newer than this program's "
                f"{len(STEPS)}: upgrade coloretto"
            )
        for number in range(start + 1, len(STEPS) + 1):
            async with db.transaction() as tx:
                for statement in STEPS[number - 1][1]:
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", number)
        await rekey_accounts(db)
        if isinstance(db, SharedDatabase):
            await db.execute(_RELAY)
        return len(STEPS) - start
    finally:
        if isinstance(db, SharedDatabase):
            await db.control("SELECT pg_advisory_unlock(?, ?)", *MIGRATION_LOCK)
