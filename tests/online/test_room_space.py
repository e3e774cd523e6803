"""The rooms in the server's database (``RoomSpace``), on a real SQLite file and on a
real PostgreSQL database (the ``store`` fixture: each test of a room's keeping runs on
both): snapshots and the actions kept since, whole saves, finished rooms and their
pruning, rows that are not what they claim, the schema's steps; and, on SQLite only (the
embedded database of one server's data directory), a process killed while it writes and
the files of older servers moved in once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coloretto.engine import Move, Rules
from coloretto.online.server.database import Database, StoreError, StoreUrl, open_database
from coloretto.online.server.legacy_files import MOVED, import_files
from coloretto.online.server.migrations import STEPS, migrate, schema_version
from coloretto.online.server.room_server import run_server
from coloretto.online.server.room_space import (
    KEEP_FINISHED,
    CodeTaken,
    RoomSpace,
    room_key,
    status_of,
)
from coloretto.online.server.rooms import Room
from coloretto.online.wire.protocol import CODE_ALPHABET, Host
from coloretto.online.wire.public import move_json
from coloretto.store.paths import DataDir
from coloretto.store.records import MAX_RECORD_BYTES, write_record
from tests.online.conftest import ROOT, kept_rooms
from tests.postgres import Postgres

LOG = logging.getLogger("test-room-space")
T = TypeVar("T")


# ------------------------------------------------------------------ helpers


def new_room(code: str = "ABCDEF", games: int = 1, players: int = 4) -> tuple[Room, str]:
    """A started room: two people (Ana hosts, Ben), bots in the other seats; returns it
    and Ben's token."""
    room, _ = Room.open(code, Host.of("Ana", Rules(players=players, games=games), "easy", 0, 30))
    _, token = room.join("Ben")
    room.start()
    return room, token


def step(room: Room, rng: random.Random) -> tuple[int, Move, bool]:
    """Play one action at random in ``room`` (a bot covering a person's seat one time in
    five); its number, the move and whether it was covered."""
    ply = room.ply
    move = room.session.apply(rng.choice(room.session.game.legal_actions()))
    covered = rng.random() < 0.2
    if covered:
        room.covered.append(ply)
    return ply, move, covered


async def play(space: RoomSpace, room: Room, actions: int, rng: random.Random) -> None:
    """Play and keep up to ``actions`` actions (fewer if the game ends)."""
    for _ in range(actions):
        if room.session.game.is_over:
            return
        await space.append(room.code, *step(room, rng))


def same(a: Room, b: Room) -> bool:
    return (
        a.session.game.history() == b.session.game.history()
        and a.session.game.setup == b.session.game.setup
        and a.covered == b.covered
        and a.people == b.people
        and a.started == b.started
        and a.session.match.game_number == b.session.match.game_number
        and a.session.match.results == b.session.match.results
    )


async def load(space: RoomSpace, code: str) -> Room:
    room = await space.load(code, LOG)
    assert room is not None, f"room {code} not loaded"
    return room


_MARK = re.compile(r"\?")


class Store:
    """One test's database, SQLite or PostgreSQL. ``in_space`` runs work on its rooms as
    a server does (``open_database``, ``RoomSpace.open``); ``execute`` and ``row`` reach
    its tables beside the server, as a person with ``sqlite3`` or ``psql`` would (to read
    rows back, and to damage them): the stdlib's ``sqlite3``, or a plain ``asyncpg``
    connection (``?`` placeholders made ``$1``, ``$2``…)."""

    def __init__(self, kind: str, target: str) -> None:
        self.kind = kind
        """``sqlite`` or ``postgresql``."""
        self.target = target
        """The SQLite file's path, or the PostgreSQL database's address."""

    @classmethod
    def sqlite(cls, path: Path) -> Store:
        return cls("sqlite", str(path))

    @property
    def path(self) -> Path:
        """The SQLite file."""
        assert self.kind == "sqlite", self.kind
        return Path(self.target)

    async def open(self) -> Database:
        """The database, opened as a server opens it (its tables not made or upgraded)."""
        return await open_database(StoreUrl(self.kind, self.target), "coloretto-0123abcd")

    def in_space(self, work: Callable[[RoomSpace], Awaitable[T]]) -> T:
        """Run ``work`` on the rooms of the database (opened, upgraded, closed)."""

        async def go() -> T:
            db = await self.open()
            try:
                return await work(await RoomSpace.open(db, "test"))
            finally:
                await db.close()

        return asyncio.run(go())

    def execute(self, sql: str, *args: object) -> None:
        """Run one statement, on a connection of its own."""
        self._raw(sql, args, fetch=False)

    def row(self, sql: str, *args: object) -> tuple[Any, ...] | None:
        """The first row of one query, on a connection of its own."""
        return self._raw(sql, args, fetch=True)

    def _raw(self, sql: str, args: tuple[object, ...], fetch: bool) -> tuple[Any, ...] | None:
        if self.kind == "sqlite":
            db = sqlite3.connect(self.target, isolation_level=None, timeout=10)
            try:
                found: tuple[Any, ...] | None = db.execute(sql, args).fetchone()
                return found if fetch else None
            finally:
                db.close()
        # a loop of its own in a thread of its own: called from inside the work run on the
        # space too (its loop running, waiting)
        with ThreadPoolExecutor(max_workers=1) as thread:
            return thread.submit(lambda: asyncio.run(self._pg(sql, args, fetch))).result()

    async def _pg(self, sql: str, args: tuple[object, ...], fetch: bool) -> tuple[Any, ...] | None:
        import asyncpg  # noqa: PLC0415 (the PostgreSQL tests only)

        numbers = iter(range(1, 1000))
        numbered = _MARK.sub(lambda _: f"${next(numbers)}", sql)
        connection = await asyncpg.connect(self.target)
        try:
            if fetch:
                found = await connection.fetchrow(numbered, *args)
                return None if found is None else tuple(found)
            await connection.execute(numbered, *args)
            return None
        finally:
            await connection.close()

    @contextlib.contextmanager
    def emptied(self) -> Iterator[Store]:
        """This store without a room (for each example of a property): on SQLite, a new
        file (deleted after); on PostgreSQL, this database with its rooms deleted (their
        actions go with them)."""
        if self.kind == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                yield Store.sqlite(Path(folder) / "rooms.sqlite3")
            return
        if self.row("SELECT to_regclass('rooms') IS NOT NULL") == (True,):
            self.execute("DELETE FROM rooms")
        yield self


@pytest.fixture(scope="module")
def pg_database(postgres: Postgres) -> str:
    """One database of the test PostgreSQL cluster for this module's tests (in this test
    process), emptied before each test (``store``): quicker than a new database each."""
    return postgres.database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """The test's database, empty: a SQLite file (in a folder not made yet), or the
    module's PostgreSQL database with nothing in it (its schema dropped and made again:
    no table, no row, no schema step)."""
    if request.param == "sqlite":
        return Store.sqlite(tmp_path / "data" / "rooms.sqlite3")
    store = Store("postgresql", request.getfixturevalue("pg_database"))
    store.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    assert store.row("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'") == (0,)
    return store


# ------------------------------------------------------------------ kept and read back


def test_a_room_played_to_the_end_comes_back_whole(store: Store) -> None:
    room, token = new_room()

    async def keep(space: RoomSpace) -> None:
        await space.create(room)
        await play(space, room, 1000, random.Random(1))

    store.in_space(keep)
    assert room.session.game.is_over
    assert room.covered
    again = store.in_space(lambda space: load(space, room.code))  # a new connection
    assert same(again, room)
    assert again.player_of(token) == 1
    assert again.ply == room.ply


def test_any_prefix_of_a_game_kept_comes_back_at_that_ply(store: Store) -> None:
    """A random game's first ``kept`` actions kept (a whole save after ``saved_at`` of
    them, if that comes first) come back at exactly that ply, move for move. Each example
    on a store without a room: 30 on SQLite, 10 on PostgreSQL (a connection each)."""

    @settings(
        max_examples=30 if store.kind == "sqlite" else 10,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        seed=st.integers(0, 2**32 - 1),
        players=st.integers(3, 5),
        kept=st.integers(0, 200),
        saved_at=st.integers(0, 200),
    )
    def check(seed: int, players: int, kept: int, saved_at: int) -> None:
        rng = random.Random(seed)
        room, _ = new_room(players=players)
        kept = min(kept, 1000)

        async def keep(space: RoomSpace) -> Room:
            await space.create(room)
            for number in range(kept):
                if room.session.game.is_over:
                    break
                if number == saved_at:
                    await space.save(room)
                await space.append(room.code, *step(room, rng))
            return await load(space, room.code)

        with store.emptied() as empty:
            again = empty.in_space(keep)
        assert again.ply == room.ply
        assert room.ply == kept or room.session.game.is_over
        assert same(again, room)

    check()


def test_a_whole_save_empties_the_actions_and_the_next_ones_follow_it(store: Store) -> None:
    room, _ = new_room()
    rng = random.Random(2)

    async def keep(space: RoomSpace) -> Room:
        await space.create(room)
        await play(space, room, 20, rng)
        assert store.row("SELECT COUNT(*) FROM room_actions") == (20,)
        await space.save(room)
        assert store.row("SELECT COUNT(*) FROM room_actions") == (0,)
        assert store.row("SELECT base FROM rooms WHERE code = ?", room.code) == (20,)
        await play(space, room, 20, rng)
        return await load(space, room.code)

    assert same(store.in_space(keep), room)
    assert room.ply == 40


def test_the_next_game_of_a_match_is_kept_after_its_deal(store: Store) -> None:
    room, _ = new_room(games=2)
    rng = random.Random(3)

    async def keep(space: RoomSpace) -> Room:
        await space.create(room)
        await play(space, room, 1000, rng)
        await space.set_status(room)
        assert await space.status(room.code) == "between"
        room.next_game(2)
        await space.save(room)
        await play(space, room, 30, rng)
        return await load(space, room.code)

    again = store.in_space(keep)
    assert same(again, room)
    assert again.session.match.game_number == 2


def test_a_new_room_does_not_take_a_kept_rooms_code(store: Store) -> None:
    room, _ = new_room()
    other, _ = new_room()

    async def keep(space: RoomSpace) -> None:
        await space.create(room)
        with pytest.raises(CodeTaken):
            await space.create(other)

    store.in_space(keep)
    assert store.row("SELECT COUNT(*) FROM rooms") == (1,)


def test_an_action_of_a_room_never_kept_is_refused(store: Store) -> None:
    room, _ = new_room()
    move = room.session.apply(room.session.game.legal_actions()[0])

    async def keep(space: RoomSpace) -> None:
        with pytest.raises(StoreError):
            await space.append(room.code, 0, move, False)

    store.in_space(keep)
    assert store.row("SELECT COUNT(*) FROM room_actions") == (0,)


def test_an_action_the_database_refuses_leaves_the_room_as_it_was(store: Store) -> None:
    """The same action kept twice (a server that lost track): refused, nothing changed."""
    room, _ = new_room()
    rng = random.Random(11)

    async def keep(space: RoomSpace) -> Room:
        await space.create(room)
        await play(space, room, 5, rng)
        last = room.session.game.history()[-1]
        with pytest.raises(StoreError):
            await space.append(room.code, 4, last, False)
        await play(space, room, 5, rng)
        return await load(space, room.code)

    assert same(store.in_space(keep), room)
    assert room.ply == 10


# ------------------------------------------------------------------ rows that do not fit


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda text: "not json", "not valid JSON"),
        (lambda text: text[: len(text) // 2], "not valid JSON"),
        (lambda text: text.replace('"ABCDEF"', '"QWERTY"'), "not this room's code"),
        (
            lambda text: text.replace('"started": true', '"x": ' + "[" * 50_000 + "]" * 50_000),
            "nested too deeply",
        ),
        (lambda text: text + " " * MAX_RECORD_BYTES, "larger than"),
    ],
    ids=["not json", "torn", "another room", "nested", "too large"],
)
def test_a_damaged_snapshot_is_logged_and_left_out(
    store: Store, caplog: pytest.LogCaptureFixture, damage: Callable[[str], str], said: str
) -> None:
    room, _ = new_room()
    other, _ = new_room("QWERTY")

    async def keep(space: RoomSpace) -> None:
        await space.create(room)
        await space.create(other)
        await play(space, room, 5, random.Random(12))

    store.in_space(keep)
    kept = store.row("SELECT record FROM rooms WHERE code = 'ABCDEF'")
    assert kept is not None
    store.execute("UPDATE rooms SET record = ? WHERE code = 'ABCDEF'", damage(kept[0]))

    async def read(space: RoomSpace) -> tuple[Room | None, Room | None]:
        return await space.load("ABCDEF", LOG), await space.load("QWERTY", LOG)

    damaged, fine = store.in_space(read)
    assert damaged is None
    assert fine is not None
    assert same(fine, other)
    assert "room ABCDEF not loaded" in caplog.text
    assert said in caplog.text
    assert store.row("SELECT COUNT(*) FROM rooms") == (2,)  # left alone, not deleted


def test_a_snapshot_not_at_its_base_replays_no_action(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Its row says it is at another action than its record: the actions kept since do
    not follow it, so none is played onto it."""
    room, _ = new_room()

    async def keep(space: RoomSpace) -> None:
        await space.create(room)
        await play(space, room, 6, random.Random(13))

    store.in_space(keep)
    store.execute("UPDATE rooms SET base = 3")
    again = store.in_space(lambda space: load(space, room.code))
    assert again.ply == 0
    assert "its snapshot is not at action 3: actions not replayed" in caplog.text


BAD_ACTIONS = [
    "not json at all",
    '{"ply": 11, "move": {"player": 0, "action": "draw"}}',
    '{"ply": true, "move": {"player": 0, "action": "draw"}}',
    '{"ply": 12, "move": {"player": 0, "action": "take 9"}}',
    '{"ply": 12, "move": {"player": 0, "action": "fly"}}',
    '{"ply": 12, "move": "draw"}',
    '{"ply": 12, "move": {"player": 0, "action": "draw"}, "covered": false}',
    '{"ply": 12, "move": {"player": 0, "action": "draw"}, "room": "../../x"}',
    '{"ply": 12, "move": {"player": 0, "action": "draw"}' + " " * 600 + "}",
    "[" * 400,
    "[" * 100_000,
]


@pytest.mark.parametrize("bad", BAD_ACTIONS, ids=lambda bad: bad[:30])
def test_an_action_row_that_does_not_fit_stops_the_replay_and_is_logged(
    store: Store, caplog: pytest.LogCaptureFixture, bad: str
) -> None:
    room, _ = new_room()
    rng = random.Random(7)

    async def keep(space: RoomSpace) -> None:
        await space.create(room)
        await play(space, room, 12, rng)

    store.in_space(keep)
    kept = room.session.game.history()
    store.execute("INSERT INTO room_actions VALUES ('ABCDEF', 12, ?)", bad)

    async def more(space: RoomSpace) -> Room:
        step(room, rng)  # action 13: the bad row holds its place
        await play(space, room, 5, rng)  # after the bad row: not replayed
        return await load(space, room.code)

    again = store.in_space(more)
    assert again.session.game.history() == kept
    assert "actions replayed up to action 13" in caplog.text
    assert store.row("SELECT COUNT(*) FROM room_actions") == (18,)  # left alone


def test_a_missing_action_stops_the_replay(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    room, _ = new_room()

    async def keep(space: RoomSpace) -> None:
        await space.create(room)
        await play(space, room, 12, random.Random(8))

    store.in_space(keep)
    store.execute("DELETE FROM room_actions WHERE ply = 7")
    again = store.in_space(lambda space: load(space, room.code))
    assert again.session.game.history() == room.session.game.history()[:7]
    assert "replayed up to out of order" in caplog.text


def test_a_card_that_does_not_match_the_deck_stops_the_replay(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    room, _ = new_room()
    game = room.session.game
    drawn = game.apply("draw").last_move
    assert drawn is not None
    assert drawn.card is not None
    other = next(c for c in game.unseen() if c != drawn.card)

    async def keep(space: RoomSpace) -> Room:
        await space.create(room)
        await space.append(room.code, 0, drawn._replace(card=other), False)
        return await load(space, room.code)

    assert store.in_space(keep).ply == 0
    assert "does not fit the game" in caplog.text


@pytest.mark.parametrize("code", ["../../etc/x", "ABCDE/", "abcdef", "ABCDEF' OR 1=1 --", ""])
def test_a_hostile_code_finds_no_room(store: Store, code: str) -> None:
    room, _ = new_room()

    async def ask(space: RoomSpace) -> tuple[object, ...]:
        await space.create(room)
        return await space.load(code, LOG), await space.status(code), await space.taken(code)

    assert store.in_space(ask) == (None, None, False)


# ------------------------------------------------------------------ status, finished rooms


def test_the_status_of_a_room_follows_its_match() -> None:
    lobby, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=3, games=2), "easy", 0, 30))
    assert status_of(lobby) == "lobby"
    room, _ = new_room(games=2)
    assert status_of(room) == "playing"
    rng = random.Random(14)
    while not room.session.game.is_over:
        step(room, rng)
    assert status_of(room) == "between"
    room.next_game(2)
    assert status_of(room) == "playing"
    while not room.session.game.is_over:
        step(room, rng)
    assert status_of(room) == "over"


def test_a_room_is_kept_with_its_status_and_taken_in_play_or_finished(store: Store) -> None:
    lobby, _ = Room.open("LBBYAA", Host.of("Ana", Rules(players=3), "easy", 0, 30))
    room, _ = new_room()

    async def keep(space: RoomSpace) -> list[object]:
        await space.create(lobby)
        await space.create(room)
        seen: list[object] = [await space.status("LBBYAA"), await space.status("ABCDEF")]
        await play(space, room, 1000, random.Random(15))
        seen.append(await space.status("ABCDEF"))  # the status follows a whole save…
        await space.set_status(room)
        seen.append(await space.status("ABCDEF"))  # …or a move that ends the game
        seen += [await space.taken("ABCDEF"), await space.taken("LBBYAA")]
        seen += [await space.taken("QWERTY"), await space.status("QWERTY")]
        seen.append(await space.active())
        return seen

    assert store.in_space(keep) == [
        "lobby", "playing", "playing", "over", True, True, False, None, ["LBBYAA"]
    ]  # fmt: skip


def test_a_finished_room_is_archived_and_loaded_on_demand(store: Store) -> None:
    room, token = new_room()

    async def keep(space: RoomSpace) -> list[object]:
        await space.create(room)
        await play(space, room, 1000, random.Random(9))
        await space.archive(room)
        again = await load(space, room.code)
        return [
            same(again, room),
            again.player_of(token),
            await space.active(),
            await space.status(room.code),
            await space.taken(room.code),  # a new room does not take a finished one's code
            await space.taken("QWERTY"),
        ]

    assert store.in_space(keep) == [True, 1, [], "over", True, False]
    assert store.row("SELECT COUNT(*) FROM room_actions") == (0,)
    assert store.row("SELECT finished IS NOT NULL FROM rooms") == (1,)


def test_finished_rooms_older_than_a_week_are_pruned_and_nothing_else(store: Store) -> None:
    now = time.time()

    async def keep(space: RoomSpace) -> list[object]:
        for code in ("AGEDAB", "FRESHA"):
            room, _ = new_room(code)
            await space.create(room)
            await play(space, room, 1000, random.Random(9))
            await space.archive(room)
        waiting, _ = new_room("WAYTNG")  # in play, untouched for months: never pruned
        await space.create(waiting)
        await play(space, waiting, 5, random.Random(9))
        store.execute(
            "UPDATE rooms SET finished = ? WHERE code = 'AGEDAB'", now - KEEP_FINISHED - 60
        )
        store.execute("UPDATE rooms SET updated = 0 WHERE code = 'WAYTNG'")
        return [
            await space.prune_finished(now),
            await space.status("AGEDAB"),
            await space.status("FRESHA"),
            await space.prune_finished(now + KEEP_FINISHED + 60),  # its week is up too
            await space.status("FRESHA"),
            await space.prune_finished(now + 100 * KEEP_FINISHED),
            (await load(space, "WAYTNG")).ply,
        ]

    assert store.in_space(keep) == [1, None, "over", 1, None, 0, 5]
    assert store.row("SELECT COUNT(*) FROM room_actions") == (5,)  # the pruned rooms' went too


def test_a_room_that_never_started_is_removed(store: Store) -> None:
    room, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=3), "easy", 0, 30))

    async def keep(space: RoomSpace) -> list[object]:
        await space.create(room)
        await space.remove("ABCDEF")
        await space.remove("ABCDEF")  # nothing left: fine
        return [await space.taken("ABCDEF"), await space.active()]

    assert store.in_space(keep) == [False, []]
    assert store.row("SELECT COUNT(*) FROM rooms") == (0,)


# ------------------------------------------------------------------ room keys, schema


@given(st.lists(st.text(CODE_ALPHABET, min_size=6, max_size=6), min_size=2, max_size=2))
def test_each_room_code_has_a_lock_key_of_its_own_below_two_to_the_thirty(
    codes: list[str],
) -> None:
    a, b = codes
    assert 0 <= room_key(a) < 2**30
    assert (room_key(a) == room_key(b)) == (a == b)


def test_room_keys_at_the_ends_of_the_alphabet() -> None:
    assert room_key("AAAAAA") == 0
    assert room_key("999999") == 2**30 - 1
    assert room_key("AAAABA") == len(CODE_ALPHABET)


def test_the_schema_steps_run_once_and_a_room_kept_stays(store: Store) -> None:
    room, _ = new_room()

    async def twice(space: RoomSpace) -> list[object]:
        await space.create(room)
        await play(space, room, 8, random.Random(16))
        again = await RoomSpace.open(space.db, "again")  # a server started again
        return [
            await migrate(space.db),
            await schema_version(space.db),
            await load(again, "ABCDEF"),
        ]

    ran, version, again = store.in_space(twice)
    assert ran == 0
    assert version == len(STEPS)
    assert isinstance(again, Room)
    assert same(again, room)
    assert store.row("SELECT COUNT(*) FROM schema_version") == (len(STEPS),)
    assert store.in_space(lambda space: schema_version(space.db)) == len(STEPS)


def test_a_database_newer_than_the_program_is_refused(store: Store) -> None:
    room, _ = new_room()

    async def keep(space: RoomSpace) -> None:
        await space.create(room)

    store.in_space(keep)
    store.execute("INSERT INTO schema_version (version) VALUES (?)", len(STEPS) + 1)
    with pytest.raises(StoreError, match=f"schema step {len(STEPS) + 1}, newer than"):
        store.in_space(lambda space: space.active())
    assert store.row("SELECT COUNT(*) FROM rooms") == (1,)  # refused, not touched


def test_a_fresh_database_gets_every_step(store: Store) -> None:
    """An empty database gets every step (a SQLite file's folder is made too)."""

    async def fresh() -> tuple[int, int]:
        db = await store.open()
        try:
            return await migrate(db), await schema_version(db)
        finally:
            await db.close()

    if store.kind == "sqlite":
        assert not store.path.parent.exists()
    assert asyncio.run(fresh()) == (len(STEPS), len(STEPS))
    if store.kind == "sqlite":
        assert store.path.is_file()


# ------------------------------------------------------------------ kill -9

CHILD = """
import asyncio, random, sys, time
from pathlib import Path
from coloretto.engine import Rules
from coloretto.online.server.database import SqliteDatabase
from coloretto.online.wire.protocol import Host
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.rooms import Room

async def main() -> None:
    db = SqliteDatabase(Path(sys.argv[1]))
    await db.open()
    space = await RoomSpace.open(db, "child")
    room, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=5), "easy", 0, 30))
    room.start()
    await space.create(room)
    rng = random.Random(int(sys.argv[2]))
    while not room.session.game.is_over:
        ply = room.ply
        move = room.session.apply(rng.choice(room.session.game.legal_actions()))
        await space.append("ABCDEF", ply, move, False)
        print(ply, flush=True)
        time.sleep(0.001)

asyncio.run(main())
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killed_between_two_actions_loses_at_most_the_one_being_written(
    tmp_path: Path, seed: int
) -> None:
    """After ``kill -9``, every action whose ``append`` returned is there, and at most one
    more (written, but not yet told). SQLite only: a child process appending to the
    embedded database's file (on PostgreSQL, a killed server process is
    ``test_shared_store``'s)."""
    store = Store.sqlite(tmp_path / "rooms.sqlite3")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(store.path), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert child.stdout is not None
    for line in child.stdout:
        if int(line) >= 10:
            break
    time.sleep(random.Random(seed).uniform(0, 0.05))
    child.send_signal(signal.SIGKILL)
    told = int([line, *child.stdout][-1])
    child.wait()
    again = store.in_space(lambda space: load(space, "ABCDEF"))
    assert again.ply in (told + 1, told + 2)


# ------------------------------------------------------------------ files of older servers


def write_old_room(rooms: Path, room: Room) -> None:
    """``room`` as a server before the database kept it: its snapshot in ``CODE.json``."""
    rooms.mkdir(parents=True, exist_ok=True)
    snapshot = room.snapshot()
    write_record(rooms / f"{room.code}.json", snapshot.state, snapshot.seats, snapshot.meta)


def write_old_log(rooms: Path, room: Room, actions: int, rng: random.Random) -> None:
    """Play ``actions`` actions in ``room`` (saved as it stands first) and write them to
    its ``CODE.log`` as an older server did: a header line naming the snapshot it
    follows, then one line per action."""
    lines = [json.dumps({"deal": "0123456789abcdef", "from": room.ply})]
    for _ in range(actions):
        ply = room.ply
        move = room.session.apply(rng.choice(room.session.game.legal_actions()))
        lines.append(json.dumps({"ply": ply, "move": move_json(move)}))
    (rooms / f"{room.code}.log").write_text("".join(line + "\n" for line in lines))


def play_only(room: Room, actions: int, rng: random.Random) -> None:
    for _ in range(actions):
        if not room.session.game.is_over:
            room.session.apply(rng.choice(room.session.game.legal_actions()))


def old_data_dir(root: Path) -> dict[str, Room]:
    """A data directory of an older server: a room in play (snapshot and log), one saved
    before logs were kept (no log), a finished room, and files that are no room."""
    rooms = root / "rooms"
    rng = random.Random(20)
    logged, _ = new_room("PLAYNG")
    play_only(logged, 9, rng)
    write_old_room(rooms, logged)
    write_old_log(rooms, logged, 7, rng)
    bare, _ = new_room("BARESS")
    play_only(bare, 4, rng)
    write_old_room(rooms, bare)
    done, _ = new_room("ENDEDA")
    play_only(done, 1000, rng)
    write_old_room(rooms / "finished", done)
    (rooms / "BRKENA.json").write_text("not json")
    (rooms / "notes.txt").write_text("mine")
    (rooms / "abcdef.json").write_text("{}")
    return {"PLAYNG": logged, "BARESS": bare, "ENDEDA": done}


def test_the_rooms_of_an_older_server_are_moved_in_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite only, as the server does it: an older server's files are moved into the
    embedded database of the same data directory."""
    data = DataDir(tmp_path / "home")
    rooms = old_data_dir(data.root)
    path = Store.sqlite(data.root / "rooms.sqlite3")

    async def move(space: RoomSpace) -> list[object]:
        moved = await import_files(space, data, LOG)
        again = await import_files(space, data, LOG)  # nothing left to move
        return [moved, again, await space.active(), await space.status("ENDEDA")]

    assert path.in_space(move) == [3, 0, ["BARESS", "PLAYNG"], "over"]
    assert not (data.root / "rooms").exists()
    assert (data.root / MOVED / "notes.txt").read_text() == "mine"  # kept, not deleted
    assert (data.root / MOVED / "PLAYNG.log").is_file()
    for code, room in rooms.items():
        again = path.in_space(lambda space, code=code: load(space, code))  # type: ignore[misc]
        assert same(again, room), code
    assert rooms["PLAYNG"].ply == 16
    assert "room not moved" in caplog.text
    assert "BRKENA.json: not valid JSON" in caplog.text


def test_a_room_already_in_the_database_is_not_moved_over_it(tmp_path: Path) -> None:
    """SQLite only (the files are moved into the embedded database only)."""
    data = DataDir(tmp_path / "home")
    rooms = old_data_dir(data.root)
    path = Store.sqlite(data.root / "rooms.sqlite3")
    newer, _ = new_room("PLAYNG")  # a room of the same code already in the database
    play_only(newer, 3, random.Random(21))

    async def move(space: RoomSpace) -> tuple[int, Room]:
        await space.create(newer)
        return await import_files(space, data, LOG), await load(space, "PLAYNG")

    moved, logged = path.in_space(move)
    assert moved == 2
    assert same(logged, newer)
    assert not same(logged, rooms["PLAYNG"])


@pytest.mark.parametrize(
    ("damage", "replayed", "said"),
    [
        (lambda lines: [*lines[:3], "not json", *lines[4:]], 2, "log replayed up to action 12"),
        (lambda lines: lines[:3] + lines[4:], 2, "log replayed up to action 12: kept as action 12"),
        (lambda lines: ['{"deal": "x", "from": 8}', *lines[1:]], 0, "does not follow its snapshot"),
        (lambda lines: ["", *lines[1:]], 0, "does not follow its snapshot"),
        (lambda lines: [*lines[:-1], lines[-1][:20]], 6, "log replayed up to action 16"),
    ],
    ids=["bad line", "a line missing", "another snapshot's", "no header", "torn last line"],
)
def test_a_damaged_log_is_replayed_up_to_its_damage(
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    damage: Callable[[list[str]], list[str]],
    replayed: int,
    said: str,
) -> None:
    """SQLite only (the files are moved into the embedded database only)."""
    data = DataDir(tmp_path / "home")
    rooms = old_data_dir(data.root)
    log = data.root / "rooms" / "PLAYNG.log"
    lines = log.read_text().splitlines()
    assert len(lines) == 8  # the header, then 7 actions from action 10
    log.write_text("\n".join(damage(lines)) + "\n")

    async def move(space: RoomSpace) -> Room:
        assert await import_files(space, data, LOG) == 3
        return await load(space, "PLAYNG")

    again = Store.sqlite(data.root / "rooms.sqlite3").in_space(move)
    assert again.session.game.history() == rooms["PLAYNG"].session.game.history()[: 9 + replayed]
    assert said in caplog.text


def test_a_server_started_on_an_older_servers_data_moves_its_rooms_in(tmp_path: Path) -> None:
    """``run_server`` on the data directory: the rooms are in its database (and resumed)
    before it says where it listens; the folder is renamed. SQLite only: the server moves
    files into its data directory's own database only."""
    data = DataDir(tmp_path)
    rooms = old_data_dir(data.root)

    async def serve() -> str:
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        serving = asyncio.create_task(run_server("127.0.0.1", 0, data, ready=ready.set_result))
        try:
            return await asyncio.wait_for(asyncio.shield(ready), 20)
        finally:
            serving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serving

    said = asyncio.run(serve())
    assert "(2 rooms resumed" in said
    assert (tmp_path / MOVED).is_dir()
    assert not (tmp_path / "rooms").exists()
    kept = {room.code: room for room in kept_rooms(tmp_path / "rooms.sqlite3")}
    assert sorted(kept) == sorted(rooms)
    assert same(kept["PLAYNG"], rooms["PLAYNG"])
    assert same(kept["ENDEDA"], rooms["ENDEDA"])
