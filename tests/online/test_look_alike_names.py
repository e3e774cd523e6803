"""One name, one person (issue 57), on a real server process: account names that read as
one already registered are refused, whatever invisible or look-alike characters make them;
at a public or rated table an account's seat shows the account's registered name (not the
name its opening gives), its owner joining gets it and a guest never does; seat names at
every table keep the same rule; a database whose accounts were keyed by the old fold is
keyed again when the server starts, so that a look-alike account made before can no
longer sign in as anyone."""

from __future__ import annotations

import asyncio
import base64
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coloretto.online.server.database import StoreUrl, open_database
from coloretto.online.server.migrations import STEPS, schema_version
from coloretto.online.wire.accounts import Account, new_account
from coloretto.online.wire.names import fold
from tests.online.raw_ws import Server, host_request, open_ws, receive, send, source
from tests.online.test_standings import signed

LOOK_ALIKES_OF_HANA = [
    "Ha\u034fna",  # combining grapheme joiner
    "Hana\ufe0f",  # variation selector 16
    "Han\ufe00a",  # variation selector 1
    "Ha\u180bna",  # Mongolian free variation selector
    "Ha\u17b4na",  # Khmer vowel inherent aq
    "Hana\u3164",  # Hangul filler
    "\u115fHana",  # Hangul choseong filler
    "Ha\u2800na",  # braille pattern blank
    "\ua4e7ana",  # Lisu letter xa
    "H\u2c81na",  # Coptic small letter alfa
    "H\u1d00na",  # Latin letter small capital A
    "\u0126ana",  # Latin capital letter H with stroke
    "\u04a2ana",  # Cyrillic capital letter en with descender
    "Ha\u039da",  # Greek capital letter nu
    "HA\u039dA",
    "ha\u03bda",  # Greek small nu, read as n
    "HANA",
    "hana",
    "Hana ",
]
"""Names that read as "Hana" (the finding's characters, one by one)."""

LOOK_ALIKES_OF_ANA_LEE = [
    "Ana  Lee",
    "Ana\u3000Lee",
    "Ana\u00a0Lee",
    "Ana\u2800Lee",
    "Ana Le\u0301e",
    "Ana \u0301Lee",
]
"""Names that read as "Ana Lee": two spaces, other spaces, a filler, an accent, a lone
mark."""

CYRILLIC_TOM = "\u0422\u041e\u041c"
""""TOM" in Cyrillic letters."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    process = Server(tmp_path / "server")
    try:
        yield process.start()
    finally:
        process.stop()


async def register(server: Server, name: str, address: str) -> dict[str, Any]:
    """Ask ``server`` (from ``address``) for an account ``name``; its answer."""
    key = base64.urlsafe_b64encode(new_account(server.url, "X").public_key).decode()
    ws = await open_ws(f"{server.url}/rooms", address)
    try:
        await send(ws, {"type": "register", "name": name, "key": key.rstrip("=")})
        return await receive(ws)
    finally:
        await ws.close()


async def registered(server: Server, name: str, address: str) -> Account:
    """A new account ``name`` on ``server``, registered."""
    account = new_account(server.url, name)
    key = base64.urlsafe_b64encode(account.public_key).decode().rstrip("=")
    ws = await open_ws(f"{server.url}/rooms", address)
    try:
        await send(ws, {"type": "register", "name": name, "key": key})
        assert (await receive(ws, "account"))["name"] == name
    finally:
        await ws.close()
    return account


async def opening(
    server: Server, address: str, request: dict[str, Any], account: Account | None = None,
    claimed: str | None = None,
) -> tuple[Any, dict[str, Any]]:  # fmt: skip
    """Open a seat (as ``account``, its name spelt ``claimed`` in the claim, or as a
    guest); the connection and the first answer (a welcome or an error)."""
    return await signed(server, address, account, request, claimed)


def seat_names(lobby: dict[str, Any]) -> list[str | None]:
    return [None if seat is None else seat["name"] for seat in lobby["seats"]]


def test_account_names_that_read_as_a_registered_one_are_refused(server: Server) -> None:
    """Every look-alike of "Hana" and "Ana Lee" is refused (``bad-name`` for invisible
    characters, lone marks and mixed scripts; ``name-taken`` for the rest), and the
    server keeps two accounts only."""

    async def test() -> list[tuple[str, dict[str, Any]]]:
        await registered(server, "Hana", source("player", 1))
        await registered(server, "Ana Lee", source("player", 2))
        await registered(server, "TOM", source("player", 3))
        names = [*LOOK_ALIKES_OF_HANA, *LOOK_ALIKES_OF_ANA_LEE, CYRILLIC_TOM]
        return [
            (name, await register(server, name, source("player", 10 + number)))
            for number, name in enumerate(names)
        ]

    answers = asyncio.run(asyncio.wait_for(test(), 60))
    accepted = [name for name, answer in answers if answer["type"] != "error"]
    assert accepted == [], [ascii(name) for name in accepted]
    codes = {name: answer["code"] for name, answer in answers}
    assert codes["Ha\u034fna"] == codes["Hana\u3164"] == "bad-name"
    assert codes["H\u2c81na"] == codes["Ha\u039da"] == "bad-name"  # Latin mixed with another
    assert codes["\u0126ana"] == codes["H\u1d00na"] == codes["HANA"] == "name-taken"
    assert codes[CYRILLIC_TOM] == "name-taken"  # all Cyrillic: fine, but it reads as TOM
    db = sqlite3.connect(server.home / "rooms.sqlite3")
    try:
        assert db.execute("SELECT name FROM accounts ORDER BY name").fetchall() == [
            ("Ana Lee",),
            ("Hana",),
            ("TOM",),
        ]
    finally:
        db.close()


def test_a_rated_public_table_shows_its_accounts_registered_names(server: Server) -> None:
    """Account Ana hosts a rated public table under the name "Ben", her claim spelt
    "ANA": the seat shows "Ana", in the lobby and the list of tables. Ben joining gets
    "Ben" (not "Ben 2"); a guest cannot sit there (rated), nor host a public table as
    Ben."""

    async def test() -> dict[str, Any]:
        ana = await registered(server, "Ana", source("player", 1))
        ben = await registered(server, "Ben", source("player", 2))
        request = host_request(name="Ben", rated=True, public=True, rules={"players": 4})
        host, welcome = await opening(server, source("player", 3), request, ana, "ANA")
        assert welcome["type"] == "welcome", welcome
        first = seat_names(await receive(host, "lobby"))
        join = {"type": "join", "room": welcome["room"], "name": "Ana"}
        guest, refused = await opening(server, source("player", 4), {**join, "name": "Cy"})
        joined, welcome_ben = await opening(server, source("player", 5), join, ben)
        assert welcome_ben["type"] == "welcome", welcome_ben
        second = seat_names(await receive(joined, "lobby"))
        listed = await asked(server, source("player", 6), {"type": "tables"})
        public_guest, as_ben = await opening(
            server, source("player", 7), host_request(name="B\u0435n", public=True)
        )
        other_guest, as_ben_latin = await opening(
            server, source("player", 8), host_request(name="BEN", public=True)
        )
        for ws in (host, guest, joined, public_guest, other_guest):
            await ws.close()
        return {"first": first, "refused": refused, "second": second, "listed": listed,
                "as_ben": as_ben, "as_ben_latin": as_ben_latin}  # fmt: skip

    seen = asyncio.run(asyncio.wait_for(test(), 60))
    assert seen["first"] == ["Ana", None, None, None]
    assert seen["refused"]["code"] == "account-needed"
    assert seen["second"] == ["Ana", "Ben", None, None]
    (table,) = seen["listed"]["tables"]
    assert table["seated"] == ["Ana", "Ben"]
    assert seen["as_ben"]["code"] == "bad-name"  # Latin B and n, a Cyrillic e
    assert seen["as_ben_latin"]["code"] == "name-taken"
    assert "sign in as Ben" in seen["as_ben_latin"]["message"]


async def asked(server: Server, address: str, request: dict[str, Any]) -> dict[str, Any]:
    """One request before any opening, on a connection of its own; the answer."""
    ws = await open_ws(f"{server.url}/rooms", address)
    try:
        await send(ws, request)
        return await receive(ws)
    finally:
        await ws.close()


def test_an_accounts_owner_takes_their_name_from_a_guest_at_a_public_table(
    server: Server,
) -> None:
    """A guest sits at a public table as "Zed" before anyone has that account; once Zed
    registers and joins, Zed's seat is "Zed" and the guest's becomes "Zed 2"."""

    async def test() -> list[list[str | None]]:
        host, welcome = await opening(
            server,
            source("player", 1),
            host_request(name="Host", public=True, rules={"players": 4}),
        )
        join = {"type": "join", "room": welcome["room"], "name": "Zed"}
        guest, _ = await opening(server, source("player", 2), join)
        before = seat_names(await receive(guest, "lobby"))
        zed = await registered(server, "Zed", source("player", 3))
        owner, _ = await opening(server, source("player", 4), {**join, "name": "Zorro"}, zed)
        after = seat_names(await receive(owner, "lobby"))
        for ws in (host, guest, owner):
            await ws.close()
        return [before, after]

    before, after = asyncio.run(asyncio.wait_for(test(), 60))
    assert before == ["Host", "Zed", None, None]
    assert after == ["Host", "Zed 2", "Zed", None]


@pytest.mark.parametrize("public", [False, True])
def test_seat_names_that_read_as_anothers_are_refused_or_numbered(
    server: Server, public: bool
) -> None:
    """At a private or public table hosted by guest "Hana", a guest joining under any
    look-alike of her name that the rule refuses gets ``bad-name``; one it takes is
    numbered ("HANA 2"): no two seats ever read alike."""

    async def test() -> dict[str, dict[str, Any]]:
        seen = {}
        for number, name in enumerate(LOOK_ALIKES_OF_HANA, 1):
            request = host_request(name="Hana", public=public)
            host, welcome = await opening(server, source("hosts", number), request)
            join = {"type": "join", "room": welcome["room"], "name": name}
            guest, answer = await opening(server, source("player", number), join)
            if answer["type"] == "welcome":
                answer = {"seats": seat_names(await receive(guest, "lobby"))}
            seen[name] = answer
            await guest.close()
            await host.close()
        return seen

    seen = asyncio.run(asyncio.wait_for(test(), 120))
    refused = {name for name, answer in seen.items() if answer.get("code") == "bad-name"}
    invisible = set(LOOK_ALIKES_OF_HANA[:8])
    mixed = {"\ua4e7ana", "H\u2c81na", "\u04a2ana", "Ha\u039da", "HA\u039dA", "ha\u03bda"}
    assert refused == invisible | mixed, [ascii(name) for name in refused]
    for name in set(LOOK_ALIKES_OF_HANA) - refused:
        seats = seen[name]["seats"]
        assert seats[0] == "Hana"
        assert seats[1] == f"{name.strip()} 2", ascii(seats[1])
        assert fold(seats[0]) != fold(seats[1])


OLD_SCHEMA = 3
"""The schema step of a server before the name rule."""

OLD_KEYS = [("mlma", "Mirna", 1.0), ("ana", "Ana", 2.0), ("ana\u034f", "Ana\u034f", 3.0)]
"""Accounts as a server before the name rule kept them: the old fold's keys ("Mirna" as
"mlma"), and a look-alike of Ana made with an invisible mark (which the old fold kept)."""


async def old_database(url: StoreUrl, accounts: dict[str, Account]) -> None:
    """A database as a server before the name rule left it: the accounts of ``OLD_KEYS``
    (keys from ``accounts``) under the old fold's keys, Mirna and the look-alike rated."""
    db = await open_database(url, "coloretto-old")
    try:
        await schema_version(db)
        for number, (_, statements) in enumerate(STEPS[:OLD_SCHEMA], start=1):
            async with db.transaction() as tx:
                for statement in statements:
                    await tx.execute(statement)
                await tx.execute("INSERT INTO schema_version (version) VALUES (?)", number)
        for folded, name, created in OLD_KEYS:
            key = base64.b64encode(accounts[name].public_key).decode()
            await db.execute("INSERT INTO accounts VALUES (?, ?, ?, ?)", folded, name, key, created)
        for folded, mu in (("mlma", 30.0), ("ana\u034f", 40.0)):
            await db.execute("INSERT INTO ratings VALUES (?, ?, 5.0, 7)", folded, mu)
    finally:
        await db.close()


async def kept_accounts(url: StoreUrl) -> list[tuple[Any, ...]]:
    """Each account's name, whether its key is its name's skeleton, and its rating's mu."""
    db = await open_database(url, "coloretto-check")
    try:
        rows = await db.fetch(
            "SELECT a.folded, a.name, r.mu FROM accounts a LEFT JOIN ratings r"
            " ON a.folded = r.folded ORDER BY a.created"
        )
    finally:
        await db.close()
    return [(name, folded == fold(name), mu) for folded, name, mu in rows]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_accounts_kept_under_the_old_fold_are_keyed_again(
    tmp_path: Path, kind: str, request: pytest.FixtureRequest
) -> None:
    """Servers started on a database whose accounts the old fold keyed (on PostgreSQL two
    at once) key them again: Mirna signs in and keeps her rating; Ana signs in; the
    look-alike of Ana made before (with U+034F) signs in neither under its own name nor
    under Ana's, and keeps its row and rating, set aside."""
    url = (
        StoreUrl("sqlite", str(tmp_path / "rooms.sqlite3"))
        if kind == "sqlite"
        else StoreUrl("postgresql", request.getfixturevalue("pg_url"))
    )
    store = f"sqlite://{url.target}" if kind == "sqlite" else url.target
    servers = [Server(tmp_path / f"server{n}", options=("--store", store)) for n in range(2)]
    accounts = {  # made by hand: the rule refuses the look-alike's name now
        name: Account("ws://127.0.0.1:1", name, new_account("127.0.0.1:1", "X").secret)
        for _, name, _ in OLD_KEYS
    }
    asyncio.run(old_database(url, accounts))
    try:
        started = servers[:1] if kind == "sqlite" else servers
        for server in started:  # on PostgreSQL both upgrade at once, one under the lock
            server.start()
        first = started[-1]

        async def test() -> dict[str, dict[str, Any]]:
            answers = {}
            for number, (label, name, claimed) in enumerate(
                [("Mirna", "Mirna", "Mirna"), ("Ana", "Ana", "ana"),
                 ("look-alike", "Ana\u034f", "Ana\u034f"), ("as Ana", "Ana\u034f", "Ana")],
                1,
            ):  # fmt: skip
                ws, answer = await opening(
                    first, source("player", number), host_request(name="Host"), accounts[name],
                    claimed,
                )  # fmt: skip
                answers[label] = answer
                await ws.close()
            return answers

        answers = asyncio.run(asyncio.wait_for(test(), 60))
        kept = asyncio.run(kept_accounts(url))
    finally:
        for server in servers:
            server.stop()
    assert answers["Mirna"]["type"] == answers["Ana"]["type"] == "welcome", answers
    assert answers["look-alike"]["type"] == answers["as Ana"]["type"] == "error", answers
    assert kept == [("Mirna", True, 30.0), ("Ana", True, None), ("Ana\u034f", False, 40.0)]
