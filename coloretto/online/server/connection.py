"""A server connection that keeps to its limits whatever the client does.

Two things a client can do never reach the game code: send WebSocket pings (the library
answers them itself) and stop reading (what the server sends piles up in memory). So the
connection itself counts every ping against the same budget as the messages, and the
``Gatekeeper`` closes connections that leave too much unread for too long, counts
connections per address and in all from the moment the TCP connection is made, and
refuses those past a cap with an HTTP answer (or, far past it, at once), before the
server runs out of file descriptors; an address (URL path) that is none of the server's
is refused at the handshake too, and so is a request HTTP calls malformed (no ``Host``,
two of them, or one that names no host: ``400``).

Behind a proxy every connection comes from the proxy. A connection from a proxy the
operator trusts (``Limits.trusted_proxies``) is counted under the client its
``X-Forwarded-For`` names, as nginx's ``realip`` module reads it: the right-most address
that is not itself a trusted proxy. Everyone else's ``X-Forwarded-For`` is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any, ClassVar

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response

from coloretto.online.server.audit import Audit
from coloretto.online.server.limits import AddressBook, Bucket, Limits, address_key
from coloretto.online.wire.protocol import BadPath, Route, parse_route

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

HOST = re.compile(r"(\[[0-9A-Fa-f:.]{2,45}\]|[-A-Za-z0-9._~%!$&'()*+,;=]{1,253})(:[0-9]{0,5})?")
"""A ``Host`` header's value (RFC 9110): a host name or an address, and maybe a port."""


def host_problem(headers: Headers) -> str | None:
    """Why a request's ``Host`` headers make it one HTTP refuses (``None``: they do not).

    >>> host_problem(Headers([("Host", "games.example.org:7787")])) is None
    True
    >>> host_problem(Headers([("Host", "a:1"), ("Host", "b:2")]))
    'more than one Host header'
    >>> host_problem(Headers()), host_problem(Headers([("Host", "a b")]))
    ('no Host header', 'a Host header that names no host')
    """
    hosts = headers.get_all("Host")
    if not hosts:
        return "no Host header"
    if len(hosts) > 1:
        return "more than one Host header"
    if not HOST.fullmatch(hosts[0]):
        return "a Host header that names no host"
    return None


def ip_of(text: str) -> IPAddress | None:
    """The address ``text`` writes (an IPv4 address written as IPv6 as the IPv4 address;
    ``None``: it writes none).

    >>> ip_of("::ffff:10.1.2.3"), ip_of("fe80::1%eth0"), ip_of("unknown")
    (IPv4Address('10.1.2.3'), IPv6Address('fe80::1'), None)
    """
    try:
        address = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def trusted(address: IPAddress | None, proxies: Sequence[Network]) -> bool:
    """Whether ``address`` is one of the trusted ``proxies``."""
    return address is not None and any(address in network for network in proxies)


def forwarded_client(values: Sequence[str], proxies: Sequence[Network]) -> IPAddress | None:
    """The client that the ``X-Forwarded-For`` headers ``values`` of a trusted proxy name:
    the right-most address that is not one of ``proxies`` (each proxy adds the address it
    was reached from at the end; what is left of a trusted proxy's entry may be the
    client's invention), the left-most when all are proxies; ``None`` when there is no
    header. ``ValueError`` when an entry read is no address.

    >>> proxies = [ipaddress.ip_network("10.0.0.0/8")]
    >>> forwarded_client(["1.2.3.4, 5.6.7.8", "10.0.0.2"], proxies)
    IPv4Address('5.6.7.8')
    >>> forwarded_client(["garbage, 5.6.7.8"], proxies), forwarded_client([], proxies)
    (IPv4Address('5.6.7.8'), None)
    >>> forwarded_client(["garbage, 10.0.0.2"], proxies)
    Traceback (most recent call last):
    ...
    ValueError: X-Forwarded-For names no address: 'garbage'
    """
    entries = [entry.strip() for value in values for entry in value.split(",")]
    client = None
    for entry in reversed([entry for entry in entries if entry]):
        client = ip_of(entry)
        if client is None:
            raise ValueError(f"X-Forwarded-For names no address: {entry[:40]!r}")
        if not trusted(client, proxies):
            return client
    return client


class Gatekeeper:
    """Counts and watches every connection of one server (see the module)."""

    def __init__(self, limits: Limits, audit: Audit) -> None:
        self.limits = limits
        self.audit = audit
        self.book = AddressBook(limits)
        self.open: set[GuardedConnection] = set()
        self.unnamed = 0
        """Connections from trusted proxies whose handshake has not yet named their client
        (counted in all, under no address)."""
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
        """``serve``'s hook: count a trusted proxy's connection under its client, then
        refuse a malformed request (400: ``host_problem``), an address that is none of the
        server's (404, or 400 for a malformed room code), or a connection past a cap, with
        an HTTP answer and a line saying why."""
        if not isinstance(connection, GuardedConnection):
            return None
        if connection.unnamed and (refused := self._name(connection, request.headers)):
            return refused
        address = connection.address
        if (problem := host_problem(request.headers)) is not None:
            self.audit.note("bad-request", address, problem)
            return connection.respond(HTTPStatus.BAD_REQUEST, f"{problem}\n")
        try:
            connection.route = parse_route(request.path)
        except BadPath as bad:
            self.audit.note("bad-path", address, f"{bad}: {request.path[:40]!r}")
            return connection.respond(HTTPStatus(bad.status), f"{bad}\n")
        why = self.book.admit(address)
        if why is None:
            connection.admitted = True
            return None
        return self._refuse(connection, why)

    def _refuse(self, connection: GuardedConnection, why: str) -> Response:
        """Refuse a connection past a cap: 503 (the server's) or 429 (its address's)."""
        self.audit.note("refused", connection.address, why)
        status = HTTPStatus.SERVICE_UNAVAILABLE if "server" in why else HTTPStatus.TOO_MANY_REQUESTS
        response = connection.respond(status, why + "\n")
        response.headers = Headers({**response.headers, "Retry-After": "30"})
        return response

    def _name(self, connection: GuardedConnection, headers: Headers) -> Response | None:
        """Count a connection from a trusted proxy under the client its ``X-Forwarded-For``
        names (under the proxy without the header); a refusal if the header names no
        address (400) or that client is far past the connection caps."""
        self.unnamed -= 1
        connection.unnamed = False
        try:
            client = forwarded_client(
                headers.get_all("X-Forwarded-For"), self.limits.trusted_proxies
            )
        except ValueError as wrong:
            self.audit.note("bad-request", connection.address, str(wrong))
            return connection.respond(HTTPStatus.BAD_REQUEST, f"{wrong}\n")
        if client is not None:
            connection.address = address_key(str(client))
        if not self.book.connect(connection.address):
            return self._refuse(connection, "too many connections from your address")
        connection.counted = True
        return None


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
        self.counted = False
        """True while the connection is counted under ``address`` in the address book."""
        self.unnamed = False
        """True while the connection, from a trusted proxy, waits for its handshake to name
        its client (``Gatekeeper.unnamed``)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the new connection (from a trusted proxy: in all until its handshake names
        its client); cut it at once when it is far past a cap."""
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if peer else "?"
        self.address = address_key(host)
        gate, limits = self.gatekeeper, self.gatekeeper.limits
        if trusted(ip_of(host), limits.trusted_proxies):
            if gate.book.total + gate.unnamed < limits.max_connections + limits.connection_slack:
                self.unnamed = True
                gate.unnamed += 1
                gate.open.add(self)
                return
        elif gate.book.connect(self.address):
            self.counted = True
            gate.open.add(self)
            return
        gate.audit.note("refused", self.address, "cut: far past the connection caps")
        self.cut()

    def connection_lost(self, exc: Exception | None) -> None:
        """Uncount the connection."""
        gate = self.gatekeeper
        if self.counted:
            self.counted = False
            gate.book.disconnect(self.address, admitted=self.admitted)
        elif self.unnamed:
            self.unnamed = False
            gate.unnamed -= 1
        gate.open.discard(self)
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
