"""Accounts, ratings and the lobby on real server processes (issue 51), on SQLite (one
process) and on PostgreSQL (two processes on one database): an account made on one process
opens seats on the other; a rated game between accounts changes their ratings once, told
to the table and shown by the ladder; a guest cannot sit at a rated table; a public table
is listed by every process and filled by bots when its wait is over; the same account
plays from two machines (two data directories); two processes that finish the same game at
once rate it once."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine import Rules
from coloretto.online.server.database import SharedDatabase, SqliteDatabase, StoreUrl, open_database
from coloretto.online.server.migrations import migrate
from coloretto.online.server.rooms import Room
from coloretto.online.server.standings import RatedGame, rate, rated_game
from coloretto.online.wire.accounts import (
    Account,
    export_text,
    fold_name,
    import_text,
    new_account,
    normalise_server,
    sign_challenge,
)
from coloretto.online.wire.protocol import Host
from coloretto.rating import NEW, bot_rating, rate_game
from tests.online.raw_ws import LEGIT, Player, Server, open_ws, receive, send, source


class Person(Player):
    """A player at a person's pace (the message budget is ten a second)."""

    async def turn(self) -> None:
        await asyncio.sleep(0.12)
        await super().turn()


@contextlib.contextmanager
def processes(tmp_path: Path, store: str | None, count: int) -> Iterator[list[Server]]:
    """``count`` server processes on ``store`` (``None``: each its own SQLite file)."""
    options = () if store is None else ("--store", store)
    started: list[Server] = []
    try:
        for number in range(count):
            started.append(Server(tmp_path / f"server{number}", options=options).start())
        yield started
    finally:
        for server in started:
            server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def two(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Where an account is made and where it plays: one process on SQLite, or two
    processes on one PostgreSQL database."""
    if request.param == "sqlite":
        with processes(tmp_path, None, 1) as (only,):
            yield only, only
    else:
        url = request.getfixturevalue("pg_url")
        with processes(tmp_path, url, 2) as (first, second):
            yield first, second


async def ask(server: Server, address: str, request: dict[str, Any], kind: str) -> dict[str, Any]:
    """One request before any opening, on a connection of its own; the answer."""
    ws = await open_ws(f"{server.url}/rooms", address)
    try:
        await send(ws, request)
        return await receive(ws, kind)
    finally:
        await ws.close()


async def register(server: Server, account: Account) -> None:
    key = base64.urlsafe_b64encode(account.public_key).decode().rstrip("=")
    answer = await ask(server, LEGIT, {"type": "register", "name": account.name, "key": key},
                       "account")  # fmt: skip
    assert answer["name"] == account.name


async def signed(
    server: Server,
    address: str,
    account: Account | None,
    opening: dict[str, Any],
    claimed: str | None = None,
) -> tuple[Any, dict[str, Any]]:
    """Open a seat on ``server`` (as ``account``, signed, its name spelt ``claimed`` in
    the claim if given, or as a guest); the connection and the first answer (a welcome,
    or an error)."""
    code = opening.get("room")
    ws = await open_ws(f"{server.url}/rooms" + (f"/{code}" if code else ""), address)
    if account is not None:
        await send(ws, {"type": "challenge"})
        nonce = base64.urlsafe_b64decode((await receive(ws, "challenge"))["nonce"] + "=")
        route = "host" if opening["type"] == "host" else f"{opening['type']} {code}"
        signature = sign_challenge(account, nonce, normalise_server(server.url), route)
        claim = {"name": claimed or account.name, "signature": signature}
        opening = {**opening, "account": claim}
    await send(ws, {"version": 1, **opening})
    return ws, await receive(ws)


def rated_host(**more: Any) -> dict[str, Any]:
    return {"type": "host", "name": "Ana", "rules": {"players": 3}, "bot": "easy",
            "delay": 0, "away_after": 60, "rated": True, **more}  # fmt: skip


def test_a_rated_game_between_accounts_changes_their_ratings_once(
    two: tuple[Server, Server],
) -> None:
    """Ana's account is made on one process, Ben's on the other; Ana hosts a rated
    table, a guest is refused a seat, Ben joins through the other process; once the game
    is over both are told their ratings before and after, and the ladder (asked of
    either process) lists the bot levels but neither account yet (one rated game each:
    the ladder lists accounts with three or more, ``test_budgets``)."""
    first, second = two

    async def test() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        ana = new_account(first.url, "Ana")
        ben = new_account(second.url, "Ben")
        await register(first, ana)
        await register(second, ben)
        ws_ana, welcome = await signed(first, LEGIT, ana, rated_host())
        assert welcome["type"] == "welcome", welcome
        code = welcome["room"]
        guest, refused = await signed(second, source("player", 9), None,
                                      {"type": "join", "room": code, "name": "Cy"})  # fmt: skip
        assert refused.get("code") == "account-needed", refused
        await guest.close()
        ws_ben, joined = await signed(second, source("player", 3), ben,
                                      {"type": "join", "room": code, "name": "Ben"})  # fmt: skip
        assert joined.get("seat") == 1, joined
        await send(ws_ana, {"type": "start"})
        players = [Person(ws_ana, await receive(ws_ana, "game"), 0),
                   Person(ws_ben, await receive(ws_ben, "game"), 1)]  # fmt: skip
        await asyncio.gather(*(player.play(1000, seconds=60) for player in players))
        told = [await receive(ws, "rated", 10) for ws in (ws_ana, ws_ben)]
        ladder = await ask(second, source("player", 4), {"type": "ladder"}, "ladder")
        again, _ = await signed(first, LEGIT, ana, rated_host(public=True))
        listed = await ask(second, source("player", 4), {"type": "tables"}, "tables")
        await again.close()
        return told, {**ladder, "listed": listed}

    told, ladder = asyncio.run(asyncio.wait_for(test(), 120))
    assert told[0] == told[1]
    changes = {change["name"]: change for change in told[0]["changes"]}
    assert set(changes) == {"Ana", "Ben"}, told
    assert all(change["before"] != change["after"] for change in changes.values()), told
    assert [entry for entry in ladder["entries"] if not entry["bot"]] == [], ladder
    bots = [entry for entry in ladder["entries"] if entry["bot"]]
    assert len(bots) >= 3, ladder
    (table,) = ladder["listed"]["tables"]  # the lobby shows Ana's new rating
    assert table["rated"]
    assert table["ratings"] == [changes["Ana"]["after"]], table


def test_a_public_table_is_listed_everywhere_and_filled_by_bots_after_its_wait(
    two: tuple[Server, Server],
) -> None:
    """A public table asks bots to fill it after 10 s: every process lists it (with the
    time left), a private table is not listed, and when the wait is over its host is
    dealt the game, bots in the free seats."""
    first, second = two

    async def test() -> tuple[dict[str, Any], dict[str, Any], float]:
        host, welcome = await signed(first, LEGIT, None, {"type": "host", "name": "Ana",
                                     "rules": {"players": 4}, "bot": "easy", "delay": 0,
                                     "away_after": 60, "public": True,
                                     "fill_after": 10})  # fmt: skip
        opened = time.monotonic()
        lobby = await receive(host, "lobby")
        assert lobby["public"] is True, lobby
        assert 0 < lobby["fill_in"] <= 10, lobby
        private, _ = await signed(first, source("player", 5), None,
                                  {"type": "host", "name": "Zoe", "rules": {"players": 3},
                                   "bot": "easy"})  # fmt: skip
        listed = await ask(second, source("player", 4), {"type": "tables"}, "tables")
        game = await receive(host, "game", 20)
        await private.close()
        return welcome, {"listed": listed, "game": game}, time.monotonic() - opened

    welcome, seen, waited = asyncio.run(asyncio.wait_for(test(), 60))
    (table,) = seen["listed"]["tables"]
    assert table["room"] == welcome["room"]
    assert table["seated"] == ["Ana"]
    assert 0 < table["fill_in"] <= 10
    assert Rules(**table["rules"]).players == 4
    assert 9 <= waited < 15, waited
    assert seen["game"]["players"][0]["name"] == "Ana"


def test_the_same_account_plays_from_two_machines(tmp_path: Path) -> None:
    """An account exported on one machine and imported on another (two data
    directories) opens seats from both: the same key signs both openings."""
    with processes(tmp_path, None, 1) as (server,):

        async def test() -> list[dict[str, Any]]:
            here = new_account(server.url, "Ana")
            await register(server, here)
            there = import_text(export_text(here))
            answers = []
            for number, account in enumerate((here, there)):
                ws, welcome = await signed(server, source("player", 10 + number), account,
                                           {"type": "host", "name": "Ana",
                                            "rules": {"players": 3}, "bot": "easy"})  # fmt: skip
                answers.append(welcome)
                await ws.close()
            return answers

        answers = asyncio.run(asyncio.wait_for(test(), 30))
    assert [answer["type"] for answer in answers] == ["welcome", "welcome"], answers


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_processes_that_rate_the_same_game_at_once_rate_it_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Two database connections (as two processes would have: the one that played the
    game and the one that took it over) rate the same finished game at the same moment:
    one changes the ratings, the other changes nothing."""
    url = (
        StoreUrl("sqlite", str(tmp_path / "rooms.sqlite3"))
        if kind == "sqlite"
        else StoreUrl("postgresql", request.getfixturevalue("pg_url"))
    )

    async def test() -> tuple[list[int], list[tuple[Any, ...]]]:
        one = await open_database(url, "coloretto-00000001")
        await migrate(one)
        two = (
            one
            if isinstance(one, SqliteDatabase)
            else await open_database(url, "coloretto-00000002")
        )
        for name in ("Ana", "Ben"):
            await one.execute(
                "INSERT INTO accounts (folded, name, key, created) VALUES (?, ?, ?, ?)",
                fold_name(name), name, "", 0.0,
            )  # fmt: skip
        game = RatedGame("ABCDEF", 1, (30, 20, 25), ("Ana", "Ben", None), "easy")
        results = await asyncio.gather(*(rate(db, game) for db in (one, two) for _ in range(3)))
        rows = await one.fetch("SELECT folded, games FROM ratings ORDER BY folded")
        for db in {id(one): one, id(two): two}.values():
            await db.close()
        assert isinstance(two, SharedDatabase | SqliteDatabase)
        return [len(changes) for changes in results], rows

    counts, rows = asyncio.run(test())
    assert sorted(counts) == [0, 0, 0, 0, 0, 2], counts
    assert rows == sorted([(fold_name("Ana"), 1), (fold_name("Ben"), 1)])


def finished_room(
    *, rated: bool, accounts: tuple[str | None, ...], cover: bool, leave: bool = False
) -> Room:
    """A 3-player room played to its end: Ana hosts (account ``accounts[0]``), Ben joins
    (``accounts[1]``), a bot in the third seat; ``cover``: a bot played one of Ana's
    moves while she was away; ``leave``: with that move, Ana left the game."""
    room, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=3), "easy", 0, 30, rated=rated),
                        accounts[0])  # fmt: skip
    room.join("Ben", accounts[1])
    room.start()
    rng = random.Random(7)
    while not room.session.game.is_over:
        mover = room.mover()
        room.session.apply(rng.choice(room.session.game.legal_actions()))
        if cover and mover == 0 and not room.covered:
            room.covered.append(room.ply - 1)
            room.note_move(0, 31.0, gone=leave)
    return room


def test_a_rated_table_of_accounts_is_rated_whoever_stood_in() -> None:
    """A rated game needs a rated table and every person under an account; a move a bot
    played for an absent person leaves it rated; the bots' seats are rated at their
    level, held."""
    game = rated_game(finished_room(rated=True, accounts=("Ana", "Ben"), cover=False))
    assert game is not None
    assert game.accounts == ("Ana", "Ben", None)
    assert game.level == "easy"
    assert game.left == frozenset()
    covered = rated_game(finished_room(rated=True, accounts=("Ana", "Ben"), cover=True))
    assert covered is not None
    assert covered.ranking_scores == covered.totals
    assert rated_game(finished_room(rated=False, accounts=("Ana", "Ben"), cover=False)) is None


def test_a_player_who_left_is_ranked_last_and_loses_rating_whatever_their_score() -> None:
    """Ana left (a bot played for her past the wait): the game stays rated, she ranks
    below Ben and the bot, whatever her seat scored, and her rating goes down."""
    room = finished_room(rated=True, accounts=("Ana", "Ben"), cover=True, leave=True)
    game = rated_game(room)
    assert game is not None
    assert game.left == {0}
    ranked = game.ranking_scores
    assert ranked[0] < min(ranked[1:])
    assert ranked[1:] == game.totals[1:]
    after = rate_game([NEW, NEW, bot_rating("easy")], list(ranked), fixed=[2])
    assert after[0].mu < NEW.mu
    assert after[0].mu < after[1].mu
