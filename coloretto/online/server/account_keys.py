"""Accounts keyed again when the way names are compared changes.

An account's row in the ``accounts`` table is keyed by its name's skeleton (``folded``,
``accounts.fold_name``), and so is its rating. A program whose skeleton differs (a new
rule, or new Unicode data: ``names.skeleton_version``) would no longer find the accounts
kept by an older one, and would let a new name take an old one's place. So a server
keys its accounts again when it starts with another skeleton than the database was keyed
by (``account_keys.version``): each account moves to its name's new skeleton, ratings
along. Of two accounts whose names now read alike, the older keeps the name; the newer is
set aside (``RETIRED``): its row and rating stay, but nobody can sign in as it, since its
name is the older one's now.

>>> import asyncio, tempfile
>>> from pathlib import Path
>>> from coloretto.online.server.database import SqliteDatabase
>>> from coloretto.online.server.migrations import migrate
>>> async def rekeyed() -> list[tuple[str, str]]:
...     db = SqliteDatabase(Path(tempfile.mkdtemp()) / "rooms.sqlite3")
...     await db.open()
...     await migrate(db)
...     for folded, name, created in [("ana", "Ana", 1.0), ("ana\\u034f", "Ana\\u034f", 2.0)]:
...         await db.execute("INSERT INTO accounts VALUES (?, ?, '', ?)", folded, name, created)
...     await db.execute("DELETE FROM account_keys")  # as an older program left it
...     await migrate(db)
...     rows = await db.fetch("SELECT folded, name FROM accounts ORDER BY created")
...     await db.close()
...     return [(str(folded), str(name)) for folded, name in rows]
>>> [(folded.startswith(RETIRED), name) for folded, name in asyncio.run(rekeyed())]
[(False, 'Ana'), (True, 'Ana\\u034f')]
"""

from __future__ import annotations

from coloretto.online.server.database import Database, Transaction
from coloretto.online.wire.accounts import fold_name
from coloretto.online.wire.names import skeleton_version

RETIRED = "\x01retired "
"""How the key of an account set aside starts (no name's skeleton holds a control
character, so it never meets one)."""

_MOVING = "\x01moving "
"""The key of an account between its old key and its new one."""


async def rekey_accounts(db: Database) -> int:
    """Key the accounts by this program's skeleton unless they are already (see the
    module); how many accounts moved. Run while the schema is upgraded (under its lock)."""
    version = skeleton_version()
    async with db.transaction() as tx:
        rows = await tx.fetch("SELECT version FROM account_keys")
        if rows and rows[0][0] == version:
            return 0
        accounts = await tx.fetch("SELECT folded, name FROM accounts ORDER BY created, folded")
        targets: dict[str, str] = {}
        claimed: set[str] = set()
        for folded, name in accounts:
            target = fold_name(str(name))
            if target in claimed:
                target = str(folded) if str(folded).startswith(RETIRED) else RETIRED + str(folded)
            claimed.add(target)
            targets[str(folded)] = target
        moving = {old: new for old, new in targets.items() if old != new}
        for old in moving:
            await _move(tx, old, _MOVING + old)
        for old, new in moving.items():
            await _move(tx, _MOVING + old, new)
        await tx.execute("DELETE FROM account_keys")
        await tx.execute("INSERT INTO account_keys (version) VALUES (?)", version)
        return len(moving)


async def _move(tx: Transaction, old: str, new: str) -> None:
    """Key the account ``old`` as ``new``, its rating along (a copy first: the rating's
    key refers to the account's)."""
    await tx.execute(
        "INSERT INTO accounts (folded, name, key, created)"
        " SELECT ?, name, key, created FROM accounts WHERE folded = ?",
        new, old,
    )  # fmt: skip
    await tx.execute("UPDATE ratings SET folded = ? WHERE folded = ?", new, old)
    await tx.execute("DELETE FROM accounts WHERE folded = ?", old)
