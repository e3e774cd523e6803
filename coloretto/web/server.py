"""The web server: a page with a terminal in it, and one game process per visitor.

textual-serve does the work: its page runs xterm.js, and each visitor's websocket starts the
``command`` in a process of its own, whose screen is drawn in the page. This module adds
what a public game server needs: a page that loads nothing from outside the server (fonts
included, see ``templates/app_index.html``), a bound on the visitors playing at once, and
a one-line banner.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""The page (textual-serve's, with its fonts served locally)."""

TITLE = "Coloretto"

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


class GameServer(Server):
    """textual-serve's ``Server`` with our page and at most ``max_visitors`` games at once."""

    def __init__(
        self, command: str, *, host: str, port: int, public_url: str, max_visitors: int
    ) -> None:
        super().__init__(
            command,
            host=host,
            port=port,
            title=TITLE,
            public_url=public_url,
            templates_path=TEMPLATES,
        )
        self.max_visitors = max_visitors
        """Games played at once; a visitor beyond them is told that the server is full."""
        self.visitors = 0
        """Games being played now."""

    def _check_room(self) -> None:
        """``HTTPServiceUnavailable`` (503, with a line saying so) when the server is full."""
        if self.visitors >= self.max_visitors:
            log.warning("a visitor was turned away: %d games are being played", self.visitors)
            raise web.HTTPServiceUnavailable(
                text=f"{TITLE}: the server is full (games at once: {self.max_visitors}); "
                "try again later.\n"
            )

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, or a line saying that the server is full."""
        self._check_room()
        response: web.StreamResponse = await super().handle_index(request)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A visitor's game: a process of its own, while there is room for one."""
        self._check_room()
        self.visitors += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.visitors -= 1

    def serve(self, debug: bool = False) -> None:
        """Serve until Ctrl+C or SIGTERM; ``OSError`` if the address cannot be listened on.

        textual-serve's own ``serve``, but the banner comes once the server listens."""
        self.debug = debug
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, self.request_exit)
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=lambda *_: self._banner(),
        )

    async def on_startup(self, app: web.Application) -> None:
        """Nothing to say before the server listens (see ``serve``)."""

    def _banner(self) -> None:
        self.console.print(
            f"{TITLE} is served on {self.public_url} (each visitor plays in a process of "
            f"their own, at most {self.max_visitors} at once). Ctrl+C stops it.",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )


def serve(command: str, *, host: str, port: int, public_url: str, max_visitors: int) -> None:
    """Serve the game until Ctrl+C or SIGTERM; ``OSError`` if ``host:port`` cannot be
    listened on. Each visitor's process runs the shell ``command``."""
    server = GameServer(
        command, host=host, port=port, public_url=public_url, max_visitors=max_visitors
    )
    server.serve()
