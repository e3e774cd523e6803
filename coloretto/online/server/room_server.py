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

Each room in play is a ``LiveRoom``: the room (its game and people) with what the server
keeps of it while it runs (its connections, who is away since when, its timers, its bots'
driver and its lock). Every message is a typed value of ``protocol`` (requests) or
``messages`` (the server's).

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, cast

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from coloretto.bots.driver import BotTurn, play_bots
from coloretto.bots.guard import Answer
from coloretto.engine import Action, IllegalAction
from coloretto.online.server.account_service import (
    AccountError,
    check_account,
    new_challenge,
    register,
    registered_name,
)
from coloretto.online.server.audit import Audit
from coloretto.online.server.bot_pool import BotPool
from coloretto.online.server.budgets import SharedBudgets
from coloretto.online.server.connection import Gatekeeper, GuardedConnection
from coloretto.online.server.database import (
    SharedDatabase,
    StoreError,
    StoreUrl,
    open_database,
)
from coloretto.online.server.legacy_files import import_files
from coloretto.online.server.limits import Bucket, Limits
from coloretto.online.server.relay import Relay, RelayedConnection, deliver
from coloretto.online.server.room_machine import (
    Close,
    Effect,
    KeepMove,
    KeepRoom,
    RoomMachine,
    Send,
    Timer,
)
from coloretto.online.server.room_space import RoomSpace, status_of
from coloretto.online.server.rooms import Room, RoomError, new_code, over_record
from coloretto.online.server.standings import StoredAccounts, ladder
from coloretto.online.wire.accounts import normalise_server, opening_route
from coloretto.online.wire.clock import DEFAULT_PROFILE, Clock, ClockError, profile
from coloretto.online.wire.messages import (
    ErrorMessage,
    LadderMessage,
    OverMessage,
    RatingChange,
    ServerMessage,
    TablesMessage,
    WelcomeMessage,
)
from coloretto.online.wire.protocol import (
    CODE_ALPHABET,
    MAX_REQUEST,
    Act,
    Challenge,
    ErrorCode,
    Host,
    Join,
    Ladder,
    LockTable,
    Next,
    Opening,
    ProtocolError,
    Register,
    Remove,
    Request,
    Resume,
    Start,
    Tables,
    Watch,
    encode,
    parse_request,
)
from coloretto.store.incidents import incident_log
from coloretto.store.lock import Locked, hold
from coloretto.store.paths import DataDir

__all__ = ["POLICY", "Bucket", "Limits", "RoomServer", "ServerInUse", "run_server"]

POLICY = 1008
"""The WebSocket close code for a client that broke the rules (flooding, guessing)."""

LOBBY_PAUSE = 0.2
"""Seconds a lobby update waits for more changes to tell with it."""

SWEEP_SECONDS = 3.0
"""How often a process on a shared database looks for rooms whose process ended."""

SWEEP_ROOMS = 50
"""The most rooms one sweep takes over."""


class ClosingError(Exception):
    """An error frame after which the server closes the connection."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(eq=False)
class LiveRoom:
    """A room in play: its state machine (the room, its connections, who is away, its
    clock: ``RoomMachine``) and what the asyncio shell keeps beside it."""

    machine: RoomMachine[ServerConnection]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One change at a time, each saved before it is told."""
    driver: asyncio.Task[None] | None = None
    """The task that lets the bots play the room's turns."""
    wake: asyncio.TimerHandle | None = None
    """Wakes the driver once a person away has been away long enough."""
    dealer: asyncio.TimerHandle | None = None
    """Deals the match's next game while its host is away."""
    lobby_update: asyncio.TimerHandle | None = None
    """The lobby update about to be sent (changes close together go as one)."""
    owner: str | None = None
    """The address (``address_key``) that opened the room: its bots share the workers as
    that address's (``BotPool``)."""

    @property
    def code(self) -> str:
        """The room's code."""
        return self.machine.room.code

    @property
    def room(self) -> Room:
        """The room (its game and people)."""
        return self.machine.room

    @property
    def connections(self) -> dict[ServerConnection, int | None]:
        """The room's connections, with the player each one plays (``None``: watching)."""
        return self.machine.connections

    def stop_timers(self) -> None:
        """Cancel the room's timers (it leaves the memory)."""
        for timer in (self.wake, self.dealer, self.lobby_update):
            if timer is not None:
                timer.cancel()


@dataclass
class Seat:
    """One connection's place: its room and player (``None``: a watcher)."""

    live: LiveRoom
    player: int | None


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
        self.gate = Gatekeeper(self.limits, self.audit)
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

    async def handler(self, ws: ServerConnection) -> None:
        """One connection, from its opening to its end (``Door.handler``)."""
        await self.door.handler(ws)


class RoomKeeper:
    """The rooms in this process's memory: taken from the database (at the start, when
    asked for, by the sweep), kept whole, and let go (archived, left alone, removed)."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.space = server.space
        self.log = server.log
        self.limits = server.limits
        self.rooms = server.rooms
        self.clock = server.clock
        self._tasks: set[asyncio.Task[None]] = set()

    async def load(self) -> int:
        """Take the rooms this process plays from now on: on its own database, every room
        not finished; on a shared one, the rooms in play that no process plays. People
        count as away from now on. Rooms whose match is over are archived. Returns how
        many rooms are in play here."""
        shared = self.space.shared
        self.log.info(
            "process %s starts, on %s", self.space.server,
            "a shared database (PostgreSQL)" if shared else "its own database (SQLite)",
        )  # fmt: skip
        try:
            if pruned := await self.space.prune_finished():
                self.log.info("%d finished rooms older than a week deleted", pruned)
        except StoreError as error:
            self.log.error("finished rooms not pruned: %s", error)
        codes = await (self.space.orphans() if shared else self.space.active())
        why = "its process ended" if shared else "in play when the server last stopped"
        for code in codes:
            await self.take(code, why)
        return len(self.rooms)

    def live(self, room: Room, owner: str | None) -> LiveRoom:
        """``room`` in play here from now on, opened from ``owner``."""
        live = self.rooms[room.code] = LiveRoom(
            RoomMachine(room, self.limits.alone_seconds), owner=owner
        )
        return live

    async def take(self, code: str, why: str = "asked for") -> LiveRoom | None:
        """Play room ``code`` here, as kept, if no other process plays it; its people are
        away until they connect. ``None`` if there is no such room or another process
        plays it. The log says which process took it, and ``why``."""
        if (live := self.rooms.get(code)) is not None:
            return live
        if await self.space.status(code) is None or not await self.space.claim(code):
            return None
        try:
            room = await self.space.load(code, self.log)
        except StoreError as error:
            self.log.error("room %s not loaded: %s", code, error)
            room = None
        owner = await self._owner(code)
        if code in self.rooms:  # taken meanwhile by another connection's look-up
            return self.rooms[code]
        if room is None:
            await self.release(code)
            return None
        live = self.live(room, owner)
        self.log.info(
            "room %s (%s, move %d) taken by process %s: %s",
            code, status_of(room), room.ply, self.space.server, why,
        )  # fmt: skip
        if status_of(room) == "playing":
            try:
                await self.space.leave_alone(code, alone=False)  # played again
            except StoreError as error:
                self.log.error("room %s: not marked as played again: %s", code, error)
        live.machine.resumed(self.clock())
        if room.session.match.is_over and status_of(room) != "over":
            await self.archive(live)
            return self.rooms.get(code)
        self.server.shell.plan_fill(live)
        return live

    async def _owner(self, code: str) -> str | None:
        """The address room ``code`` was opened from, as kept (``None``: not known)."""
        try:
            return await self.space.host_of(code)
        except StoreError as error:
            self.log.error("room %s: its host's address not read: %s", code, error)
            return None

    async def release(self, code: str) -> None:
        """This process no longer plays room ``code`` (logged if the database refused)."""
        try:
            await self.space.release(code)
        except StoreError as error:
            self.log.error("room %s not let go: %s", code, error)

    def resume_all(self) -> None:
        """Let the bots of every room played here play on (once the event loop runs);
        rooms that nobody comes back to are let go in time (``watch_idle``)."""
        for live in list(self.rooms.values()):
            self.server.shell.kick(live)
            self.watch_idle(live)

    def start_sweeping(self) -> None:
        """On a shared database: take the rooms in play whose process ended (every
        ``SWEEP_SECONDS``), so that their bots play on; relay connections both ways."""
        if self.server.relay is None:
            return
        self.spawn(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                orphans = await self.space.orphans(limit=SWEEP_ROOMS)
            except StoreError as error:
                self.log.error("rooms not swept: %s", error)
                continue
            for code in orphans:
                if len(self.rooms) >= self.limits.max_rooms:
                    break
                try:
                    live = await self.take(code, "its process ended")
                except StoreError as error:
                    self.log.error("room %s not taken over by process %s: %s",
                                   code, self.space.server, error)  # fmt: skip
                    continue
                if live is not None:
                    self.server.shell.kick(live)
                    self.watch_idle(live)

    async def stop(self) -> None:
        """Stop every room's bots, timers and pending work (the server is stopping), and
        wait until they have: nothing then writes to the database or asks a bot."""
        self.server.stopping = True
        tasks = [task for task in self._tasks if not task.done()]
        for live in self.rooms.values():
            live.stop_timers()
            if live.driver is not None and not live.driver.done():
                tasks.append(live.driver)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def spawn(self, work: Any) -> None:
        """Run ``work`` (a coroutine) as a task the server waits for when it stops."""
        if self.server.stopping:
            work.close()  # a timer that fired as the server stops: nothing more is done
            return
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def watch_idle(self, live: LiveRoom) -> None:
        """Let the room go if nobody is there in a while: a room whose game never started
        (after ``limits.lobby_seconds``) is removed, a finished one (after
        ``limits.idle_seconds``) is archived. A game in play stays: its bots play for the
        people away (for ``limits.alone_seconds`` once none is connected: then it waits,
        ``RoomMachine.bots_may_think``). A match waiting for its host to deal the next game
        leaves the memory like a finished one (it stays kept, and a server goes on with it
        when asked)."""
        seconds = self.limits.idle_seconds if live.room.started else self.limits.lobby_seconds
        asyncio.get_running_loop().call_later(seconds, lambda: self.spawn(self._let_go(live)))

    async def _let_go(self, live: LiveRoom) -> None:
        room = live.room
        if live.connections or self.rooms.get(live.code) is not live:
            return
        if room.session.match.is_over:
            await self.archive(live)
        elif room.session.game.is_over:
            await self.forget(live)
        elif not room.started:
            try:
                await self.space.remove(room.code)
            except StoreError as error:
                self.failed(room, f"not removed: {error}")
            await self.forget(live)
        elif not live.machine.bots_may_think(self.clock()):
            await self._leave_alone(live)

    async def archive(self, live: LiveRoom) -> None:
        """A finished room leaves the memory and the rooms in play (``take`` brings it
        back for someone who asks for it)."""
        try:
            await self.space.archive(live.room)
        except StoreError as error:
            self.failed(live.room, f"not archived: {error}")
        await self.forget(live)

    async def _leave_alone(self, live: LiveRoom) -> None:
        """A game whose people all left long ago leaves the memory (it does not hold a
        place among ``max_rooms``): kept as it stands, taken again when one of them asks
        for it (``take``), and pruned after a week."""
        try:
            await self.space.leave_alone(live.code)
        except StoreError as error:
            self.failed(live.room, f"not left alone: {error}")
            return
        self.log.info("room %s: nobody came back: its game waits in the database", live.code)
        await self.forget(live)

    async def save(self, room: Room) -> bool:
        """Keep the whole room now (a new room, a seat taken, a game started or dealt);
        False (logged) if the database refused."""
        try:
            await self.space.save(room)
        except (StoreError, ValueError) as error:
            self.failed(room, f"not saved: {error}")
            return False
        return True

    async def save_locked(self, live: LiveRoom) -> bool:
        """``save`` holding the room's lock (saves of one room never overtake each other)."""
        async with live.lock:
            return await self.save(live.room)

    def failed(self, room: Room, what: str) -> None:
        """The database refused ``what`` of ``room``: logged and audited."""
        self.log.error("room %s %s", room.code, what)
        self.server.audit.note(ErrorCode.NOT_SAVED, room.code, f"room {what}")

    async def forget(self, live: LiveRoom) -> None:
        """A room nobody is in any more leaves the memory, and this process lets it go
        (what becomes of it in the database is the caller's: archived, kept, or
        removed)."""
        if self.rooms.get(live.code) is not live:
            return
        del self.rooms[live.code]
        self.server.bots.forget(live.code)
        live.stop_timers()
        await self.release(live.code)


class RoomShell:
    """The asyncio shell around each room's ``RoomMachine``: it feeds the machine its
    events (requests, connections coming and going, timers, bots' answers, the database's
    answers) and carries out its effects (messages, closings, timers, records kept before
    anything is told)."""

    _farewells: ClassVar[set[asyncio.Task[None]]] = set()
    """Connections being closed (kept here until they are)."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.space = server.space
        self.log = server.log
        self.rooms = server.rooms
        self.clock = server.clock

    # ------------------------------------------------------------------ effects

    def run(self, live: LiveRoom, effects: Iterable[Effect[ServerConnection]]) -> None:
        """Carry out the machine's ``effects`` for ``live``."""
        for effect in effects:
            if isinstance(effect, Send):
                deliver(effect.to, encode(effect.message))
            elif isinstance(effect, Close):
                self._close(live, effect)
            elif isinstance(effect, Timer):
                self._timer(live, effect)
            else:
                self.log.info("%s", effect.text)

    def _close(self, live: LiveRoom, close: Close[ServerConnection]) -> None:
        self.log.info(
            "room %s: a connection of player %d closed (%s)", live.code, close.player, close.code
        )
        task = asyncio.get_running_loop().create_task(
            self._farewell(close.connection, close.code, close.message)
        )
        self._farewells.add(task)
        task.add_done_callback(self._farewells.discard)

    async def _farewell(self, ws: ServerConnection, code: ErrorCode, message: str) -> None:
        """Say why, then close (``broadcast``: a connection that does not read never
        holds this up; ``close`` gives up after the server's ``close_timeout``)."""
        deliver([ws], encode(ErrorMessage(code=code, message=message)))
        await ws.close(POLICY, code)

    def _timer(self, live: LiveRoom, timer: Timer) -> None:
        loop = asyncio.get_running_loop()
        if timer.kind == "wake":
            if live.wake is not None:
                live.wake.cancel()
                live.wake = None
            if timer.seconds is not None:
                live.wake = loop.call_later(timer.seconds, self.kick, live)
            return
        if live.dealer is not None:
            live.dealer.cancel()
            live.dealer = None
        if timer.seconds is not None:
            live.dealer = loop.call_later(
                timer.seconds, lambda: loop.create_task(self._deal_for_host(live))
            )

    def all(self, live: LiveRoom, message: ServerMessage) -> None:
        """Tell every connection of the room ``message``."""
        deliver(live.connections, encode(message))

    async def kept(self, live: LiveRoom, keep: KeepMove | KeepRoom) -> None:
        """Keep the machine's pending change (call it holding the lock), then tell it; if
        the database refuses, the change is undone and ``RoomError`` (``not-saved``) says
        so."""
        room = live.room
        changes: list[RatingChange] = []
        try:
            if isinstance(keep, KeepRoom):
                await self.space.save(room)
            elif keep.last:
                changes = await self.space.end_game(room, keep.move, keep.covered, keep.notes)
            else:
                await self.space.append(room.code, keep.ply, keep.move, keep.covered, keep.notes)
        except (StoreError, ValueError) as error:
            problem = live.machine.refuse()
            what = "" if isinstance(keep, KeepRoom) else f"move {keep.ply + 1} "
            self.server.keeper.failed(room, f"{what}not saved: {error}")
            raise problem from None
        self.run(live, live.machine.confirm(self.clock(), changes))
        if isinstance(keep, KeepMove) and room.session.game.is_over and not live.connections:
            self.server.keeper.watch_idle(live)  # the bots finished it for people all away
        self.kick(live)

    # ------------------------------------------------------------------ events

    async def play(self, live: LiveRoom, player: int, ply: int, action: Action) -> None:
        """Play a person's ``action`` (``RoomError`` or ``IllegalAction`` if it is not
        theirs to play); saved, then told."""
        async with live.lock:
            keep = live.machine.play(player, ply, action, self.clock())
            await self.kept(live, keep)

    async def start(self, live: LiveRoom) -> None:
        """Start the game (the host's request, or a public table's wait over): saved,
        then told."""
        async with live.lock:
            await self.kept(live, live.machine.start(self.clock()))

    async def deal_next(self, live: LiveRoom, number: int) -> None:
        """Deal game ``number`` of the match (the host's request): saved, then told."""
        async with live.lock:
            await self.kept(live, live.machine.deal(number))

    async def _deal_for_host(self, live: LiveRoom) -> None:
        """Deal the next game, the host being away (unless that changed meanwhile)."""
        async with live.lock:
            if self.rooms.get(live.code) is not live:
                return
            keep, effects = live.machine.deal_for_host(self.clock())
            self.run(live, effects)
            if keep is None:
                return
            try:
                await self.kept(live, keep)
            except RoomError:
                self.run(live, [live.machine.plan_next(self.clock())])  # try again later

    def arrive(self, live: LiveRoom, ws: ServerConnection, player: int | None) -> None:
        """A connection takes its seat in the room."""
        self.run(live, live.machine.join(ws, player, self.clock()))

    def leave(self, ws: ServerConnection, seat: Seat) -> None:
        """A connection of the room closed."""
        live = seat.live
        room = live.room
        effects = live.machine.leave(ws, self.clock())
        if room.session.match.is_over and not live.connections:
            self.server.keeper.spawn(self.server.keeper.archive(live))
            return
        if not live.connections:
            self.server.keeper.watch_idle(live)
        if effects:  # its person is away now
            self.run(live, effects)
            if not room.started:
                self.lobby(live)
            self.kick(live)

    async def seating(self, live: LiveRoom, request: Remove | LockTable) -> None:
        """The host, before the start, removes a person (their connections closed with
        the error ``removed``) or closes the table to new players (or opens it again);
        the room is saved and everyone sees the lobby again. A lock the disk refuses is
        undone; a removal holds (its person is gone) while the server runs. Either way
        the host gets ``not-saved``."""
        room = live.room
        async with live.lock:
            if isinstance(request, Remove):
                self.run(live, live.machine.remove(request.seat))
                saved = await self.server.keeper.save(room)
            else:
                was = room.locked
                room.lock(request.locked)
                if not (saved := await self.server.keeper.save(room)):
                    room.locked = was
        self.lobby(live)
        if not saved:
            done = "they are removed until it stops" if isinstance(request, Remove) else "try again"
            raise RoomError(f"the server could not save the room: {done}", ErrorCode.NOT_SAVED)

    def lobby(self, live: LiveRoom) -> None:
        """Tell everyone in the room's lobby who sits where, soon: changes that come
        close together (people coming and going) are told once."""
        if live.lobby_update is not None:
            return

        def send() -> None:
            live.lobby_update = None
            if self.rooms.get(live.code) is live and not live.room.started:
                self.all(live, live.machine.news.lobby_message(time.time()))

        live.lobby_update = asyncio.get_running_loop().call_later(LOBBY_PAUSE, send)

    def plan_fill(self, live: LiveRoom) -> None:
        """A public table's bots take its free seats at its ``fill_at`` (its game starts)."""
        fill_at = live.room.table.fill_at
        if fill_at is None or live.room.started:
            return
        wait = max(0.0, fill_at - time.time())
        keeper = self.server.keeper
        asyncio.get_running_loop().call_later(wait, lambda: keeper.spawn(self._fill(live)))

    async def _fill(self, live: LiveRoom) -> None:
        if self.rooms.get(live.code) is not live or live.room.started:
            return
        self.log.info("room %s: its wait is over: bots fill the free seats", live.code)
        try:
            await self.start(live)
        except RoomError as problem:
            self.all(live, ErrorMessage(code=problem.code, message=str(problem)))

    # ------------------------------------------------------------------ bots

    def kick(self, live: LiveRoom) -> None:
        """Let bots play the room's turns (one driver per room, started if idle)."""
        task = live.driver
        if task is None or task.done():
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveRoom) -> None:
        """Play ``live``'s bots' turns (the bot loop, ``play_bots``), each asked in the
        room's worker (``BotPool``), at the room's pace."""
        session = live.room.session
        bots = self.server.bots

        async def ask(turn: BotTurn) -> Answer:
            return await bots.choose(
                live.room.code,
                live.room.bot_specs(),
                seed=session.bots.seed,
                state=turn.state,
                game_number=turn.game_number,
                player=turn.player,
                limit=session.config.time_limit,
                owner=live.owner,
            )

        await play_bots(_RoomBots(self, live), ask, lambda: session.config.delay)


class Door:
    """Each connection, from its opening request (or the requests answered before one:
    challenges, accounts, the lobby's tables, the ladder) to its end: its requests read,
    checked against its budgets and passed to its room, or relayed to the process that
    plays the room."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.space = server.space
        self.log = server.log
        self.limits = server.limits
        self.rooms = server.rooms
        self.clock = server.clock
        self.audit = server.audit
        self.shell = server.shell

    async def handler(self, ws: ServerConnection) -> None:
        """One connection: its opening request, then its moves, until it closes."""
        guarded = cast(GuardedConnection, ws)  # as serve makes them: gate.connection_class()
        address, bucket = guarded.address, guarded.budget
        seat: Seat | None = None
        elsewhere: tuple[str, str, str | None] | None = None
        nonce: bytes | None = None
        try:
            async with asyncio.timeout(self.limits.opening_seconds):
                while seat is None and elsewhere is None:
                    first = await ws.recv()
                    request = self._parse(ws, first, bucket)
                    if request is None:
                        continue
                    if isinstance(request, Challenge | Register | Tables | Ladder):
                        nonce = await self._ask(ws, address, request) or nonce
                        continue
                    if not isinstance(request, Host | Join | Resume | Watch):
                        await _send(
                            ws, ErrorMessage(code=ErrorCode.NO_ROOM, message="say which room first")
                        )
                        continue
                    if (why := guarded.route.refuses(request)) is not None:
                        raise ClosingError(ErrorCode.WRONG_ROOM, why)
                    try:
                        account = await self._account(ws, request, nonce)
                    except ProtocolError as problem:
                        await _send(ws, ErrorMessage(code=problem.code, message=str(problem)))
                        continue
                    finally:
                        nonce = None  # a challenge answers one opening
                    if (player := await self._elsewhere(ws, address, request)) is not None:
                        elsewhere = (player, _text(first), account)
                    else:
                        seat = await self._open(ws, address, request, account)
            if elsewhere is not None:
                await self._pass_on(ws, *elsewhere)
                return
            assert seat is not None
            async for text in ws:
                request = self._parse(ws, text, bucket)
                if request is not None:
                    await self._request(ws, seat, request)
        except ClosingError as refused:
            self.audit.note(refused.code, address, str(refused))
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode(ErrorMessage(code=refused.code, message=str(refused))))
                await ws.close(POLICY, refused.code)
        except TimeoutError:
            await ws.close(POLICY, "no opening request")
        except ConnectionClosed:
            pass
        finally:
            if seat is not None:
                self.shell.leave(ws, seat)

    async def _elsewhere(self, ws: ServerConnection, address: str, request: Opening) -> str | None:
        """The process that plays the room ``request`` asks for, when it is another one
        (``None``: this one plays it now, or there is no such room). A connection passed
        on to this process is never passed on again (it is served here, or told there is
        no such room)."""
        if (
            self.server.relay is None
            or isinstance(ws, RelayedConnection)
            or isinstance(request, Host)
            or request.room in self.rooms
        ):
            return None
        self.guesses(address)  # no look-up past the address's budget
        for _ in range(3):  # a room let go at this moment is taken here on the next try
            if await self.server.keeper.take(request.room) is not None:
                return None
            player = await self.space.player_of(request.room)
            if player is None and await self.space.status(request.room) is None:
                return None
            if player is not None and player != self.space.server:
                return player
        return None

    async def _pass_on(
        self, ws: ServerConnection, to: str, first: str, account: str | None
    ) -> None:
        """Serve ``ws`` through process ``to``, which plays its room: its frames go there
        (within this process's budget), what that process says comes back. ``account``:
        the one its opening names, checked here."""
        relay = self.server.relay
        assert relay is not None
        guarded = cast(GuardedConnection, ws)
        number = relay.forward(to, ws, guarded.address, guarded.route, first, account)
        try:
            async for text in ws:
                if not guarded.budget.take(self.clock()):
                    raise ClosingError(ErrorCode.FLOODING, "too many messages: slow down")
                relay.frame(number, _text(text))
        finally:
            relay.gone(number)

    async def _ask(self, ws: ServerConnection, address: str, request: Request) -> bytes | None:
        """Answer a request made before the opening (a challenge, an account to make, the
        lobby's tables, the ladder); the challenge's nonce, for a challenge."""
        server = self.server
        book = server.gate.book.get(address)
        try:
            if isinstance(request, Challenge):
                challenge = new_challenge()
                await _send(ws, challenge)
                return challenge.nonce
            if isinstance(request, Register):
                if (refused := await server.budgets.may_register(address)) is not None:
                    raise ClosingError(ErrorCode.TOO_MANY_TRIES, refused)
                await _send(ws, await register(server.accounts, request))
            elif isinstance(request, Tables | Ladder):
                if not book.lookups.take(self.clock()):
                    raise ClosingError(ErrorCode.TOO_MANY_TRIES, "too many look-ups: wait a minute")
                if isinstance(request, Tables):
                    listed = await self.space.public_tables(per_host=self.limits.listed_per_host)
                    await _send(ws, TablesMessage(tables=tuple(listed)))
                else:
                    await _send(ws, LadderMessage(entries=tuple(await ladder(self.space.db))))
        except StoreError as error:
            self.log.error("a request before an opening not answered: %s", error)
            await _send(
                ws, ErrorMessage(code=ErrorCode.NOT_SAVED, message="the server cannot answer now")
            )
        return None

    async def _account(
        self, ws: ServerConnection, opening: Opening, nonce: bytes | None
    ) -> str | None:
        """The account ``opening`` names, checked against this connection's challenge
        (``None``: a guest); ``ProtocolError`` (``bad-account``) if it does not hold. A
        connection passed on from another process was checked there."""
        if isinstance(ws, RelayedConnection):
            return ws.account
        claim = None if isinstance(opening, Watch) else opening.account
        if claim is None:
            return None
        route = opening_route(opening)
        problem: ProtocolError | None = None
        for server in _server_names(ws):
            try:
                return await check_account(self.server.accounts, claim, nonce, server, route)
            except AccountError as wrong:
                problem = wrong
        raise problem or AccountError("this connection did not say which server it is for")

    def relayed(self, connection: RelayedConnection, first: str) -> None:
        """A client of another process, passed here: served as one of this process's."""
        connection.feed(first)
        self.server.keeper.spawn(self._serve_relayed(connection))

    async def _serve_relayed(self, connection: RelayedConnection) -> None:
        """``handler`` for a relayed client; however it ends, the connection is then
        closed at both ends and forgotten (as ``serve`` closes its own connections when
        their handler returns)."""
        relay = self.server.relay
        assert relay is not None
        code = CloseCode.INTERNAL_ERROR
        try:
            await self.handler(cast(ServerConnection, connection))
            code = CloseCode.NORMAL_CLOSURE
        finally:
            relay.done(connection, CloseCode.SERVICE_RESTART if self.server.stopping else code)

    def _parse(self, ws: ServerConnection, text: str | bytes, bucket: Bucket) -> Request | None:
        if not bucket.take(self.clock()):
            raise ClosingError(ErrorCode.FLOODING, "too many messages: slow down")
        try:
            return parse_request(text)
        except ProtocolError as problem:
            deliver([ws], encode(ErrorMessage(code=problem.code, message=str(problem))))
            return None

    def guesses(self, address: str) -> Bucket:
        """``address``'s budget of failed look-ups (unknown rooms, wrong tokens)."""
        bucket = self.server.gate.book.get(address).lookups
        if not bucket.available(self.clock()):
            raise ClosingError(
                ErrorCode.TOO_MANY_TRIES, "too many wrong rooms or tokens: wait a minute"
            )
        return bucket

    def find(self, address: str, code: str) -> LiveRoom:
        """The room played here; ``RoomError`` (a guess counted) if there is none."""
        guesses = self.guesses(address)
        live = self.rooms.get(code)
        if live is None:
            guesses.take(self.clock())
            self.audit.note(ErrorCode.NO_ROOM, address, f"asked for room {code}")
            raise RoomError(f"there is no room {code}", ErrorCode.NO_ROOM)
        return live

    async def _open(
        self, ws: ServerConnection, address: str, request: Opening, account: str | None
    ) -> Seat | None:
        keeper, shell = self.server.keeper, self.shell
        try:
            if not isinstance(request, Host) and request.room not in self.rooms:
                self.guesses(address)  # no look-up past the address's budget
                live_now = await keeper.take(request.room)
                if live_now is not None:
                    keeper.watch_idle(live_now)
            seat, token = await self.server.hosting.seat(address, request, account)
        except RoomError as problem:
            await _send(ws, ErrorMessage(code=problem.code, message=str(problem)))
            return None
        live = seat.live
        room = live.room
        if seat.player is None and sum(p is None for p in live.connections.values()) >= (
            self.limits.max_watchers
        ):
            raise ClosingError(ErrorCode.CROWDED, "the room has too many watchers: try again later")
        if isinstance(request, Host):
            shell.plan_fill(live)
        if isinstance(request, Host | Join) and not await keeper.save_locked(live):
            await _send(
                ws, ErrorMessage(code=ErrorCode.NOT_SAVED, message="the server cannot save now")
            )
            if isinstance(request, Host):
                await keeper.forget(live)
            elif seat.player is not None and room.is_person(seat.player) and not room.started:
                room.remove(seat.player)  # the seat is free again, as on the disk
            return None
        if isinstance(request, Host):
            await self.server.hosting.keep_owner(live)
        deliver(
            [ws], encode(WelcomeMessage(room=room.code, seat=seat.player, token=token))
        )  # before any news
        shell.arrive(live, ws, seat.player)
        if room.started:
            await _send(ws, live.machine.news.game_message(seat.player, self.clock()))
            if room.session.game.is_over:  # over, or a match between two games
                await _send(ws, OverMessage(record=over_record(room)))
        else:
            await _send(ws, live.machine.news.lobby_message(time.time()))
            if seat.player is not None:
                shell.lobby(live)  # the others learn of the new person
        shell.kick(live)
        return seat

    async def _request(self, ws: ServerConnection, seat: Seat, request: Request) -> None:
        live = seat.live
        if ws not in live.connections:
            return  # removed, or its seat taken up elsewhere: it is being closed
        shell = self.shell
        try:
            if isinstance(request, Start):
                if seat.player != 0:
                    raise RoomError("only the host starts the game", ErrorCode.NOT_HOST)
                if live.room.started:
                    raise RoomError("the game has started already", ErrorCode.STARTED)
                await shell.start(live)
            elif isinstance(request, Next):
                if seat.player != 0:
                    raise RoomError("only the host starts the next game", ErrorCode.NOT_HOST)
                await shell.deal_next(live, request.game)
            elif isinstance(request, Act):
                if seat.player is None:
                    raise RoomError("watchers cannot play", ErrorCode.WATCHING)
                await shell.play(live, seat.player, request.ply, request.action)
            elif isinstance(request, Remove | LockTable):
                if seat.player != 0:
                    raise RoomError(
                        "only the host chooses who sits at the table", ErrorCode.NOT_HOST
                    )
                await shell.seating(live, request)
            else:
                raise RoomError("this connection has its seat already", ErrorCode.SEATED)
        except RoomError as problem:
            await _send(ws, ErrorMessage(code=problem.code, message=str(problem)))
        except IllegalAction as problem:
            await _send(ws, ErrorMessage(code=ErrorCode.ILLEGAL, message=str(problem)))


class Hosting:
    """Rooms opened and seats taken: each address's budgets of rooms, the table's clock,
    guests' names, new codes."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server
        self.space = server.space
        self.log = server.log
        self.limits = server.limits
        self.rooms = server.rooms
        self.clock = server.clock
        self._hosting = asyncio.Lock()
        """Held while a room is opened (its budget counted, then the room made)."""

    async def _may_host(self, address: str) -> None:
        """Refuse a room past ``address``'s budgets (counted on every process of the
        database: rooms opened a minute, rooms not started, here or elsewhere) or the
        server's cap (call it holding ``_hosting``)."""
        audit = self.server.audit
        try:
            opened = await self.server.budgets.may_open(address)
            elsewhere = await self.space.lobbies_of(address) if opened else []
        except StoreError as error:
            self.log.error("a room not opened: its budget not read: %s", error)
            raise RoomError("the server cannot open a room now", ErrorCode.NOT_SAVED) from None
        if not opened:
            raise ClosingError(ErrorCode.TOO_MANY_ROOMS, "too many rooms opened: wait a minute")
        lobbies = sum(code not in self.rooms for code in elsewhere) + sum(
            live.owner == address and not live.room.started for live in self.rooms.values()
        )
        if lobbies >= self.limits.lobbies_per_address:
            audit.note(ErrorCode.TOO_MANY_ROOMS, address, f"{lobbies} rooms not started")
            raise RoomError(
                f"you have {lobbies} rooms whose game has not started: start or leave one",
                ErrorCode.TOO_MANY_ROOMS,
            )
        if len(self.rooms) >= self.limits.max_rooms:
            audit.note(ErrorCode.SERVER_FULL, address, "no room opened: the server is full")
            raise RoomError("the server is full: try later", ErrorCode.SERVER_FULL)

    async def keep_owner(self, live: LiveRoom) -> None:
        """Keep the address a new room was opened from (its lobby listing and its budget
        of rooms not started count by it on every process)."""
        if live.owner is None:
            return
        try:
            await self.space.opened_by(live.code, live.owner)
        except StoreError as error:
            self.log.error("room %s: its host's address not kept: %s", live.code, error)

    async def seat(
        self, address: str, request: Opening, account: str | None
    ) -> tuple[Seat, str | None]:
        """The seat ``request`` asks for (a new room's first, a free one, one taken up
        again with its token, or a watcher's), and its token if it is a new one."""
        if isinstance(request, Host):
            async with self._hosting:  # one at a time: each counts the rooms opened before
                await self._may_host(address)
                if account is None and request.public:
                    await self._guest_name(request.name)
                code = self._new_code()
                while (
                    code in self.rooms
                    or await self.space.taken(code)
                    or not await self.space.claim(code)
                ):
                    code = self._new_code()
                try:
                    room, token = Room.open(code, request, account, self._clock_of(request))
                except RoomError:
                    await self.server.keeper.release(code)
                    raise
                live = self.server.keeper.live(room, address)
            return Seat(live, 0), token
        door = self.server.door
        live = door.find(address, request.room)
        if isinstance(request, Join):
            if account is None and live.room.table.public:
                await self._guest_name(request.name)
            player, token = live.room.join(request.name, account)
            return Seat(live, player), token
        if isinstance(request, Resume):
            owner = live.room.player_of(request.token)
            if owner is None:
                door.guesses(address).take(self.clock())  # a wrong token is a guess
                raise RoomError("that token is not a seat's in this room", ErrorCode.BAD_TOKEN)
            self.server.shell.run(
                live,
                live.machine.dismiss(
                    owner, ErrorCode.REPLACED, "your seat was taken up on another connection"
                ),
            )
            return Seat(live, owner), None
        return Seat(live, None), None

    def _clock_of(self, request: Host) -> Clock | None:
        """The speed profile of a new table: the one its host named, or at a public or
        rated table the server's default; ``RoomError`` for a name the server lacks."""
        clocks = self.limits.clocks
        if request.clock is not None:
            try:
                return profile(clocks, request.clock)
            except ClockError as error:
                raise RoomError(str(error), ErrorCode.BAD_REQUEST) from None
        if not (request.public or request.rated) or not clocks:
            return None
        return next((c for c in clocks if c.name == DEFAULT_PROFILE), clocks[0])

    async def _guest_name(self, name: str) -> None:
        """``RoomError`` (``name-taken``) when a guest's ``name`` reads as an account's: at
        a public table nobody but the account's owner sits under it."""
        if (owner := await registered_name(self.server.accounts, name)) is not None:
            raise RoomError(
                f"{name} reads as {owner}, an account's name on this server: sign in as "
                f"{owner}, or choose another name",
                ErrorCode.NAME_TAKEN,
            )

    def _new_code(self) -> str:
        """A random room code that starts with one of ``prefixes``."""
        return secrets.choice(self.server.prefixes) + new_code()[1:]


async def _send(ws: ServerConnection, message: ServerMessage) -> None:
    await ws.send(encode(message))


def _server_names(ws: ServerConnection) -> list[str]:
    """The names a client may have given this server (its ``Host`` header, as ``ws://``
    or ``wss://``: behind a proxy that ends TLS, the server sees plain connections); none
    without exactly one ``Host`` (refused at the handshake: ``connection.host_problem``)."""
    request = getattr(ws, "request", None)
    hosts = [] if request is None else request.headers.get_all("Host")
    if len(hosts) != 1 or not hosts[0]:
        return []
    names = []
    for scheme in ("ws", "wss"):
        with contextlib.suppress(ValueError):
            names.append(normalise_server(f"{scheme}://{hosts[0]}"))
    return names


def _text(frame: str | bytes) -> str:
    """A client's frame as text (a binary one is refused as the protocol says, wherever
    it is read)."""
    return frame if isinstance(frame, str) else frame.decode("utf-8", "replace")


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
        async with serve(
            server.handler,
            host,
            port,
            ssl=tls,
            create_connection=server.gate.connection_class(),
            process_request=server.gate.process_request,
            max_size=MAX_REQUEST,
            max_queue=4,
            write_limit=limits.write_limit,
            close_timeout=1,  # a client that floods may not read our closing frame
            compression=None,
        ) as listening:
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


class _RoomBots:
    """A room as the bot loop sees it: a bot's turn is one when a bot plays the player to
    move, or stands in for a person away long enough (``RoomMachine.bot_turn``)."""

    def __init__(self, shell: RoomShell, live: LiveRoom) -> None:
        self.shell = shell
        self.live = live
        self.failures = 0
        """Moves in a row the disk refused to keep."""

    def bot_turn(self) -> BotTurn | None:
        """The bots' turn now, if it is one (its wake-up timer set while it is not)."""
        live = self.live
        if self.shell.rooms.get(live.code) is not live:
            return None
        turn, effects = live.machine.bot_turn(self.shell.clock())
        self.shell.run(live, effects)
        return turn

    async def play_bot(self, turn: BotTurn, answer: Answer) -> bool:
        """Play the answer if the room still stands at ``turn`` (else ask again), saved
        before it is told; a move the disk refuses is told once, then retried ever later."""
        shell, live = self.shell, self.live
        if answer.problem is not None:
            shell.log.warning("room %s: bot failed: %s", live.code, answer.problem)
        async with live.lock:
            if shell.rooms.get(live.code) is not live:
                return True
            keep = live.machine.play_bot(turn, answer.action, shell.clock())
            if keep is None:
                return True  # someone played meanwhile (a person back in time)
            try:
                await shell.kept(live, keep)
                self.failures = 0
            except RoomError as problem:
                self.failures += 1
                if self.failures == 1:
                    shell.run(live, [live.machine.news.error(problem)])
        if self.failures:
            await asyncio.sleep(min(30.0, 2.0**self.failures))  # the disk may come back
        return True
