"""What the game server lets one client, one address and everyone together do.

A connection's and an address's budgets here are token buckets in this process's memory
(messages, look-ups); the budgets that must hold on every process of one database
(accounts made, rooms opened) are counted in the database (``budgets.SharedBudgets``).
Addresses are counted by the network a person holds (an IPv4 address, an IPv6 /64: a home
gets a whole /64, so counting its addresses one by one would give every home thousands of
budgets). The tables of addresses are pruned, so a crowd of addresses that came once does
not stay in memory.
"""

from __future__ import annotations

import ipaddress
import resource
from dataclasses import dataclass, field, replace

from coloretto.online.wire.clock import PROFILES, Clock

RESERVED_FILES = 64
"""Open files kept for the server's own work (room files, logs, bot processes) beyond its
connections."""


@dataclass(frozen=True)
class Limits:
    """The server's limits (``coloretto server --help`` names the ones a host sets)."""

    messages_per_second: float = 10.0
    """Messages a connection may send a second, pings included."""
    burst: int = 30
    """Messages a connection may send at once."""
    lookups_per_minute: int = 20
    """Wrong room codes or tokens an address may send a minute."""
    rooms_per_minute: int = 10
    """Rooms an address may open a minute (counted in the database: on all processes)."""
    lobbies_per_address: int = 3
    """Rooms an address may hold open whose game has not started (on all processes)."""
    registrations_per_hour: int = 10
    """Accounts an address may make an hour (on all processes)."""
    all_registrations_per_minute: int = 20
    """Accounts everyone together may make a minute (on all processes)."""
    listed_per_host: int = 2
    """Tables the lobby lists of one address, and of one account."""
    max_rooms: int = 5000
    max_connections: int = 2000
    """Connections open at once, in all (lowered to fit the open-file limit)."""
    max_per_address: int = 20
    """Connections open at once from one address (IPv6: one /64)."""
    max_watchers: int = 30
    """Connections watching one room (its players' own connections not counted)."""
    opening_seconds: float = 10.0
    """How long a new connection may take to say which room it is about."""
    write_timeout: float = 10.0
    """How long a connection may leave what the server sends it unread before it is
    closed (once more than ``write_limit`` bytes wait for it)."""
    write_limit: int = 32 * 1024
    """Bytes that may wait for a connection before it counts as not reading."""
    max_unread: int = 1024 * 1024
    """Bytes waiting for a connection at which it is closed at once."""
    idle_seconds: float = 600.0
    """How long a room that nobody is in (and whose game is not being played) is kept in
    memory."""
    lobby_seconds: float = 60.0
    """How long a room whose game never started is kept once nobody is in it."""
    alone_seconds: float = 30.0
    """How long the bots of a room play on once none of its people is connected (watchers
    do not count); then its game waits until one of them is back."""
    bot_workers: int = 2
    """Processes the bots think in (rooms take turns at them, the least served first; with
    two or more, one is kept for rooms whose bots think little)."""
    clocks: tuple[Clock, ...] = PROFILES
    """The speed profiles a host may time a table by (the first one named ``standard``,
    or else the first, times every public or rated table whose host chose none)."""
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    """The proxies whose ``X-Forwarded-For`` is believed: a connection from one of them is
    counted under the client the header names (``connection.forwarded_client``)."""

    def fitted(self) -> Limits:
        """These limits with ``max_connections`` lowered to what the open-file limit
        allows (raised first to its hard ceiling where the system lets it)."""
        files = open_file_limit()
        room = max(8, files - RESERVED_FILES - self.connection_slack)
        if self.max_connections <= room:
            return self
        return replace(self, max_connections=room)

    @property
    def connection_slack(self) -> int:
        """Connections past a cap that are still answered with a refusal (beyond it they
        are cut at once)."""
        return min(32, max(4, self.max_per_address))


def open_file_limit() -> int:
    """The process's open-file limit, raised to the hard limit first if it is below it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return 65536 if soft == resource.RLIM_INFINITY else soft


def address_key(host: str) -> str:
    """What an address is counted as: an IPv4 address itself, an IPv6 address by its /64
    (an IPv4 address written as IPv6 as the IPv4 address).

    >>> address_key("127.0.0.7"), address_key("2001:db8:1:2:aaaa::1")
    ('127.0.0.7', '2001:db8:1:2::/64')
    >>> address_key("::ffff:10.1.2.3"), address_key("not an address")
    ('10.1.2.3', 'not an address')
    """
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


@dataclass(slots=True)
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

    def full(self, now: float) -> bool:
        """True when the bucket has refilled: forgetting it changes nothing."""
        self.available(now)
        return self.tokens >= self.burst


@dataclass
class Address:
    """What one address (see ``address_key``) holds now and has left of its budgets."""

    lookups: Bucket
    connections: int = 0
    """TCP connections open, their handshakes done or not."""
    admitted: int = 0
    """Connections let through their handshake (``admit``)."""

    def idle(self, now: float) -> bool:
        """True when nothing is kept for this address but full budgets."""
        return self.connections == 0 and self.lookups.full(now)


class AddressBook:
    """Every address the server has heard from lately, with its connections and budgets.

    >>> book = AddressBook(Limits(max_per_address=1, max_connections=10))
    >>> book.connect("10.0.0.1"), book.connect("10.0.0.1")
    (True, True)
    >>> book.admit("10.0.0.1"), book.admit("10.0.0.1")
    (None, 'too many connections from your address')
    >>> book.disconnect("10.0.0.1", admitted=True); book.disconnect("10.0.0.1", admitted=False)
    >>> book.prune(0.0); len(book)
    0
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = 0
        """TCP connections open."""
        self.admitted = 0
        """Connections let through their handshake."""
        self._addresses: dict[str, Address] = {}

    def __len__(self) -> int:
        return len(self._addresses)

    def get(self, key: str) -> Address:
        """The entry of address ``key`` (made on first use)."""
        entry = self._addresses.get(key)
        if entry is None:
            lookups = self.limits.lookups_per_minute
            entry = Address(Bucket(lookups / 60, lookups))
            self._addresses[key] = entry
        return entry

    def connect(self, key: str) -> bool:
        """Count a new connection from ``key``; False when it is so far past a cap that it
        is cut without an answer (then it is not counted)."""
        entry = self.get(key)
        slack = self.limits.connection_slack
        if (
            self.total >= self.limits.max_connections + slack
            or entry.connections >= self.limits.max_per_address + slack
        ):
            return False
        entry.connections += 1
        self.total += 1
        return True

    def disconnect(self, key: str, *, admitted: bool) -> None:
        """A connection ``connect`` counted (and ``admit`` let through) has ended."""
        entry = self._addresses.get(key)
        if entry is None or entry.connections <= 0:
            return
        entry.connections -= 1
        self.total -= 1
        if admitted:
            entry.admitted -= 1
            self.admitted -= 1

    def admit(self, key: str) -> str | None:
        """Let a connection from ``key`` through its handshake, or say why it is refused."""
        entry = self.get(key)
        if self.admitted >= self.limits.max_connections:
            return "the server has too many connections: try again later"
        if entry.admitted >= self.limits.max_per_address:
            return "too many connections from your address"
        entry.admitted += 1
        self.admitted += 1
        return None

    def prune(self, now: float) -> None:
        """Forget the addresses that hold nothing and whose budgets are full."""
        for key in [key for key, entry in self._addresses.items() if entry.idle(now)]:
            del self._addresses[key]
