"""The lobby and the ladder, as a player's program asks a game server for them: the public
tables waiting for players (``fetch_tables``) and the ratings (``fetch_ladder``), each on
a connection of its own, before any opening (``docs/protocol.md``, "The lobby and the
ladder"). The CLI, the TUI and the web page use them; ``LobbyError`` says in words why a
server gave no list."""

from __future__ import annotations

import asyncio
import math
import ssl

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from coloretto.engine import Rules, Variant
from coloretto.online.client.remote_table import ANSWER_SECONDS, server_url, unreachable
from coloretto.online.wire.messages import (
    MAX_MESSAGE,
    ErrorMessage,
    LadderEntry,
    LadderMessage,
    ServerMessage,
    TablesMessage,
    TableSummary,
    parse_message,
)
from coloretto.online.wire.protocol import ErrorCode, Ladder, ProtocolError, Tables, encode
from coloretto.store.text import printable

OPEN_SECONDS = 10.0
"""How long a look-up waits for the server's connection."""


class LobbyError(Exception):
    """A server gave no list: unreachable, it does not know the request (an older
    server), it refused (too many look-ups), or its answer was not a list at all."""


async def fetch_tables(server: str, tls: ssl.SSLContext | None = None) -> tuple[TableSummary, ...]:
    """The public tables waiting for players at ``server`` (``HOST:PORT`` or a ``ws://``
    address), newest first; ``LobbyError`` saying why not."""
    answer = await _ask(server, Tables(), "public tables", tls)
    if not isinstance(answer, TablesMessage):
        raise LobbyError(_broke(server, "an answer that is not the tables"))
    return answer.tables


async def fetch_ladder(server: str, tls: ssl.SSLContext | None = None) -> tuple[LadderEntry, ...]:
    """The ladder of ``server``: its best rated players and its bot levels, best first;
    ``LobbyError`` saying why not."""
    answer = await _ask(server, Ladder(), "ratings", tls)
    if not isinstance(answer, LadderMessage):
        raise LobbyError(_broke(server, "an answer that is not the ladder"))
    return answer.entries


async def _ask(
    server: str, request: Tables | Ladder, what: str, tls: ssl.SSLContext | None
) -> ServerMessage:
    """The server's one answer to ``request``, sent first on a fresh connection."""
    try:
        url = server_url(server)
    except ValueError as error:
        raise LobbyError(str(error)) from None
    try:
        async with connect(
            url.rstrip("/") + "/", ssl=tls, max_size=MAX_MESSAGE, open_timeout=OPEN_SECONDS,
            compression=None,
        ) as ws:  # fmt: skip
            await ws.send(encode(request))
            async with asyncio.timeout(ANSWER_SECONDS):
                answer = parse_message(await ws.recv())
    except ConnectionClosed as error:
        if 1009 in {frame.code for frame in (error.rcvd, error.sent) if frame}:  # too long
            raise LobbyError(_broke(server, "an answer too long to read")) from None
        raise LobbyError(f"the server at {url} closed the connection without a list") from None
    except TimeoutError:
        raise LobbyError(f"the server at {url} did not answer in time") from None
    except (OSError, InvalidHandshake) as error:
        raise LobbyError(unreachable(url, error)) from None
    except InvalidURI as error:
        raise LobbyError(printable(str(error), 200)) from None
    except ProtocolError as error:
        raise LobbyError(_broke(url, printable(str(error), 200))) from None
    if isinstance(answer, ErrorMessage):
        words = printable(answer.message, 200)
        if answer.code in (ErrorCode.BAD_REQUEST, ErrorCode.NO_ROOM):
            raise LobbyError(f"the server at {url} does not list {what} (an older server: {words})")
        raise LobbyError(f"the server at {url} gave no {what}: {words}")
    return answer


def _broke(server: str, what: str) -> str:
    return f"the server at {server} broke the protocol ({what})"


def table_rules(rules: Rules) -> str:
    """A table's rules in a few words: the scoring side, and the variant if not standard.

    >>> table_rules(Rules(players=2, variant="ghost")), table_rules(Rules(scoring="gray"))
    ('brown side, ghost variant', 'gray side')
    """
    words = f"{rules.scoring.value} side"
    if rules.variant is not Variant.STANDARD:
        words += f", {rules.variant.value} variant"
    if rules.games > 1:
        words += f", {rules.games} games"
    return words


def table_start(table: TableSummary) -> str:
    """When a table's game starts: ``"bots fill in 42 s"`` or ``"host starts"``.

    >>> table = TableSummary.of("K7PQ2M", Rules(), "easy", ("Ana",), fill_in=41.2)
    >>> table_start(table), table_start(TableSummary.of("K7PQ2M", Rules(), "easy", ("Ana",)))
    ('bots fill in 42 s', 'host starts')
    """
    if table.fill_in is None:
        return "host starts"
    return f"bots fill in {math.ceil(table.fill_in)} s"


COLUMNS = ("#", "Code", "Players", "Free", "Bots", "Rules", "Rated", "Clock", "Starts")
"""The lobby's columns, as ``table_row`` fills them."""


def table_row(number: int, table: TableSummary) -> tuple[str, ...]:
    """Table ``number``'s cells in the lobby's ``COLUMNS`` (plain text: names are never
    markup).

    >>> table_row(1, TableSummary.of("K7PQ2M", Rules(), "easy", ("Ana",)))
    ('1', 'K7PQ2M', '1/4 Ana', '3', 'easy', 'brown side', '-', '-', 'host starts')
    """
    return (
        str(number),
        table.room,
        seated_names(table),
        str(table.free),
        table.bot,
        table_rules(table.rules),
        "rated" if table.rated else "-",
        "-" if table.clock is None else table.clock.short,
        table_start(table),
    )


def seated_names(table: TableSummary) -> str:
    """Who sits at a table (with the ratings of those rated), and how many seats it has:
    ``"2/4 Ana (1012), Ben"``."""
    ratings = table.ratings or (None,) * len(table.seated)
    names = ", ".join(
        (name or "?") + ("" if rating is None else f" ({rating})")
        for name, rating in zip(table.seated, ratings, strict=True)
    )
    return f"{len(table.seated)}/{table.rules.players} {names}".rstrip()
