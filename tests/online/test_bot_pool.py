"""The server's bot pool shares its workers fairly between rooms."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

from coloretto.bots.guard import Answer
from coloretto.engine import GameState, Rules, new_game
from coloretto.online.server import bot_pool
from coloretto.online.server.bot_pool import HEAVY, BotPool, Question
from coloretto.online.server.limits import AddressBook, Limits, address_key

GAME = new_game(seed=1)


def in_thread(_pool: BotPool, end: socket.socket) -> None:
    """A worker that answers in a thread of this process (``bot_pool.serve``)."""
    threading.Thread(target=bot_pool.serve, args=(end,), daemon=True).start()


def thinking(order: list[str], seconds: float) -> object:
    """A stand-in for ``think`` that takes ``seconds`` and notes whose move it made."""

    def think(question: Question) -> Answer:
        order.append(question.room)
        time.sleep(seconds)
        return Answer(GAME.legal_actions()[0], seconds)

    return think


@pytest.fixture
def order(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Moves made, by room, in a pool whose workers are threads that think 50 ms."""
    made: list[str] = []
    monkeypatch.setattr(bot_pool, "think", thinking(made, 0.05))
    monkeypatch.setattr(BotPool, "_spawn", in_thread)
    return made


async def ask(
    pool: BotPool,
    room: str,
    spec: str = "greedy",
    state: GameState = GAME,
    owner: str | None = None,
) -> Answer:
    specs = dict.fromkeys(range(state.rules.players), spec)
    return await pool.choose(room, specs, seed=1, state=state, limit=5, owner=owner)


def test_the_room_that_used_the_workers_least_goes_first(order: list[str]) -> None:
    async def play() -> None:
        pool = BotPool(1, pipeline=1)
        now = asyncio.get_running_loop().time()
        pool._used["hog"] = (4.0, now)
        busy = asyncio.create_task(ask(pool, "first"))
        await asyncio.sleep(0.01)
        waiting = [asyncio.create_task(ask(pool, room)) for room in ("hog", "light")]
        await asyncio.gather(busy, *waiting)
        pool.shutdown()

    asyncio.run(play())
    assert order == ["first", "light", "hog"]


def test_rooms_that_think_hard_leave_one_worker_to_the_others(order: list[str]) -> None:
    async def play() -> None:
        pool = BotPool(2, pipeline=1)
        now = asyncio.get_running_loop().time()
        for hog in ("hog1", "hog2"):
            pool._used[hog] = (HEAVY + 1, now)
        hogs = [asyncio.create_task(ask(pool, hog)) for hog in ("hog1", "hog2")]
        await asyncio.sleep(0.01)
        light = asyncio.create_task(ask(pool, "light"))
        await asyncio.gather(*hogs, light)
        pool.shutdown()

    asyncio.run(play())
    assert order == ["hog1", "light", "hog2"]  # hog2 waited: one worker is the light rooms'


def test_the_rooms_of_one_address_count_as_one(order: list[str]) -> None:
    """An address whose bots thought hard opens a new room: the new room's move waits
    behind another address's, as its other rooms' would."""

    async def play() -> None:
        pool = BotPool(1, pipeline=1)
        now = asyncio.get_running_loop().time()
        pool._used["10.0.0.9"] = (HEAVY + 1, now)
        busy = asyncio.create_task(ask(pool, "first"))
        await asyncio.sleep(0.01)
        waiting = [
            asyncio.create_task(ask(pool, "new", owner="10.0.0.9")),
            asyncio.create_task(ask(pool, "light", owner="10.0.0.1")),
        ]
        await asyncio.gather(busy, *waiting)
        pool.shutdown()

    asyncio.run(play())
    assert order == ["first", "light", "new"]


def test_an_address_has_one_move_at_a_time_in_a_worker(order: list[str]) -> None:
    """Three rooms of one address ask at once, then (at once too) another address's room: the moves
    handed to the worker ahead are each another address's, so the other room's move
    comes second, not behind all three."""

    async def play() -> None:
        pool = BotPool(1, pipeline=4)
        crowd = [asyncio.create_task(ask(pool, f"crowd{n}", owner="10.0.0.9")) for n in range(3)]
        other = asyncio.create_task(ask(pool, "other", owner="10.0.0.1"))
        await asyncio.gather(*crowd, other)
        pool.shutdown()

    asyncio.run(play())
    assert order == ["crowd0", "other", "crowd1", "crowd2"]


def test_a_light_room_leaves_a_worker_busy_with_a_hard_thinker(
    order: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A light room that lives in the first worker asks while a heavy address's move is
    there: it goes to the last worker (kept for light rooms), not behind that move."""
    monkeypatch.setattr(bot_pool, "think", thinking(order, 0.5))

    async def play() -> None:
        pool = BotPool(2, pipeline=1)
        pool._home["light"] = 0
        now = asyncio.get_running_loop().time()
        pool._used["10.0.0.9"] = (HEAVY + 1, now)
        hog = asyncio.create_task(ask(pool, "hog", owner="10.0.0.9"))
        await asyncio.sleep(0.01)
        assert pool._home["hog"] == 0
        await ask(pool, "light", owner="10.0.0.1")
        assert pool._home["light"] == 1  # beside the hog's move, not behind it
        await hog
        pool.shutdown()

    asyncio.run(play())


def test_a_cancelled_wait_gives_its_turn_to_the_next_room(order: list[str]) -> None:
    async def play() -> None:
        pool = BotPool(1, pipeline=1)
        busy = asyncio.create_task(ask(pool, "first"))
        await asyncio.sleep(0.01)
        gone = asyncio.create_task(ask(pool, "gone"))
        later = asyncio.create_task(ask(pool, "later"))
        await asyncio.sleep(0.01)
        gone.cancel()
        await asyncio.gather(busy, later)
        pool.shutdown()

    asyncio.run(play())
    assert order == ["first", "later"]


def test_a_real_worker_process_answers_with_a_legal_move() -> None:
    async def play() -> Answer:
        pool = BotPool(1)
        try:
            return await ask(pool, "room")
        finally:
            pool.shutdown()

    answer = asyncio.run(play())
    assert answer.problem is None
    assert answer.action in GAME.legal_actions()


def test_addresses_of_one_home_count_as_one() -> None:
    home = [f"2001:db8:5:7:{n:x}::1" for n in range(50)]
    assert len({address_key(address) for address in home}) == 1
    book = AddressBook(Limits(max_per_address=3, max_connections=100))
    for address in home[:3]:
        assert book.connect(address_key(address))
        assert book.admit(address_key(address)) is None
    assert book.connect(address_key(home[3]))
    assert book.admit(address_key(home[3])) == "too many connections from your address"
    assert book.admit(address_key("2001:db8:5:8::1")) is None  # the next /64: another home


def test_the_book_forgets_addresses_that_hold_nothing() -> None:
    book = AddressBook(Limits())
    for n in range(500):
        key = f"127.0.{n // 250}.{n % 250}"
        book.connect(key)
        book.get(key).lookups.take(0.0)
        book.disconnect(key, admitted=False)
    book.prune(1.0)
    assert len(book) == 500  # a look-up's token has not come back yet
    book.prune(3600.0)
    assert len(book) == 0


def test_moves_handed_over_ahead_never_let_hard_thinkers_take_every_worker(
    order: list[str],
) -> None:
    async def play() -> None:
        pool = BotPool(2, pipeline=4)
        now = asyncio.get_running_loop().time()
        for hog in ("hog1", "hog2", "hog3"):
            pool._used[hog] = (HEAVY + 1, now)
        hogs = [asyncio.create_task(ask(pool, hog)) for hog in ("hog1", "hog2", "hog3")]
        await asyncio.sleep(0.01)
        light = asyncio.create_task(ask(pool, "light"))
        await asyncio.gather(*hogs, light)
        pool.shutdown()

    asyncio.run(play())
    assert order[:2] == ["hog1", "light"]  # the light room did not wait for hog2 or hog3
    assert sorted(order[2:]) == ["hog2", "hog3"]


def test_a_rooms_bots_are_kept_in_its_worker_from_move_to_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(BotPool, "_spawn", in_thread)
    monkeypatch.setattr(bot_pool, "_kept", type(bot_pool._kept)())
    state = new_game(Rules(players=3), seed=4)

    async def play() -> None:
        pool = BotPool(2)
        seen = []
        game = state
        for _ in range(6):
            answer = await ask(pool, "ROOM", "search:iterations=2", game)
            assert answer.problem is None
            game = game.apply(answer.action)
            (kept,) = bot_pool._kept.values()
            seen.append({p: kept.bots.bot(p) for p in range(3)})
        assert all(seen[-1][p] is not None for p in range(3))
        assert seen[-1][0] is seen[3][0]  # seat 0 moved at ply 0 and 3: the same bot
        pool.forget("ROOM")
        await asyncio.sleep(0.05)
        assert not bot_pool._kept
        pool.shutdown()

    asyncio.run(play())


def test_a_room_that_comes_to_think_hard_leaves_the_light_rooms_worker() -> None:
    pool = BotPool(2)
    try:
        pool._home["busy"] = 0
        assert pool.home("new", 0.0) == 1  # the least used worker
        pool._used["new"] = (HEAVY + 1, 0.0)
        assert pool.home("new", 0.0) == 0  # heavy now: not in the last worker
        assert pool.home("light", 0.0) == 1
    finally:
        pool.shutdown()
