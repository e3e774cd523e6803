"""The server's listening socket and every connection made to it, kept to their limits
whatever the clients do.

The ``Gatekeeper`` listens (``listen``), counts connections per address and in all from
the moment the TCP connection is made, and refuses those past a cap with an HTTP answer
(or, far past it, at once), before the server runs out of file descriptors; an address
(URL path) that is none of the server's is refused at the handshake too, and so is a
request HTTP calls malformed (no ``Host``, two of them, or one that names no host:
``400``). Once a second it sweeps every connection: one that leaves too much unread for
too long is closed, one whose handshake takes too long is cut, and the keepalive pings
are sent (``GuardedConnection.ping``). Each connection let through the handshake is
served by the server's handler, then closed (``close`` closes them all with 1001 when
the server stops).

Behind a proxy every connection comes from the proxy. A connection from a proxy the
operator trusts (``Limits.trusted_proxies``) is counted under the client its
``X-Forwarded-For`` names, as nginx's ``realip`` module reads it: the right-most address
that is not itself a trusted proxy. Everyone else's ``X-Forwarded-For`` is ignored.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import ssl
from collections.abc import Awaitable, Callable, Sequence
from http import HTTPStatus
from typing import cast

from websockets.datastructures import Headers
from websockets.frames import CloseCode
from websockets.http11 import Request, Response
from websockets.protocol import State

from coloretto.online.server.audit import Audit
from coloretto.online.server.connection import GuardedConnection
from coloretto.online.server.limits import AddressBook, Limits, address_key
from coloretto.online.wire.protocol import BadPath, parse_route

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


Handler = Callable[[GuardedConnection], Awaitable[None]]
"""What serves a connection let through its handshake (``Door.handler``)."""


class Gatekeeper:
    """Listens, counts and watches every connection of one server (see the module)."""

    def __init__(self, limits: Limits, audit: Audit, log: logging.Logger) -> None:
        self.limits = limits
        self.audit = audit
        self.log = log
        self.book = AddressBook(limits)
        self.open: set[GuardedConnection] = set()
        self.unnamed = 0
        """Connections from trusted proxies whose handshake has not yet named their client
        (counted in all, under no address)."""
        self.serving = False
        """True while connections are let through their handshake (``listen``, ``close``)."""
        self.handler: Handler | None = None
        self.served: set[asyncio.Task[None]] = set()
        """The handlers of the connections let through, until each returns."""
        self._sweeper: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the sweeps: slow readers closed, idle addresses forgotten, handshakes
        timed and keepalive pings sent (each second)."""
        self._loop = asyncio.get_running_loop()
        self._sweeper = self._loop.create_task(self._sweep())

    def stop(self) -> None:
        """Stop sweeping (the server stops)."""
        if self._sweeper is not None:
            self._sweeper.cancel()

    def now(self) -> float:
        """The event loop's time."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop.time()

    async def listen(
        self, handler: Handler, host: str, port: int, tls: ssl.SSLContext | None
    ) -> asyncio.Server:
        """Listen on ``host`` and ``port``: each connection let through its handshake is
        served by ``handler``, then closed."""
        self.handler = handler
        self.serving = True
        loop = asyncio.get_running_loop()
        return await loop.create_server(lambda: GuardedConnection(self), host, port, ssl=tls)

    async def close(self, listening: asyncio.Server) -> None:
        """Stop listening, close every connection (1001: going away; one still in its
        handshake at once) and wait until every handler has returned."""
        self.serving = False
        listening.close()
        closing = []
        for connection in list(self.open):
            if connection.protocol.state is State.OPEN:
                closing.append(asyncio.ensure_future(connection.close(CloseCode.GOING_AWAY)))
            elif connection.protocol.state is State.CONNECTING:
                connection.cut()
        if closing:
            await asyncio.wait(closing)
        if self.served:
            await asyncio.wait(set(self.served))
        await listening.wait_closed()

    def opened(self, connection: GuardedConnection) -> None:
        """``connection`` is let through its handshake: its handler serves it."""
        self.served.add(asyncio.get_running_loop().create_task(self._serve(connection)))

    async def _serve(self, connection: GuardedConnection) -> None:
        assert self.handler is not None
        try:
            await self.handler(connection)
        except Exception:
            self.log.exception("a connection's handler failed")
            await connection.close(CloseCode.INTERNAL_ERROR)
        else:
            await connection.close()
        finally:
            self.served.discard(cast(asyncio.Task[None], asyncio.current_task()))

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            now = self.now()
            for connection in list(self.open):
                since = connection.unread_since
                if since is not None and now - since > self.limits.write_timeout:
                    self.audit.note("slow-reader", connection.address, "closed: reads nothing")
                    connection.cut()
                else:
                    connection.check_unread()
                    connection.ping(now)
            self.book.prune(now)

    def arrive(self, connection: GuardedConnection, host: str) -> None:
        """Count a new connection from ``host`` (from a trusted proxy: in all until its
        handshake names its client); cut it at once when it is far past a cap."""
        connection.address = address_key(host)
        limits = self.limits
        if trusted(ip_of(host), limits.trusted_proxies):
            if self.book.total + self.unnamed < limits.max_connections + limits.connection_slack:
                connection.unnamed = True
                self.unnamed += 1
                self.open.add(connection)
                return
        elif self.book.connect(connection.address):
            connection.counted = True
            self.open.add(connection)
            return
        self.audit.note("refused", connection.address, "cut: far past the connection caps")
        connection.cut()

    def leave(self, connection: GuardedConnection) -> None:
        """Uncount a connection that ended."""
        if connection.counted:
            connection.counted = False
            self.book.disconnect(connection.address, admitted=connection.admitted)
        elif connection.unnamed:
            connection.unnamed = False
            self.unnamed -= 1
        self.open.discard(connection)

    def process_request(self, connection: GuardedConnection, request: Request) -> Response | None:
        """Count a trusted proxy's connection under its client, then refuse a malformed
        request (400: ``host_problem``), an address that is none of the server's (404, or
        400 for a malformed room code), or a connection past a cap, with an HTTP answer
        and a line saying why (``None``: let it through)."""
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
