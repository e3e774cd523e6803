"""``coloretto rooms``: the operator's view of a server's rooms, read from its database:
each room's status, the process that plays it now, and its people (see
``docs/online.md``, "The operator's view")."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from coloretto.cli.parser import Commands, bounded_int, fail
from coloretto.online.server.database import (
    Database,
    SharedDatabase,
    SqliteDatabase,
    StoreError,
    StoreUrl,
    parse_store_url,
)
from coloretto.online.server.room_space import KeptRoom, RoomSpace
from coloretto.store.lock import Holder
from coloretto.store.paths import DataDir
from coloretto.store.text import printable

NAME = "coloretto-rooms"
"""What this command calls itself to a shared database (no server process has this name)."""

PIPE_WIDTH = 200
"""The width of the list written to a pipe or a file."""

EPILOG = """\
Without --store, the rooms of the server of this data directory (COLORETTO_HOME):
rooms.sqlite3 there. Nothing is written: the database is only read, and a running server
goes on undisturbed. On PostgreSQL the process that plays a room is the one holding its
lock, by the name it logs at start ("process coloretto-… starts") and logs each room it
takes; "-" means no process plays it now (the first one asked takes it). On SQLite the
data directory's one server plays every room: its process id is shown while it runs.

examples:
  coloretto rooms
  coloretto rooms --store postgresql://coloretto@db.example.org/coloretto
  coloretto rooms --all --json
"""


def add_parser(commands: Commands) -> None:
    """Register ``rooms``."""
    parser = commands.add_parser(
        "rooms",
        help="list a game server's rooms, the process that plays each and its people",
        description="List the rooms a game server keeps (read from its database): their "
        "status, the server process that plays each now, their people, and when they last "
        "changed.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--store",
        type=_store,
        default=None,
        metavar="URL",
        help="the server's database, as its --store (default: rooms.sqlite3 in the data directory)",
    )
    parser.add_argument("--all", action="store_true", help="the finished rooms too (kept a week)")
    parser.add_argument(
        "--limit",
        type=bounded_int(1, 100_000, "--limit"),
        default=200,
        metavar="N",
        help="at most N rooms, the last changed first (200)",
    )
    parser.add_argument("--json", action="store_true", help="print the rooms as JSON")
    parser.set_defaults(run=run, parser=parser)


def _store(text: str) -> StoreUrl:
    try:
        return parse_store_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Print the rooms."""
    from coloretto.online.server.room_server import default_store  # noqa: PLC0415 (the server's own)

    store: StoreUrl = args.store or default_store(DataDir.default())
    if store.kind == "sqlite" and not Path(store.target).is_file():
        return fail(parser, f"no database at {store.target}: no server kept rooms there")
    try:
        rooms = asyncio.run(_listing(store, finished=args.all, limit=args.limit))
    except StoreError as error:
        return fail(parser, f"{error} ({shown_store(store)})")
    server = _sqlite_server(Path(store.target)) if store.kind == "sqlite" else None
    now = time.time()
    listed = [room_json(room, server, now) for room in rooms]
    if args.json:
        print(json.dumps({"store": shown_store(store), "rooms": listed}))
        return 0
    console = Console(highlight=False, markup=False, emoji=False, width=_width())
    if not listed:
        what = "rooms" if args.all else "rooms in play"
        console.print(f"No {what} in {shown_store(store)}.")
        return 0
    console.print(rooms_table(listed))
    return 0


async def _listing(store: StoreUrl, *, finished: bool, limit: int) -> list[KeptRoom]:
    """The rooms of ``store``, read only; ``StoreError`` with what went wrong."""
    db: Database
    if store.kind == "sqlite":
        db = SqliteDatabase(Path(store.target), read_only=True)
        await db.open()
    else:
        db = SharedDatabase(store.target, NAME)
        try:
            await db.open(pool_size=1)
        except (ValueError, TypeError) as error:  # an address asyncpg cannot read
            raise StoreError(f"not a PostgreSQL address: {error}") from None
    try:
        return await RoomSpace(db, NAME).listing(finished=finished, limit=limit)
    except StoreError as error:
        raise StoreError(f"not a Coloretto server's database? {error}") from None
    finally:
        await db.close()


def shown_store(store: StoreUrl) -> str:
    """The store's address as shown: its password left out.

    >>> shown_store(StoreUrl("postgresql", "postgresql://ana:secret@db:5432/c"))
    'postgresql://ana:***@db:5432/c'
    """
    if store.kind == "sqlite":
        return printable(f"sqlite://{store.target}")
    scheme, _, rest = store.target.partition("://")
    where, at, host = rest.rpartition("@")
    if at and ":" in where:
        rest = f"{where.split(':', 1)[0]}:***@{host}"
    return printable(f"{scheme}://{rest}")


def _sqlite_server(path: Path) -> str | None:
    """The server that plays a SQLite file's rooms, while it runs: ``process PID on
    HOST`` as its lock file names it (a file left by a process that ended names none)."""
    try:
        holder = Holder.parse(path.with_name(path.name + ".lock").read_text("utf-8", "replace"))
    except OSError:
        return None
    if holder is None or holder.host != socket.gethostname() or not _alive(holder.pid):
        return None
    return f"process {holder.pid} on {holder.host}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def room_json(kept: KeptRoom, server: str | None, now: float) -> dict[str, Any]:
    """One room of the listing as JSON (text stripped of control characters); ``server``:
    the SQLite server's process, which plays every room not finished."""
    room = kept.room
    process = kept.process if server is None or kept.status == "over" else server
    entry: dict[str, Any] = {
        "room": kept.code,
        "status": kept.status,
        "process": None if process is None else printable(process),
        "public": kept.public if room is None else room.table.public,
        "rated": None if room is None else room.table.rated,
        "updated": kept.updated,
        "idle": round(max(0.0, now - kept.updated), 1),
        "finished": kept.finished,
    }
    if room is None:
        return {**entry, "damaged": True, "people": [], "bots": None}
    session = room.session
    people = [
        {"seat": seat, "name": printable(name),
         "account": None if (account := room.table.accounts[seat - 1]) is None
         else printable(account)}
        for seat, name in enumerate(room.people, start=1) if name is not None
    ]  # fmt: skip
    return {
        **entry,
        "damaged": False,
        "players": session.config.rules.players,
        "level": room.level,
        "game": session.match.game_number,
        "games": session.config.rules.games,
        "move": kept.base + kept.moves,
        "people": people,
        "bots": session.config.rules.players - len(people),
    }


def rooms_table(rooms: list[dict[str, Any]]) -> Table:
    """The listing as Rich shows it (names as plain text, never markup)."""
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    for column in ("Room", "Status", "Table", "Process", "Game", "People", "Last change"):
        table.add_column(column, justify="right" if column == "Last change" else "left")
    for room in rooms:
        kind = "public" if room["public"] else "private"
        if room["rated"]:
            kind += ", rated"
        if room["damaged"]:
            game, people = "?", "(its record is damaged)"
        else:
            game = f"{room['game']}/{room['games']}, move {room['move']}"
            names = [_person(p) for p in room["people"]]
            if room["bots"]:
                names.append(f"{room['bots']} {room['level']} bot{'s' * (room['bots'] > 1)}")
            people = ", ".join(names)
        table.add_row(
            room["room"], room["status"], kind, Text(room["process"] or "-"), game,
            Text(people), f"{_age(room['idle'])} ago",
        )  # fmt: skip
    return table


def _person(person: dict[str, Any]) -> str:
    account = person["account"]
    if account is None:
        return str(person["name"])
    return f"{person['name']} (account {account})" if account != person["name"] else account


def _age(seconds: float) -> str:
    """``seconds`` as a short age: ``42s``, ``5m``, ``3h``, ``2d``.

    >>> _age(42.4), _age(300), _age(3 * 3600 + 5), _age(2 * 86400)
    ('42s', '5m', '3h', '2d')
    """
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def _width() -> int | None:
    """The terminal's width; for a pipe or a file, room for whole rows (not 80 columns)."""
    return None if sys.stdout.isatty() else PIPE_WIDTH
