"""The game server: rooms of people and bots over WebSockets (``docs/protocol.md``).

The server is the authority: the engine runs here, clients send what they want to play,
the server checks it (their seat, their turn, the rules) and tells every connection of
the room what happened, never the order of the deck. Bots play here, in worker threads,
through the guard, so the event loop never waits for one. Every change is saved before it
is told (``RoomStore``): a server killed at any moment resumes every room on restart.

Hostile clients are expected: frames are bounded, every request is checked
(``protocol.parse_request``), each connection has a message budget and each address a
budget of room look-ups and of rooms opened; breaking them gets an error frame or a
closed connection, never a change to any room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import ssl
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

from coloretto.bots.guard import guarded_choice
from coloretto.engine import IllegalAction, Move
from coloretto.online import protocol
from coloretto.online.protocol import (
    Act,
    Host,
    Join,
    Next,
    Opening,
    ProtocolError,
    Resume,
    Start,
    Watch,
    encode,
    parse_request,
)
from coloretto.online.public import match_json, move_json, public_setup
from coloretto.online.rooms import Room, RoomError, RoomStore, Snapshot, new_code, over_record
from coloretto.store.incidents import incident_log
from coloretto.store.paths import DataDir

POLICY = 1008
"""The WebSocket close code for a client that broke the rules (flooding, guessing)."""


@dataclass(frozen=True)
class Limits:
    """What one client may do: messages per second per connection (with a burst), failed
    room look-ups and rooms opened per minute per address, rooms in all."""

    messages_per_second: float = 10.0
    burst: int = 30
    lookups_per_minute: int = 20
    rooms_per_minute: int = 10
    max_rooms: int = 5000
    opening_seconds: float = 10.0
    """How long a new connection may take to say which room it is about."""
    idle_seconds: float = 600.0
    """How long a room that nobody is in (and whose game is not being played) is kept."""


@dataclass
class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up.

    >>> bucket = Bucket(1.0, 2)
    >>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)
    (True, True, False, True)
    """

    rate: float
    burst: int
    tokens: float = field(init=False)
    stamp: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)

    def available(self, now: float) -> bool:
        """True when a token is there to take (``now`` in seconds)."""
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= 1

    def take(self, now: float) -> bool:
        """Take one token if there is one."""
        if not self.available(now):
            return False
        self.tokens -= 1
        return True


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


class GameServer:
    """The rooms and the connections to them. Everything runs on one event loop; bots
    think in ``pool``'s threads."""

    def __init__(self, data: DataDir, limits: Limits | None = None, workers: int = 4) -> None:
        self.store = RoomStore(data)
        self.limits = limits or Limits()
        self.log = incident_log(data.log) if _can_log(data) else logging.getLogger(__name__)
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
        self.lookups: dict[str, Bucket] = {}
        self.openings: dict[str, Bucket] = {}
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")
        self.disk = ThreadPoolExecutor(max_workers=8, thread_name_prefix="save")
        """Saves are written (and flushed to the disk) here, off the event loop."""
        self.locks: dict[str, asyncio.Lock] = {}
        self.clock: Callable[[], float] = time.monotonic

    # ------------------------------------------------------------------ rooms

    def load(self) -> int:
        """Load every saved room; people count as away from now on. Returns how many."""
        now = self.clock()
        for room in self.store.load_all(self.log):
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
        """In ``limits.idle_seconds``, let ``room`` go if nobody is there: a finished room
        leaves the memory (its file stays), a room whose game never started is removed.
        A game in play stays: its bots play for the people away. A match waiting for its
        host to deal the next game leaves the memory like a finished one (its file stays,
        and a server started again goes on with it)."""

        def check() -> None:
            if self.watchers.get(room.code) or self.rooms.get(room.code) is not room:
                return
            if room.session.game.is_over:
                self._forget(room)
            elif not room.started:
                self._forget(room)
                with contextlib.suppress(OSError):
                    self.store.path(room.code).unlink()

        asyncio.get_running_loop().call_later(self.limits.idle_seconds, check)

    def save(self, room: Room) -> None:
        """Save the room now (a new room, a seat taken); trouble is logged, play goes on."""
        self._write(room.snapshot())

    def _write(self, snapshot: Snapshot) -> None:
        try:
            self.store.save(snapshot)
        except OSError as error:
            self.log.error("room %s not saved: %s", snapshot.code, error)

    def lock(self, room: Room) -> asyncio.Lock:
        """The room's lock: one change at a time, each saved before it is told."""
        return self.locks.setdefault(room.code, asyncio.Lock())

    # ------------------------------------------------------------------ connections

    async def handler(self, ws: ServerConnection) -> None:
        """One connection: its opening request, then its moves, until it closes."""
        address = str(ws.remote_address[0]) if ws.remote_address else "?"
        bucket = Bucket(self.limits.messages_per_second, self.limits.burst)
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

    def _charge(self, table: dict[str, Bucket], address: str, per_minute: int) -> bool:
        bucket = table.setdefault(address, Bucket(per_minute / 60, per_minute))
        return bucket.take(self.clock())

    def _guesses(self, address: str) -> Bucket:
        """``address``'s budget of failed look-ups (unknown rooms, wrong tokens)."""
        per_minute = self.limits.lookups_per_minute
        bucket = self.lookups.setdefault(address, Bucket(per_minute / 60, per_minute))
        if not bucket.available(self.clock()):
            raise Refused("too-many-tries", "too many wrong rooms or tokens: wait a minute")
        return bucket

    def _find(self, address: str, code: str) -> Room:
        guesses = self._guesses(address)
        room = self.rooms.get(code)
        if room is None:
            guesses.take(self.clock())
            raise RoomError(f"there is no room {code}", "no-room")
        return room

    async def _open(self, ws: ServerConnection, address: str, request: Opening) -> Seat | None:
        try:
            seat, token = self._seat(address, request)
        except RoomError as problem:
            await self._send(ws, protocol.error(problem.code, str(problem)))
            return None
        room = seat.room
        self.watchers.setdefault(room.code, {})[ws] = seat.player
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
            self._lobby(room)
        self.kick(room)
        return seat

    def _seat(self, address: str, request: Opening) -> tuple[Seat, str | None]:
        if isinstance(request, Host):
            if not self._charge(self.openings, address, self.limits.rooms_per_minute):
                raise Refused("too-many-rooms", "too many rooms opened: wait a minute")
            if len(self.rooms) >= self.limits.max_rooms:
                raise RoomError("the server is full: try later", "server-full")
            code = new_code()
            while code in self.rooms:
                code = new_code()
            room, token = Room.open(code, request)
            self.rooms[code] = room
            self.save(room)
            return Seat(room, 0), token
        room = self._find(address, request.room)
        if isinstance(request, Join):
            player, token = room.join(request.name)
            self.save(room)
            return Seat(room, player), token
        if isinstance(request, Resume):
            owner = room.player_of(request.token)
            if owner is None:
                self._guesses(address).take(self.clock())  # a wrong token is a guess
                raise RoomError("that token is not a seat's in this room", "bad-token")
            return Seat(room, owner), None
        return Seat(room, None), None

    async def _request(self, ws: ServerConnection, seat: Seat, request: protocol.Request) -> None:
        room = seat.room
        try:
            if isinstance(request, Start):
                if seat.player != 0:
                    raise RoomError("only the host starts the game", "not-host")
                if room.started:
                    raise RoomError("the game has started already", "started")
                room.start()
                self.save(room)
                self._everyone(room, lambda player: self._game(room, player))
                self.kick(room)
            elif isinstance(request, Next):
                if seat.player != 0:
                    raise RoomError("only the host starts the next game", "not-host")
                async with self.lock(room):
                    room.next_game(request.game)
                    self._dealt(room)
            elif isinstance(request, Act):
                if seat.player is None:
                    raise RoomError("watchers cannot play", "watching")
                async with self.lock(room):
                    move = room.act(seat.player, request.ply, request.action)
                    await self._played(room, move)
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
            self._forget(room)
            return
        if not connections:
            self._watch_idle(room)
        player = seat.player
        if player is not None and player not in connections.values():
            self.away_since[room.code, player] = self.clock()
            self._plan_next(room)
            self._presence(room)
            if not room.started:
                self._lobby(room)
            self.kick(room)

    def _forget(self, room: Room) -> None:
        """A finished room nobody looks at any more leaves the memory (its file stays, the
        server's record of the game, and is loaded again on restart)."""
        code = room.code
        for table in (self.rooms, self.watchers, self.drivers, self.locks, self.ended):
            table.pop(code, None)
        for timers in (self.timers, self.dealers):
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
            room.next_game(number)
            self._dealt(room)

    def _dealt(self, room: Room) -> None:
        """The match's next game was dealt: save it, tell everyone, let the bots play
        (call it holding the lock)."""
        self.ended.pop(room.code, None)
        self._plan_next(room)
        self.save(room)
        self._everyone(room, lambda player: self._game(room, player))
        self.kick(room)

    def _lobby(self, room: Room) -> None:
        away = set(self.away(room))
        self._all(
            room,
            {
                "type": "lobby",
                "room": room.code,
                "rules": room.session.config.rules.to_dict(),
                "bot": room.level,
                "seats": [
                    None if name is None else {"name": name, "present": p not in away}
                    for p, name in enumerate(room.people)
                ],
            },
        )

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

    async def _played(self, room: Room, move: Move, *, covered: bool = False) -> None:
        """Save the move (in a thread), then tell everyone (call it holding the lock);
        ``covered``: a bot played it for a person away."""
        ply = room.ply - 1
        if covered:
            room.covered.append(ply)
        snapshot = room.snapshot()
        await asyncio.get_running_loop().run_in_executor(self.disk, self._write, snapshot)
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
        while (player := room.mover()) is not None:
            if room.is_person(player) and not self._covered(room, player):
                return
            ply = room.ply
            state = room.session.game
            seat = state.current_player
            started = loop.time()
            answer = await loop.run_in_executor(
                self.pool,
                guarded_choice,
                partial(room.bot, seat),
                state.view(seat),
                state.legal_actions(),
                room.session.config.time_limit,
            )
            if answer.problem is not None:
                self.log.warning("room %s: bot failed: %s", room.code, answer.problem)
            pause = room.session.config.delay - (loop.time() - started)
            if pause > 0:
                await asyncio.sleep(pause)
            async with self.lock(room):
                if room.ply != ply:
                    continue  # someone played meanwhile (a person back in time)
                if room.is_person(player) and not self._covered(room, player):
                    return
                move = room.session.apply(answer.action)
                await self._played(room, move, covered=room.is_person(player))

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
    """Serve until SIGINT or SIGTERM; ``ready`` is told the address once listening."""
    server = GameServer(data, limits)
    rooms = server.load()
    stop = asyncio.get_running_loop().create_future()
    for number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            asyncio.get_running_loop().add_signal_handler(number, _finish, stop)
    async with serve(
        server.handler,
        host,
        port,
        ssl=tls,
        max_size=protocol.MAX_REQUEST,
        max_queue=4,
        close_timeout=1,  # a client that floods may not read our closing frame
        compression=None,
    ) as listening:
        server.resume_all()
        bound = _addresses(sock.getsockname() for sock in listening.sockets)
        scheme = "wss" if tls else "ws"
        ready(f"Coloretto server on {scheme}://{bound} ({rooms} rooms resumed); Ctrl+C stops it")
        await stop
    server.pool.shutdown(wait=False, cancel_futures=True)
    server.disk.shutdown(wait=True)


def _finish(stop: asyncio.Future[None]) -> None:
    if not stop.done():
        stop.set_result(None)


def _addresses(names: Iterable[Any]) -> str:
    host, port = next(iter(names))[:2]
    return f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
