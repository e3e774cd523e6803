"""A seat at a table on a game server: ``RemoteTable`` is the ``Table`` the game screen
plays at, its moves checked and played by the server.

The table is a thin shell around the seat's ``ClientMachine`` (``client_machine``), which
keeps the game as the server tells it (``RemoteView``); the screen draws it and the hint
bot thinks about it, here. The connection comes back by itself when it drops (the seat's
secret token is kept in the data directory, so even a new process takes the seat back),
and a finished game is kept in this player's own history and statistics, like a game
played here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.connection import broadcast
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from coloretto.engine import Action, GameState, Move
from coloretto.online.client.machine import (
    ClientMachine,
    Effect,
    GameStarted,
    KeepGame,
    KeepToken,
    LobbyChanged,
    Rated,
    RoomEvent,
    SeatRefused,
    Send,
)
from coloretto.online.client.view import RemoteView
from coloretto.online.client.words import comeback_command, move_lines, unreachable
from coloretto.online.wire.accounts import Account, load_account, opening_route, sign_challenge
from coloretto.online.wire.messages import (
    MAX_MESSAGE,
    AccountMessage,
    ChallengeMessage,
    ErrorMessage,
    parse_message,
)
from coloretto.online.wire.protocol import (
    ROOM_CODE,
    TOKEN,
    AccountClaim,
    Challenge,
    ErrorCode,
    Host,
    Join,
    LockTable,
    Opening,
    ProtocolError,
    Register,
    Remove,
    Resume,
    Start,
    Watch,
    encode,
    room_path,
)
from coloretto.play.analysis import Hints
from coloretto.play.keeper import Keeper
from coloretto.play.table import Hint, Listener, NotSaved, TableNews, advise
from coloretto.play.words import Line
from coloretto.store.files import read_bounded, write_atomically
from coloretto.store.paths import DataDir

__all__ = [
    "ANSWER_SECONDS",
    "DEFAULT_SERVER",
    "GameStarted",
    "LobbyChanged",
    "Rated",
    "RegisterError",
    "RemoteTable",
    "RemoteView",
    "RoomEvent",
    "SeatKeys",
    "SeatRefused",
    "register_account",
    "room_url",
    "server_option",
    "server_url",
    "unreachable",
]

RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 3.0)
"""Waits between tries to reconnect (the last one repeats)."""

DEFAULT_SERVER = "127.0.0.1:7787"

ANSWER_SECONDS = 10.0
"""How long a client waits for the server's answer to ``challenge`` or ``register``."""


def server_url(text: str) -> str:
    """The WebSocket address of a server given as ``HOST:PORT`` (or a full ``ws://`` or
    ``wss://`` address); ``ValueError`` if it is neither.

    >>> server_url("example.org:7787"), server_url("wss://example.org/coloretto")
    ('ws://example.org:7787', 'wss://example.org/coloretto')
    """
    text = text.strip()
    if text.startswith(("ws://", "wss://")):
        if "?" in text or "#" in text:
            raise ValueError(f"expected a ws:// address without ? or #, not {text[:60]!r}")
        return text
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in host:
        raise ValueError(f"expected HOST:PORT or a ws:// address, not {text[:60]!r}")
    return f"ws://{text}"


def server_option(server: str) -> str:
    """What ``--server`` takes to reach ``server`` (a ``server_url``): ``HOST:PORT`` when
    that reads back as the same address, else the whole address (a path, ``wss://``).

    >>> server_option("ws://example.org:7787"), server_option("ws://example.org/coloretto")
    ('example.org:7787', 'ws://example.org/coloretto')
    """
    short = server.removeprefix("ws://")
    try:
        return short if server_url(short) == server else server
    except ValueError:
        return server


def room_url(server: str, room: str | None) -> str:
    """The address of room ``room`` (``None``: a new room) at the server at ``server``
    (``server_url``), as a proxy in front of several servers routes it.

    >>> room_url("ws://h:7787", "K7PQ2M"), room_url("wss://example.org/coloretto/", None)
    ('ws://h:7787/rooms/K7PQ2M', 'wss://example.org/coloretto/rooms')
    """
    return server.rstrip("/") + room_path(room)


class RegisterError(Exception):
    """``register_account`` failed: the message says why; ``code`` is the server's error
    (``None``: the server was not reached, or broke the protocol)."""

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.code = code


async def register_account(account: Account, *, tls: ssl.SSLContext | None = None) -> str:
    """Make ``account`` (its name and public key) on its server; the name as the server
    took it. ``RegisterError`` saying why not: the name is taken or refused, the server
    does not know accounts, or cannot be reached."""
    server = account.server
    try:
        async with connect(
            server.rstrip("/") + "/", ssl=tls, max_size=MAX_MESSAGE, open_timeout=10,
            compression=None,
        ) as ws:  # fmt: skip
            await ws.send(encode(Register.of(account.name, account.public_key)))
            async with asyncio.timeout(ANSWER_SECONDS):
                answer = parse_message(await ws.recv())
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
        raise RegisterError(unreachable(server, error)) from None
    except InvalidURI as error:
        raise RegisterError(str(error)) from None
    except ProtocolError as error:
        raise RegisterError(f"the server at {server} broke the protocol: {error}") from None
    if isinstance(answer, AccountMessage):
        return answer.name
    if isinstance(answer, ErrorMessage):
        if answer.code in (ErrorCode.BAD_REQUEST, ErrorCode.NO_ROOM):
            raise RegisterError(
                f"the server at {server} does not know accounts ({answer.message})", answer.code
            )
        raise RegisterError(answer.message, answer.code)
    raise RegisterError(f"the server at {server} broke the protocol: {type(answer).__name__}")


MAX_KEYS_FILE = 65536
"""The largest file of seat keys read (a room's holds a few tokens)."""


class SeatKeys:
    """The secret tokens of one's seats, by room and name, in the data directory."""

    def __init__(self, data: DataDir) -> None:
        self.folder = data.root / "online"

    def _path(self, room: str) -> Path:
        if not ROOM_CODE.fullmatch(room):
            raise ValueError(f"not a room code: {room[:20]!r}")
        return self.folder / f"{room}.json"

    def _read(self, path: Path) -> dict[str, Any]:
        """The keys kept in ``path`` (nothing if it is missing, too large or not an object
        of the kind this class writes)."""
        try:
            data = json.loads(read_bounded(path, MAX_KEYS_FILE))
        except (OSError, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, server: str, room: str, name: str) -> str | None:
        """The token kept for ``name``'s seat in ``room`` on ``server``, if any."""
        seats = self._read(self._path(room)).get(server)
        token = seats.get(name) if isinstance(seats, dict) else None
        return token if isinstance(token, str) and TOKEN.fullmatch(token) else None

    def put(self, server: str, room: str, name: str, token: str | None) -> None:
        """Keep ``token`` (private to this user; ``None`` forgets the one kept: the seat is
        gone); ``OSError`` if the disk refuses."""
        path = self._path(room)
        data = self._read(path)
        seats = data.get(server)
        seats = data[server] = seats if isinstance(seats, dict) else {}
        if token is not None:
            seats[name] = token
        elif seats.pop(name, None) is None:
            return  # nothing to forget
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(data), mode=0o600)


async def signed(
    ws: ClientConnection, opening: Host | Join | Resume, account: Account
) -> Opening | None:
    """``opening`` naming ``account``, signed for this connection's challenge (asked for
    first); ``None`` if the server does not know accounts (it refuses the challenge).
    ``ProtocolError`` if the server answers something else."""
    await ws.send(encode(Challenge()))
    async with asyncio.timeout(ANSWER_SECONDS):
        answer = parse_message(await ws.recv())
    if isinstance(answer, ErrorMessage):
        return None
    if not isinstance(answer, ChallengeMessage):
        raise ProtocolError("expected the challenge that was asked for")
    signature = sign_challenge(account, answer.nonce, account.server, opening_route(opening))
    signed: Opening = msgspec.structs.replace(
        opening, account=AccountClaim(account.name, signature)
    )
    return signed


class RemoteTable:
    """A seat at a room of a game server, as a ``Table`` for the game screen: the shell
    that runs the connection around the seat's ``ClientMachine`` (``machine``: what the
    table knows, the game included).

    ``opening`` is the first request (``Host``, ``Join`` or ``Watch``, see
    ``docs/protocol.md``); once seated, the table resumes its seat with the token after
    any break. ``run`` (a coroutine, on the front end's event loop) talks to the server;
    listeners are called on that loop.
    """

    def __init__(
        self,
        server: str,
        opening: Opening,
        keeper: Keeper | None = None,
        *,
        tls: ssl.SSLContext | None = None,
        cafile: str | None = None,
    ) -> None:
        self.server = server_url(server)
        self.cafile = cafile
        """The ``--cafile`` this table trusts (said again in ``comeback``)."""
        self.name = opening.name if isinstance(opening, Host | Join) else ""
        self.keeper = keeper or Keeper()
        self.keys = SeatKeys(self.keeper.data)
        self.tls = tls
        room = None if isinstance(opening, Host) else opening.room
        token = None
        if room is not None and self.name:
            token = self.keys.get(self.server, room, self.name)
        self.machine = ClientMachine(opening, token)
        """The seat without its connection: what the server told, the game included."""
        self.closed = False
        self.account: Account | None = None
        """This player's account on the server, named in every opening (``None``: a guest,
        and always while watching)."""
        self._account_problem: str | None = None
        if not isinstance(opening, Watch):
            try:
                self.account = load_account(self.keeper.data, self.server)
            except ValueError as error:
                self._account_problem = f"Playing as a guest: {error}."
        self._ws: ClientConnection | None = None
        self._hints: Hints | None = None
        """The hints, kept for the match (made when the first hint is asked for)."""
        self._kept: RemoteView | None = None
        """The game last kept in this player's history (``keep``)."""
        self._listeners: list[Callable[[Any], None]] = []

    # ------------------------------------------------------------------ what it knows

    @property
    def view(self) -> RemoteView:
        """The game as the table saw it (once it is over, the whole match, deck and all)."""
        view = self.machine.view
        if view is None:
            raise RuntimeError("the game has not started yet")
        return view

    @property
    def started(self) -> bool:
        """True once the game has started (the table has a view)."""
        return self.machine.view is not None

    @property
    def room(self) -> str | None:
        """The room's code (``None``: a new room, until the server names it)."""
        return self.machine.room

    @property
    def player(self) -> int | None:
        """This player's number at the table (``None``: watching, or not seated yet)."""
        return self.machine.player

    @property
    def connected(self) -> bool:
        """True while the connection to the server is up."""
        return self._ws is not None

    @property
    def comeback(self) -> str | None:
        """The command that takes this seat back, from this machine (``None`` while
        watching, before the room is known, or once the match is over)."""
        room = self.machine.room
        if self.machine.match_over or self.machine.player is None or room is None:
            return None
        return comeback_command(server_option(self.server), room, self.name, self.cafile)

    # ------------------------------------------------------------------ the Table

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every event from now on (room events as well)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Call ``listener`` no more (a game screen of the match's game before)."""
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat to move may play now."""
        view = self.machine.view
        return () if view is None else view.game.legal_actions()

    def plays_here(self, seat: int) -> bool:
        """True when this player moves ``seat`` (never while watching)."""
        player = self.machine.player
        return player is not None and self.view.game.rules.controller(seat) == player

    def move_lines(self, ply: int, move: Move, before: GameState, after: GameState) -> list[Line]:
        """The move in words (``describe_move``); one a bot played for a person away says
        so: "Jo (a bot, Jo away) drew green."."""
        return move_lines(self.view, ply, move, before, after)

    def act(self, action: Action) -> None:
        """Send ``action`` to the server (the move is played when the server tells it);
        ``IllegalAction`` at once if the rules forbid it."""
        self.carry_out(self.machine.act(action))

    def bots_move(self, seat: int) -> bool:
        """Always False: the bots play on the server."""
        return False

    async def run_bots(self) -> None:
        """Nothing to play here: the server plays the bots."""

    def hint(self) -> Hint:
        """Ask the hint bot, here, about the game as this seat sees it (``advise``)."""
        view = self.view
        if self._hints is None:
            self._hints = Hints(view.config.hint_bot)
        return advise(view, self._hints)

    def set_pace(self, delay: float) -> None:
        """Bots play on the server, at the pace the room's host set: never asked here."""
        raise RuntimeError("the bots of an online game play on the server")

    def keep(self) -> None:
        """Once the game is over: keep it in this player's history and statistics (a
        watcher's own history is for their own games)."""
        view = self.machine.view
        if view is None or view.final is None or self._kept is view or self.player is None:
            return
        self._kept = view
        problem = self.keeper.finish(view.final, stood_in=view.stood_in())
        self.keeper.release()
        if problem is not None:
            self.carry_out([NotSaved(problem)])

    def suspend(self) -> str | None:
        """Leaving: the game goes on at the server; say how to come back."""
        self.closed = True
        if self._ws is not None:
            asyncio.get_running_loop().create_task(self._ws.close())
        comeback = self.comeback
        if comeback is None:
            return None
        return f"{self.machine.without_you()}: {comeback} takes your seat back."

    # ------------------------------------------------------------------ the host's wishes

    def start(self) -> None:
        """The host starts the game (bots take the free seats)."""
        self.carry_out([Send(Start())])

    def next_game(self) -> None:
        """The host deals the match's next game, once the game on the table is over (the
        server tells everyone with the new game)."""
        self.carry_out(self.machine.next_game())

    def remove(self, player: int) -> None:
        """The host removes the person of seat ``player`` before the start."""
        self.carry_out([Send(Remove(player))])

    def lock(self, locked: bool) -> None:
        """The host closes the table to new players (``locked``) or opens it again."""
        self.carry_out([Send(LockTable.of(locked))])

    # ------------------------------------------------------------------ the connection

    async def run(self) -> None:
        """Talk to the server until the table is closed or refused, reconnecting after
        every break (with growing waits)."""
        tries = 0
        reached = False
        if self._account_problem is not None:
            self.carry_out([TableNews(self._account_problem)])
        while not self.closed:
            try:
                opening = self.machine.first_request()
                room = None if isinstance(opening, Host) else opening.room
                async with connect(
                    room_url(self.server, room), ssl=self.tls, max_size=MAX_MESSAGE,
                    open_timeout=10, ping_interval=5, ping_timeout=10, compression=None,
                ) as ws:  # fmt: skip
                    if self.account is not None and not isinstance(opening, Watch):
                        claimed = await signed(ws, opening, self.account)
                        if claimed is None:
                            self.account = None
                            news = "This server does not know accounts: you play as a guest."
                            self.carry_out([TableNews(news)])
                        opening = claimed or opening
                    await ws.send(encode(opening))
                    self._ws = ws
                    reached = True
                    tries = 0
                    self.carry_out(self.machine.connected())
                    async for text in ws:
                        if not self.handle(text):
                            self.closed = True
                            return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                if not reached:  # never connected: say so, rather than try for ever
                    self.carry_out([SeatRefused(unreachable(self.server, error))])
                    return
            except InvalidURI as error:
                self.carry_out([SeatRefused(str(error))])
                return
            except ProtocolError as error:
                self.carry_out([SeatRefused(f"the server broke the protocol: {error}")])
                return
            finally:
                self._ws = None
                lost = self.machine.disconnected()
            if self.closed:
                return
            self.carry_out(lost)
            await asyncio.sleep(RETRY_SECONDS[min(tries, len(RETRY_SECONDS) - 1)])
            tries += 1

    def handle(self, text: str | bytes) -> bool:
        """Act on one frame from the server (as if it came now); False when it ends the
        table (refused, removed, or the protocol broken: ``SeatRefused`` says why)."""
        self.carry_out(self.machine.receive(text, time.monotonic()))
        return not self.machine.ended

    def carry_out(self, effects: list[Effect]) -> None:
        """Do what the machine asks: send requests (while connected), keep or forget the
        seat's token, keep a finished game, tell the listeners."""
        for effect in effects:
            match effect:
                case Send(request):
                    if self._ws is not None:
                        broadcast([self._ws], encode(request))
                case KeepToken(room, token):
                    with contextlib.suppress(OSError):
                        self.keys.put(self.server, room, self.name, token)
                case KeepGame():
                    self.keep()
                case _:
                    for listener in list(self._listeners):
                        if listener in self._listeners:  # not unsubscribed by one told before
                            listener(effect)
