"""One client's WebSocket connection, as lean as the server can keep it.

The websockets library's own sans-IO protocol (``websockets.server.ServerProtocol``)
reads and writes the frames; this ``asyncio.Protocol`` carries its bytes and keeps only
what the server reads of a connection: the address it is counted under, where its path
leads, its ``Host`` (the server names an account's key is checked against), its message
budget, the messages not yet read (at most ``MAX_QUEUE``: past them the socket is not
read) and its keepalive's two times. No task of its own besides its handler (the
``Gatekeeper``'s sweep sends the keepalive pings and ends connections that take too
long), no headers kept after the handshake, and a message sent to several connections
is framed once: a server's frames are not masked, so every connection is sent the same
bytes (``text_frame``, ``write``).

Two things a client can do never reach the game code: send pings (answered here) and
stop reading (what the server sends piles up in memory). So every ping is charged
against the same budget as the messages (a flood of them closes the connection, 1008),
and a connection that leaves more than ``Limits.max_unread`` bytes unread is cut at once
(more than ``Limits.write_limit`` for ``Limits.write_timeout``: by the sweep).
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from http import HTTPStatus
from typing import TYPE_CHECKING, cast

from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from coloretto.online.server.limits import Bucket
from coloretto.online.wire.protocol import MAX_REQUEST, Route

if TYPE_CHECKING:
    from coloretto.online.server.gatekeeper import Gatekeeper

MAX_QUEUE = 4
"""Messages of a connection that may wait to be read; past them its socket is not read
until they are (the client's sending is held up by TCP, not by the server's memory)."""

OPEN_SECONDS = 10.0
"""How long a connection may take to finish its opening handshake."""

CLOSE_SECONDS = 1.0
"""How long a closing connection may take to close its end: one that floods may never
read our closing frame."""

ANYWHERE = Route(None, anywhere=True)
"""A connection's route until its handshake names one."""

PING_SECONDS = 20.0
"""A connection heard from for this long is sent a ping; one that then answers nothing
for as long again is closed (1011)."""


def text_frame(text: str) -> bytes:
    """``text`` as one unmasked WebSocket text frame, as a server sends it.

    >>> text_frame("hi"), len(text_frame("x" * 200)), text_frame("x" * 70000)[:4].hex()
    (b'\\x81\\x02hi', 204, '817f0000')
    """
    data = text.encode()
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size) + data
    return struct.pack("!BBQ", 0x81, 127, size) + data


class GuardedConnection(asyncio.Protocol):
    """A client's WebSocket connection (see the module): read with ``recv``, written with
    ``send`` (or ``push``, ``write``: never waiting), ended with ``close`` (a closing
    handshake) or ``cut`` (at once)."""

    __slots__ = (
        "_closer",
        "_ended",
        "_inbox",
        "_parts",
        "_waiter",
        "address",
        "admitted",
        "budget",
        "counted",
        "gate",
        "heard",
        "host",
        "pinged",
        "protocol",
        "route",
        "transport",
        "unnamed",
        "unread_since",
    )

    def __init__(self, gate: Gatekeeper) -> None:
        self.gate = gate
        self.protocol = ServerProtocol(max_size=MAX_REQUEST)
        """The library's sans-IO protocol: the handshake and the frames."""
        self.transport: asyncio.Transport | None = None
        limits = gate.limits
        self.budget = Bucket(limits.messages_per_second, limits.burst)
        """The connection's messages (and pings) left: the handler charges its messages."""
        self.address = "?"
        """The address the connection is counted under (``address_key``)."""
        self.route = ANYWHERE
        """Where the connection's address leads (set by ``Gatekeeper.process_request``)."""
        self.host: str | None = None
        """The request's ``Host`` header, once let through the handshake."""
        self.admitted = False
        """True once let through the handshake's caps (``Gatekeeper.process_request``)."""
        self.counted = False
        """True while the connection is counted under ``address`` in the address book."""
        self.unnamed = False
        """True while the connection, from a trusted proxy, waits for its handshake to name
        its client (``Gatekeeper.unnamed``)."""
        self.unread_since: float | None = None
        """Since when more than ``write_limit`` bytes wait for the client (``None``: not)."""
        self.heard = 0.0
        """When the connection was made (while in its handshake), then last heard from."""
        self.pinged: float | None = None
        """When a keepalive ping went unanswered since (``None``: none waits)."""
        self._inbox: list[str | bytes] = []
        self._waiter: asyncio.Future[str | bytes] | None = None
        """What ``recv`` gave a handler waiting for the next message."""
        self._parts: tuple[bool, list[bytes]] | None = None
        """A fragmented message so far: whether it is text, and its frames' data."""
        self._closer: asyncio.TimerHandle | None = None
        self._ended: asyncio.Future[None] | None = None

    # ------------------------------------------------------------------ asyncio's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the new connection (``Gatekeeper.arrive``)."""
        self.transport = cast(asyncio.Transport, transport)
        self.transport.set_write_buffer_limits(high=self.gate.limits.write_limit)
        self.heard = asyncio.get_running_loop().time()
        peer = transport.get_extra_info("peername")
        self.gate.arrive(self, str(peer[0]) if peer else "?")

    def connection_lost(self, exc: Exception | None) -> None:
        """Uncount the connection; whoever reads it is told it is closed."""
        self.protocol.receive_eof()  # idempotent: the protocol's state is now CLOSED
        self.gate.leave(self)
        if self._closer is not None:
            self._closer.cancel()
            self._closer = None
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(self.protocol.close_exc)
        if self._ended is not None and not self._ended.done():
            self._ended.set_result(None)

    def data_received(self, data: bytes) -> None:
        """Take the client's bytes: its handshake, its frames."""
        protocol = self.protocol
        protocol.receive_data(data)
        events = protocol.events_received()
        for event in events:
            if isinstance(event, Request):
                self._handshake(event)
            elif protocol.state is State.OPEN or protocol.state is State.CLOSING:
                self._frame(cast(Frame, event))
        if protocol.state is State.OPEN:
            self.heard = self.gate.now()
            self.pinged = None
        self._flush()
        self.check_unread()

    def eof_received(self) -> None:
        """The client will send nothing more (its end of the closing, or gone)."""
        self.protocol.receive_eof()
        self._flush()

    def pause_writing(self) -> None:
        """The client lets what we send pile up: from now on it may be closed."""
        self.unread_since = self.gate.now()

    def resume_writing(self) -> None:
        """The client reads again."""
        self.unread_since = None

    # ------------------------------------------------------------------ the protocol's side

    def _handshake(self, request: Request) -> None:
        """Answer the opening request: refused (``Gatekeeper.process_request``), or
        upgraded and handed to the server's handler."""
        protocol = self.protocol
        try:
            response = self.gate.process_request(self, request)
        except Exception:  # a fault of ours: the client is told so, the log says which
            self.gate.log.exception("a handshake not answered")
            response = self.respond(HTTPStatus.INTERNAL_SERVER_ERROR, "the server failed\n")
        if response is None:
            response = protocol.accept(request)
            if response.status_code == HTTPStatus.SWITCHING_PROTOCOLS and not self.gate.serving:
                response = self.respond(HTTPStatus.SERVICE_UNAVAILABLE, "the server is stopping\n")
        protocol.send_response(response)
        if protocol.state is State.OPEN:
            self.host = request.headers.get("Host")
            self.gate.opened(self)
        request.headers.clear()  # the protocol's parser keeps the request: not its headers

    def respond(self, status: HTTPStatus, text: str) -> Response:
        """A plain text HTTP answer to the handshake, in place of the upgrade."""
        return self.protocol.reject(status, text)

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.PING:
            if not self.budget.take(self.gate.now()):
                self.gate.audit.note("flooding", self.address, "closed: too many pings")
                self.protocol.fail(CloseCode.POLICY_VIOLATION, "flooding")
                self._flush()
                self.cut()
            return
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            if frame.fin:
                self._take(opcode is Opcode.TEXT, bytes(frame.data))
            else:
                self._parts = (opcode is Opcode.TEXT, [bytes(frame.data)])
        elif opcode is Opcode.CONT and self._parts is not None:
            text, parts = self._parts
            parts.append(bytes(frame.data))
            if frame.fin:
                self._parts = None
                self._take(text, b"".join(parts))

    def _take(self, text: bool, data: bytes) -> None:
        """A whole message: it waits to be read (text must be UTF-8: else 1007)."""
        message: str | bytes = data
        if text:
            try:
                message = data.decode()
            except UnicodeDecodeError as wrong:
                self.protocol.fail(
                    CloseCode.INVALID_DATA, f"{wrong.reason} at position {wrong.start}"
                )
                return
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(message)
            return
        self._inbox.append(message)
        if len(self._inbox) >= MAX_QUEUE and self.transport is not None:
            self.transport.pause_reading()

    def _flush(self) -> None:
        """Send what the protocol has to send; a connection that is to close is cut
        after ``CLOSE_SECONDS`` if the client does not close its end before."""
        transport = self.transport
        if transport is None:
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                with contextlib.suppress(OSError, RuntimeError):
                    transport.write_eof()
            else:
                transport.close()
        if self._closer is None and self.protocol.close_expected():
            loop = asyncio.get_running_loop()
            self._closer = loop.call_later(CLOSE_SECONDS, self.cut)

    # ------------------------------------------------------------------ the handler's side

    def recv(self) -> asyncio.Future[str | bytes]:
        """The client's next message, to await (a future, not a coroutine: no frame kept
        while a handler waits); ``ConnectionClosed`` once the connection is closed and
        every message it sent before has been read. One reader at a time."""
        future: asyncio.Future[str | bytes] = asyncio.get_running_loop().create_future()
        if self._inbox:
            future.set_result(self._inbox.pop(0))
            if len(self._inbox) == MAX_QUEUE - 1 and self.transport is not None:
                self.transport.resume_reading()
        elif self.protocol.state is State.CLOSED:
            future.set_exception(self.protocol.close_exc)
        else:
            self._waiter = future
        return future

    async def send(self, text: str) -> None:
        """Send ``text`` to the client (``ConnectionClosed`` if the connection is closed:
        what was sent before may be unread)."""
        if self.protocol.state is not State.OPEN:
            await self.closed()
            raise self.protocol.close_exc
        self.push(text)

    def push(self, text: str) -> None:
        """Send ``text`` to the client if the connection is open (never waits)."""
        self.write(text_frame(text))

    def write(self, frame: bytes) -> None:
        """Send a frame (``text_frame``) if the connection is open; cut it if the client
        leaves more than ``max_unread`` bytes unread."""
        transport = self.transport
        if self.protocol.state is State.OPEN and transport is not None:
            transport.write(frame)
            self.check_unread()

    async def close(self, code: int = CloseCode.NORMAL_CLOSURE, reason: str = "") -> None:
        """Close the connection with ``code`` and ``reason``, and wait until it is closed
        (at most ``CLOSE_SECONDS`` after its closing frame)."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code, reason)
            self._flush()
        await self.closed()

    async def closed(self) -> None:
        """Wait until the connection is closed."""
        if self.protocol.state is State.CLOSED:
            return
        if self._ended is None:
            self._ended = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._ended)

    def ping(self, now: float) -> None:
        """The keepalive (the sweep's, each second): a connection whose handshake takes
        too long is cut; one heard from ``PING_SECONDS`` ago is sent a ping; one that
        answers nothing for ``PING_SECONDS`` more is closed (1011)."""
        state = self.protocol.state
        if state is State.CONNECTING:
            if now - self.heard > OPEN_SECONDS:
                self.cut()
        elif state is State.OPEN:
            if self.pinged is None:
                if now - self.heard > PING_SECONDS:
                    self.pinged = now
                    self.protocol.send_ping(b"")
                    self._flush()
            elif now - self.pinged > PING_SECONDS:
                self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
                self._flush()

    def check_unread(self) -> None:
        """Cut the connection if more than ``max_unread`` bytes wait for the client."""
        transport = self.transport
        if transport is not None and (
            transport.get_write_buffer_size() > self.gate.limits.max_unread
        ):
            self.gate.audit.note("slow-reader", self.address, "cut: reads nothing")
            self.cut()

    def cut(self) -> None:
        """End the TCP connection now, dropping what was not sent."""
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.abort()
