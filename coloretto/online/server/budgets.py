"""Budgets counted in the server's database, so that they hold whichever process is asked:
accounts made per address and on the whole server, rooms opened per address.

Each budget is a number of uses per fixed window of time (a minute, an hour: wall-clock
windows, the same in every process). A use is one atomic upsert that counts it and reads
the new count back (``INSERT … ON CONFLICT DO UPDATE … RETURNING``), so processes asked at
the same moment never both take the last use. An attempt past the budget counts too (it is
refused either way until the window ends). Windows that ended are deleted now and then.
Addresses are counted as ``limits.address_key`` says (IPv6: by /64).

>>> import asyncio, tempfile
>>> from pathlib import Path
>>> from coloretto.online.server.database import SqliteDatabase
>>> from coloretto.online.server.migrations import migrate
>>> async def demo() -> list[bool]:
...     db = SqliteDatabase(Path(tempfile.mkdtemp()) / "rooms.sqlite3")
...     await db.open()
...     await migrate(db)
...     budgets = SharedBudgets(db, Limits(rooms_per_minute=2), clock=lambda: 120.0)
...     taken = [await budgets.may_open("10.0.0.1") for _ in range(3)]
...     await db.close()
...     return taken
>>> asyncio.run(demo())
[True, True, False]
"""

from __future__ import annotations

import time
from collections.abc import Callable

from coloretto.online.server.database import Database
from coloretto.online.server.limits import Limits

MINUTE = 60.0
HOUR = 3600.0

PRUNE_SECONDS = 60.0
"""How often a process deletes the windows that ended."""


class SharedBudgets:
    """The budgets of ``limits`` that every process of one database shares."""

    def __init__(
        self, db: Database, limits: Limits, clock: Callable[[], float] = time.time
    ) -> None:
        self.db = db
        self.limits = limits
        self.clock = clock
        """Wall-clock seconds (the windows must be the same in every process)."""
        self._pruned = 0.0

    async def take(self, subject: str, limit: int, seconds: float) -> bool:
        """Count one use of ``subject``'s budget of ``limit`` uses per ``seconds``; True
        when it was within the budget. ``StoreError`` if the database refuses."""
        now = self.clock()
        window = int(now // seconds)
        rows = await self.db.fetch(
            "INSERT INTO budget_counts (subject, window_start, used, until) VALUES (?, ?, 1, ?)"
            " ON CONFLICT (subject, window_start) DO UPDATE SET used = budget_counts.used + 1"
            " RETURNING used",
            subject, window, (window + 1) * seconds,
        )  # fmt: skip
        if now - self._pruned > PRUNE_SECONDS:
            self._pruned = now
            await self.db.execute("DELETE FROM budget_counts WHERE until < ?", now)
        return int(rows[0][0]) <= limit

    async def may_register(self, address: str) -> str | None:
        """Count an account made from ``address``; why it is refused, if it is: past the
        address's budget (``registrations_per_hour``) or the server's
        (``all_registrations_per_minute``)."""
        limits = self.limits
        if not await self.take(f"register {address}", limits.registrations_per_hour, HOUR):
            return "too many accounts made from your address: wait an hour"
        if not await self.take("register *", limits.all_registrations_per_minute, MINUTE):
            return "too many accounts are being made on this server: try again in a minute"
        return None

    async def may_open(self, address: str) -> bool:
        """Count a room opened from ``address``; False past ``rooms_per_minute``."""
        return await self.take(f"rooms {address}", self.limits.rooms_per_minute, MINUTE)
