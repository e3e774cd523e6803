"""The clock of a public or rated table (issue 57): a connected player who never moves
cannot freeze the table, a player who leaves a rated game while losing is ranked last in
its rating, and a game is rated with its last move or not at all. Real server processes
on loopback (two on one PostgreSQL for the rated game, as a public server runs)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from coloretto.engine import Rules, new_game
from coloretto.online.client.clock_face import ClockFace
from coloretto.online.client.remote_table import RemoteTable, RemoteView
from coloretto.online.server.database import StoreError, StoreUrl, open_database
from coloretto.online.server.limits import Limits
from coloretto.online.server.room_server import run_server
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.rooms import Room
from coloretto.online.server.standings import StoredAccounts
from coloretto.online.wire.accounts import fold_name, new_account, normalise_server, sign_challenge
from coloretto.online.wire.clock import Clock
from coloretto.online.wire.messages import GameMessage, MoveMessage, Timing
from coloretto.online.wire.protocol import Host, Join, encode
from coloretto.online.wire.public import PublicSetup, parse_move
from coloretto.play import config
from coloretto.play.keeper import Keeper
from coloretto.play.table import TableNews
from coloretto.play.table_view import Mover
from coloretto.rating import NEW
from coloretto.store.paths import DataDir
from coloretto.tui.screens.online_game import online_turn_prompt, with_clock
from tests.online.raw_ws import LEGIT, Player, Server, open_ws, receive, running, send, source
from tests.online.test_standings import Person, ask, processes, register, signed

FAST = "fast=3+1"
"""A clock short enough for a test: 3 s a game, 1 s more after each move."""


def test_a_player_who_never_moves_cannot_freeze_the_table(tmp_path: Path) -> None:
    """Ana hosts a public table (it gets the server's clock), starts, stays connected and
    never moves: her time runs out, a bot plays for her (each such move marked), after
    three timeouts she has left and a bot plays the rest at once, and the game ends."""
    with running(Server(tmp_path / "server", options=("--clock", FAST))) as server:

        async def test() -> tuple[dict[str, Any], list[dict[str, Any]], float]:
            ws, welcome = await signed(server, LEGIT, None, {"type": "host", "name": "Ana",
                                       "rules": {"players": 3}, "bot": "easy", "delay": 0,
                                       "away_after": 600, "public": True})  # fmt: skip
            assert welcome["type"] == "welcome", welcome
            lobby = await receive(ws, "lobby")
            await send(ws, {"type": "start"})
            started = time.monotonic()
            game = await receive(ws, "game")
            seat = Player(ws, game, 0)
            mine = []
            while not seat.model.state.is_over:
                message = await receive(ws, "move", 30)
                before = seat.model.state
                seat.model.add(message["ply"], parse_move(message["move"]))
                if before.rules.controller(before.current_player) == 0:
                    mine.append(message)
            await receive(ws, "over", 10)
            await ws.close()
            return lobby, mine, time.monotonic() - started

        lobby, mine, took = asyncio.run(asyncio.wait_for(test(), 120))
    assert lobby["clock"] == {"name": "fast", "bank": 3.0, "increment": 1.0, "per_move": False}
    assert len(mine) > 10
    assert all(move.get("covered") for move in mine), mine[:3]
    timeouts = [n for n, move in enumerate(mine) if move.get("timeout")]
    assert timeouts == [0, 1, 2], timeouts  # then she has left: no clock waits for her
    assert [n for n, move in enumerate(mine) if move.get("left")] == [2]
    assert took < 60, took


def test_a_player_who_leaves_a_rated_game_is_ranked_last_and_it_stays_rated(
    tmp_path: Path, pg_url: str
) -> None:
    """Ana hosts a rated table on one process, Ben joins through the other; after some
    moves Ben disconnects for good. A bot plays for him once he has been away the table's
    wait; the game goes on to its end and is rated: Ben (who left) loses rating and ranks
    below Ana, whatever his seat scored; no bot is rated."""
    with processes(tmp_path, pg_url, 2) as (first, second):

        async def test() -> dict[str, Any]:
            ana, ben = new_account(first.url, "Ana"), new_account(second.url, "Ben")
            await register(first, ana)
            await register(second, ben)
            host = {"type": "host", "name": "Ana", "rules": {"players": 3}, "bot": "easy",
                    "delay": 0, "away_after": 1, "rated": True}  # fmt: skip
            ws_ana, welcome = await signed(first, LEGIT, ana, host)
            code = welcome["room"]
            join = {"type": "join", "room": code, "name": "Ben"}
            ws_ben, joined = await signed(second, source("player", 3), ben, join)
            assert joined.get("seat") == 1, joined
            await receive(ws_ana, "lobby")
            await send(ws_ana, {"type": "start"})
            players = [Person(ws_ana, await receive(ws_ana, "game"), 0),
                       Person(ws_ben, await receive(ws_ben, "game"), 1)]  # fmt: skip
            anas = asyncio.create_task(players[0].play(1000, seconds=120))
            await players[1].play(12, seconds=60)
            ws_ben.transport.abort()  # Ben leaves without a word, on his turn
            await anas
            rated = await receive(ws_ana, "rated", 15)
            await ws_ana.close()
            return rated

        rated = asyncio.run(asyncio.wait_for(test(), 180))
    changes = {change["name"]: change for change in rated["changes"]}
    assert set(changes) == {"Ana", "Ben"}, rated  # the bot that stood in is not rated
    assert changes["Ben"]["after"] < changes["Ben"]["before"], rated
    assert changes["Ben"]["after"] < changes["Ana"]["after"], rated


def test_the_lobby_lists_each_tables_clock_and_a_private_table_may_have_none(
    tmp_path: Path,
) -> None:
    """A public table without a named clock gets the server's default (``standard``), a
    host may name another of the server's profiles, a private table has none unless its
    host names one, and a clock the server does not have is refused, naming the ones it
    has."""
    with processes(tmp_path, None, 1) as (server,):

        async def test() -> list[Any]:
            seen: list[Any] = []
            base = {"type": "host", "name": "Ana", "rules": {"players": 3}, "bot": "easy"}
            for number, more in enumerate(
                [{"public": True}, {"public": True, "clock": "quick"}, {}, {"clock": "turn"}],
                start=1,
            ):
                ws, _ = await signed(server, source("hosts", number), None, {**base, **more})
                seen.append((await receive(ws, "lobby")).get("clock"))
                await ws.close()
            ws, refused = await signed(server, LEGIT, None, {**base, "clock": "bullet"})
            await ws.close()
            seen.append(refused)
            listed = await ask(server, LEGIT, {"type": "tables"}, "tables")
            seen.append(sorted(table["clock"]["name"] for table in listed["tables"]))
            return seen

        standard, quick, private, turn, refused, listed = asyncio.run(asyncio.wait_for(test(), 60))
    assert standard == {"name": "standard", "bank": 180.0, "increment": 10.0, "per_move": False}
    assert quick["name"] == "quick"
    assert private is None
    assert turn == {"name": "turn", "bank": 30.0, "increment": 30.0, "per_move": True}
    assert refused["code"] == "bad-request", refused
    assert "quick, standard, relaxed, turn" in refused["message"], refused
    assert listed == ["quick", "standard"]


def test_a_game_is_rated_with_its_last_move_or_not_at_all(tmp_path: Path) -> None:
    """The last move of a rated game, the room's status and the ratings are kept in one
    transaction: when the ratings cannot be written, the last move is not kept either (it
    is played again, and rated then), and a game is rated once however often it ends."""
    path = tmp_path / "rooms.sqlite3"

    async def test() -> list[Any]:
        db = await open_database(StoreUrl("sqlite", str(path)), "test")
        space = await RoomSpace.open(db, "test")
        for name in ("Ana", "Ben"):
            await StoredAccounts(db).create(name, fold_name(name), bytes(32))
        room, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=3), "easy", 0, 30, rated=True),
                            "Ana")  # fmt: skip
        room.join("Ben", "Ben")
        room.start()
        await space.create(room)
        rng = random.Random(3)
        while True:
            move = room.session.apply(rng.choice(room.session.game.legal_actions()))
            if room.session.game.is_over:
                break
            await space.append(room.code, room.ply - 1, move, False)
        kept_before = await db.fetch("SELECT COUNT(*) FROM room_actions")
        await db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON ratings BEGIN"
            " SELECT RAISE(ABORT, 'disk full'); END"
        )
        seen: list[Any] = []
        with pytest.raises(StoreError):
            await space.end_game(room, move, False)
        seen.append(await db.fetch("SELECT COUNT(*) FROM room_actions") == kept_before)
        seen.append(await db.fetch("SELECT COUNT(*) FROM rated_games"))
        seen.append(await space.status(room.code))
        await db.execute("DROP TRIGGER refuse")
        seen.append(len(await space.end_game(room, move, False)))
        await db.execute("DELETE FROM room_actions WHERE ply = ?", room.ply - 1)
        seen.append(len(await space.end_game(room, move, False)))  # ended twice: rated once
        seen.append(await db.fetch("SELECT COUNT(*) FROM rated_games"))
        seen.append(await space.status(room.code))
        await db.close()
        return seen

    seen = asyncio.run(test())
    assert seen == [True, [(0,)], "playing", 2, 0, [(1,)], "over"], seen
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM ratings").fetchone() == (2,)


def test_the_board_shows_the_time_left_and_the_table_tells_timeouts_and_leaving(
    tmp_path: Path,
) -> None:
    """Jo's table (seat 1 of Ana's clocked table): the turn bar adds the time the player to
    move has left, counting down; a move played for Ana when her time ran out, and the
    one with which she left, are news in words."""
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=2), "easy", 0.0, 5.0),
                        clock=Clock("quick", 60.0, 5.0))  # fmt: skip
    room.join("Jo")
    room.start()
    table = RemoteTable("127.0.0.1:7787", Join("ABC234", "Jo"), Keeper(DataDir(tmp_path)))
    told: list[object] = []
    table.subscribe(told.append)
    welcome = {"type": "welcome", "version": 1, "room": "ABC234", "seat": 1, "token": "t" * 32}
    assert table.handle(json.dumps(welcome))
    session, game = room.session, room.session.game
    timing = Timing(room.table.clock, (42.0, 60.0), (0, 0), ())
    assert table.handle(
        encode(GameMessage.of(room.code, session.id, 1, game.rules, session.config.players,
                           room.level, 0.0, 5.0, PublicSetup.of(game.setup), game.history(),
                           timing=timing))
    )  # fmt: skip
    now = time.monotonic()
    mover = game.rules.controller(game.current_player)
    prompt = with_clock(Text("Ana's turn"), table.view, table.machine.clock, now + 10)
    expected = {0: "0:32", 1: "0:50"}[mover]  # the mover's time runs
    assert prompt.plain == f"Ana's turn · {expected} left"
    actions = []
    for timeout, left in ((True, False), (True, True)):
        player = room.mover()
        move = room.session.apply(room.session.game.legal_actions()[0])
        actions.append(player)
        message = MoveMessage.of(room.ply - 1, move, True, 5.0, timeout, left)
        assert table.handle(encode(message))
    news = [event.text for event in told if isinstance(event, TableNews)]
    names = {0: "Ana's", 1: "Your"}
    assert news[0] == (
        f"{names[actions[0]]} time ran out: a bot played that move (1 of 3; at 3 a bot plays "
        "the rest of the game)."
    )
    assert news[-1] in {
        "Ana has left the game: a bot plays for them to its end.",
        "You have left the game: a bot plays for you to its end.",
    }


def test_a_host_who_stays_cannot_stall_a_clocked_match_between_games(tmp_path: Path) -> None:
    """Ana hosts a two-game match at a clocked table, plays the first game with the bots
    and then neither deals the next game nor leaves: the server tells when it will deal it
    (the clock's bank after the end) and deals it then."""
    with running(Server(tmp_path / "server", options=("--clock", FAST))) as server:

        async def test() -> tuple[dict[str, Any], dict[str, Any], float]:
            ws, _ = await signed(server, LEGIT, None, {"type": "host", "name": "Ana",
                                 "rules": {"players": 3}, "games": 2, "bot": "easy",
                                 "delay": 0, "away_after": 600, "clock": "fast"})  # fmt: skip
            await receive(ws, "lobby")
            await send(ws, {"type": "start"})
            ana = Person(ws, await receive(ws, "game"), 0)
            await ana.play(1000, seconds=60)
            await receive(ws, "over", 10)
            ended = time.monotonic()
            presence = await receive(ws, "presence", 10)
            second = await receive(ws, "game", 15)
            waited = time.monotonic() - ended
            await ws.close()
            return presence, second, waited

        presence, second, waited = asyncio.run(asyncio.wait_for(test(), 120))
    assert presence["away"] == [], presence
    assert 0 < presence["next_in"] <= 3, presence
    assert second["match"]["game"] == 2, second
    assert 1.5 < waited < 10, waited


def test_the_turn_bar_says_a_bot_plays_for_a_player_out_of_time() -> None:
    """Once a player ran out of time three times the turn bar says a bot plays their turn
    (their own screen too, which then offers no move), and shows no clock for it."""
    rules = Rules(players=3)
    seats = (config.Player("Ana"), config.Player("Ben"), config.Player("Bot 1", "easy"))
    table = config.GameConfig(rules, seats)
    game = new_game(rules, seed=1)
    while rules.controller(game.current_player) != 0:
        game = game.apply(game.legal_actions()[0])
    for here, expected in (
        (0, "Your turn (Ana): a bot plays it for you to the end of the game (you ran out of "
            "time 3 times)…"),
        (1, "Ana's turn: a bot plays it for Ana to the end of the game (out of time 3 "
            "times)…"),
    ):  # fmt: skip
        view = RemoteView(table, game, "id", here=here)
        view.out_of_time = frozenset({0})
        assert view.mover(game.current_player) is Mover.BOT
        prompt = online_turn_prompt(view, away_after=30)
        assert prompt.plain == expected
        face = ClockFace()
        face.told(Timing(Clock("quick", 60, 5), (10.0, 60.0, 60.0), (3, 0, 0), (0,)), now=0)
        assert with_clock(prompt, view, face, 1.0).plain == expected


def test_a_rated_game_against_bots_left_by_its_only_person_is_played_out_and_rated(
    tmp_path: Path,
) -> None:
    """Ana plays a rated table alone with two bots and leaves at move 12. Bots stop
    thinking for a room nobody is in (after 0.5 s here; it leaves the memory after 1.5 s),
    but not for a rated game: leaving must not escape it. The game is played to its end,
    and Ana, who left, is ranked last: her rating goes down."""
    database = tmp_path / "rooms.sqlite3"

    async def test() -> list[Any]:
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        limits = Limits(alone_seconds=0.5, idle_seconds=1.5)
        serving = asyncio.create_task(
            run_server("127.0.0.1", 0, DataDir(tmp_path), limits=limits, ready=ready.set_result)
        )
        url = "ws://" + (await ready).split("ws://", 1)[1].split()[0]
        try:
            ana = new_account(url, "Ana")
            key = base64.urlsafe_b64encode(ana.public_key).decode().rstrip("=")
            ws = await open_ws(f"{url}/rooms", LEGIT)
            await send(ws, {"type": "register", "name": "Ana", "key": key})
            await receive(ws, "account")
            await ws.close()
            ws = await open_ws(f"{url}/rooms", LEGIT)
            await send(ws, {"type": "challenge"})
            nonce = base64.urlsafe_b64decode((await receive(ws, "challenge"))["nonce"] + "=")
            signature = sign_challenge(ana, nonce, normalise_server(url), "host")
            await send(ws, {"type": "host", "version": 1, "name": "Ana",
                            "rules": {"players": 3}, "bot": "easy", "delay": 0.1,
                            "away_after": 0.5, "rated": True,
                            "account": {"name": "Ana", "signature": signature}})  # fmt: skip
            await receive(ws, "lobby")
            await send(ws, {"type": "start"})
            await Player(ws, await receive(ws, "game"), 0).play(12, seconds=60)
            ws.transport.abort()
            rows: list[Any] = []
            async with asyncio.timeout(90):
                while not rows:
                    await asyncio.sleep(0.5)
                    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
                        rows = db.execute("SELECT mu, games FROM ratings").fetchall()
            return rows
        finally:
            serving.cancel()

    ((mu, games),) = asyncio.run(asyncio.wait_for(test(), 120))
    assert games == 1
    assert mu < NEW.mu
