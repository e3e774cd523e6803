"""A server connection that keeps to its limits whatever the client does.

Two things a client can do never reach the game code: send WebSocket pings (the library
answers them itself) and stop reading (what the server sends piles up in memory). So the
connection itself counts every ping against the same budget as the messages, and the
``Gatekeeper`` closes connections that leave too much unread for too long, counts
connections per address and in all from the moment the TCP connection is made, and
refuses those past a cap with an HTTP answer (or, far past it, at once), before the
server runs out of file descriptors; an address (URL path) that is none of the server's
is refused at the handshake too.
"""

from __future__ import annotations

import asyncio
import contextlib
from http import HTTPStatus
from typing import Any, ClassVar

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response

from coloretto.online.audit import Audit
from coloretto.online.limits import AddressBook, Bucket, Limits, address_key
from coloretto.online.protocol import BadPath, Route, parse_route


class Gatekeeper:
    """Counts and watches every connection of one server (see the module)."""

    def __init__(self, limits: Limits, audit: Audit) -> None:
        self.limits = limits
        self.audit = audit
        self.book = AddressBook(limits)
        self.open: set[GuardedConnection] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def connection_class(self) -> type[GuardedConnection]:
        """The connection class to give ``serve`` (``create_connection``)."""
        return type("Connection", (GuardedConnection,), {"gatekeeper": self})

    def start(self) -> None:
        """Start the sweeps: slow readers closed, idle addresses forgotten (each second)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def stop(self) -> None:
        """Stop sweeping (the server stops)."""
        if self._sweeper is not None:
            self._sweeper.cancel()

    async def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1.0)
            now = loop.time()
            for connection in list(self.open):
                since = connection.unread_since
                if since is not None and now - since > self.limits.write_timeout:
                    self.audit.note("slow-reader", connection.address, "closed: reads nothing")
                    connection.cut()
                else:
                    connection.check_unread()
            self.book.prune(now)

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """``serve``'s hook: refuse an address that is none of the server's (404, or 400 for
        a malformed room code), or a connection past a cap, with an HTTP answer."""
        if not isinstance(connection, GuardedConnection):
            return None
        address = connection.address
        try:
            connection.route = parse_route(request.path)
        except BadPath as bad:
            self.audit.note("bad-path", address, f"{bad}: {request.path[:40]!r}")
            return connection.respond(HTTPStatus(bad.status), f"{bad}\n")
        why = self.book.admit(address)
        if why is None:
            connection.admitted = True
            return None
        self.audit.note("refused", address, why)
        status = HTTPStatus.SERVICE_UNAVAILABLE if "server" in why else HTTPStatus.TOO_MANY_REQUESTS
        response = connection.respond(status, why + "\n")
        response.headers = Headers({**response.headers, "Retry-After": "30"})
        return response


class GuardedConnection(ServerConnection):
    """A ``ServerConnection`` that counts itself, charges pings and can be cut."""

    gatekeeper: ClassVar[Gatekeeper]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limits = self.gatekeeper.limits
        self.budget = Bucket(limits.messages_per_second, limits.burst)
        """The connection's messages (and pings) left: the handler charges its messages."""
        self.address = "?"
        """The address the connection is counted under (``address_key``)."""
        self.unread_since: float | None = None
        """Since when more than ``write_limit`` bytes wait for the client (``None``: not)."""
        self.admitted = False
        """True once let through the handshake (``Gatekeeper.process_request``)."""
        self.route = Route(None, anywhere=True)
        """Where the connection's address leads (set by ``Gatekeeper.process_request``)."""
        self._counted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the new connection; cut it at once when it is far past a cap."""
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.address = address_key(str(peer[0])) if peer else "?"
        gate = self.gatekeeper
        if not gate.book.connect(self.address):
            gate.audit.note("refused", self.address, "cut: far past the connection caps")
            self.cut()
            return
        self._counted = True
        gate.open.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        """Uncount the connection."""
        if self._counted:
            self._counted = False
            self.gatekeeper.book.disconnect(self.address, admitted=self.admitted)
            self.gatekeeper.open.discard(self)
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        """The client lets what we send pile up: from now on it may be closed."""
        super().pause_writing()
        self.unread_since = self.loop.time()

    def resume_writing(self) -> None:
        """The client reads again."""
        super().resume_writing()
        self.unread_since = None

    def data_received(self, data: bytes) -> None:
        """Take the client's bytes; a client that lets too much pile up is cut."""
        super().data_received(data)
        self.check_unread()

    def check_unread(self) -> None:
        """Cut the connection if more than ``max_unread`` bytes wait for the client."""
        transport = getattr(self, "transport", None)
        if transport is not None and (
            transport.get_write_buffer_size() > self.gatekeeper.limits.max_unread
        ):
            self.gatekeeper.audit.note("slow-reader", self.address, "cut: reads nothing")
            self.cut()

    def process_event(self, event: Any) -> None:
        """Charge a ping against the message budget; a flood of pings closes the
        connection (1008) instead of being answered."""
        ping = isinstance(event, Frame) and event.opcode is Opcode.PING
        if ping and not self.budget.take(self.loop.time()):
            self.gatekeeper.audit.note("flooding", self.address, "closed: too many pings")
            with contextlib.suppress(Exception):
                self.protocol.fail(CloseCode.POLICY_VIOLATION, "flooding")
                self.send_data()
            self.cut()
            return
        super().process_event(event)

    def cut(self) -> None:
        """End the TCP connection now, dropping what was not sent."""
        transport = getattr(self, "transport", None)
        if transport is not None and not transport.is_closing():
            transport.abort()
