"""Each connection to the server, from its opening request to its end: its requests read,
checked against its budgets and passed to its room, or relayed to the process that plays
the room (``Door``)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, cast

from msgspec import UNSET
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from coloretto.engine import IllegalAction
from coloretto.online.server.account_service import (
    AccountError,
    check_account,
    new_challenge,
    register,
)
from coloretto.online.server.connection import GuardedConnection
from coloretto.online.server.database import StoreError
from coloretto.online.server.limits import Bucket
from coloretto.online.server.live_room import POLICY, ClosingError, LiveRoom, Seat
from coloretto.online.server.relay import RelayedConnection, deliver
from coloretto.online.server.rooms import RoomError
from coloretto.online.server.server_part import ServerPart
from coloretto.online.server.standings import ladder
from coloretto.online.wire.accounts import normalise_server, opening_route
from coloretto.online.wire.messages import (
    ErrorMessage,
    LadderMessage,
    ServerMessage,
    TablesMessage,
)
from coloretto.online.wire.protocol import (
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

if TYPE_CHECKING:
    from coloretto.online.server.room_server import RoomServer


class Door(ServerPart):
    """Each connection, from its opening request (or the requests answered before one:
    challenges, accounts, the lobby's tables, the ladder) to its end: its requests read,
    checked against its budgets and passed to its room, or relayed to the process that
    plays the room."""

    def __init__(self, server: RoomServer) -> None:
        super().__init__(server)
        self.audit = server.audit
        self.shell = server.shell

    async def handler(self, ws: GuardedConnection) -> None:
        """One connection: its opening request, then its moves, until it closes."""
        address, bucket = ws.address, ws.budget
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
                    if (why := ws.route.refuses(request)) is not None:
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
            while True:  # until ``recv`` raises ConnectionClosed
                request = self._parse(ws, await ws.recv(), bucket)
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

    async def _elsewhere(self, ws: GuardedConnection, address: str, request: Opening) -> str | None:
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
        self, ws: GuardedConnection, to: str, first: str, account: str | None
    ) -> None:
        """Serve ``ws`` through process ``to``, which plays its room: its frames go there
        (within this process's budget), what that process says comes back. ``account``:
        the one its opening names, checked here."""
        relay = self.server.relay
        assert relay is not None
        number = relay.forward(to, ws, ws.address, ws.route, first, account)
        try:
            while True:  # until ``recv`` raises ConnectionClosed
                text = await ws.recv()
                if not ws.budget.take(self.clock()):
                    raise ClosingError(ErrorCode.FLOODING, "too many messages: slow down")
                relay.frame(number, _text(text))
        finally:
            relay.gone(number)

    async def _ask(self, ws: GuardedConnection, address: str, request: Request) -> bytes | None:
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
        self, ws: GuardedConnection, opening: Opening, nonce: bytes | None
    ) -> str | None:
        """The account ``opening`` names, checked against this connection's challenge
        (``None``: a guest); ``ProtocolError`` (``bad-account``) if it does not hold. A
        connection passed on from another process was checked there."""
        if isinstance(ws, RelayedConnection):
            return ws.account
        claim = UNSET if isinstance(opening, Watch) else opening.account
        if claim is UNSET:
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
            await self.handler(cast(GuardedConnection, connection))
            code = CloseCode.NORMAL_CLOSURE
        finally:
            relay.done(connection, CloseCode.SERVICE_RESTART if self.server.stopping else code)

    def _parse(self, ws: GuardedConnection, text: str | bytes, bucket: Bucket) -> Request | None:
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
        self, ws: GuardedConnection, address: str, request: Opening, account: str | None
    ) -> Seat | None:
        keeper, shell = self.server.keeper, self.shell
        try:
            if not isinstance(request, Host) and request.room not in self.rooms:
                self.guesses(address)  # no look-up past the address's budget
                await keeper.take(request.room)
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
        shell.arrive(live, ws, seat.player, token)
        return seat

    async def _request(self, ws: GuardedConnection, seat: Seat, request: Request) -> None:
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


async def _send(ws: GuardedConnection, message: ServerMessage) -> None:
    await ws.send(encode(message))


def _server_names(ws: GuardedConnection) -> list[str]:
    """The names a client may have given this server (its ``Host`` header, as ``ws://``
    or ``wss://``: behind a proxy that ends TLS, the server sees plain connections); none
    without exactly one ``Host`` (refused at the handshake: ``gatekeeper.host_problem``)."""
    if not ws.host:
        return []
    names = []
    for scheme in ("ws", "wss"):
        with contextlib.suppress(ValueError):
            names.append(normalise_server(f"{scheme}://{ws.host}"))
    return names


def _text(frame: str | bytes) -> str:
    """A client's frame as text (a binary one is refused as the protocol says, wherever
    it is read)."""
    return frame if isinstance(frame, str) else frame.decode("utf-8", "replace")
