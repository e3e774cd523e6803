"""The web server: a page with a terminal in it, and one game process per visitor.

textual-serve does the work, through its public parts only: its page runs xterm.js
(``Server.handle_index``), and each visitor's websocket starts the ``command`` in a process
of its own (``AppService``), whose screen is drawn in the page. This module adds what a
public game server needs: a page that loads nothing from outside the server (fonts included,
see ``templates/app_index.html``), aiohttp middleware that turns away other sites' pages and
visitors beyond a bound, the page's messages checked, and a one-line banner. With a game
server, ``/tables`` lists its public tables (the lobby), each linked to the page that
joins it (``/?room=CODE``: the visitor's join screen with the code filled in).
"""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
import signal
import ssl
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from aiohttp.typedefs import Handler
from textual_serve.app_service import AppService
from textual_serve.server import Server

from coloretto.online.client.lobby import (
    LobbyError,
    fetch_tables,
    seated_names,
    table_rules,
    table_start,
)
from coloretto.online.wire.messages import TableSummary
from coloretto.online.wire.protocol import room_code

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The page (textual-serve's, with its fonts served locally)."""

TITLE = "Coloretto"

MAX_COLUMNS = 500
MAX_LINES = 200
"""The largest terminal a page may ask for (a hostile page could ask for any size)."""
MAX_MESSAGE = 64 * 1024
"""The longest message a page may send (keys typed or pasted, a resize, a ping)."""

TABLES_SECONDS = 5.0
"""How long the game server's list of tables is kept before it is asked for again (every
visitor's look-up goes from this server's address, within the game server's budget)."""

WEBSOCKETS = frozenset({"websocket", "room-websocket"})
"""The routes of a visitor's game."""

log = logging.getLogger("textual-serve")


def public_url(host: str, port: int) -> str:
    """The address a browser opens for a server listening on ``host``:``port``.

    >>> public_url("127.0.0.1", 8000), public_url("::1", 8080), public_url("example.org", 80)
    ('http://127.0.0.1:8000', 'http://[::1]:8080', 'http://example.org:80')
    """
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def check_public_url(url: str) -> str:
    """``url`` without a trailing slash, if it is an ``http(s)://host[:port][/path]``
    address; ``ValueError`` says what is wrong otherwise.

    >>> check_public_url("https://games.example.org/")
    'https://games.example.org'
    >>> check_public_url("games.example.org")
    Traceback (most recent call last):
    ...
    ValueError: --public-url must start with http:// or https://, not 'games.example.org'
    """
    if len(url) > 2000 or any(c.isspace() or not c.isprintable() for c in url):
        raise ValueError("--public-url must be a web address without spaces")
    try:
        parts = urlsplit(url)
    except ValueError as error:
        raise ValueError(f"--public-url is not a web address ({error})") from None
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise ValueError(f"--public-url must start with http:// or https://, not {url!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"--public-url takes no ?query or #fragment: {url!r}")
    return url.rstrip("/")


class TerminalPageServer:
    """Serves a page with a terminal in it, and runs each visitor's game in a process of
    its own: textual-serve's ``Server`` draws the page and its ``AppService`` runs a game;
    aiohttp middleware turns away other sites' pages and visitors beyond ``max_visitors``,
    and ``handle_websocket`` checks what a page asks of its game."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        public_url: str,
        max_visitors: int,
        game_server: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.pages = Server(
            command,
            host=host,
            port=port,
            title=TITLE,
            public_url=public_url,
            templates_path=TEMPLATES,
        )
        """textual-serve's server: the page (``handle_index``), its static files, logging."""
        self.command = command
        self.host = host
        self.port = port
        self.public_url = public_url
        self.max_visitors = max_visitors
        """Games played at once; a visitor beyond them is told that the server is full."""
        self.visitors = 0
        """Games being played now."""
        self.game_server = game_server
        """The game server whose rooms visitors join (``None``: they play against bots)."""
        self.tls = tls
        self._tables: tuple[float, tuple[TableSummary, ...] | str] | None = None
        """The game server's tables (or why there are none) and when they came."""
        self._asking = asyncio.Lock()

    def make_app(self) -> web.Application:
        """The aiohttp application: the page, its static files and the game's websocket,
        behind the checks (outermost first)."""
        app = web.Application(middlewares=[self.refuse_other_sites, self.bound_visitors])
        aiohttp_jinja2.setup(
            app,
            loader=jinja2.FileSystemLoader(TEMPLATES),
            context_processors=[self.room_context],
            autoescape=True,
        )
        routes = [
            web.get("/", self.pages.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.static("/static", self.pages.statics_path, name="static"),
        ]
        if self.game_server is not None:
            routes += [
                web.get("/ws/{room}", self.handle_websocket, name="room-websocket"),
                web.get("/tables", self.handle_tables, name="tables"),
            ]
        app.add_routes(routes)
        return app

    async def room_context(self, request: web.Request) -> dict[str, Any]:
        """The page's room: the code in ``?room=`` (a table picked on ``/tables``), when
        visitors join a game server's rooms and it is a code; ``""`` otherwise."""
        return {"room": self._room(request.query.get("room"))}

    def _room(self, text: str | None) -> str:
        if self.game_server is None or text is None or len(text) > 16:
            return ""
        try:
            return room_code(text)
        except ValueError:
            return ""

    async def handle_tables(self, request: web.Request) -> web.Response:
        """The lobby: the game server's public tables, each with a link that joins it."""
        found = await self.tables()
        context = {
            "title": TITLE,
            "base": self.public_url,
            "problem": found if isinstance(found, str) else "",
            "tables": [
                {
                    "room": table.room,
                    "seated": seated_names(table),
                    "free": table.free,
                    "bot": table.bot,
                    "rules": table_rules(table.rules),
                    "rated": table.rated,
                    "starts": table_start(table),
                }
                for table in (() if isinstance(found, str) else found)
            ],
        }
        return aiohttp_jinja2.render_template("tables.html", request, context)

    async def tables(self) -> tuple[TableSummary, ...] | str:
        """The game server's public tables, or why it gave none (asked for at most once
        every ``TABLES_SECONDS``)."""
        assert self.game_server is not None
        async with self._asking:
            now = time.monotonic()
            if self._tables is None or now - self._tables[0] > TABLES_SECONDS:
                try:
                    found: tuple[TableSummary, ...] | str = await fetch_tables(
                        self.game_server, self.tls
                    )
                except LobbyError as error:
                    found = str(error)
                self._tables = (time.monotonic(), found)
            return self._tables[1]

    @web.middleware
    async def refuse_other_sites(
        self, request: web.Request, handler: Handler
    ) -> web.StreamResponse:
        """``HTTPForbidden`` for a websocket opened by a page of another site.

        Browsers send the page's origin with a websocket, and let any site open one to
        any address: without this check, a page elsewhere could start games here and
        type into them. (Programs other than browsers send no origin; they are let in.)
        """
        origin = request.headers.get("Origin")
        if _route(request) in WEBSOCKETS and origin is not None:
            allowed = {_origin(self.public_url), f"{request.scheme}://{request.host}"}
            if origin.rstrip("/").lower() not in allowed:
                log.warning("a websocket from another site was refused: %r", origin[:200])
                raise web.HTTPForbidden(text=f"{TITLE}: pages of other sites may not play here.\n")
        return await handler(request)

    @web.middleware
    async def bound_visitors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """The page and the game only while there is room for one more game
        (``HTTPServiceUnavailable``, with a line saying so, otherwise); counts the games."""
        route = _route(request)
        if route != "index" and route not in WEBSOCKETS:
            return await handler(request)
        if self.visitors >= self.max_visitors:
            log.warning("a visitor was turned away: %d games are being played", self.visitors)
            raise web.HTTPServiceUnavailable(
                text=f"{TITLE}: the server is full (games at once: {self.max_visitors}); "
                "try again later.\n"
            )
        if route == "index":
            return await handler(request)
        self.visitors += 1
        try:
            return await handler(request)
        finally:
            self.visitors -= 1

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A visitor's game, in a process of its own, for a terminal of a sane size; the
        page's messages go to it checked (``forward``)."""
        size: list[int] = []
        for name, largest in (("width", MAX_COLUMNS), ("height", MAX_LINES)):
            value = terminal_size(request.query.get(name, "1"), largest)
            if value is None:
                raise web.HTTPBadRequest(
                    text=f"{TITLE}: the terminal {name} must be 1 to {largest}.\n"
                )
            size.append(value)
        command = self.command
        if room := self._room(request.match_info.get("room")):
            command += f" {shlex.quote(room)}"  # the join screen asks only the name
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)

        async def close() -> None:
            await websocket.close()

        game = AppService(
            command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.pages.download_manager,
        )
        try:
            await game.start(*size)
            await forward(websocket, game)
        except Exception:  # the visitor's game only: the server goes on
            log.exception("a visitor's game failed")
        finally:
            await game.stop()
        return websocket

    def serve(self) -> None:
        """Serve until Ctrl+C or SIGTERM; ``OSError`` if the address cannot be listened on.
        The banner comes once the server listens."""
        self.pages.initialize_logging()
        loop = asyncio.new_event_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, self.pages.request_exit)
        web.run_app(
            self.make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=lambda *_: self._banner(),
        )

    def _banner(self) -> None:
        self.pages.console.print(
            f"{TITLE} is served on {self.public_url} (each visitor plays in a process of "
            f"their own, at most {self.max_visitors} at once). Ctrl+C stops it.",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


async def forward(websocket: web.WebSocketResponse, game: AppService) -> None:
    """The page's messages to the visitor's game, checked: keys typed, a new size, a ping,
    focus. Anything else, malformed or too big is ignored; the game goes on. (textual-serve
    offers no hook for these messages: its own loop is private, so this one is ours.)"""
    async for message in websocket:
        if message.type != WSMsgType.TEXT or len(message.data) > MAX_MESSAGE:
            continue
        match _envelope(message.data):
            case ["stdin", str(data)]:
                await game.send_bytes(data.encode("utf-8", "replace"))
            case ["resize", {"width": width, "height": height}]:
                columns = terminal_size(width, MAX_COLUMNS)
                lines = terminal_size(height, MAX_LINES)
                if columns is not None and lines is not None:
                    await game.set_terminal_size(columns, lines)
            case ["ping", str(data)] if len(data) <= 100:
                await websocket.send_json(["pong", data])
            case ["blur"]:
                await game.blur()
            case ["focus"]:
                await game.focus()


def terminal_size(value: object, largest: int) -> int | None:
    """``value`` as a terminal dimension from 1 to ``largest``, or ``None``.

    >>> terminal_size("120", 500), terminal_size(40, 200), terminal_size("1e9", 500)
    (120, 40, None)
    >>> terminal_size(100_000, 500), terminal_size(True, 500), terminal_size("0", 200)
    (None, None, None)
    """
    if isinstance(value, str) and value.isdigit() and len(value) <= 4:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= largest:
        return value
    return None


def _route(request: web.Request) -> str | None:
    """The name of the route ``request`` is for (``None``: no route, a 404)."""
    return request.match_info.route.name


def _origin(url: str) -> str:
    """The origin (``scheme://host[:port]``) of ``url``, lower case."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _envelope(text: str) -> object:
    """A page's message (JSON), or ``None`` if it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def serve(
    command: str,
    *,
    host: str,
    port: int,
    public_url: str,
    max_visitors: int,
    game_server: str | None = None,
    tls: ssl.SSLContext | None = None,
) -> None:
    """Serve the game until Ctrl+C or SIGTERM; ``OSError`` if ``host:port`` cannot be
    listened on. Each visitor's process runs the shell ``command`` (followed by a room's
    code, for a table picked on ``/tables`` of ``game_server``)."""
    server = TerminalPageServer(
        command,
        host=host,
        port=port,
        public_url=public_url,
        max_visitors=max_visitors,
        game_server=game_server,
        tls=tls,
    )
    server.serve()
