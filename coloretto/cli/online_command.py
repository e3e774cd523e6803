"""``coloretto server``, ``coloretto host`` and ``coloretto join``: play with friends on
other machines, bots taking the free seats (see ``docs/online.md``)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import ipaddress
import os
import ssl
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from coloretto.bots.registry import DEFAULT_LEVEL, LEVELS
from coloretto.cli.parser import Commands, bounded_int, bounded_seconds, need_terminal
from coloretto.cli.rules_options import add_games_argument, add_rules_arguments, rules_from_args
from coloretto.cli.server_options import add_server_arguments
from coloretto.online.server.database import StoreUrl, parse_store_url
from coloretto.online.server.limits import Limits
from coloretto.online.wire.clock import DEFAULT_PROFILE, PROFILES, Clock, ClockError, parse_clock
from coloretto.online.wire.protocol import (
    CLOCK_NAME,
    CODE_ALPHABET,
    DEFAULT_AWAY_AFTER,
    MAX_AWAY_AFTER,
    MAX_FILL_AFTER,
    MIN_FILL_AFTER,
    Host,
    Join,
    Opening,
    Watch,
    code_prefixes,
    room_code,
    seat_name,
)
from coloretto.play.config import DEFAULT_DELAY, MAX_DELAY
from coloretto.store.paths import DataDir
from coloretto.store.text import printable

if TYPE_CHECKING:
    from coloretto.online.client.remote_table import RemoteTable
    from coloretto.play.keeper import Keeper
    from coloretto.tui.online_app import JoinForm

Connect = Callable[[Opening, "Keeper | None"], "RemoteTable"]
"""Makes a table at this command's server from its first request (and a keeper)."""

SERVER_EPILOG = """\
The server listens on 127.0.0.1 (this machine only) unless --host says otherwise, e.g.
--host 0.0.0.0 for every network. Rooms are kept after every action in a database:
by default rooms.sqlite3 in the data directory (COLORETTO_HOME), for one server process;
with --store postgresql://HOST/DB, any number of server processes on any number of
machines share one room space, and a process that stops has its rooms taken over by the
others. A server that stops, however it stops, resumes every room when it starts again,
and the players' programs reconnect by themselves. One server serves a data directory at
a time. Refused connections, floods, wrong room codes and failed saves are written to
audit.log there; docs/protocol.md ("Limits") lists every limit, docs/online.md how to
run several processes.
"""

JOIN_EPILOG = """\
Without CODE, a screen asks for the room's code and your name, and asks again when the
server knows no such room; Ctrl+L there lists the server's public tables (the lobby).
With CODE and --name '', the screen asks for your name only.

examples:
  coloretto join K7PQ2M --server games.example.org:7787
  coloretto join --server games.example.org:7787     type the code on the screen
"""

HOST_EPILOG = """\
examples:
  coloretto host --players 4                         you, up to 3 friends, bots for the rest
  coloretto host --server games.example.org:7787 --players 3 --bot hard
  coloretto host --games 3                           a match: you start each next game with n
  coloretto host --public --fill-after 60            in the lobby; bots fill it after a minute
"""


def add_parsers(commands: Commands) -> None:
    """Register ``server``, ``host`` and ``join``."""
    server = commands.add_parser(
        "server",
        help="run a game server for online play",
        description="Run a game server: rooms of people on other machines, and bots.",
        epilog=SERVER_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    server.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    server.add_argument(
        "--port", type=bounded_int(0, 65535, "--port"), default=7787, help="port (7787)"
    )
    server.add_argument(
        "--prefixes",
        type=_prefixes,
        default=CODE_ALPHABET,
        metavar="CHARACTERS",
        help="the characters this server's room codes start with (default: any); give each "
        'server behind one proxy its own (docs/online.md, "Several processes")',
    )
    server.add_argument(
        "--store",
        type=_store,
        default=None,
        metavar="URL",
        help="where rooms are kept: sqlite:///PATH (default: rooms.sqlite3 in the data "
        "directory) or postgresql://USER@HOST:PORT/DB, shared by several server processes",
    )
    server.add_argument(
        "--clock",
        type=_clock,
        action="append",
        metavar="NAME=BANK+INCREMENT",
        help="a speed profile hosts may time their tables by, in seconds: a time bank and "
        "what each move adds (standard=180+10), or a fixed time a move (turn=30/move); "
        "repeat it for several, the one called standard (else the first) times public and "
        "rated tables whose host chose none (default: "
        + ", ".join(f"{c.name}={_spec(c)}" for c in PROFILES)
        + ")",
    )
    server.add_argument("--certfile", help="serve TLS (wss://) with this certificate (PEM)")
    server.add_argument("--keyfile", help="the certificate's private key (PEM)")
    server.add_argument(
        "--trusted-proxy",
        type=_network,
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy in front of the server (an address, or a network such as "
        "10.0.0.0/8; repeat for several): the client its X-Forwarded-For header names is "
        "counted by the per-address limits, not the proxy; anyone else's header is ignored",
    )
    limits = Limits()
    caps = (
        ("--max-connections", limits.max_connections, 1, "connections open at once, in all"),
        ("--max-per-address", limits.max_per_address, 1,
         "connections open at once from one address (IPv6: one /64)"),
        ("--max-watchers", limits.max_watchers, 0, "connections watching one room"),
        ("--max-rooms", limits.max_rooms, 1, "rooms open at once"),
        ("--bot-workers", limits.bot_workers, 1, "processes the bots think in"),
    )  # fmt: skip
    for option, default, least, text in caps:
        server.add_argument(
            option,
            type=bounded_int(least, 1_000_000, option),
            default=default,
            metavar="N",
            help=f"{text} ({default})",
        )
    server.set_defaults(run=run_server, parser=server)

    host = commands.add_parser(
        "host",
        help="open a room on a game server and play there with friends",
        description="Open a room on a game server; friends join with its code. You start "
        "the game when everyone is there: bots take the free seats.",
        epilog=HOST_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_connection(host)
    host.add_argument(
        "--public",
        action="store_true",
        help="list the table in the lobby (coloretto lobby), for anyone to join",
    )
    add_table_arguments(host)
    host.set_defaults(run=run_host, parser=host)

    join = commands.add_parser(
        "join",
        help="take a seat in a friend's room on a game server",
        description="Take a seat in a room on a game server (or come back to yours).",
        epilog=JOIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    join.add_argument(
        "code",
        metavar="CODE",
        nargs="?",
        help="the room's code, as the host was shown it (without it, a screen asks for it)",
    )
    _add_connection(join)
    join.add_argument("--watch", action="store_true", help="watch the game without a seat")
    join.set_defaults(run=run_join, parser=join)


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of a new table (``host``, and ``lobby``'s new public table): the rules,
    the games, the bots' level and pace, the wait for someone away, ``--rated`` and
    ``--fill-after``."""
    add_rules_arguments(parser)
    add_games_argument(parser)
    parser.add_argument(
        "--bot",
        choices=list(LEVELS),
        default=DEFAULT_LEVEL,
        help=f"the level of the bots in the free seats (default {DEFAULT_LEVEL})",
    )
    parser.add_argument(
        "--delay",
        type=bounded_seconds(MAX_DELAY, "--delay"),
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"pause between two bot actions (default {DEFAULT_DELAY:g})",
    )
    parser.add_argument(
        "--away-after",
        type=bounded_seconds(MAX_AWAY_AFTER, "--away-after"),
        default=DEFAULT_AWAY_AFTER,
        metavar="SECONDS",
        help="how long a player may be away on their turn before a bot plays for them "
        f"(default {DEFAULT_AWAY_AFTER:g})",
    )
    parser.add_argument(
        "--rated",
        action="store_true",
        help="a rated table: only players with an account (coloretto account) sit there, "
        "and its games change their ratings",
    )
    parser.add_argument(
        "--clock",
        type=_clock_name,
        metavar="PROFILE",
        help="time every person's moves by the server's speed profile PROFILE ("
        + ", ".join(f"{c.name}: {c.words}" for c in PROFILES)
        + f", unless the server has others); a public or rated table gets "
        f"{DEFAULT_PROFILE} without it, a private one no clock",
    )
    parser.add_argument(
        "--fill-after",
        type=bounded_seconds(MAX_FILL_AFTER, "--fill-after"),
        metavar="SECONDS",
        help=f"a public table: bots take the free seats and the game starts after SECONDS "
        f"({MIN_FILL_AFTER:g} to {MAX_FILL_AFTER:g}; default: you start it)",
    )


def _clock_name(text: str) -> str:
    if not CLOCK_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"a clock's name is small letters, digits and '-', as the server names it: "
            f"{', '.join(c.name for c in PROFILES)}"
        )
    return text


def _add_connection(parser: argparse.ArgumentParser) -> None:
    add_server_arguments(parser)
    parser.add_argument(
        "--name",
        help="your name at the table (default: your login name; for root or a system "
        'account, "Host" when hosting, else the join screen asks or "Player")',
    )


def _store(text: str) -> StoreUrl:
    try:
        return parse_store_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _clock(text: str) -> Clock:
    try:
        return parse_clock(text)
    except ClockError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _spec(clock: Clock) -> str:
    """A profile as ``--clock`` takes it (after its name)."""
    if clock.per_move:
        return f"{clock.bank:g}/move"
    return f"{clock.bank:g}+{clock.increment:g}"


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an address or a network: {text!r}") from None


def _prefixes(text: str) -> str:
    try:
        return code_prefixes(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_server(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Serve until interrupted."""
    from coloretto.online.server.database import StoreError  # noqa: PLC0415
    from coloretto.online.server.room_server import ServerInUse  # noqa: PLC0415
    from coloretto.online.server.room_server import run_server as serve  # noqa: PLC0415

    tls = None
    if args.certfile or args.keyfile:
        if not (args.certfile and args.keyfile):
            parser.error("TLS needs both --certfile and --keyfile")
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        try:
            tls.load_cert_chain(args.certfile, args.keyfile)
        except (OSError, ssl.SSLError) as error:
            parser.error(f"cannot load the certificate: {error}")
    limits = replace(
        Limits(),
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        max_watchers=args.max_watchers,
        max_rooms=args.max_rooms,
        bot_workers=args.bot_workers,
        clocks=tuple(args.clock) if args.clock else PROFILES,
        trusted_proxies=tuple(args.trusted_proxy),
    )
    names = [clock.name for clock in limits.clocks]
    if len(set(names)) < len(names):
        parser.error("--clock: each profile needs a name of its own")
    try:
        asyncio.run(
            serve(
                args.host,
                args.port,
                DataDir.default(),
                store=args.store,
                tls=tls,
                limits=limits,
                prefixes=args.prefixes,
                ready=lambda text: print(text, flush=True),
            )
        )
    except ServerInUse as error:
        parser.error(str(error))
    except StoreError as error:
        parser.error(str(error))
    except OSError as error:
        parser.error(f"cannot listen on {args.host}:{args.port} ({error.strerror or error})")
    except KeyboardInterrupt:
        pass
    return 0


SYSTEM_ACCOUNTS = frozenset(
    {"root", "admin", "administrator", "nobody", "daemon", "toor", "user", "guest"}
)
"""Login names that name a machine's account, not a person at the table."""

FIRST_PERSON_UID = 500 if sys.platform == "darwin" else 1000
"""The lowest user id of a person's account (below it: the system's own accounts)."""


def person_login_name() -> str:
    """The login name as a player's name ("ana" gives "Ana"); ``""`` when it names no
    person: root, an administrator's or system account (or no login name at all)."""
    try:
        login = getpass.getuser()
    except (OSError, KeyError):
        return ""
    if login.lower() in SYSTEM_ACCOUNTS or _system_uid(login):
        return ""
    return seat_name(login.capitalize())


def _system_uid(login: str) -> bool:
    """True when ``login`` is an account of the system itself (a low user id, or the
    ``nobody`` id); False when unknown here (say, on Windows)."""
    try:
        import pwd  # noqa: PLC0415 (POSIX only)

        uid = pwd.getpwnam(login).pw_uid
    except (ImportError, KeyError):
        return False
    return uid < FIRST_PERSON_UID or uid == 65534


def _name(args: argparse.Namespace, fallback: str) -> str:
    """``--name``, else the login name; ``fallback`` when nothing of it is left (or the
    login is root or a system account)."""
    return _given_name(args) or fallback


def _given_name(args: argparse.Namespace) -> str:
    """``--name`` (``--name ''`` gives ``""``), else a person's login name, as the table
    shows it (control characters removed, cut to the longest name allowed)."""
    return seat_name(person_login_name() if args.name is None else args.name)


def _tls(args: argparse.Namespace, parser: argparse.ArgumentParser) -> ssl.SSLContext | None:
    if not args.server.startswith("wss://"):
        return None
    return trusting(args.cafile, parser)


def trusting(cafile: str | None, parser: argparse.ArgumentParser) -> ssl.SSLContext:
    """A client's TLS context that trusts ``cafile`` (``--cafile``; the system's
    authorities if ``None``): a usage error if the file does not load."""
    try:
        return ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as error:
        parser.error(f"cannot load --cafile: {error}")


def server_address(text: str, parser: argparse.ArgumentParser) -> str:
    """The server's WebSocket address given as ``--server`` (a usage error if it is not
    ``HOST:PORT`` or a ``ws://``/``wss://`` address)."""
    from coloretto.online.client.remote_table import server_url  # noqa: PLC0415

    try:
        return server_url(text)
    except ValueError as error:
        parser.error(f"--server: {error}")


def _connect(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Connect:
    """How this command makes its table, ``--server`` and ``--cafile`` checked first."""
    from coloretto.online.client.remote_table import RemoteTable  # noqa: PLC0415

    tls = _tls(args, parser)
    server = server_address(args.server, parser)
    cafile = None if args.cafile is None else os.path.abspath(args.cafile)
    return lambda opening, keeper: RemoteTable(server, opening, keeper, tls=tls, cafile=cafile)


def run_host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Open a room and play in it."""
    return host_room(args, parser, new_table(args, parser, public=args.public))


def new_table(args: argparse.Namespace, parser: argparse.ArgumentParser, *, public: bool) -> Host:
    """The opening of a new table as ``add_table_arguments``' options ask (a usage error
    for a ``--fill-after`` out of bounds, or without a public table)."""
    rules = replace(rules_from_args(args, parser), games=args.games)
    if args.fill_after is not None:
        if not public:
            parser.error("--fill-after is for a public table (--public): bots fill it")
        if args.fill_after < MIN_FILL_AFTER:
            parser.error(f"--fill-after must be {MIN_FILL_AFTER:g} to {MAX_FILL_AFTER:g} seconds")
    return Host.of(_name(args, "Host"), rules, args.bot, args.delay, args.away_after,
                public=public, rated=args.rated, fill_after=args.fill_after,
                clock=args.clock)  # fmt: skip


def host_room(args: argparse.Namespace, parser: argparse.ArgumentParser, opening: Host) -> int:
    """Open the room ``opening`` asks for at ``--server``, and play in it."""
    return _play(parser, _connect(args, parser)(opening, None), host=True)


def join_room(
    args: argparse.Namespace, parser: argparse.ArgumentParser, code: str, name: str
) -> int:
    """Take a seat as ``name`` in room ``code`` at ``--server``, and play there."""
    return _play(parser, _connect(args, parser)(Join(code, name), None), host=False)


def run_join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Take a seat (or watch); without a code (or with a code and ``--name ''``), a screen
    asks for it (or the name) first."""
    code = None
    if args.code is not None:
        try:
            code = room_code(args.code)
        except ValueError as error:
            parser.error(str(error))
    connect = _connect(args, parser)

    def table_for(code: str, name: str, keeper: Keeper | None) -> RemoteTable:
        if args.watch:
            return connect(Watch(code), keeper)
        return connect(Join(code, name), keeper)

    if code is not None and not (args.name == "" and not args.watch):
        return _play(parser, table_for(code, _name(args, "Player"), None), host=False)
    from coloretto.online.client.lobby import fetch_tables  # noqa: PLC0415
    from coloretto.tui.online_app import JoinForm  # noqa: PLC0415 (Textual only to play)

    address, tls = server_address(args.server, parser), _tls(args, parser)
    name = None if args.watch else _given_name(args)
    form = JoinForm(
        address.removeprefix("ws://"),
        name,
        table_for,
        tables=lambda: fetch_tables(address, tls),
        code=code or "",
        host_for=None if args.watch else connect,
    )
    return _play(parser, form, host=False)


def _play(parser: argparse.ArgumentParser, seat: RemoteTable | JoinForm, *, host: bool) -> int:
    """Play at ``seat`` (or at the room the join screen asks for) in the online app."""
    need_terminal(parser)
    from coloretto.tui.online_app import OnlineApp  # noqa: PLC0415 (Textual only to play)

    app = OnlineApp(seat, host=host)
    app.run()
    if app.refusal is not None:
        print(printable(f"{parser.prog}: error: {app.refusal}"), file=sys.stderr)
    return app.return_code or 0
