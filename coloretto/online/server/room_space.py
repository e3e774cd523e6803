"""The rooms in the server's database: each room's snapshot, the actions played since,
the finished rooms kept for late comers, and which server process plays each room.

A room's row holds its snapshot (a game record whose metadata holds the room, as
``Room.from_record`` reads it) and its status (``lobby``, ``playing``, ``between`` two
games of a match, ``over``); ``room_actions`` holds the actions played since, one row
each, so a move is one small insert however long the game. A whole save replaces the
snapshot and empties the actions in one transaction. Everything read back is checked as
any record is: a row that does not fit is logged and left alone.

One process plays a room at a time: on PostgreSQL it holds the room's session advisory
lock (``claim``), which the database lets go when that process's connection ends, however
it ends; on SQLite the one server process plays them all.

>>> import asyncio, logging, tempfile
>>> from pathlib import Path
>>> from coloretto.engine import Rules
>>> from coloretto.online.server.database import SqliteDatabase
>>> from coloretto.online.wire.protocol import Host
>>> async def demo() -> list[tuple[str, int]]:
...     db = SqliteDatabase(Path(tempfile.mkdtemp()) / "rooms.sqlite3")
...     await db.open()
...     space = await RoomSpace.open(db, "demo")
...     room, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=3), "easy", 0, 30))
...     room.start()
...     await space.create(room)
...     move = room.session.apply(room.session.game.legal_actions()[0])
...     await space.append("ABCDEF", 0, move, False)
...     again = await space.load("ABCDEF", logging.getLogger())
...     await db.close()
...     return [(again.code, again.ply)] if again else []
>>> asyncio.run(demo())
[('ABCDEF', 1)]
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from coloretto.engine import Action, IllegalAction, Move, RecordError
from coloretto.engine.record import parse_record, record_text
from coloretto.online.server.database import Database, SharedDatabase, StoreError, Transaction
from coloretto.online.server.group_commit import GroupCommit
from coloretto.online.server.migrations import migrate
from coloretto.online.server.rooms import Room
from coloretto.online.server.standings import rate_within, rated_game
from coloretto.online.wire.accounts import fold_name
from coloretto.online.wire.messages import MAX_TABLES, RatingChange, TableSummary
from coloretto.online.wire.protocol import CODE_ALPHABET, ROOM_CODE, convert
from coloretto.online.wire.public import move_json
from coloretto.rating import Rating
from coloretto.store.records import MAX_RECORD_BYTES

__all__ = [
    "CodeTaken",
    "KeptRoom",
    "RoomSpace",
    "StoreError",
    "replay_entry",
    "room_key",
    "status_of",
]

KEEP_FINISHED = 7 * 24 * 3600.0
"""Seconds a finished room is kept for a late player or watcher, and a game left alone
for its people to come back to (``prune_finished``)."""

MAX_ACTIONS = 1000
"""The most actions read back for one room (a game has fewer than 200)."""

MAX_ENTRY = 512
"""The longest action entry read back, in characters (an action takes about 100)."""

ROOMS_LOCK = 0x526F6F6D
"""The first key of every room's advisory lock (the second is ``room_key``)."""

_KEYS = frozenset({"ply", "move", "covered", "bank", "timeout", "left"})


class CodeTaken(Exception):
    """A new room's code is another room's (made at the same moment elsewhere)."""


def status_of(room: Room) -> str:
    """``lobby``, ``playing``, ``between`` (two games of a match) or ``over``."""
    if not room.started:
        return "lobby"
    match = room.session.match
    if match.is_over:
        return "over"
    return "between" if room.session.game.is_over else "playing"


def room_key(code: str) -> int:
    """The room's code as a number below 2³⁰ (six characters of 32): its lock's key.

    >>> room_key("AAAAAA"), room_key("AAAAAB")
    (0, 1)
    """
    key = 0
    for char in code:
        key = key * len(CODE_ALPHABET) + CODE_ALPHABET.index(char)
    return key


@dataclass(frozen=True)
class KeptRoom:
    """A room as the operator's listing shows it (``RoomSpace.listing``)."""

    code: str
    status: str
    """``lobby``, ``playing``, ``between`` or ``over`` (``status_of``)."""
    public: bool
    """Listed in the lobby now (a public table still open to players)."""
    updated: float
    """When it last changed (seconds since the epoch): a seat, a start, a move."""
    finished: float | None
    """When its match ended, if it has."""
    moves: int
    """The actions kept since its snapshot (``base``): with it, the game's move."""
    base: int
    """The action its snapshot is at."""
    process: str | None
    """The process that plays it now (its name): on PostgreSQL, the holder of its lock;
    ``None`` on SQLite (the data directory's one server plays every room) or when no
    process plays it now."""
    room: Room | None
    """Its snapshot, read (``None`` if it is damaged): people, accounts, rules."""


class RoomSpace:
    """The rooms of one server's database (``open`` makes or upgrades its tables)."""

    def __init__(self, db: Database, server: str) -> None:
        self.db = db
        self.server = server
        """This process's name for the others (``application_name`` on PostgreSQL)."""
        self.writes = GroupCommit(db)
        """Every write of the rooms goes through it: those that come while a transaction
        commits are kept together by the next one (each returns once its own is kept)."""

    @classmethod
    async def open(cls, db: Database, server: str) -> RoomSpace:
        """The rooms of ``db``, its tables made or upgraded first."""
        await migrate(db)
        return cls(db, server)

    @property
    def shared(self) -> bool:
        """True when other server processes may play rooms of this database."""
        return self.db.shared

    # ------------------------------------------------------------------ writing

    async def create(self, room: Room) -> None:
        """Keep a new room; ``CodeTaken`` if its code is another room's, ``ValueError``
        if it is no room code."""
        if not ROOM_CODE.fullmatch(room.code):
            raise ValueError(f"not a room code: {room.code[:20]!r}")
        row = _row(room)

        async def create(tx: Transaction) -> None:
            if await tx.fetch("SELECT 1 FROM rooms WHERE code = ?", row.code):
                raise CodeTaken(row.code)
            await _insert(tx, row, time.time(), None)

        await self.writes.write(create)

    async def save(self, room: Room) -> None:
        """Keep the whole room as it stands (its snapshot; no actions after it)."""
        if not ROOM_CODE.fullmatch(room.code):
            raise ValueError(f"not a room code: {room.code[:20]!r}")
        row, now = _row(room), time.time()
        finished = now if row.status == "over" else None  # a finished room is pruned in time

        async def save(tx: Transaction) -> None:
            changed = await tx.execute(
                "UPDATE rooms SET status = ?, record = ?, base = ?, updated = ?, finished ="
                " CASE WHEN finished IS NULL OR CAST(? AS DOUBLE PRECISION) IS NULL"
                " THEN CAST(? AS DOUBLE PRECISION) ELSE finished END,"
                " public = ?, summary = ?, seated = ?, host_account = ? WHERE code = ?",
                row.status, row.record, row.base, now, finished, finished, *row.listing, row.code,
            )  # fmt: skip
            if not changed:
                await _insert(tx, row, now, finished)
            await tx.execute("DELETE FROM room_actions WHERE code = ?", row.code)

        await self.writes.write(save)

    async def append(
        self,
        code: str,
        ply: int,
        move: Move,
        covered: bool,
        notes: Mapping[str, Any] | None = None,
    ) -> None:
        """Keep action ``ply`` (from 0) of the room's game; ``covered``: a bot played it
        for a person away; ``notes``: what it changed of its player's standing
        (``Room.note_move``). ``StoreError`` if the database refuses."""
        entry: dict[str, Any] = {"ply": ply, "move": move_json(move), **(notes or {})}
        if covered:
            entry["covered"] = True
        await self.writes.add(  # with the other rooms' actions of its transaction
            "INSERT INTO room_actions (code, ply, entry) VALUES (?, ?, ?)",
            code, ply, json.dumps(entry),
        )  # fmt: skip

    async def end_game(
        self, room: Room, move: Move, covered: bool, notes: Mapping[str, Any] | None = None
    ) -> list[RatingChange]:
        """Keep the game's last action (``append``'s), the room's status and, for a rated
        game, the ratings it changes, in one transaction: all of them, or none (a process
        that ends before it commits leaves the move to be played again, and rated then).
        Returns the ratings' changes (none for a game not rated, or rated already)."""
        ply = room.ply - 1
        entry: dict[str, Any] = {"ply": ply, "move": move_json(move), **(notes or {})}
        if covered:
            entry["covered"] = True
        status, game = status_of(room), rated_game(room)

        async def end_game(tx: Transaction) -> list[RatingChange]:
            await tx.execute(
                "INSERT INTO room_actions (code, ply, entry) VALUES (?, ?, ?)",
                room.code, ply, json.dumps(entry),
            )  # fmt: skip
            await tx.execute(
                "UPDATE rooms SET status = ?, updated = ? WHERE code = ?",
                status, time.time(), room.code,
            )  # fmt: skip
            return [] if game is None else await rate_within(tx, game)

        return await self.writes.write(end_game)

    async def set_status(self, room: Room) -> None:
        """Keep the room's status after a move (a game that ended changes it)."""
        status, now = status_of(room), time.time()
        await self.writes.write(
            lambda tx: tx.execute(
                "UPDATE rooms SET status = ?, updated = ? WHERE code = ?", status, now, room.code
            )
        )

    async def archive(self, room: Room) -> None:
        """The room's match is over: keep its whole record as finished (for a late player
        or watcher, ``KEEP_FINISHED`` seconds); older finished rooms go."""
        text, ply, now = _snapshot_text(room), room.ply, time.time()

        async def archive(tx: Transaction) -> None:
            await tx.execute(
                "UPDATE rooms SET status = 'over', record = ?, base = ?, updated = ?,"
                " finished = ? WHERE code = ?",
                text, ply, now, now, room.code,
            )  # fmt: skip
            await tx.execute("DELETE FROM room_actions WHERE code = ?", room.code)

        await self.writes.write(archive)

    async def prune_finished(self, now: float | None = None) -> int:
        """Forget the rooms finished, or whose game was left alone (``leave_alone``), more
        than ``KEEP_FINISHED`` seconds before ``now``; how many went."""
        cutoff = (time.time() if now is None else now) - KEEP_FINISHED
        return await self.writes.write(
            lambda tx: tx.execute(
                "DELETE FROM rooms WHERE (status = 'over' AND finished < ?)"
                " OR (alone = 1 AND updated < ?)",
                cutoff, cutoff,
            )
        )  # fmt: skip

    async def leave_alone(self, code: str, alone: bool = True) -> None:
        """Room ``code``'s game waits for its people, all gone (``alone``), and leaves the
        memory: no process takes it over (``orphans``) until one of them asks for it; or
        (``alone`` False) it is played again."""
        now = time.time()
        await self.writes.write(
            lambda tx: tx.execute(
                "UPDATE rooms SET alone = ?, updated = ? WHERE code = ?", int(alone), now, code
            )
        )

    async def opened_by(self, code: str, address: str) -> None:
        """Keep the address (``limits.address_key``) room ``code`` was opened from."""
        await self.writes.write(
            lambda tx: tx.execute("UPDATE rooms SET host_key = ? WHERE code = ?", address, code)
        )

    async def remove(self, code: str) -> None:
        """Forget room ``code`` (a lobby nobody came back to)."""
        await self.writes.write(lambda tx: tx.execute("DELETE FROM rooms WHERE code = ?", code))

    # ------------------------------------------------------------------ reading

    async def host_of(self, code: str) -> str | None:
        """The address room ``code`` was opened from, if it is kept."""
        rows = await self.db.fetch("SELECT host_key FROM rooms WHERE code = ?", code)
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def lobbies_of(self, address: str) -> list[str]:
        """The rooms opened from ``address`` that wait for their game to start, in
        whichever process (on PostgreSQL: those a process holds)."""
        held = ""
        if isinstance(self.db, SharedDatabase):
            held = (
                " AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'"
                f" AND l.granted AND l.classid = CAST({ROOMS_LOCK} AS BIGINT)::oid"
                " AND l.objsubid = 2 AND l.objid = CAST(r.lock_key AS BIGINT)::oid)"
            )
        rows = await self.db.fetch(
            f"SELECT r.code FROM rooms r WHERE r.host_key = ? AND r.status = 'lobby'{held}",
            address,
        )
        return [str(row[0]) for row in rows]

    async def status(self, code: str) -> str | None:
        """Room ``code``'s status; ``None`` if there is no such room."""
        if not ROOM_CODE.fullmatch(code):
            return None
        rows = await self.db.fetch("SELECT status FROM rooms WHERE code = ?", code)
        return str(rows[0][0]) if rows else None

    async def taken(self, code: str) -> bool:
        """True when ``code`` names a room kept here, in play or finished."""
        return await self.status(code) is not None

    async def load(self, code: str, log: logging.Logger) -> Room | None:
        """Room ``code`` as kept: its snapshot with the actions played since. ``None``
        (logged) if there is none or its snapshot is damaged; actions from one that does
        not fit are left out (logged)."""
        if not ROOM_CODE.fullmatch(code):
            return None
        rows = await self.db.fetch("SELECT record, base FROM rooms WHERE code = ?", code)
        if not rows:
            return None
        text, base = rows[0]
        try:
            if len(text) > MAX_RECORD_BYTES:
                raise RecordError(f"larger than {MAX_RECORD_BYTES} characters")
            room = Room.from_record(parse_record(text), code)
        except RecordError as error:
            log.error("room %s not loaded: %s", code, error)
            return None
        if room.ply != base:
            log.warning(
                "room %s: its snapshot is not at action %s: actions not replayed", code, base
            )
            return room
        actions = await self.db.fetch(
            "SELECT ply, entry FROM room_actions WHERE code = ? ORDER BY ply LIMIT ?",
            code, MAX_ACTIONS,
        )  # fmt: skip
        for ply, entry in actions:
            problem = replay_entry(room, room.ply, entry) if ply == room.ply else "out of order"
            if problem is not None:
                log.warning("room %s: actions replayed up to %s (the rest left out)", code, problem)
                break
        return room

    async def public_tables(
        self, now: float | None = None, per_host: int = MAX_TABLES
    ) -> list[TableSummary]:
        """The public tables waiting for players (open, not full, not started),
        ``MAX_TABLES`` at most: those where most people sit first, then the oldest; at
        most ``per_host`` of the tables opened from one address, and of one account's."""
        now = time.time() if now is None else now
        rows = await self.db.fetch(
            "SELECT code, summary FROM (SELECT code, summary, seated,"
            " COALESCE(opened, updated) AS opened,"
            " ROW_NUMBER() OVER (PARTITION BY COALESCE(host_key, code) ORDER BY seated DESC,"
            " COALESCE(opened, updated)) AS by_address,"
            " ROW_NUMBER() OVER (PARTITION BY COALESCE(host_account, code) ORDER BY seated DESC,"
            " COALESCE(opened, updated)) AS by_account"
            " FROM rooms WHERE public = 1 AND status = 'lobby') AS listed"
            " WHERE by_address <= ? AND by_account <= ? ORDER BY seated DESC, opened, code LIMIT ?",
            per_host, per_host, MAX_TABLES,
        )  # fmt: skip
        listed = []
        for code, summary in rows:
            try:
                data = json.loads(summary)
                fill_at = data.pop("fill_at", None)
                if fill_at is not None:
                    data["fill_in"] = round(max(0.0, float(fill_at) - now), 1)
                listed.append((code, data, [str(a) for a in data.pop("accounts", [])]))
            except (ValueError, TypeError, RecursionError, AttributeError):
                continue  # a row not right: not listed
        ratings = await self._ratings({a for _, _, accounts in listed for a in accounts if a})
        tables = []
        for code, data, accounts in listed:
            data["ratings"] = [ratings.get(account) for account in accounts]
            try:
                tables.append(convert({**data, "room": code}, TableSummary, "table"))
            except (ValueError, TypeError):
                continue
        return tables

    async def _ratings(self, accounts: set[str]) -> dict[str, int]:
        """The shown ratings of the rated ones of ``accounts`` (by skeleton)."""
        if not accounts:
            return {}
        marks = ", ".join("?" * len(accounts))  # placeholders only: the names are parameters
        rows = await self.db.fetch(
            f"SELECT folded, mu, sigma, games FROM ratings WHERE folded IN ({marks})",
            *sorted(accounts),
        )
        return {str(folded): Rating(mu, sigma, games).shown for folded, mu, sigma, games in rows}

    async def active(self) -> list[str]:
        """The codes of the rooms not finished, but those left alone (``leave_alone``)."""
        rows = await self.db.fetch(
            "SELECT code FROM rooms WHERE status <> 'over' AND alone = 0 ORDER BY code"
        )
        return [str(row[0]) for row in rows]

    async def listing(self, *, finished: bool = False, limit: int = 200) -> list[KeptRoom]:
        """The rooms kept, the last changed first (``limit`` at most), with the process
        that plays each now: those not finished, and the finished ones too if
        ``finished``. Read only; one consistent read on PostgreSQL (one statement)."""
        who = (
            "(SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a"
            " ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.classid = CAST(? AS BIGINT)::oid AND l.objsubid = 2"
            " AND l.objid = CAST(r.lock_key AS BIGINT)::oid LIMIT 1)"
            if self.shared
            else "CAST(? AS TEXT)"
        )
        rows = await self.db.fetch(
            f"SELECT r.code, r.status, r.public, r.updated, r.finished, r.base, r.record,"
            f" (SELECT COUNT(*) FROM room_actions x WHERE x.code = r.code), {who}"
            f" FROM rooms r WHERE r.status <> 'over' OR ? = 1"
            f" ORDER BY r.updated DESC, r.code LIMIT ?",
            ROOMS_LOCK if self.shared else None, int(finished), limit,
        )  # fmt: skip
        return [_kept(row) for row in rows]

    # ------------------------------------------------------------------ who plays which room
    # ------------------------------------------------------------------ who plays which room

    async def claim(self, code: str) -> bool:
        """Play room ``code`` here: True if no other process plays it (on PostgreSQL, its
        advisory lock is now this process's until ``release`` or its end)."""
        if not isinstance(self.db, SharedDatabase):
            return True
        rows = await self.db.control(
            "SELECT pg_try_advisory_lock(?, ?)", ROOMS_LOCK, room_key(code)
        )
        return rows[0][0] is True

    async def release(self, code: str) -> None:
        """Stop playing room ``code`` here (another process may claim it)."""
        if isinstance(self.db, SharedDatabase):
            await self.db.control("SELECT pg_advisory_unlock(?, ?)", ROOMS_LOCK, room_key(code))

    async def player_of(self, code: str) -> str | None:
        """The process that plays room ``code`` now (its name), if one does."""
        if not isinstance(self.db, SharedDatabase):
            return self.server
        rows = await self.db.fetch(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a"
            " ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.classid = ?::bigint::oid AND l.objid = ?::bigint::oid AND l.objsubid = 2",
            ROOMS_LOCK, room_key(code),
        )  # fmt: skip
        return str(rows[0][0]) if rows else None

    async def alive(self, server: str) -> bool:
        """True while process ``server`` is connected to the database (its rooms' locks
        held)."""
        if not isinstance(self.db, SharedDatabase):
            return server == self.server
        rows = await self.db.fetch(
            "SELECT 1 FROM pg_stat_activity WHERE application_name = ?", server
        )
        return bool(rows)

    async def orphans(self, limit: int = 100) -> list[str]:
        """Rooms in play that no process plays (their process ended), but those left
        alone: another takes them, so their bots play on for the people away."""
        if not isinstance(self.db, SharedDatabase):
            return []
        rows = await self.db.fetch(
            "SELECT r.code FROM rooms r WHERE r.status = 'playing' AND r.alone = 0"
            " AND NOT EXISTS ("
            " SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted"
            " AND l.classid = CAST(? AS BIGINT)::oid AND l.objsubid = 2"
            " AND l.objid = CAST(r.lock_key AS BIGINT)::oid) ORDER BY r.updated LIMIT ?",
            ROOMS_LOCK, limit,
        )  # fmt: skip
        return [str(row[0]) for row in rows]


def _kept(row: tuple[Any, ...]) -> KeptRoom:
    """A row of ``RoomSpace.listing``, its snapshot read if it can be."""
    code, status, public, updated, finished, base, record, moves, process = row
    try:
        if len(record) > MAX_RECORD_BYTES:
            raise RecordError(f"larger than {MAX_RECORD_BYTES} characters")
        room: Room | None = Room.from_record(parse_record(record), str(code))
    except RecordError:
        room = None
    return KeptRoom(
        str(code), str(status), bool(public), float(updated),
        None if finished is None else float(finished), int(moves), int(base),
        None if process is None else str(process), room,
    )  # fmt: skip


class _Row(NamedTuple):
    """A room's row as it stands when a write of it is asked for (the write may wait for
    a transaction while the room goes on)."""

    code: str
    status: str
    record: str
    base: int
    listing: tuple[int, str | None, int, str | None]


def _row(room: Room) -> _Row:
    return _Row(room.code, status_of(room), _snapshot_text(room), room.ply, _listing(room))


async def _insert(tx: Transaction, row: _Row, now: float, finished: float | None) -> None:
    """Keep the room of ``row`` as a new row."""
    await tx.execute(
        "INSERT INTO rooms (code, lock_key, status, record, base, updated, finished, opened,"
        " public, summary, seated, host_account) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        row.code, room_key(row.code), row.status, row.record, row.base, now, finished, now,
        *row.listing,
    )  # fmt: skip


def _listing(room: Room) -> tuple[int, str | None, int, str | None]:
    """What the lobby lists of ``room``: 1 and its summary while it is a public table
    open to players, else 0 and nothing; then how many people sit there and its host's
    account (by skeleton), by which the lobby chooses what to list."""
    table = room.table
    seats = [p for p, name in enumerate(room.people) if name is not None]
    seated = tuple(name for name in room.people if name is not None)
    host = None if (account := table.accounts[0]) is None else fold_name(account)
    if not table.public or room.started or room.locked or len(seated) >= len(room.people):
        return 0, None, len(seated), host
    rules = room.session.config.rules
    summary = TableSummary.of(
        room.code, rules, room.level, seated, table.rated, clock=table.clock
    ).to_json()
    summary["fill_at"] = table.fill_at
    summary["accounts"] = [
        "" if (account := table.accounts[p]) is None else fold_name(account) for p in seats
    ]
    del summary["fill_in"], summary["room"], summary["ratings"]
    return 1, json.dumps(summary), len(seated), host


def _snapshot_text(room: Room) -> str:
    snapshot = room.snapshot()
    return record_text(snapshot.state, snapshot.seats, snapshot.meta)


def replay_entry(room: Room, ply: int, text: str | bytes) -> str | None:
    """Play action ``ply``, kept as ``text`` (``{"ply", "move", "covered"}``), in
    ``room``; what is wrong, if anything (the room is then as it was)."""
    where = f"action {ply + 1}"
    if len(text) > MAX_ENTRY:
        return f"{where}: too long"
    try:
        entry = json.loads(text)
    except (ValueError, RecursionError):
        entry = None
    if not isinstance(entry, Mapping) or not {"ply", "move"} <= set(entry) <= _KEYS:
        return f"{where}: not a kept action"
    if type(entry["ply"]) is not int or entry["ply"] != ply:
        return f"{where}: kept as action {str(entry['ply'])[:20]}"
    if entry.get("covered", True) is not True:
        return f"{where}: covered is not true"
    mover = room.mover()
    if mover is None:
        return f"{where}: the game is over"
    told = entry["move"]
    try:
        if not isinstance(told, Mapping) or not isinstance(told.get("action"), str):
            raise ValueError("no action")
        move = room.session.game.apply(Action.parse(told["action"])).last_move
    except (ValueError, IllegalAction) as error:
        return f"{where}: {error}"
    if move is None or move_json(move) != told:
        return f"{where}: {json.dumps(told)[:80]} does not fit the game"
    if (problem := room.replay_notes(mover, entry)) is not None:
        return f"{where}: {problem}"
    room.session.apply(move.action)
    if "covered" in entry:
        room.covered.append(ply)
    return None
