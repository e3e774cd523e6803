"""Opening rooms and taking seats: budgets, the table's clock, guests' names, room codes
(``Hosting``)."""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING

from msgspec import UNSET

from coloretto.online.server.account_service import registered_name
from coloretto.online.server.database import StoreError
from coloretto.online.server.live_room import ClosingError, LiveRoom, Seat
from coloretto.online.server.rooms import Room, RoomError, new_code
from coloretto.online.server.server_part import ServerPart
from coloretto.online.wire.clock import DEFAULT_PROFILE, Clock, ClockError, profile
from coloretto.online.wire.protocol import ErrorCode, Host, Join, Opening, Resume

if TYPE_CHECKING:
    from coloretto.online.server.room_server import RoomServer


class Hosting(ServerPart):
    """Rooms opened and seats taken: each address's budgets of rooms, the table's clock,
    guests' names, new codes."""

    def __init__(self, server: RoomServer) -> None:
        super().__init__(server)
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
        seating = live.machine.seating
        if isinstance(request, Join):
            if account is None and live.room.table.public:
                await self._guest_name(request.name)
            player, token = seating.join(request.name, account)
            return Seat(live, player), token
        if isinstance(request, Resume):
            try:
                owner, effects = seating.resume(request.token)
            except RoomError:
                door.guesses(address).take(self.clock())  # a wrong token is a guess
                raise
            self.server.shell.run(live, effects)
            return Seat(live, owner), None
        return Seat(live, None), None

    def _clock_of(self, request: Host) -> Clock | None:
        """The speed profile of a new table: the one its host named, or at a public or
        rated table the server's default; ``RoomError`` for a name the server lacks."""
        clocks = self.limits.clocks
        if request.clock is not UNSET:
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
