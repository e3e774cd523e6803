"""Budgets that hold across processes (issue 57, "Sybils and spam"): two server processes
on one PostgreSQL database count accounts made and rooms opened per address together (a
stranger does not get a budget per process), accounts made on the whole server are capped,
the lobby lists a few tables per address and per account, the tables where people sit
first, and the ladder leaves out accounts with fewer than three rated games.

The budgets are counted in wall-clock windows (a minute, an hour); each test starts clear
of a window's end, so that a window that turns mid-test does not give a second budget."""

from __future__ import annotations

import asyncio
import base64
import os
import random
import string
import time
from pathlib import Path
from typing import Any

import asyncpg

from coloretto.online.server.limits import Limits
from coloretto.online.server.room_space import MAX_TABLES
from coloretto.online.server.standings import LADDER_GAMES
from coloretto.online.wire.accounts import fold_name, new_account
from tests.online.raw_ws import LEGIT, Server, open_ws, receive, send, source
from tests.online.test_shared_store import servers
from tests.online.test_standings import ask, register, signed

LIMITS = Limits()


def clear_of_window_ends(window: float, margin: float = 20.0) -> None:
    """Wait until the wall-clock window of ``window`` seconds has ``margin`` seconds left."""
    left = window - time.time() % window
    if left < margin:
        time.sleep(left + 0.5)


def run(test: Any, seconds: float = 90) -> Any:
    return asyncio.run(asyncio.wait_for(test(), seconds))


def a_name() -> str:
    return "Syb" + "".join(random.choices(string.ascii_lowercase, k=9))


async def try_register(server: Server, address: str) -> dict[str, Any]:
    """Ask ``server``, from ``address``, for a new account: its answer (``account`` or an
    error)."""
    key = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
    ws = await open_ws(f"{server.url}/rooms", address)
    try:
        await send(ws, {"type": "register", "name": a_name(), "key": key})
        return await receive(ws)
    finally:
        await ws.close()


def public_host(name: str = "Zoe") -> dict[str, Any]:
    return {"type": "host", "name": name, "rules": {"players": 4}, "bot": "easy", "delay": 0,
            "away_after": 60, "public": True}  # fmt: skip


def test_an_address_makes_ten_accounts_an_hour_on_all_processes_together(
    tmp_path: Path, pg_url: str
) -> None:
    """One address asks for 14 accounts, by turns of the two processes: 10 are made (its
    hourly budget), the next are refused (``too-many-tries``) whichever process is asked;
    another address may still make one."""
    clear_of_window_ends(3600)
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> tuple[list[dict[str, Any]], dict[str, Any]]:
            answers = [
                await try_register((first, second)[n % 2], source("crowd", 7)) for n in range(14)
            ]
            return answers, await try_register(second, source("crowd", 8))

        answers, other = run(test)
    kinds = [answer["type"] for answer in answers]
    assert kinds == ["account"] * LIMITS.registrations_per_hour + ["error"] * 4, answers
    assert {answer["code"] for answer in answers[10:]} == {"too-many-tries"}, answers
    assert other["type"] == "account", other


def test_accounts_made_on_the_whole_server_are_capped(tmp_path: Path, pg_url: str) -> None:
    """Three addresses ask for 10 accounts each, all at once, on both processes: 30 asked,
    each address within its own budget, but only 20 are made (the server's budget a
    minute); the others are refused (``too-many-tries``, saying so)."""
    clear_of_window_ends(60)
    clear_of_window_ends(3600)
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> list[dict[str, Any]]:
            return await asyncio.gather(*(
                try_register((first, second)[n % 2], source("crowd", 20 + n % 3))
                for n in range(30)
            ))  # fmt: skip

        answers = run(test)
    made = [answer for answer in answers if answer["type"] == "account"]
    refused = [answer for answer in answers if answer["type"] == "error"]
    assert len(made) == LIMITS.all_registrations_per_minute, answers
    assert len(refused) == 30 - len(made), answers
    assert all(answer["code"] == "too-many-tries" for answer in refused), refused
    assert all("on this server" in answer["message"] for answer in refused), refused


async def host_and_start(server: Server, address: str) -> str:
    """Host a room from ``address`` and start its game, then leave: ``welcome`` or the
    error's code."""
    ws = await open_ws(f"{server.url}/rooms", address)
    try:
        await send(ws, {"version": 1, "type": "host", "name": "Ana", "rules": {"players": 3},
                        "bot": "easy", "delay": 0, "away_after": 60})  # fmt: skip
        answer = await receive(ws)
        if answer["type"] != "welcome":
            return str(answer["code"])
        await send(ws, {"type": "start"})
        await receive(ws, "game")
        return "welcome"
    finally:
        await ws.close()


def test_rooms_opened_per_address_are_counted_on_all_processes_together(
    tmp_path: Path, pg_url: str
) -> None:
    """One address opens 13 rooms (each started, then left), by turns of the two
    processes: 10 are opened (its budget a minute), then ``too-many-rooms`` from either.
    Another address holds 3 rooms whose game has not started on the first process: its
    fourth, on the second process, is refused too."""
    clear_of_window_ends(60)
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> tuple[list[str], list[str]]:
            opened = [
                await host_and_start((first, second)[n % 2], source("hosts", 1)) for n in range(13)
            ]
            waiting = []
            held = []
            for server in (first, first, first, second):
                ws = await open_ws(f"{server.url}/rooms", source("hosts", 2))
                held.append(ws)
                await send(ws, {"version": 1, **public_host()})
                answer = await receive(ws)
                waiting.append(answer["type"] if answer["type"] == "welcome" else answer["code"])
            for ws in held:
                await ws.close()
            return opened, waiting

        opened, waiting = run(test)
    assert opened == ["welcome"] * LIMITS.rooms_per_minute + ["too-many-rooms"] * 3, opened
    assert waiting == ["welcome"] * 3 + ["too-many-rooms"], waiting


def test_rooms_asked_for_at_once_from_one_address_are_each_counted(
    tmp_path: Path, pg_url: str
) -> None:
    """One address asks each process for 5 rooms at once (a stranger's script does not
    wait for answers): 3 rooms whose game has not started at most are opened in all
    (per process the rooms are opened one at a time, each counting those before)."""
    clear_of_window_ends(60)
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> list[str]:
            async def one(server: Server) -> tuple[str, Any]:
                ws = await open_ws(f"{server.url}/rooms", source("hosts", 4))
                await send(ws, {"version": 1, **public_host()})
                answer = await receive(ws)
                return answer["type"] if answer["type"] == "welcome" else answer["code"], ws

            first_five = await asyncio.gather(*(one(first) for _ in range(5)))
            second_five = await asyncio.gather(*(one(second) for _ in range(5)))
            for _, ws in first_five + second_five:
                await ws.close()
            return [outcome for outcome, _ in first_five + second_five]

        outcomes = run(test)
    assert sorted(outcomes) == ["too-many-rooms"] * 7 + ["welcome"] * 3, outcomes


def test_the_lobby_lists_a_few_tables_per_host_and_people_first(
    tmp_path: Path, pg_url: str
) -> None:
    """A table where two people sit (Ana's, Ben joined through the other process), then
    an older table of one (Cy's), then 8 addresses open 3 public tables each and one
    account opens 3 from three addresses: the lobby (asked of either process) lists Ana's
    table first, Cy's second, at most 2 tables of any address and of the account."""
    clear_of_window_ends(60)
    with servers(tmp_path, pg_url) as (first, second):

        async def test() -> tuple[dict[str, Any], dict[str, Any], dict[str, list[str]], str]:
            held = []
            cy, welcome = await signed(first, source("player", 5), None, public_host("Cy"))
            held.append(cy)
            cy_room = welcome["room"]
            ana, welcome = await signed(first, LEGIT, None, public_host("Ana"))
            held.append(ana)
            ana_room = welcome["room"]
            join = {"type": "join", "room": ana_room, "name": "Ben"}
            ben, joined = await signed(second, source("player", 3), None, join)
            held.append(ben)
            assert joined["type"] == "welcome", joined
            rooms: dict[str, list[str]] = {}
            for number in range(1, 9):
                for turn in range(3):
                    server = (first, second)[turn % 2]
                    ws, welcome = await signed(
                        server, source("attack", number), None, public_host()
                    )
                    held.append(ws)
                    assert welcome["type"] == "welcome", welcome
                    rooms.setdefault(f"address {number}", []).append(welcome["room"])
            zed = new_account(first.url, "Zed")
            await register(first, zed)
            for number in range(3):
                server = (first, second)[number % 2]
                address = source("crowd", 40 + number)
                ws, welcome = await signed(server, address, zed, public_host("Zed"))
                held.append(ws)
                assert welcome["type"] == "welcome", welcome
                rooms.setdefault("account Zed", []).append(welcome["room"])
            await asyncio.sleep(0.5)
            lists = [await ask(server, source("player", 9), {"type": "tables"}, "tables")
                     for server in (first, second)]  # fmt: skip
            for ws in held:
                await ws.close()
            return lists[0], lists[1], rooms, f"{ana_room} {cy_room}"

        listed, again, rooms, firsts = run(test)
    codes = [table["room"] for table in listed["tables"]]
    assert codes == [table["room"] for table in again["tables"]]
    assert codes[:2] == firsts.split(), listed
    assert listed["tables"][0]["seated"] == ["Ana", "Ben"], listed
    shown = {host: sum(code in codes for code in kept) for host, kept in rooms.items()}
    assert shown == dict.fromkeys(rooms, 2), shown
    assert len(codes) == 2 + 2 * len(rooms) <= MAX_TABLES, codes


def test_the_ladder_lists_accounts_with_three_rated_games_or_more(
    tmp_path: Path, pg_url: str
) -> None:
    """Accounts rated after 1, 2 and 3 games (kept in the database as a rated game keeps
    them), the newer two rated higher: the ladder (asked of either process) lists the one
    with 3 games only."""
    with servers(tmp_path, pg_url) as (first, second):

        async def seed() -> None:
            db = await asyncpg.connect(pg_url)
            try:
                for name, mu, games in (("Newa", 40.0, 1), ("Newb", 40.0, 2), ("Vet", 25.0, 3)):
                    key = base64.b64encode(os.urandom(32)).decode()
                    await db.execute("INSERT INTO accounts (folded, name, key, created)"
                                     " VALUES ($1, $2, $3, $4)", fold_name(name), name, key,
                                     time.time())  # fmt: skip
                    await db.execute("INSERT INTO ratings (folded, mu, sigma, games)"
                                     " VALUES ($1, $2, $3, $4)", fold_name(name), mu, 2.0,
                                     games)  # fmt: skip
            finally:
                await db.close()

        async def test() -> list[dict[str, Any]]:
            await seed()
            return [await ask(server, source("player", 4), {"type": "ladder"}, "ladder")
                    for server in (first, second)]  # fmt: skip

        ladders = run(test)
    assert LADDER_GAMES == 3
    for ladder in ladders:
        people = [entry["name"] for entry in ladder["entries"] if not entry["bot"]]
        assert people == ["Vet"], ladder
