"""Connections passed between server processes through PostgreSQL (``LISTEN``/``NOTIFY``).

A client may connect to any server process. When another process plays its room (holds
the room's lock, ``RoomSpace.claim``), this one passes the connection on: it still guards
the connection (its caps and message budget) but forwards every frame to the process that
plays the room, which sees a ``RelayedConnection`` and serves it as one of its own; what
that process sends comes back the same way. Each process listens on a channel of its own
(``channel``); the messages from one process to another keep their order (one sender per
destination), several go in one notification, and one too long for a notification goes
through the table ``relay_messages``.

When the process that plays a room ends (``kill -9`` included), the database lets its
locks go and forgets its connection; a process that passed connections to it notices
(``watch``: once a second) and closes them with the code 1012 (service restart), so their
clients connect again and the room is played where they land. The other way round, a
process that serves relayed connections closes those of a process that ended.

A relayed connection ends at both processes, whichever closes it: the client's process
says ``close`` when the client has gone, the other says ``end`` (with a close code and a
reason) when it closes the connection; each forgets the connection then (the serving
process once its handler has ended: ``Relay.done``). A message that cannot be sent
closes its connection with 1012. Each process logs how many connections it passes on and
serves, when that changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosedOK

from coloretto.online.server.connection import GuardedConnection, text_frame
from coloretto.online.server.database import SharedDatabase, StoreError
from coloretto.online.server.limits import Bucket, Limits
from coloretto.online.wire.messages import MAX_MESSAGE
from coloretto.online.wire.protocol import MAX_REQUEST, ROOM_CODE, Route
from coloretto.play.config import MAX_NAME

RESTART = 1012
"""The WebSocket close code that tells a client to connect again (service restart)."""

WATCH_SECONDS = 1.0
"""How often a process checks that the processes it passes connections to still run."""

MAX_NOTIFY = 7000
"""The most characters one notification carries (PostgreSQL allows 8000 bytes)."""

INBOX = 64
"""Frames of a relayed client that may wait to be read; past them it is closed (its own
process lets through only what its message budget allows)."""

POLICY = 1008
"""The WebSocket close code of a client closed for what it did (policy violation)."""

COUNT_TURNS = 5
"""How often (in turns of the watch, ``WATCH_SECONDS`` each) the numbers of relayed
connections are logged, when they changed."""

KEEP_LONG = 60.0
"""Seconds a long message waits in ``relay_messages`` for its process (one that ended
never fetches it)."""

_NAME = re.compile(r"coloretto-[0-9a-f]{8,32}")


def channel(server: str) -> str:
    """The channel a server process listens on.

    >>> channel("coloretto-0a1b2c3d")
    'coloretto_0a1b2c3d'
    """
    if not _NAME.fullmatch(server):
        raise ValueError(f"not a server process's name: {server[:40]!r}")
    return server.replace("-", "_")


class RelayedConnection:
    """A client connected to another process, as the process that plays its room sees
    it: what ``Door.handler`` uses of a connection (``recv``, ``send``,
    ``close``, and the guard's ``address``, ``budget`` and ``route``).

    It ends at both processes whichever closes it: closed here (``close``), the other
    process is told to close the client's connection; closed there (``feed(None)``), what
    the client sent before is read here, then its end. ``Relay.done`` forgets it."""

    def __init__(  # noqa: PLR0917 (each is the connection's own)
        self, relay: Relay, via: str, number: str, address: str, route: Route, limits: Limits
    ) -> None:
        self.relay = relay
        self.via = via
        """The process the client is connected to."""
        self.number = number
        self.address = address
        self.route = route
        self.budget = Bucket(limits.messages_per_second, limits.burst)
        self._inbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=INBOX)
        self.closed = False
        """True once the connection is closed at either end: nothing more is sent to the
        client, nothing more comes from it than what is in the inbox."""
        self.account: str | None = None
        """The account the client's opening names, checked by the process it is
        connected to."""

    def feed(self, text: str | None) -> None:
        """A frame from the client (``None``: it is gone); a client that floods past what
        this process takes in is closed."""
        if self.closed:
            return
        if text is None:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):  # full: ``recv`` ends once it is read
                self._inbox.put_nowait(None)
            return
        try:
            self._inbox.put_nowait(text)
        except asyncio.QueueFull:
            self.end(POLICY, "too many messages: slow down")

    async def recv(self) -> str:
        """The client's next frame; ``ConnectionClosedOK`` once it is gone."""
        if self.closed and self._inbox.empty():
            raise ConnectionClosedOK(None, None)
        text = await self._inbox.get()
        if text is None:
            raise ConnectionClosedOK(None, None)
        return text

    def push(self, text: str) -> None:
        """Send ``text`` to the client (never waits)."""
        if not self.closed:
            self.relay.post(self.via, {"k": "out", "c": self.number, "t": text})

    async def send(self, text: str) -> None:
        """Send ``text`` to the client."""
        self.push(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Close the client's connection (the process it is connected to does)."""
        self.end(code, reason)

    def end(self, code: int, reason: str) -> None:
        """``close`` at once: the client's process is told (unless it told this one);
        whoever reads here is told the connection is gone (what else the client sent is
        dropped)."""
        if self.closed:
            return
        self.closed = True
        self.relay.post(self.via, {"k": "end", "c": self.number, "code": code, "r": reason})
        while not self._inbox.empty():
            self._inbox.get_nowait()
        self._inbox.put_nowait(None)


def deliver(connections: Any, text: str) -> None:
    """Send ``text`` to ``connections``, this process's own and relayed ones alike, without
    waiting for any: the frame is made once for all of this process's own."""
    frame = None
    for connection in connections:
        if isinstance(connection, RelayedConnection):
            connection.push(text)
        else:
            if frame is None:
                frame = text_frame(text)
            connection.write(frame)


class Relay:
    """This process's side of the passing: its channel, its senders, its connections
    passed on (``forward``) and those passed to it (``RelayedConnection``)."""

    def __init__(self, db: SharedDatabase, me: str, limits: Limits, log: logging.Logger) -> None:
        self.db = db
        self.me = me
        self.limits = limits
        self.log = log
        self._numbers = itertools.count(1)
        self._sent = itertools.count(1)
        self._outbox: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._senders: dict[str, asyncio.Task[None]] = {}
        self._inbox: asyncio.Queue[str] = asyncio.Queue()
        self.passed: dict[str, tuple[str, GuardedConnection]] = {}
        """This process's clients passed on, by number: the process and the connection."""
        self.served: dict[str, RelayedConnection] = {}
        """Clients of other processes served here, by number, until their handler ends
        (``done``)."""
        self.on_open: Callable[[RelayedConnection, str], None] = lambda _c, _t: None
        """Told each client passed to this process, with its first frame."""
        self._tasks: list[asyncio.Task[None]] = []
        self._counted = (0, 0)
        """The numbers of connections passed on and served, as last logged."""

    async def start(self, alive: Callable[[str], Any]) -> None:
        """Listen on this process's channel; ``alive`` (a ``RoomSpace.alive``) tells
        which processes still run."""
        await self.db.listen(channel(self.me), self._inbox.put_nowait)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._receive()), loop.create_task(self._watch(alive))]

    async def stop(self) -> None:
        """Close the relayed clients still served here (their processes close their
        connections with 1012, service restart: they connect again), send what is left to
        send (1 s at most), and stop sending and receiving."""
        for served in list(self.served.values()):
            self.done(served, RESTART, "the server restarts: connect again")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(WATCH_SECONDS):
                await asyncio.gather(*(queue.join() for queue in self._outbox.values()))
        for task in [*self._tasks, *self._senders.values()]:
            task.cancel()

    def done(self, connection: RelayedConnection, code: int = 1000, reason: str = "") -> None:
        """``connection``'s handler has ended: it is closed at both ends (with ``code``
        and ``reason`` if it was still open) and forgotten."""
        connection.end(code, reason)
        if self.served.get(connection.number) is connection:
            del self.served[connection.number]

    # ------------------------------------------------------------------ passing on

    def forward(  # noqa: PLR0917 (what the other process needs of the client)
        self,
        to: str,
        ws: GuardedConnection,
        address: str,
        route: Route,
        first: str,
        account: str | None,
    ) -> str:
        """Pass client ``ws`` on to process ``to``, with its first frame ``first`` and
        the account its opening names (checked here); returns its number (``frame``,
        ``gone`` take it)."""
        number = f"{self.me}:{next(self._numbers)}"
        self.passed[number] = (to, ws)
        self.post(to, {"k": "open", "c": number, "f": self.me, "a": address,
                       "r": route.room, "any": route.anywhere, "t": first,
                       "acct": account})  # fmt: skip
        return number

    def frame(self, number: str, text: str) -> None:
        """A frame from a client passed on."""
        if (passed := self.passed.get(number)) is not None:
            self.post(passed[0], {"k": "text", "c": number, "t": text})

    def gone(self, number: str) -> None:
        """A client passed on has closed."""
        if (passed := self.passed.pop(number, None)) is not None:
            self.post(passed[0], {"k": "close", "c": number})

    # ------------------------------------------------------------------ sending

    def post(self, to: str, message: dict[str, Any]) -> None:
        """Send ``message`` to process ``to``, after those posted to it before."""
        queue = self._outbox.get(to)
        if queue is None:
            queue = self._outbox[to] = asyncio.Queue()
            self._senders[to] = asyncio.get_running_loop().create_task(self._send(to, queue))
        queue.put_nowait(message)

    async def _send(self, to: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        target = channel(to)
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            try:  # all in one statement: one round trip, the notifications in order
                await self.db.execute(
                    "SELECT pg_notify(?, p) FROM unnest(CAST(? AS TEXT[]))"
                    " WITH ORDINALITY AS t (p, n) ORDER BY n",
                    target, await self._payloads(batch),
                )  # fmt: skip
            except StoreError as error:
                self.log.error("messages to %s lost: %s", to, error)
                self._lost(batch)
            finally:
                for _ in batch:
                    queue.task_done()

    def _lost(self, batch: list[dict[str, Any]]) -> None:
        """Messages that never left: the connections they were about are closed with
        1012 (service restart), so that their clients connect again rather than wait for
        what never comes."""
        for message in batch:
            number = str(message.get("c"))
            if (passed := self.passed.pop(number, None)) is not None:
                self._close(passed[1], RESTART, "the server lost its way: connect again")
            elif (served := self.served.get(number)) is not None:
                served.end(RESTART, "the server lost its way: connect again")

    async def _payloads(self, batch: list[dict[str, Any]]) -> list[str]:
        """The notifications that carry ``batch``, in order, each numbered (PostgreSQL
        sends one of several equal notifications of a transaction)."""
        payloads: list[str] = []
        items: list[str] = []
        size = 0

        def close() -> None:
            payloads.append(f'{{"n":{next(self._sent)},"m":[{",".join(items)}]}}')

        for message in batch:
            text = json.dumps(message)
            if len(text) > MAX_NOTIFY - 10:
                rows = await self.db.fetch(
                    "INSERT INTO relay_messages (body, sent) VALUES (?, ?) RETURNING id",
                    text, time.time(),
                )  # fmt: skip
                text = json.dumps({"ref": int(rows[0][0])})
            if size + len(text) + 40 > MAX_NOTIFY and items:
                close()
                items, size = [], 0
            items.append(text)
            size += len(text) + 1
        if items:
            close()
        return payloads

    # ------------------------------------------------------------------ receiving

    async def _receive(self) -> None:
        while True:
            payload = await self._inbox.get()
            try:
                batch = json.loads(payload)
            except ValueError:
                continue
            items = batch.get("m") if isinstance(batch, dict) else None
            for item in items if isinstance(items, list) else ():
                message = await self._fetch(item["ref"]) if _is_ref(item) else item
                if isinstance(message, dict):
                    try:
                        self._handle(message)
                    except (KeyError, TypeError, ValueError) as error:
                        self.log.warning("a relayed message not understood: %s", error)

    async def _fetch(self, ref: object) -> object:
        if type(ref) is not int:
            return None
        try:
            rows = await self.db.fetch(
                "DELETE FROM relay_messages WHERE id = ? RETURNING body", ref
            )
        except StoreError as error:
            self.log.error("a relayed message lost: %s", error)
            return None
        if not rows or len(rows[0][0]) > 2 * MAX_MESSAGE:
            return None
        with contextlib.suppress(ValueError):
            return json.loads(rows[0][0])
        return None

    def _handle(self, message: dict[str, Any]) -> None:
        kind, number = message["k"], str(message["c"])
        if kind == "out":
            if (passed := self.passed.get(number)) is not None:
                passed[1].push(str(message["t"]))
        elif kind == "end":
            if (passed := self.passed.pop(number, None)) is not None:
                code, reason = int(message["code"]), str(message["r"])[:120]
                self._close(passed[1], code, reason)
        elif kind == "open":
            via = str(message["f"])
            channel(via)  # a process's name, or ValueError
            room = message["r"]
            if room is not None and not (isinstance(room, str) and ROOM_CODE.fullmatch(room)):
                raise ValueError("not a room code")
            route = Route(room, anywhere=message["any"] is True)
            address = str(message["a"])[:64]
            opened = RelayedConnection(self, via, number, address, route, self.limits)
            account = message.get("acct")
            opened.account = account[:MAX_NAME] if isinstance(account, str) else None
            self.served[number] = opened
            self.on_open(opened, _frame(message["t"]))
        elif kind == "text" and (served := self.served.get(number)) is not None:
            served.feed(_frame(message["t"]))
        elif kind == "close" and (left := self.served.get(number)) is not None:
            left.feed(None)  # read to its end: its handler ends, then it is forgotten

    def _close(self, ws: GuardedConnection, code: int, reason: str) -> None:
        task = asyncio.get_running_loop().create_task(ws.close(code, reason))
        self._tasks.append(task)
        task.add_done_callback(self._tasks.remove)

    async def _forget_old(self) -> None:
        """Delete the long messages no process fetched (theirs ended)."""
        try:
            await self.db.execute(
                "DELETE FROM relay_messages WHERE sent < ?", time.time() - KEEP_LONG
            )
        except StoreError as error:
            self.log.error("old relayed messages not deleted: %s", error)

    # ------------------------------------------------------------------ processes that end

    async def _watch(self, alive: Callable[[str], Any]) -> None:
        """Once a second: close the clients passed to a process that ended (they connect
        again and land where their room is played now), and let go of the relayed
        clients of a process that ended."""
        for turn in itertools.count():
            await asyncio.sleep(WATCH_SECONDS)
            if turn % 60 == 0:
                await self._forget_old()
            self._count(turn)
            others = {to for to, _ in self.passed.values()} | set(self._outbox)
            others |= {served.via for served in self.served.values()}
            for other in others:
                try:
                    if await alive(other):
                        continue
                except StoreError:
                    continue
                self._ended(other)

    def _ended(self, other: str) -> None:
        """Process ``other`` has ended: the clients passed to it are closed, its relayed
        clients are gone, nothing more is sent to it."""
        mine = [number for number, (to, _) in self.passed.items() if to == other]
        theirs = [served for served in self.served.values() if served.via == other]
        if mine or theirs:
            self.log.info("server process %s ended: its relayed connections closed", other)
        for number in mine:
            self._close(
                self.passed.pop(number)[1],
                RESTART,
                "the room moves to another server: connect again",
            )
        for served in theirs:
            served.feed(None)
        if (queue := self._outbox.get(other)) is not None and queue.empty():
            del self._outbox[other]
            self._senders.pop(other).cancel()

    def _count(self, turn: int) -> None:
        """Log how many connections are passed on and served here, when that changed
        (every ``COUNT_TURNS`` turns of the watch at most)."""
        counted = (len(self.passed), len(self.served))
        if counted != self._counted and turn % COUNT_TURNS == 0:
            self._counted = counted
            self.log.info(
                "relayed connections: %d passed on to other processes, %d served here",
                *counted,
            )


def _is_ref(item: object) -> bool:
    return isinstance(item, dict) and "ref" in item


def _frame(text: object) -> str:
    """A client's frame as relayed: text, cut at what a client may send (the process it
    is connected to has checked its size already)."""
    return str(text)[: MAX_REQUEST * 4]
