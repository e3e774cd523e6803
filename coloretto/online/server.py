"""The game server: rooms of people and bots over WebSockets (``docs/protocol.md``).

The server is the authority: the engine runs here, clients send what they want to play,
the server checks it (their seat, their turn, the rules) and tells every connection of
the room what happened, never the order of the deck. Bots play here, in worker processes
shared fairly between the rooms (``BotPool``), so the event loop never waits for one.
Every change is saved before it is told (``RoomStore``), off the event loop; a change that
cannot be saved is undone and refused, never shown as played. A server killed at any
moment resumes every room on restart; a second server on the same data directory is
refused.

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
import signal
import ssl
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from coloretto.engine import Action, IllegalAction, Match, Move
from coloretto.online import protocol
from coloretto.online.audit import Audit
from coloretto.online.bot_pool import BotPool
from coloretto.online.connection import Gatekeeper, GuardedConnection
from coloretto.online.limits import Bucket, Limits
from coloretto.online.protocol import (
    Act,
    Host,
    Join,
    Lock,
    Next,
    Opening,
    ProtocolError,
    Remove,
    Resume,
    Start,
    Watch,
    encode,
    parse_request,
)
from coloretto.online.public import match_json, move_json, public_setup
from coloretto.online.room_store import RoomStore
from coloretto.online.rooms import Room, RoomError, new_code, over_record, stand_in
from coloretto.store.incidents import incident_log
from coloretto.store.lock import Locked, hold
from coloretto.store.paths import DataDir

__all__ = ["POLICY", "Bucket", "GameServer", "Limits", "ServerInUse", "run_server"]

POLICY = 1008
"""The WebSocket close code for a client that broke the rules (flooding, guessing)."""

LOBBY_PAUSE = 0.2
"""Seconds a lobby update waits for more changes to tell with it."""


class Refused(Exception):
    """Close the connection after an error frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Seat:
    """One connection's place: its room and player (``None``: a watcher)."""

    room: Room
    player: int | None


class ServerInUse(Exception):
    """Another server serves the same data directory."""


class GameServer:
    """The rooms and the connections to them. Everything runs on one event loop; bots
    think in ``bots``' processes, files are written in ``disk``'s threads."""

    def __init__(self, data: DataDir, limits: Limits | None = None) -> None:
        self.store = RoomStore(data)
        self.limits = limits or Limits()
        self.log = incident_log(data.log) if _can_log(data) else logging.getLogger(__name__)
        self.audit = Audit(data.root / "audit.log")
        self.gate = Gatekeeper(self.limits, self.audit)
        self.rooms: dict[str, Room] = {}
        self.watchers: dict[str, dict[ServerConnection, int | None]] = {}
        """Each room's connections, with the player each one plays (``None``: watching)."""
        self.away_since: dict[tuple[str, int], float] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.ended: dict[str, float] = {}
        """When each room's last game ended (a match between two games waits from then)."""
        self.dealers: dict[str, asyncio.TimerHandle] = {}
        """Each match's timer for dealing its next game while its host is away."""
        self.lobbies: dict[str, asyncio.TimerHandle] = {}
        """Each room's lobby update about to be sent (changes close together go as one)."""
        self.hosts: dict[str, str] = {}
        """The address that opened each room whose game has not started."""
        self.bots = BotPool(self.limits.bot_workers)
        self.disk = ThreadPoolExecutor(max_workers=8, thread_name_prefix="save")
        """Rooms are written (and flushed to the disk) here, off the event loop."""
        self.locks: dict[str, asyncio.Lock] = {}
        self.clock: Callable[[], float] = time.monotonic

    # ------------------------------------------------------------------ rooms

    def load(self) -> int:
        """Load every room in play; people count as away from now on. Rooms whose match
        is over are archived (a server written before archiving kept them). Returns how
        many rooms are in play."""
        now = self.clock()
        for room in self.store.load_all(self.log):
            if room.session.match.is_over:
                try:
                    self.store.archive(room)
                except OSError as error:
                    self.log.error("room %s not archived: %s", room.code, error)
                continue
            self.rooms[room.code] = room
            for player in range(len(room.people)):
                if room.is_person(player):
                    self.away_since[room.code, player] = now
        return len(self.rooms)

    def resume_all(self) -> None:
        """Let the bots of every loaded room play on (once the event loop runs); rooms that
        nobody comes back to are let go in time (``_watch_idle``)."""
        for room in list(self.rooms.values()):
            self.kick(room)
            self._watch_idle(room)

    def _watch_idle(self, room: Room) -> None:
        """Let ``room`` go if nobody is there in a while: a room whose game never started
        (after ``limits.lobby_seconds``) is removed, a finished one (after
        ``limits.idle_seconds``) is archived. A game in play stays: its bots play for the
        people away. A match waiting for its host to deal the next game leaves the memory
        like a finished one (its file stays, and a server started again goes on with it)."""
        seconds = self.limits.idle_seconds if room.started else self.limits.lobby_seconds
        asyncio.get_running_loop().call_later(
            seconds, lambda: asyncio.get_running_loop().create_task(self._let_go(room))
        )

    async def _let_go(self, room: Room) -> None:
        if self.watchers.get(room.code) or self.rooms.get(room.code) is not room:
            return
        if room.session.match.is_over:
            await self._archive(room)
        elif room.session.game.is_over:
            self._forget(room)
        elif not room.started:
            self._forget(room)
            await self._disk(self.store.remove, room.code)

    async def _archive(self, room: Room) -> None:
        """A finished room leaves the memory and the rooms in play (``load_archived``
        brings it back for someone who asks for it)."""
        self._forget(room)
        try:
            await self._disk(self.store.archive, room)
        except OSError as error:
            self._failed(room, f"not archived: {error}")

    async def _disk(self, work: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.disk, work, *args)

    async def _save(self, room: Room) -> bool:
        """Save the whole room now (a new room, a seat taken, a game started or dealt),
        in a thread; False (logged) if the disk refused."""
        try:
            await self._disk(self.store.save, room.snapshot())
        except (OSError, ValueError) as error:
            self._failed(room, f"not saved: {error}")
            return False
        return True

    async def _save_locked(self, room: Room) -> bool:
        """``_save`` holding the room's lock (saves of one room never overtake each other)."""
        async with self.lock(room):
            return await self._save(room)

    def _failed(self, room: Room, what: str) -> None:
        self.log.error("room %s %s", room.code, what)
        self.audit.note("not-saved", room.code, f"room {what}")

    def lock(self, room: Room) -> asyncio.Lock:
        """The room's lock: one change at a time, each saved before it is told."""
        return self.locks.setdefault(room.code, asyncio.Lock())

    # ------------------------------------------------------------------ connections

    async def handler(self, ws: ServerConnection) -> None:
        """One connection: its opening request, then its moves, until it closes."""
        guarded = cast(GuardedConnection, ws)  # as serve makes them: gate.connection_class()
        address, bucket = guarded.address, guarded.budget
        seat: Seat | None = None
        try:
            async with asyncio.timeout(self.limits.opening_seconds):
                while seat is None:
                    request = await self._next(ws, bucket)
                    if request is None:
                        continue
                    if not isinstance(request, Host | Join | Resume | Watch):
                        await self._send(ws, protocol.error("no-room", "say which room first"))
                        continue
                    seat = await self._open(ws, address, request)
            async for text in ws:
                request = self._parse(ws, text, bucket)
                if request is not None:
                    await self._request(ws, seat, request)
        except Refused as refused:
            self.audit.note(refused.code, address, str(refused))
            with contextlib.suppress(ConnectionClosed):
                await ws.send(encode(protocol.error(refused.code, str(refused))))
                await ws.close(POLICY, refused.code)
        except TimeoutError:
            await ws.close(POLICY, "no opening request")
        except ConnectionClosed:
            pass
        finally:
            if seat is not None:
                self._leave(ws, seat)

    async def _next(self, ws: ServerConnection, bucket: Bucket) -> protocol.Request | None:
        return self._parse(ws, await ws.recv(), bucket)

    def _parse(
        self, ws: ServerConnection, text: str | bytes, bucket: Bucket
    ) -> protocol.Request | None:
        if not bucket.take(self.clock()):
            raise Refused("flooding", "too many messages: slow down")
        try:
            return parse_request(text)
        except ProtocolError as problem:
            self._tell(ws, protocol.error(problem.code, str(problem)))
            return None

    def _tell(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        broadcast([ws], encode(message))

    async def _send(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        await ws.send(encode(message))

    def _guesses(self, address: str) -> Bucket:
        """``address``'s budget of failed look-ups (unknown rooms, wrong tokens)."""
        bucket = self.gate.book.get(address).lookups
        if not bucket.available(self.clock()):
            raise Refused("too-many-tries", "too many wrong rooms or tokens: wait a minute")
        return bucket

    def _find(self, address: str, code: str) -> Room:
        guesses = self._guesses(address)
        room = self.rooms.get(code)
        if room is None:
            guesses.take(self.clock())
            self.audit.note("no-room", address, f"asked for room {code}")
            raise RoomError(f"there is no room {code}", "no-room")
        return room

    async def _open(self, ws: ServerConnection, address: str, request: Opening) -> Seat | None:
        try:
            if isinstance(request, Host):
                self._may_host(address)
            elif request.room not in self.rooms:
                await self._unarchive(request.room)
            seat, token = self._seat(address, request)
        except RoomError as problem:
            await self._send(ws, protocol.error(problem.code, str(problem)))
            return None
        room = seat.room
        connections = self.watchers.setdefault(room.code, {})
        if seat.player is None and sum(p is None for p in connections.values()) >= (
            self.limits.max_watchers
        ):
            raise Refused("crowded", "the room has too many watchers: try again later")
        if isinstance(request, Host):
            self.hosts[room.code] = address
        if isinstance(request, Host | Join) and not await self._save_locked(room):
            await self._send(ws, protocol.error("not-saved", "the server cannot save now"))
            if isinstance(request, Host):
                self._forget(room)
            elif seat.player is not None and room.is_person(seat.player) and not room.started:
                room.remove(seat.player)  # the seat is free again, as on the disk
            return None
        connections[ws] = seat.player
        await self._send(ws, protocol.welcome(room.code, seat.player, token))
        if seat.player is not None:
            self.away_since.pop((room.code, seat.player), None)
        self._plan_next(room)
        if seat.player is not None:
            self._presence(room)
        if room.started:
            await self._send(ws, self._game(room, seat.player))
            if room.session.game.is_over:  # over, or a match between two games
                await self._send(ws, {"type": "over", "record": over_record(room)})
        else:
            await self._send(ws, self._lobby_message(room))
            if seat.player is not None:
                self._lobby(room)  # the others learn of the new person
        self.kick(room)
        return seat

    def _may_host(self, address: str) -> None:
        """Refuse a room past ``address``'s budget or the server's cap."""
        if not self.gate.book.get(address).openings.take(self.clock()):
            raise Refused("too-many-rooms", "too many rooms opened: wait a minute")
        lobbies = Counter(self.hosts.values())[address]
        if lobbies >= self.limits.lobbies_per_address:
            self.audit.note("too-many-rooms", address, f"{lobbies} rooms not started")
            raise RoomError(
                f"you have {lobbies} rooms whose game has not started: start or leave one",
                "too-many-rooms",
            )
        if len(self.rooms) >= self.limits.max_rooms:
            self.audit.note("server-full", address, "no room opened: the server is full")
            raise RoomError("the server is full: try later", "server-full")

    async def _unarchive(self, code: str) -> None:
        """Bring a finished room back from the archive for someone who asks for it."""
        if not protocol.ROOM_CODE.fullmatch(code):
            return
        try:
            room = await self._disk(self.store.load_archived, code)
        except (OSError, ValueError) as error:
            self.log.error("room %s not loaded from the archive: %s", code, error)
            return
        if room is not None and code not in self.rooms:
            self.rooms[code] = room
            self._watch_idle(room)

    def _seat(self, address: str, request: Opening) -> tuple[Seat, str | None]:
        if isinstance(request, Host):
            code = new_code()
            while code in self.rooms:
                code = new_code()
            room, token = Room.open(code, request)
            self.rooms[code] = room
            return Seat(room, 0), token
        room = self._find(address, request.room)
        if isinstance(request, Join):
            player, token = room.join(request.name)
            return Seat(room, player), token
        if isinstance(request, Resume):
            owner = room.player_of(request.token)
            if owner is None:
                self._guesses(address).take(self.clock())  # a wrong token is a guess
                raise RoomError("that token is not a seat's in this room", "bad-token")
            self._dismiss(room, owner, "replaced", "your seat was taken up on another connection")
            return Seat(room, owner), None
        return Seat(room, None), None

    async def _request(self, ws: ServerConnection, seat: Seat, request: protocol.Request) -> None:
        room = seat.room
        if ws not in self.watchers.get(room.code, {}):
            return  # removed, or its seat taken up elsewhere: it is being closed
        try:
            if isinstance(request, Start):
                if seat.player != 0:
                    raise RoomError("only the host starts the game", "not-host")
                if room.started:
                    raise RoomError("the game has started already", "started")
                await self._start(room)
            elif isinstance(request, Next):
                if seat.player != 0:
                    raise RoomError("only the host starts the next game", "not-host")
                await self._deal_next(room, request.game)
            elif isinstance(request, Act):
                if seat.player is None:
                    raise RoomError("watchers cannot play", "watching")
                await self._play(room, seat.player, request.ply, request.action)
            elif isinstance(request, Remove | Lock):
                if seat.player != 0:
                    raise RoomError("only the host chooses who sits at the table", "not-host")
                await self._seating(room, request)
            else:
                raise RoomError("this connection has its seat already", "seated")
        except RoomError as problem:
            await self._send(ws, protocol.error(problem.code, str(problem)))
        except IllegalAction as problem:
            await self._send(ws, protocol.error("illegal", str(problem)))

    def _leave(self, ws: ServerConnection, seat: Seat) -> None:
        room = seat.room
        connections = self.watchers.get(room.code, {})
        connections.pop(ws, None)
        if room.session.match.is_over and not connections:
            asyncio.get_running_loop().create_task(self._archive(room))
            return
        if not connections:
            self._watch_idle(room)
        player = seat.player
        if player is not None and room.is_person(player) and player not in connections.values():
            self.away_since[room.code, player] = self.clock()
            self._plan_next(room)
            self._presence(room)
            if not room.started:
                self._lobby(room)
            self.kick(room)

    def _forget(self, room: Room) -> None:
        """A room nobody is in any more leaves the memory (what becomes of its file is the
        caller's: archived, kept, or removed)."""
        code = room.code
        if self.rooms.get(code) is not room:
            return
        for table in (self.rooms, self.watchers, self.drivers, self.locks, self.ended, self.hosts):
            table.pop(code, None)
        self.bots.forget(code)
        for timers in (self.timers, self.dealers, self.lobbies):
            timer = timers.pop(code, None)
            if timer is not None:
                timer.cancel()
        for player in range(len(room.people)):
            self.away_since.pop((code, player), None)

    # ------------------------------------------------------------------ telling

    def _everyone(self, room: Room, message: Callable[[int | None], dict[str, Any]]) -> None:
        by_player: dict[int | None, list[ServerConnection]] = {}
        for ws, player in self.watchers.get(room.code, {}).items():
            by_player.setdefault(player, []).append(ws)
        for player, connections in by_player.items():
            broadcast(connections, encode(message(player)))

    def _all(self, room: Room, message: dict[str, Any]) -> None:
        broadcast(self.watchers.get(room.code, {}), encode(message))

    def away(self, room: Room) -> list[int]:
        """The people of ``room`` with no connection now."""
        present = set(self.watchers.get(room.code, {}).values())
        return [p for p in range(len(room.people)) if room.is_person(p) and p not in present]

    def _presence(self, room: Room) -> None:
        self._all(room, protocol.presence(self.away(room), self.next_in(room)))

    # ------------------------------------------------------------------ a match's host away

    def _next_at(self, room: Room) -> float | None:
        """When the server deals ``room``'s next game itself (``None``: it waits for the
        host): between two games of a match, once the host has been away ``away_after``
        seconds (counted from the end of the game if they left before), while someone is
        in the room to play it. The host's turns are then the bot's, as for anyone away."""
        code = room.code
        since = self.away_since.get((code, 0))
        if since is None or not room.started or not room.session.has_next_game:
            return None
        if not self.watchers.get(code):
            return None  # nobody waits: the match waits for its people (``_watch_idle``)
        return max(since, self.ended.get(code, since)) + room.away_after

    def next_in(self, room: Room) -> float | None:
        """Seconds until the server deals ``room``'s next game itself, if it will."""
        at = self._next_at(room)
        return None if at is None else max(0.0, at - self.clock())

    def _plan_next(self, room: Room) -> None:
        """Set (or cancel) the timer that deals ``room``'s next game for an absent host."""
        old = self.dealers.pop(room.code, None)
        if old is not None:
            old.cancel()
        wait = self.next_in(room)
        if wait is not None:
            loop = asyncio.get_running_loop()
            self.dealers[room.code] = loop.call_later(
                wait, lambda: loop.create_task(self._deal_for_host(room))
            )

    async def _deal_for_host(self, room: Room) -> None:
        """Deal the next game, the host being away (unless that changed meanwhile)."""
        async with self.lock(room):
            at = self._next_at(room)
            if self.rooms.get(room.code) is not room or at is None:
                return
            if at > self.clock():
                self._plan_next(room)  # a timer that woke early
                return
            number = room.session.match.game_number + 1
            self.log.info("room %s: host away, game %d dealt by the server", room.code, number)
            try:
                await self._change(room, lambda: room.next_game(number))
            except RoomError:
                self._plan_next(room)  # not saved: try again in a while
                return
            self._dealt(room)

    async def _start(self, room: Room) -> None:
        """Start the game (the host's request): saved, then told."""
        async with self.lock(room):
            await self._change(room, room.start)
            self.hosts.pop(room.code, None)
        self._everyone(room, lambda player: self._game(room, player))
        self.kick(room)

    async def _deal_next(self, room: Room, number: int) -> None:
        """Deal game ``number`` of the match (the host's request): saved, then told."""
        async with self.lock(room):
            await self._change(room, lambda: room.next_game(number))
            self._dealt(room)

    async def _change(self, room: Room, change: Callable[[], object]) -> None:
        """Make ``change`` to ``room`` and save the whole room; undo it and raise
        ``RoomError`` (``not-saved``) if the disk refuses (call it holding the lock)."""
        before = (room.session.match, list(room.covered), room.started)
        change()
        if not await self._save(room):
            room.session.match, room.covered, room.started = before
            raise RoomError("the server could not save that: try again", "not-saved")

    def _dealt(self, room: Room) -> None:
        """The match's next game was dealt and saved: tell everyone, let the bots play
        (call it holding the lock)."""
        self.ended.pop(room.code, None)
        self._plan_next(room)
        self._everyone(room, lambda player: self._game(room, player))
        self.kick(room)

    def _lobby(self, room: Room) -> None:
        """Tell everyone in the room's lobby who sits where, soon: changes that come
        close together (people coming and going) are told once."""
        if room.code in self.lobbies:
            return

        def send() -> None:
            self.lobbies.pop(room.code, None)
            if self.rooms.get(room.code) is room and not room.started:
                self._all(room, self._lobby_message(room))

        self.lobbies[room.code] = asyncio.get_running_loop().call_later(LOBBY_PAUSE, send)

    def _lobby_message(self, room: Room) -> dict[str, Any]:
        away = set(self.away(room))
        return {
            "type": "lobby",
            "room": room.code,
            "rules": room.session.config.rules.to_dict(),
            "bot": room.level,
            "seats": [
                None if name is None else {"name": name, "present": p not in away}
                for p, name in enumerate(room.people)
            ],
            "locked": room.locked,
        }

    def _game(self, room: Room, player: int | None) -> dict[str, Any]:
        session = room.session
        game = session.game
        return {
            "type": "game",
            "room": room.code,
            "id": session.id,
            "player": player,
            "rules": game.rules.to_dict(),
            "players": [{"name": p.name, "bot": p.bot} for p in session.config.players],
            "level": room.level,
            "delay": session.config.delay,
            "away_after": room.away_after,
            "match": match_json(session.match),
            "setup": public_setup(game.setup),
            "moves": [move_json(move) for move in game.history()],
            "away": self.away(room),
            "covered": list(room.covered),
            **({} if (wait := self.next_in(room)) is None else {"next_in": round(wait, 1)}),
        }

    async def _play(self, room: Room, player: int, ply: int, action: Action) -> None:
        """Play a person's ``action`` (``RoomError`` or ``IllegalAction`` if it is not
        theirs to play); saved, then told."""
        async with self.lock(room):
            before = room.session.match
            move = room.act(player, ply, action)
            await self._played(room, before, move)

    async def _played(
        self, room: Room, before: Match, move: Move, *, covered: bool = False
    ) -> None:
        """Save the move just played (in a thread), then tell everyone (call it holding the
        lock); ``covered``: a bot played it for a person away. If the disk refuses, the
        move is undone, nobody is told of it, and ``RoomError`` (``not-saved``) says so."""
        ply = room.ply - 1
        try:
            await self._disk(self.store.append, room.code, ply, move, covered)
        except (OSError, ValueError) as error:
            room.session.match = before
            self._failed(room, f"move {ply + 1} not saved: {error}")
            raise RoomError(
                "the server could not save that move, so it was not played: try again",
                "not-saved",
            ) from None
        if covered:
            room.covered.append(ply)
        told: dict[str, Any] = {"type": "move", "ply": ply, "move": move_json(move)}
        if covered:
            told["covered"] = True
        self._all(room, told)
        if room.session.game.is_over:
            self._all(room, {"type": "over", "record": over_record(room)})
            self.ended[room.code] = self.clock()
            self._plan_next(room)
            if self.dealers.get(room.code) is not None:
                self._presence(room)  # the host is away: when the next game comes
            if not self.watchers.get(room.code):
                self._watch_idle(room)  # the bots finished it for people all away
        self.kick(room)

    # ------------------------------------------------------------------ bots

    def kick(self, room: Room) -> None:
        """Let bots play ``room``'s turns (one driver per room, started if idle)."""
        task = self.drivers.get(room.code)
        if task is None or task.done():
            self.drivers[room.code] = asyncio.get_running_loop().create_task(self._drive(room))

    async def _drive(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        while (player := room.mover()) is not None:
            if room.is_person(player) and not self._covered(room, player):
                return
            ply = room.ply
            session = room.session
            state = session.game
            started = loop.time()
            answer = await self.bots.choose(
                room.code,
                room.bot_specs(),
                seed=session.seed,
                state=state,
                game_number=session.match.game_number,
                player=None if session.is_bot(state.current_player) else stand_in(player),
                limit=session.config.time_limit,
            )
            if answer.problem is not None:
                self.log.warning("room %s: bot failed: %s", room.code, answer.problem)
            pause = session.config.delay - (loop.time() - started)
            if pause > 0:
                await asyncio.sleep(pause)
            async with self.lock(room):
                if room.ply != ply or self.rooms.get(room.code) is not room:
                    continue  # someone played meanwhile (a person back in time)
                if room.is_person(player) and not self._covered(room, player):
                    return
                before = room.session.match
                move = room.session.apply(answer.action)
                try:
                    await self._played(room, before, move, covered=room.is_person(player))
                    failures = 0
                except RoomError as problem:
                    failures += 1
                    if failures == 1:
                        self._all(room, protocol.error(problem.code, str(problem)))
            if failures:
                await asyncio.sleep(min(30.0, 2.0**failures))  # the disk may come back

    def _covered(self, room: Room, player: int) -> bool:
        """True when ``player``'s person has been away long enough for a bot to play for
        them; while they are away but not yet long enough, wake up when it is time."""
        since = self.away_since.get((room.code, player))
        if since is None:
            return False
        wait = since + room.away_after - self.clock()
        if wait <= 0:
            return True
        old = self.timers.pop(room.code, None)
        if old is not None:
            old.cancel()
        self.timers[room.code] = asyncio.get_running_loop().call_later(wait, self.kick, room)
        return False

    # ------------------------------------------------------------------ the host's table

    _farewells: ClassVar[set[asyncio.Task[None]]] = set()
    """Connections being closed by ``_dismiss`` (kept here until they are)."""

    async def _seating(self, room: Room, request: Remove | Lock) -> None:
        """The host, before the start, removes a person (their connections closed with
        the error ``removed``) or closes the table to new players (or opens it again);
        the room is saved and everyone sees the lobby again. A lock the disk refuses is
        undone; a removal holds (its person is gone) while the server runs. Either way
        the host gets ``not-saved``."""
        async with self.lock(room):
            if isinstance(request, Remove):
                room.remove(request.seat)
                self.away_since.pop((room.code, request.seat), None)
                self._dismiss(room, request.seat, "removed", "the host removed you from the table")
                saved = await self._save(room)
            else:
                was = room.locked
                room.lock(request.locked)
                if not (saved := await self._save(room)):
                    room.locked = was
        self._lobby(room)
        if not saved:
            done = "they are removed until it stops" if isinstance(request, Remove) else "try again"
            raise RoomError(f"the server could not save the room: {done}", "not-saved")

    def _dismiss(self, room: Room, player: int, code: str, message: str) -> None:
        """Close every connection of ``room`` holding ``player``'s seat after an error
        frame (``code``, ``message``); they leave the room's connections at once, so its
        news and its seat go to nobody else but a new connection."""
        connections = self.watchers.get(room.code, {})
        for ws in [ws for ws, seated in connections.items() if seated == player]:
            del connections[ws]
            self.log.info("room %s: a connection of player %d closed (%s)", room.code, player, code)
            task = asyncio.get_running_loop().create_task(self._farewell(ws, code, message))
            self._farewells.add(task)
            task.add_done_callback(self._farewells.discard)

    async def _farewell(self, ws: ServerConnection, code: str, message: str) -> None:
        """Say why, then close (``broadcast``: a connection that does not read never
        holds this up; ``close`` gives up after the server's ``close_timeout``)."""
        broadcast([ws], encode(protocol.error(code, message)))
        await ws.close(POLICY, code)


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
    tls: ssl.SSLContext | None = None,
    limits: Limits | None = None,
    ready: Callable[[str], None] = print,
) -> None:
    """Serve until SIGINT or SIGTERM; ``ready`` is told the address once listening.

    Raises ``ServerInUse`` if another server serves ``data``, ``OSError`` if the address
    cannot be listened on."""
    limits = (limits or Limits()).fitted()
    try:
        data.root.mkdir(parents=True, exist_ok=True)
        held = hold(data.root / "server.lock")
    except Locked as locked:
        raise ServerInUse(
            f"the data directory {data.root} is in use by another server "
            f"({locked.holder or 'a process that did not say who it is'})"
        ) from None
    with held:
        server = GameServer(data, limits)
        _quiet_libraries(server.log)
        rooms = server.load()
        stop = asyncio.get_running_loop().create_future()
        for number in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                asyncio.get_running_loop().add_signal_handler(number, _finish, stop)
        try:
            async with serve(
                server.handler,
                host,
                port,
                ssl=tls,
                create_connection=server.gate.connection_class(),
                process_request=server.gate.process_request,
                max_size=protocol.MAX_REQUEST,
                max_queue=4,
                write_limit=limits.write_limit,
                close_timeout=1,  # a client that floods may not read our closing frame
                compression=None,
            ) as listening:
                await server.bots.start()
                server.gate.start()
                server.resume_all()
                bound = _addresses(sock.getsockname() for sock in listening.sockets)
                scheme = "wss" if tls else "ws"
                ready(
                    f"Coloretto server on {scheme}://{bound} ({rooms} rooms resumed, at most "
                    f"{limits.max_connections} connections); Ctrl+C stops it"
                )
                await stop
        finally:
            server.gate.stop()
            server.bots.shutdown()
            server.disk.shutdown(wait=True)
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
