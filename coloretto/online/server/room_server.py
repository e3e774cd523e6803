"""The game server: rooms of people and bots over WebSockets (``docs/protocol.md``).

The server is the authority: the engine runs here, clients send what they want to play,
the server checks it (their seat, their turn, the rules) and tells every connection of
the room what happened, never the order of the deck. Bots play here, in worker processes
shared fairly between the rooms (``BotPool``), so the event loop never waits for one.
Every change is saved before it is told (``RoomStore``), off the event loop; a change that
cannot be saved is undone and refused, never shown as played. A server killed at any
moment resumes every room on restart; a second server on the same data directory is
refused.

Every connection names its room in its address (``/rooms/CODE``; a new room at
``/rooms``; ``protocol.parse_route``) and its opening must agree, so a proxy in front of
several servers routes on the code; each server makes codes that start with characters of
its own (``prefixes``).

Each room in play is a ``LiveRoom`` (``live_room``): its state machine (``room_machine``)
with what the asyncio shell keeps beside it (its timers, its bots' driver and its lock).
``RoomServer`` shares its work between four parts: ``RoomKeeper`` (``room_keeper``: the
rooms in memory), ``RoomShell`` (``room_shell``: each room's events and effects), ``Door``
(``door``: each connection) and ``Hosting`` (``hosting``: opening rooms, taking seats).
Every message is a typed value of ``wire.protocol`` (requests) or ``wire.messages`` (the
server's).

Hostile clients are expected: connections are counted per address and in all and refused
past their caps (``Gatekeeper``), frames are bounded, every request is checked
(``protocol.parse_request``), each connection has a message budget (pings included) and
each address a budget of room look-ups and of rooms opened; a connection that stops
reading is closed. Breaking a limit gets an error frame or a closed connection, never a
change to any room, and a line in the audit log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import ssl
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from coloretto.online.server.audit import Audit
from coloretto.online.server.bot_pool import BotPool
from coloretto.online.server.budgets import SharedBudgets
from coloretto.online.server.database import SharedDatabase, StoreError, StoreUrl, open_database
from coloretto.online.server.door import Door
from coloretto.online.server.gatekeeper import Gatekeeper
from coloretto.online.server.hosting import Hosting
from coloretto.online.server.legacy_files import import_files
from coloretto.online.server.limits import Bucket, Limits
from coloretto.online.server.live_room import POLICY, LiveRoom
from coloretto.online.server.relay import Relay
from coloretto.online.server.room_keeper import RoomKeeper
from coloretto.online.server.room_shell import RoomShell
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.standings import StoredAccounts
from coloretto.online.wire.protocol import CODE_ALPHABET
from coloretto.store.incidents import incident_log
from coloretto.store.lock import Locked, hold
from coloretto.store.paths import DataDir

__all__ = ["POLICY", "Bucket", "Limits", "RoomServer", "ServerInUse", "run_server"]


class ServerInUse(Exception):
    """Another server serves the same data directory."""


class RoomServer:
    """The rooms this process plays and the connections to them. Everything runs on one
    event loop; bots think in ``bots``' processes; rooms are kept in ``space`` (a
    database). On a shared database, rooms another process plays are reached through it
    (``relay``), and rooms whose process ended are taken over (``sweep``).

    Its work is shared by four parts: ``keeper`` (the rooms in memory: taken, kept, let
    go, swept), ``shell`` (each room's state machine fed its events, its effects carried
    out), ``door`` (each connection from its opening on) and ``hosting`` (opening and
    joining rooms)."""

    def __init__(
        self,
        data: DataDir,
        space: RoomSpace,
        limits: Limits | None = None,
        prefixes: str = CODE_ALPHABET,
    ) -> None:
        self.prefixes = prefixes
        """The characters this server's new room codes start with (``code_prefixes``): a
        proxy in front of several servers routes each room to its maker by them."""
        self.space = space
        self.accounts = StoredAccounts(space.db)
        """The accounts openings are checked against."""
        self.limits = limits or Limits()
        self.budgets = SharedBudgets(space.db, self.limits)
        """The budgets every process of the database shares (accounts, rooms opened)."""
        self.log = incident_log(data.log) if _can_log(data) else logging.getLogger(__name__)
        self.audit = Audit(data.root / "audit.log")
        self.gate = Gatekeeper(self.limits, self.audit, self.log)
        self.rooms: dict[str, LiveRoom] = {}
        """The rooms played here, by code."""
        self.bots = BotPool(self.limits.bot_workers)
        self.relay: Relay | None = None
        """Connections to and from the other processes of a shared database."""
        self.clock: Callable[[], float] = time.monotonic
        self.stopping = False
        """True once the server stops: no new work is started."""
        self.keeper = RoomKeeper(self)
        self.shell = RoomShell(self)
        self.hosting = Hosting(self)
        self.door = Door(self)
        if isinstance(space.db, SharedDatabase):
            self.relay = Relay(space.db, space.server, self.limits, self.log)
            self.relay.on_open = self.door.relayed

    async def load(self) -> int:
        """Take the rooms this process plays from now on (``RoomKeeper.load``)."""
        return await self.keeper.load()

    def resume_all(self) -> None:
        """Let the bots of every room played here play on (``RoomKeeper.resume_all``)."""
        self.keeper.resume_all()

    def start_sweeping(self) -> None:
        """On a shared database, take over rooms whose process ended (``RoomKeeper``)."""
        self.keeper.start_sweeping()

    async def stop(self) -> None:
        """Stop every room's bots, timers and pending work (``RoomKeeper.stop``)."""
        await self.keeper.stop()


def _can_log(data: DataDir) -> bool:
    try:
        data.root.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return True


async def run_server(
    host: str,
    port: int,
    data: DataDir,
    *,
    store: StoreUrl | None = None,
    tls: ssl.SSLContext | None = None,
    limits: Limits | None = None,
    prefixes: str = CODE_ALPHABET,
    ready: Callable[[str], None] = print,
) -> None:
    """Serve until SIGINT or SIGTERM; ``ready`` is told the address once listening; new
    rooms' codes start with one of ``prefixes``. Rooms are kept in ``store`` (by default
    a SQLite file in ``data``).

    Raises ``ServerInUse`` if another server serves ``data`` (or the same SQLite file),
    ``StoreError`` if the database cannot be opened, ``OSError`` if the address cannot be
    listened on."""
    limits = (limits or Limits()).fitted()
    store = store or default_store(data)
    with contextlib.ExitStack() as held:
        try:
            data.root.mkdir(parents=True, exist_ok=True)
            held.enter_context(hold(data.root / "server.lock"))
            if store.kind == "sqlite":
                path = Path(store.target)
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise StoreError(
                        f"cannot make the database's folder {path.parent}: "
                        f"{error.strerror or error}"
                    ) from None
                held.enter_context(hold(path.with_name(path.name + ".lock")))
        except Locked as locked:
            raise ServerInUse(
                f"the data directory {data.root} is in use by another server "
                f"({locked.holder or 'a process that did not say who it is'})"
            ) from None
        name = f"coloretto-{secrets.token_hex(6)}"
        db = await open_database(store, name)
        try:
            space = await RoomSpace.open(db, name)
            server = RoomServer(data, space, limits, prefixes)
            _quiet_libraries(server.log)
            moved = (
                await import_files(space, data, server.log) if store == default_store(data) else 0
            )
            if moved:
                server.log.info("%d rooms moved from files into the database", moved)
            await _serve(server, host, port, tls, limits, ready)
        finally:
            await db.close()


def default_store(data: DataDir) -> StoreUrl:
    """The embedded database: ``rooms.sqlite3`` in the data directory."""
    return StoreUrl("sqlite", str(data.root / "rooms.sqlite3"))


async def _serve(  # noqa: PLR0917
    server: RoomServer,
    host: str,
    port: int,
    tls: ssl.SSLContext | None,
    limits: Limits,
    ready: Callable[[str], None],
) -> None:
    rooms = await server.load()
    stop = asyncio.get_running_loop().create_future()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(number, _finish, stop)
    db = server.space.db
    lost = db.lost if isinstance(db, SharedDatabase) else None
    try:
        # Everything a connection needs runs before the port opens: a client (a player
        # sent back at once by a proxy after a restart) is served from its first moment.
        await server.bots.start()
        server.gate.start()
        if server.relay is not None:
            await server.relay.start(server.space.alive)
        server.resume_all()
        server.start_sweeping()
        listening = await server.gate.listen(server.door.handler, host, port, tls)
        try:
            bound = _addresses(sock.getsockname() for sock in listening.sockets)
            scheme = "wss" if tls else "ws"
            ready(
                f"Coloretto server on {scheme}://{bound} ({rooms} rooms resumed, at most "
                f"{limits.max_connections} connections); Ctrl+C stops it"
            )
            waits: list[asyncio.Future[None]] = [stop] if lost is None else [stop, lost]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if lost is not None and lost.done():
                server.log.error("the connection to the database was lost: stopping")
                raise StoreError("the connection to the database was lost")
        finally:
            await server.gate.close(listening)
    finally:
        await server.stop()
        if server.relay is not None:
            await server.relay.stop()
        server.gate.stop()
        server.bots.shutdown()
        server.audit.close()


def _quiet_libraries(log: logging.Logger) -> None:
    """What asyncio and websockets have to say goes to the server's log file, not to the
    terminal (a flood of failed handshakes must not become a flood of tracebacks)."""
    for name in ("asyncio", "websockets"):
        library = logging.getLogger(name)
        library.propagate = False
        library.handlers = list(log.handlers)
        library.setLevel(logging.WARNING)


def _finish(stop: asyncio.Future[None]) -> None:
    if not stop.done():
        stop.set_result(None)


def _addresses(names: Iterable[Any]) -> str:
    host, port = next(iter(names))[:2]
    return f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
