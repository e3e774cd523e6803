"""``coloretto web``: the game as a web page, each visitor playing in a process of their own.

Needs the ``web`` extra (textual-serve); ``install_command`` says how to add it where the
game is installed (a virtual environment, pipx's or uv's tools; the project is installed
from a checkout, not from PyPI).
"""

from __future__ import annotations

import argparse
import json
import shlex
import ssl
import sys
import tempfile
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path
from urllib.parse import unquote, urlparse

from coloretto.cli.online_command import server_address, trusting
from coloretto.cli.parser import Commands, bounded_int, fail

DESCRIPTION = """\
Serve Coloretto as a web page: each visitor gets the setup screen, then a game against
bots, in a game process of their own, with a data directory of their own that is removed
when they leave (a visitor's game lasts as long as their page).

The server listens on 127.0.0.1 (this computer only) unless --host says otherwise. To put
it on the internet, keep it on 127.0.0.1 behind a reverse proxy that adds TLS and passes
websockets on, and give --public-url, the https:// address visitors open.

With --server HOST:PORT, visitors play online instead: each one types the code of a room
opened with `coloretto host --server HOST:PORT` (and their name), and takes a seat there,
as `coloretto join` does; /tables lists the server's public tables, each with a link
that joins it. A wss:// server whose certificate is not signed by an authority
this computer trusts needs --cafile, as for `coloretto join`.
"""

EPILOG = """\
examples:
  coloretto web                               http://127.0.0.1:8000 on this computer
  coloretto web --port 8080
  coloretto web --public-url https://games.example.org    behind a TLS reverse proxy
  coloretto web --host 192.0.2.7              on the local network, without TLS
  coloretto web --server 127.0.0.1:7787       visitors join rooms of this game server
  coloretto web --server wss://games.example.org:7787 --cafile ca.pem
"""

EVERY_ADDRESS = {"0.0.0.0", "::", ""}
"""Hosts that mean "listen on every address": visitors need --public-url to find us."""

WEB_EXTRA = "web"

WEB_NEEDS = ("textual-serve>=1.1", "aiohttp>=3.9.5", "aiohttp-jinja2>=1.6", "jinja2>=3.1.4")
"""The web extra's requirements, should the installed metadata not say (pyproject.toml)."""

MAX_METADATA = 64 * 1024
"""The most read of the installed ``direct_url.json`` (it is a few dozen bytes)."""


PIPX_MARK = "pipx_metadata.json"
"""The file pipx keeps at the top of each of its environments."""
UV_TOOL_MARK = "uv-receipt.toml"
"""The file ``uv tool install`` keeps at the top of each of its environments."""


def install_command(dist: Distribution | None = None, prefix: Path | None = None) -> str:
    """The command that adds the web extra where the game is installed (``prefix``: its
    environment, ``sys.prefix`` when ``None``): in pipx's, ``pipx inject`` of the extra's
    requirements; in one of uv's tools, ``uv tool install --force`` of the checkout with
    the extra; otherwise pip (uv's, if uv installed the game: its environments have no
    pip) with the checkout (``"DIR[web]"``, ``-e`` for an editable install), else the
    extra's requirements themselves. ``dist``: the installed game (found when ``None``)."""
    if dist is None:
        try:
            dist = distribution("coloretto")
        except PackageNotFoundError:
            dist = None
    prefix = Path(sys.prefix) if prefix is None else prefix
    checkout = _checkout(dist) if dist is not None else _running_from()
    needs = _extra_requirements(dist)
    if (prefix / PIPX_MARK).is_file():
        return shlex.join(["pipx", "inject", prefix.name, *needs])
    if (prefix / UV_TOOL_MARK).is_file() and checkout is not None:
        path, editable = checkout
        return shlex.join(
            [
                "uv",
                "tool",
                "install",
                "--force",
                *(["-e"] if editable else []),
                f"{path}[{WEB_EXTRA}]",
            ]
        )
    if (prefix / UV_TOOL_MARK).is_file() or _installer(dist) == "uv":
        pip = ["uv", "pip", "install", "--python", sys.executable]
    else:
        pip = [sys.executable, "-m", "pip", "install"]
    if checkout is not None:
        path, editable = checkout
        return shlex.join([*pip, *(["-e"] if editable else []), f"{path}[{WEB_EXTRA}]"])
    return shlex.join([*pip, *needs])


def _installer(dist: Distribution | None) -> str:
    """The tool that installed ``dist`` (its ``INSTALLER`` file: ``pip``, ``uv``...)."""
    try:
        return ((dist.read_text("INSTALLER") if dist else None) or "")[:MAX_METADATA].strip()
    except (OSError, ValueError):
        return ""


def _checkout(dist: Distribution) -> tuple[Path, bool] | None:
    """The project directory ``dist`` was installed from (and whether editably), if it was
    installed from one that is still there (PEP 610's ``direct_url.json``)."""
    try:
        text = (dist.read_text("direct_url.json") or "")[:MAX_METADATA]
        found = json.loads(text)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("dir_info"), dict):
        return None
    url = found.get("url")
    if not isinstance(url, str) or not url.startswith("file://"):
        return None
    path = Path(unquote(urlparse(url).path))
    if not (path / "pyproject.toml").is_file():
        return None
    return path, found["dir_info"].get("editable") is True


def _running_from() -> tuple[Path, bool] | None:
    """The checkout this code runs from when it is not installed at all (``python -m
    coloretto`` there): installing it is then the way to the extra."""
    root = Path(__file__).resolve().parents[2]
    return (root, False) if (root / "pyproject.toml").is_file() else None


def _extra_requirements(dist: Distribution | None) -> list[str]:
    """The web extra's requirements, as the installed metadata lists them."""
    marker = f"extra == '{WEB_EXTRA}'"
    listed = (dist.requires if dist is not None else None) or []
    needs = [
        requirement.partition(";")[0].strip()
        for requirement in listed
        if marker in requirement.replace('"', "'")
    ]
    return needs or list(WEB_NEEDS)


def add_parser(commands: Commands) -> None:
    """Register ``web``."""
    parser = commands.add_parser(
        "web",
        help="serve the game as a web page (each visitor plays in their own process)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this computer only)",
    )
    parser.add_argument(
        "--port",
        type=bounded_int(1, 65535, "--port"),
        default=8000,
        help="the port to listen on (default 8000)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address visitors open, when it is not http://HOST:PORT (behind a reverse "
        "proxy: https://games.example.org)",
    )
    parser.add_argument(
        "--max-visitors",
        type=bounded_int(1, 256, "--max-visitors"),
        default=8,
        metavar="N",
        help="games played at once, one process each (default 8); more visitors are told "
        "the server is full",
    )
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="visitors join rooms of this game server (coloretto server), typing a room's "
        "code, instead of playing against bots",
    )
    parser.add_argument(
        "--cafile",
        metavar="PEM",
        help="with a wss:// --server: trust this certificate authority (PEM), as "
        "coloretto join --cafile does",
    )
    parser.set_defaults(run=run, parser=parser)


def visitor_arguments(args: argparse.Namespace) -> list[str]:
    """The ``coloretto`` command line each visitor's process runs: the one place that
    chooses it. Plain ``coloretto``: the setup screen, then a game against bots; with
    ``--server`` (checked by ``run``), ``coloretto join`` without a code: the visitor types
    the room's code and their name (an empty ``--name``: the server user's login name is
    not theirs)."""
    if args.server is None:
        return []
    trust = [] if args.cafile is None else ["--cafile", args.cafile]
    return ["join", "--server", args.server, *trust, "--name", ""]


def visitor_command(args: argparse.Namespace, base: Path) -> str:
    """The shell command textual-serve starts for each visitor: ``visitor_arguments`` run
    by ``coloretto.cli.visitor`` with a data directory of its own inside ``base``."""
    program = [sys.executable, "-m", "coloretto.cli.visitor", str(base)]
    return shlex.join([*program, *visitor_arguments(args)])


def trusted_authority(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """``--cafile`` as an absolute path, once it is known to load and to be needed (a usage
    error otherwise): each visitor's process runs in a directory of its own."""
    if args.server is None or not args.server.startswith("wss://"):
        parser.error("--cafile is for a wss:// --server (a game server with TLS)")
    path = str(Path(args.cafile).absolute())
    trusting(path, parser)
    return path


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Serve the game until Ctrl+C."""
    try:
        from coloretto.web.server import (  # noqa: PLC0415 (an optional extra)
            check_public_url,
            public_url,
            serve,
        )
    except ImportError as error:
        return fail(
            parser,
            f"serving the game needs the web extra ({_missing(error)}); install it with: "
            f"{install_command()}",
        )
    host = args.host.strip()
    if args.server is not None:
        args.server = server_address(args.server, parser)
    if args.cafile is not None:
        args.cafile = trusted_authority(args, parser)
    if args.public_url is not None:
        try:
            url = check_public_url(args.public_url)
        except ValueError as error:
            parser.error(str(error))
    elif host in EVERY_ADDRESS:
        parser.error(
            f"--host {host!r} listens on every address: give --public-url too, the "
            f"address visitors open (e.g. http://192.0.2.7:{args.port})"
        )
    else:
        url = public_url(host, args.port)
    with tempfile.TemporaryDirectory(prefix="coloretto-web-") as base:
        try:
            serve(
                visitor_command(args, Path(base)),
                host=host,
                port=args.port,
                public_url=url,
                max_visitors=args.max_visitors,
                game_server=args.server,
                tls=_game_tls(args, parser),
            )
        except OSError as error:
            return fail(parser, f"cannot listen on {host}:{args.port} ({error.strerror or error})")
    return 0


def _game_tls(args: argparse.Namespace, parser: argparse.ArgumentParser) -> ssl.SSLContext | None:
    """How the page's lobby (``/tables``) trusts a wss:// ``--server``."""
    if args.server is None or not args.server.startswith("wss://"):
        return None
    return trusting(args.cafile, parser)


def _missing(error: ImportError) -> str:
    """What is missing of the web extra: textual-serve, or a module it needs."""
    module = (error.name or "").split(".")[0]
    try:
        distribution("textual-serve")
    except PackageNotFoundError:
        module = "textual_serve"
    if module in ("", "textual_serve"):
        return "textual-serve is not installed"
    return f"textual-serve needs {module}, which is not installed"
