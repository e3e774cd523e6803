"""The rooms in a server process's memory: taken from the database (at the start, when
asked for, by the sweep), kept whole, and let go (``RoomKeeper``)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from coloretto.online.server.connection import GuardedConnection
from coloretto.online.server.database import StoreError
from coloretto.online.server.live_room import LiveRoom
from coloretto.online.server.room_effects import LetGoWhy
from coloretto.online.server.room_machine import RoomMachine
from coloretto.online.server.room_space import status_of
from coloretto.online.server.rooms import Room
from coloretto.online.server.server_part import ServerPart
from coloretto.online.wire.protocol import ErrorCode

if TYPE_CHECKING:
    from coloretto.online.server.room_server import RoomServer


SWEEP_SECONDS = 3.0
"""How often a process on a shared database looks for rooms whose process ended."""


SWEEP_ROOMS = 50
"""The most rooms one sweep takes over."""


class RoomKeeper(ServerPart):
    """The rooms in this process's memory: taken from the database (at the start, when
    asked for, by the sweep), kept whole, and let go (archived, left alone, removed)."""

    def __init__(self, server: RoomServer) -> None:
        super().__init__(server)
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

    def live(self, room: Room, owner: str | None, *, taken: bool = False) -> LiveRoom:
        """``room`` in play here from now on, opened from ``owner`` (``taken``: from the
        store; ``RoomMachine.opened``), its timers set."""
        limits = self.limits
        machine: RoomMachine[GuardedConnection] = RoomMachine(
            room, limits.alone_seconds, limits.idle_seconds, limits.lobby_seconds
        )
        live = self.rooms[room.code] = LiveRoom(machine, owner=owner)
        self.server.shell.run(live, machine.opened(self.clock(), time.time(), taken=taken))
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
        live = self.live(room, owner, taken=True)
        self.log.info(
            "room %s (%s, move %d) taken by process %s: %s",
            code, status_of(room), room.ply, self.space.server, why,
        )  # fmt: skip
        if status_of(room) == "playing":
            try:
                await self.space.leave_alone(code, alone=False)  # played again
            except StoreError as error:
                self.log.error("room %s: not marked as played again: %s", code, error)
        if room.session.match.is_over and status_of(room) != "over":
            await self.archive(live)
            return self.rooms.get(code)
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
        rooms that nobody comes back to are let go in time (``RoomMachine.idle``)."""
        for live in list(self.rooms.values()):
            self.server.shell.kick(live)

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

    async def let_go(self, live: LiveRoom, why: LetGoWhy) -> None:
        """The room nobody is in leaves the memory (``RoomMachine.idle`` says ``why``):
        archived, forgotten (a match waiting for its host to deal the next game stays kept,
        and a server goes on with it when asked), removed (its game never started) or left
        alone; unless someone came meanwhile."""
        if live.connections or self.rooms.get(live.code) is not live:
            return
        if why == "archive":
            await self.archive(live)
        elif why == "forget":
            await self.forget(live)
        elif why == "remove":
            try:
                await self.space.remove(live.code)
            except StoreError as error:
                self.failed(live.room, f"not removed: {error}")
            await self.forget(live)
        else:
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
