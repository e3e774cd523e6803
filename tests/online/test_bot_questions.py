"""A room's game lives in its bot worker, which is told the moves since it last heard of
the room (``coloretto.online.server.bot_pool``): the whole game only when the worker does not have
it, and the bots choose exactly as when they were sent the whole position."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import threading
from collections import OrderedDict

import pytest

from coloretto.bots.guard import Answer
from coloretto.bots.players import BotPlayers
from coloretto.engine import Card, Rules
from coloretto.engine.match import Match
from coloretto.online.server import bot_pool
from coloretto.online.server.bot_pool import BotPool, Question, Resync, Start
from coloretto.online.server.bot_wire import Ask, frame, questions

LIMIT = 30.0
"""Time for a move: more than any of these bots takes, so none is cut short."""


class Room:
    """A match whose seats in ``specs`` are bots asked through a pool, the others people
    who take the last legal action; every bot move checked against the bots of the match
    asked with the whole position, as the workers were before (``reference``)."""

    def __init__(
        self, code: str, specs: dict[int, str], seed: int, players: int = 3, games: int = 1
    ) -> None:
        self.code = code
        self.specs = specs
        self.seed = seed
        self.match = Match.start(Rules(players=players, games=games), seed=seed)
        self.reference = BotPlayers(specs, seed)
        self.bot_moves: list[str] = []

    @property
    def over(self) -> bool:
        return self.match.is_over

    async def step(self, pool: BotPool) -> Answer | None:
        """Play one action: a person's, or a bot's through ``pool`` (its answer)."""
        game = self.match.game
        if game.is_over:
            self.match = self.match.next_game()
            return None
        if game.rules.controller(game.current_player) not in self.specs:
            self.match = self.match.apply(game.legal_actions()[-1])
            return None
        number = self.match.game_number
        answer = await pool.choose(
            self.code, self.specs, seed=self.seed, state=game, game_number=number, limit=LIMIT
        )
        expected = self.reference.choose(game, time_limit=LIMIT, game_number=number)
        assert answer.problem is None
        assert answer.action == expected.action
        self.bot_moves.append(str(answer.action))
        self.match = self.match.apply(answer.action)
        return answer

    async def until_bot_move(self, pool: BotPool) -> Answer:
        """Play until a bot has moved; its answer."""
        while not self.over:
            answer = await self.step(pool)
            if answer is not None:
                return answer
        raise AssertionError("the match ended before a bot's move")

    async def play_out(self, pool: BotPool) -> None:
        while not self.over:
            await self.step(pool)


class Killed(Exception):
    """A worker in a thread dies, as a process killed mid-thought."""


@pytest.fixture
def kill() -> threading.Event:
    """Set: the worker that gets the next question dies instead of answering, the games
    it kept gone with it."""
    return threading.Event()


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch, kill: threading.Event) -> list[tuple[Question, object]]:
    """Every question a pool of workers in threads is asked, with its reply; the workers'
    kept games start empty."""
    seen: list[tuple[Question, object]] = []
    think = bot_pool.think

    def noted(question: Question) -> Answer | Resync:
        if kill.is_set():
            kill.clear()
            bot_pool._kept.clear()
            raise Killed()
        reply = think(question)
        seen.append((question, reply))
        return reply

    def worker(end: socket.socket) -> None:
        with contextlib.suppress(Killed):
            bot_pool.serve(end)  # its socket closed as it ends

    def in_thread(_pool: BotPool, end: socket.socket) -> None:
        threading.Thread(target=worker, args=(end,), daemon=True).start()

    monkeypatch.setattr(bot_pool, "think", noted)
    monkeypatch.setattr(bot_pool, "_kept", OrderedDict())
    monkeypatch.setattr(BotPool, "_spawn", in_thread)
    return seen


def kinds(asked: list[tuple[Question, object]]) -> list[str]:
    """Each question as ``start`` (the whole game), ``moves`` (answered) or ``resync``
    (moves the worker could not follow)."""
    return [
        "resync" if isinstance(reply, Resync) else "moves" if q.start is None else "start"
        for q, reply in asked
    ]


def why(reply: object) -> str:
    """Why the worker asked for the whole game, in ``reply``."""
    assert isinstance(reply, Resync)
    return reply.why


def test_the_first_question_tells_the_game_and_later_ones_the_moves_since(
    asked: list[tuple[Question, object]],
) -> None:
    room = Room("ROOM", {1: "greedy", 2: "search:iterations=4"}, seed=11)

    async def play() -> None:
        pool = BotPool(1)
        await room.play_out(pool)
        pool.shutdown()

    asyncio.run(play())
    assert kinds(asked) == ["start"] + ["moves"] * (len(asked) - 1)
    first = asked[0][0]
    assert first.start is not None
    assert first.start.setup == room.match.game.setup
    ply = first.since + len(first.moves)
    for question, _ in asked[1:]:
        assert question.since == ply  # each takes up where the last left off
        assert question.moves  # at least the bot's own move before
        ply += len(question.moves)
    assert len(asked) == len(room.bot_moves) > 20
    assert ply < room.match.game.ply  # the last move told is not the last of the game


def test_a_new_game_of_the_match_is_told_whole_and_the_bots_are_kept(
    asked: list[tuple[Question, object]],
) -> None:
    room = Room("ROOM", {0: "search:iterations=4", 2: "random"}, seed=5, games=2)

    async def play() -> None:
        pool = BotPool(1)
        await room.until_bot_move(pool)
        bot = bot_pool._kept[room.code].bots.bot(0)
        while room.match.game_number == 1:
            await room.step(pool)
        await room.until_bot_move(pool)
        assert bot_pool._kept[room.code].bots.bot(0) is bot  # they play on in the next game
        await room.play_out(pool)
        pool.shutdown()

    asyncio.run(play())
    starts = [q for q, _ in asked if q.start is not None]
    assert [q.game_number for q in starts] == [1, 2]
    assert kinds(asked).count("resync") == 0


def test_a_worker_that_died_is_told_the_whole_game_by_its_replacement(
    asked: list[tuple[Question, object]], kill: threading.Event
) -> None:
    room = Room("ROOM", {1: "greedy", 2: "greedy"}, seed=3)

    async def play() -> None:
        pool = BotPool(1)
        for _ in range(4):
            await room.until_bot_move(pool)
        kill.set()
        game = room.match.game
        while game.rules.controller(game.current_player) not in room.specs:
            await room.step(pool)
            game = room.match.game
        answer = await pool.choose(room.code, room.specs, seed=room.seed, state=game, limit=LIMIT)
        assert answer.problem == "its worker process died"
        assert answer.action in game.legal_actions()
        await room.play_out(pool)
        pool.shutdown()

    asyncio.run(play())
    assert kinds(asked) == ["start"] + ["moves"] * 3 + ["start"] + ["moves"] * (len(asked) - 5)


def test_a_room_the_worker_lost_or_forgot_is_told_whole_again(
    asked: list[tuple[Question, object]],
) -> None:
    room = Room("ROOM", {1: "greedy", 2: "random"}, seed=8)

    async def play() -> None:
        pool = BotPool(1)
        for _ in range(3):
            await room.until_bot_move(pool)
        bot_pool._kept.clear()  # as a worker does with a room it kept longest ago
        for _ in range(3):
            await room.until_bot_move(pool)
        pool.forget(room.code)
        await asyncio.sleep(0.05)
        assert not bot_pool._kept
        await room.play_out(pool)
        pool.shutdown()

    asyncio.run(play())
    expected = ["start", "moves", "moves", "resync", "start", "moves", "moves", "start"]
    assert kinds(asked)[:8] == expected
    assert asked[3][1] == Resync("the worker keeps no game of the room")
    assert set(kinds(asked)[8:]) == {"moves"}


def test_moves_that_do_not_follow_the_workers_game_ask_for_the_whole_game(
    asked: list[tuple[Question, object]],
) -> None:
    """The worker's game of a room has gone wrong: another deck (which its bots cannot
    see until a card shows), then another move count. The moves it is sent do not come
    out as on the server, and it asks for the whole game rather than answer for a
    position that is not the room's (``Room.step`` checks every answer)."""
    room = Room("ROOM", {1: "greedy", 2: "greedy"}, seed=21)

    async def play() -> int:
        pool = BotPool(1)
        await room.until_bot_move(pool)
        kept = bot_pool._kept[room.code]
        assert kept.state is not None
        size = kept.state.deck_size
        rest = [card for card in kept.state.setup.deck if card != Card.LAST_ROUND][-size:]
        turn = next(n for n, card in enumerate(rest) if card != rest[0])
        kept.state = kept.state.with_deck_order(rest[turn:] + rest[:turn])
        tampered = len(asked)
        while "resync" not in kinds(asked):
            await room.until_bot_move(pool)
        bot_pool._kept[room.code].ply += 1
        await room.until_bot_move(pool)
        await room.play_out(pool)
        pool.shutdown()
        return tampered

    tampered = asyncio.run(play())
    told = kinds(asked)
    first = told.index("resync")
    assert set(told[1:first]) <= {"moves"}
    assert not any(move.card for q, _ in asked[tampered:first] for move in q.moves)
    assert any(move.card for move in asked[first][0].moves)  # the first card shown
    assert "came out as" in why(asked[first][1])
    assert told[first + 1] == "start"
    second = told.index("resync", first + 1)
    assert "not at move" in why(asked[second][1])
    assert told[second + 1 :] == ["start"] + ["moves"] * (len(told) - second - 2)


def test_a_worker_keeps_a_bounded_number_of_rooms_and_the_server_knows_which(
    asked: list[tuple[Question, object]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_pool, "KEPT_ROOMS", 3)
    rooms = [Room(f"R{n}", {1: "greedy", 2: "greedy"}, seed=n) for n in range(5)]

    async def play() -> None:
        pool = BotPool(1)
        for _ in range(2):
            for room in rooms:
                await room.until_bot_move(pool)
                assert len(bot_pool._kept) <= 3
        assert list(bot_pool._kept) == ["R2", "R3", "R4"]  # the three asked last
        for room in rooms[2:]:
            await room.until_bot_move(pool)
        await rooms[0].until_bot_move(pool)
        pool.shutdown()

    asyncio.run(play())
    # Five rooms in turn through a worker that keeps three: each is told whole each time,
    # and never sent moves the worker would have to refuse; the three kept are sent moves.
    assert kinds(asked) == ["start"] * 10 + ["moves"] * 3 + ["start"]


@pytest.mark.parametrize("players", [3, 5])
def test_the_bots_choose_as_when_they_were_sent_the_whole_position(
    asked: list[tuple[Question, object]], players: int
) -> None:
    """Rooms played at once through one pool (the checks are in ``Room.step``)."""
    specs = [
        {1: "greedy", 2: "random"},
        {0: "search:iterations=4", 2: "search:iterations=8:sample=true"},
        dict.fromkeys(range(players), "random"),
    ]
    rooms = [
        Room(f"R{n}", spec, seed=100 + n, players=players, games=2) for n, spec in enumerate(specs)
    ]

    async def play() -> None:
        pool = BotPool(2)
        await asyncio.gather(*(room.play_out(pool) for room in rooms))
        pool.shutdown()

    asyncio.run(play())
    assert kinds(asked).count("resync") == 0
    assert all(len(room.bot_moves) > 20 for room in rooms)


def test_a_real_worker_plays_a_match_as_before_and_a_killed_one_is_replaced() -> None:
    room = Room("ROOM", {0: "search:iterations=4", 2: "greedy"}, seed=17, games=2)

    async def play() -> None:
        pool = BotPool(1)
        try:
            for _ in range(5):
                await room.until_bot_move(pool)
            (pid,) = await pool.start()  # started already: its process id
            os.kill(pid, signal.SIGKILL)
            game = room.match.game
            while game.rules.controller(game.current_player) not in room.specs:
                await room.step(pool)
                game = room.match.game
            answer = await pool.choose(
                room.code, room.specs, seed=room.seed, state=game, limit=LIMIT
            )
            assert answer.problem == "its worker process died"
            room.match = room.match.apply(answer.action)
            room.reference = BotPlayers(room.specs, room.seed)  # a new worker, new bots
            await room.play_out(pool)
        finally:
            pool.shutdown()

    asyncio.run(play())
    assert len(room.bot_moves) > 40


def test_a_question_crosses_to_a_worker_whole_and_small() -> None:
    match = Match.start(Rules(players=4), seed=9)
    game = match.game
    for action in ("draw", "place 1", "draw", "place 2", "take 1"):
        game = game.apply(action)
    moves = game.history()
    start = Start({2: "easy", 3: "hard"}, 9, game.rules, game.setup)
    whole = Question("ROOM1", start, 0, moves, 1, None, 5.0)
    later = Question("ROOM1", None, 2, moves[2:], 1, 3, 5.0)
    for question in (whole, later):
        (ask,) = questions().feed(frame(bot_pool.ask_of(question)))
        assert isinstance(ask, Ask)
        assert bot_pool.question_of(ask) == question
    assert len(frame(bot_pool.ask_of(later))) < 150  # a position took 1,800


def test_a_worker_killed_between_moves_is_replaced_before_the_next_one() -> None:
    """A worker killed while it has no question: the next move is asked of its
    replacement (told the whole game), which answers it; no fallback move is played."""
    room = Room("ROOM", {1: "greedy", 2: "greedy"}, seed=23)

    async def play() -> tuple[int, int]:
        pool = BotPool(1)
        try:
            (first,) = await pool.start()
            for _ in range(3):
                await room.until_bot_move(pool)
            os.kill(first, signal.SIGKILL)
            await asyncio.sleep(1.0)  # its end is seen: no question was in flight
            await room.until_bot_move(pool)  # checked against the match's bots, no problem
            (second,) = await pool.start()
            await room.play_out(pool)
            return first, second
        finally:
            pool.shutdown()

    first, second = asyncio.run(play())
    assert first != second
    assert len(room.bot_moves) > 20
