"""Where the server's bots think: worker processes shared fairly between the rooms.

Bots think in other processes, so however hard they think, the event loop that serves
every connection never waits for them (threads would share Python's lock with it). Each
room's bots live in one worker, its home, for as long as the room plays: a bot is made on
its first move and kept (``coloretto.bots.players.BotPlayers``), as in a game on this
machine and in the arena. The room's game lives there too: a question carries the moves
played since the worker last heard of the room (``Question``), not the whole position; the
first question of a game (and any after the worker lost the room) carries its deal and its
moves so far (``Start``). The worker plays the moves on its own copy of the game and checks
that each one came out as it did on the server (the same seat, the same card drawn); a move
that does not follow asks the server for the whole game (``Resync``), never a move for
another position. The server keeps, for each worker, what it told it of each room
(``_Told``), in the same order and the same number of rooms as the worker keeps. A worker
keeps the bots and games of its ``KEPT_ROOMS`` rooms used last; a room whose bots it
dropped (or a worker that died and was replaced) gets new ones, which catch up with the
game.

Bot time is counted by owner: the address that opened the room (``limits.address_key``;
a room without one is its own owner), so that one address opening many rooms counts as
one. When rooms wait for a worker, the room whose owner's bots have used the least time
lately goes first, so rooms of hard bots that play without pause cannot crowd out the
others. An owner has one move at a time in each worker (the moves handed over ahead,
``PIPELINE``, are each another owner's: a move then waits behind one move of each other
owner at most, never behind a queue of one address's hard moves). With two workers or
more, the rooms of an owner whose bots used more than ``HEAVY`` seconds lately live in all
but the last worker: the last is kept for the rooms whose bots
answer in milliseconds, which then never wait behind a hard bot's long thought. A room
comes home to the worker with the least use lately. Each move is bounded by the guard's
time limit.

Each worker is a process with one socket to the server, which the event loop reads as
answers come (``_Channel``; the frames: ``bot_wire``): no thread, queue or pickled call
between them. A worker answers its questions in the order asked. One that ends (killed,
crashed) fails the moves it was asked (each gets the guard's fallback move) and is
replaced by a new process at its next question. The workers end with the server however
it ends, ``kill -9`` included (``coloretto.bots.workers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import heapq
import itertools
import math
import os
import pickle
import socket
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from coloretto.bots.guard import Answer, fallback
from coloretto.bots.players import BotPlayers
from coloretto.bots.workers import spawn
from coloretto.engine import GameState, IllegalAction, Move, Rules, Setup
from coloretto.engine.seeds import Seed
from coloretto.online.server.bot_wire import (
    Ask,
    Drop,
    Hello,
    Resync,
    Told,
    frame,
    pack_answer,
    pack_moves,
    questions,
    replies,
    unpack_answer,
    unpack_moves,
)

HALF_LIFE = 60.0
"""Seconds after which an owner's bot time counts half in choosing who goes next."""

HEAVY = 1.0
"""Seconds of the bots' own thinking (decayed by ``HALF_LIFE``) past which an owner's
bots count as thinking hard: a few moves of the hard level, thousands of the easy one's."""

IDLE = 0.001
"""Bot seconds (decayed) below which an owner's use is forgotten."""

KEPT_ROOMS = 1024
"""The rooms whose bots and games a worker keeps (those used last): enough for two
workers' share of 2,000 rooms at once. A room of easy bots takes some 15 KiB there, most of
it its game's moves."""

PIPELINE = 4
"""Moves handed to a worker at once: a worker that has answered finds the next move
waiting instead of idling while the answer and the next question cross between the
processes (what a move of an easy bot mostly costs)."""


@dataclass(frozen=True)
class Start:
    """What a worker needs to take up a room's game: its bots (``specs``, the match's
    ``seed``) and the game's ``rules`` and deal (``setup``)."""

    specs: Mapping[int, str]
    seed: Seed
    rules: Rules
    setup: Setup


@dataclass(frozen=True)
class Question:
    """What a worker is asked: the move of ``room``'s bot for the seat to move once
    ``moves`` are played on from move ``since`` of the room's game as the worker keeps it
    (or, with ``start``, from the deal: ``since`` is then 0), game ``game_number`` of the
    match; its player's bot or ``player``'s; within ``limit`` seconds."""

    room: str
    start: Start | None
    since: int
    moves: tuple[Move, ...]
    game_number: int
    player: int | None
    limit: float


class _Kept:
    """In a worker: a room's bots and its game as far as the worker has followed it
    (``None``: lost, until a ``Start``), ``ply`` moves in."""

    def __init__(self, bots: BotPlayers, state: GameState) -> None:
        self.bots = bots
        self.state: GameState | None = state
        self.ply = 0

    def follow(self, since: int, moves: tuple[Move, ...]) -> GameState | str:
        """The game once ``moves`` are played on from move ``since``, each checked against
        the move the server played; why not (the game is then lost), if they do not
        follow."""
        if self.state is None:
            return "the worker lost the room's game"
        if self.ply != since:
            self.state = None
            return f"the worker is at move {self.ply} of the game, not at move {since}"
        state = self.state
        for number, move in enumerate(moves, since + 1):
            try:
                state = state.apply(move.action)
            except IllegalAction as error:
                self.state = None
                return f"move {number} ({move.action}) is illegal in the worker's game: {error}"
            if state.last_move != move:
                self.state = None
                return f"move {number} came out as {state.last_move} here, not {move}"
        self.state, self.ply = state, since + len(moves)
        return state


_kept: OrderedDict[str, _Kept] = OrderedDict()
"""In a worker: the bots and games of the rooms it played last, by room."""


def think(question: Question) -> Answer | Resync:
    """In a worker: the answer to ``question`` through the guard, the room's game and bots
    kept from move to move (``BotPlayers``); ``Resync`` when its moves do not follow the
    game kept."""
    kept = _kept.pop(question.room, None)
    start = question.start
    if start is not None:
        bots = kept.bots if kept is not None else None
        if bots is None or bots.seed != start.seed or bots.specs != start.specs:
            bots = BotPlayers(start.specs, start.seed)
        kept = _Kept(bots, GameState.from_setup(start.rules, start.setup))
    if kept is None:
        return Resync("the worker keeps no game of the room")
    _kept[question.room] = kept
    while len(_kept) > KEPT_ROOMS:
        _kept.popitem(last=False)
    state = kept.follow(question.since, question.moves)
    if isinstance(state, str):
        return Resync(state)
    return kept.bots.choose(
        state,
        time_limit=question.limit,
        game_number=question.game_number,
        player=question.player,
    )


def ask_of(question: Question) -> Ask:
    """``question`` as it crosses to the worker (``bot_wire``)."""
    start = None if question.start is None else pickle.dumps(question.start)
    return Ask(
        question.room,
        start,
        question.since,
        pack_moves(question.moves),
        question.game_number,
        question.player,
        question.limit,
    )


def question_of(ask: Ask) -> Question:
    """In a worker: the question ``ask`` carries."""
    start = None if ask.start is None else pickle.loads(ask.start)  # its parent's
    moves = unpack_moves(ask.moves)
    return Question(ask.room, start, ask.since, moves, ask.game_number, ask.player, ask.limit)


def serve(end: socket.socket) -> None:
    """In a worker: answer the questions that come on ``end`` (``think``), each in turn,
    until the server closes it (its frames: ``bot_wire``)."""
    frames = questions()
    with end, contextlib.suppress(ConnectionError):
        end.sendall(frame(Hello(os.getpid())))
        while data := end.recv(1 << 16):
            for message in frames.feed(data):
                if isinstance(message, Drop):
                    _kept.pop(message.room, None)
                    continue
                answer = think(question_of(message))
                end.sendall(frame(answer if isinstance(answer, Resync) else pack_answer(answer)))


class WorkerDied(Exception):
    """A worker's channel closed (its process ended) before it answered."""


@dataclass(frozen=True, slots=True)
class _Told:
    """What a worker was told last of a room: its bots (``specs``, ``seed``) and its game
    as of ``state``, ``ply`` moves in."""

    specs: Mapping[int, str]
    seed: Seed
    state: GameState
    ply: int


class _Channel(asyncio.Protocol):
    """The server's end of one worker process's socket: questions written, their answers
    read as they come (in the order asked), and what the worker was told of each room
    (``question``). Closed for good when the worker ends: its successor has a new one."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.hello: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        """The worker's process id, once it is ready."""
        self.told: OrderedDict[str, _Told] = OrderedDict()
        """What the worker was told of each room it keeps, the room told last at the end."""
        self._frames = replies()
        self._asked: deque[asyncio.Future[Told | Resync]] = deque()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            replies = self._frames.feed(data)
        except ValueError:
            self.close()
            return
        for reply in replies:
            if isinstance(reply, Hello):
                if not self.hello.done():
                    self.hello.set_result(reply.pid)
            elif not self._asked:  # an answer to nothing asked: not a worker of ours
                self.close()
                return
            elif not (answered := self._asked.popleft()).done():  # not cancelled
                answered.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiting: list[asyncio.Future[Any]] = [self.hello, *self._asked]
        for future in waiting:
            if not future.done():
                future.set_exception(WorkerDied())
        self._asked.clear()

    async def ask(self, question: Question) -> Told | Resync:
        """The worker's reply to ``question``; ``WorkerDied`` if it ends first."""
        if self.closed or self.transport is None:
            raise WorkerDied()
        answered: asyncio.Future[Told | Resync] = asyncio.get_running_loop().create_future()
        self._asked.append(answered)
        self.transport.write(frame(ask_of(question)))
        return await answered

    def drop(self, room: str) -> None:
        """Tell the worker ``room`` is gone (if it still lives)."""
        self.told.pop(room, None)
        if not self.closed and self.transport is not None:
            self.transport.write(frame(Drop(room)))

    def close(self) -> None:
        """End the worker: it reads the end of its socket and exits."""
        if self.transport is not None:
            self.transport.close()
        else:
            self.closed = True

    def question(
        self,
        room: str,
        specs: Mapping[int, str],
        seed: Seed,
        state: GameState,
        *,
        whole: bool,
        game_number: int,
        player: int | None,
        limit: float,
    ) -> Question:
        """The question for the move at ``state`` of ``room``, noted as told: the moves
        since the game the worker was told last, or (``whole``, a game or bots it was not
        told of) the whole game."""
        told = self.told.pop(room, None)
        moves = None
        if told is not None and not whole and told.specs == specs and told.seed == seed:
            moves = state.moves_since(told.state)
        if told is None or moves is None:
            start = Start(specs, seed, state.rules, state.setup)
            since, moves = 0, state.history()
        else:
            start, since = None, told.ply
        self.told[room] = _Told(specs, seed, state, since + len(moves))
        while len(self.told) > KEPT_ROOMS:  # as the worker forgets them (``think``)
            self.told.popitem(last=False)
        return Question(room, start, since, moves, game_number, player, limit)


class _Worker:
    """One worker: its process's channel (``None`` before its start), the moves waiting
    for it (by their owner's use, in order of asking), its places free and its moves in
    flight by owner."""

    def __init__(self, places: int) -> None:
        self.channel: asyncio.Future[_Channel] | None = None
        self.free = places
        self.waiting: list[tuple[float, int, asyncio.Future[None], str]] = []
        self.busy: Counter[str] = Counter()

    def live_channel(self) -> _Channel | None:
        """The channel to the worker's process, if it has one that has not closed."""
        if self.channel is None or not self.channel.done() or self.channel.cancelled():
            return None
        if self.channel.exception() is not None or self.channel.result().closed:
            return None
        return self.channel.result()


class BotPool:
    """``workers`` processes, each the home of some rooms (see the module); ``pipeline``
    moves per worker handed over at once."""

    def __init__(self, workers: int, pipeline: int = PIPELINE) -> None:
        self.workers = max(1, workers)
        self._places = max(1, pipeline)
        self._pool = [_Worker(self._places) for _ in range(self.workers)]
        self._home: dict[str, int] = {}
        """Each room's worker."""
        self._owner: dict[str, str] = {}
        """Each room's owner."""
        self._order = itertools.count()
        self._used: dict[str, tuple[float, float]] = {}
        """Each owner's bot seconds (decayed) and when they were last counted."""

    def _spawn(self, end: socket.socket) -> None:
        """Start a worker process that answers on ``end`` (``serve``); ``end`` is then the
        worker's alone."""
        try:
            spawn(serve, end)
        finally:
            end.close()

    async def _channel(self, worker: _Worker) -> _Channel:
        """The channel to ``worker``'s process, a new process started if it has none
        (or its last one ended)."""
        if worker.channel is None or (worker.channel.done() and worker.live_channel() is None):
            worker.channel = asyncio.ensure_future(self._connect())
        assert worker.channel is not None
        return await asyncio.shield(worker.channel)

    async def _connect(self) -> _Channel:
        ours, theirs = socket.socketpair()
        try:
            self._spawn(theirs)
            _, channel = await asyncio.get_running_loop().connect_accepted_socket(_Channel, ours)
        except BaseException:
            ours.close()  # the worker, if started, reads the end and exits
            raise
        return channel

    async def start(self) -> list[int]:
        """Start every worker now (a worker's first start takes a second or more); their
        process ids."""

        async def ready(worker: _Worker) -> int:
            return await asyncio.shield((await self._channel(worker)).hello)

        return list(await asyncio.gather(*(ready(worker) for worker in self._pool)))

    def used(self, owner: str, now: float) -> float:
        """The bot seconds the rooms of ``owner`` used lately (halved every ``HALF_LIFE``
        seconds)."""
        seconds, stamp = self._used.get(owner, (0.0, now))
        return seconds * math.pow(0.5, (now - stamp) / HALF_LIFE)

    def home(self, room: str, now: float) -> int:
        """``room``'s worker: where it lives, unless its owner now thinks hard and it
        lives in the worker kept for light rooms, or it is light and a hard thinker's
        move is in its worker (it then comes to the last worker, kept for light rooms); a
        room without one comes to the least used worker it may live in (``HEAVY``: a
        hard thinker never in the last)."""
        last = self.workers - 1
        heavy = self.used(self._owner.get(room, room), now) > HEAVY and self.workers > 1
        allowed = range(last) if heavy else range(self.workers)
        home = self._home.get(room)
        if (
            home is not None
            and home != last
            and not heavy
            and any(self.used(owner, now) > HEAVY for owner in self._pool[home].busy)
        ):
            home = self._home[room] = last
        if home is None or home not in allowed:
            load = [0.0] * self.workers
            for other, worker in self._home.items():  # a room counts, idle or not
                load[worker] += self.used(self._owner.get(other, other), now) + 0.001
            home = min(allowed, key=lambda w: (load[w], w))
            self._home[room] = home
        return home

    async def choose(
        self,
        room: str,
        specs: Mapping[int, str],
        *,
        seed: Seed,
        state: GameState,
        game_number: int = 1,
        player: int | None = None,
        limit: float,
        owner: str | None = None,
    ) -> Answer:
        """A move for the seat to move in ``state`` from ``room``'s bots (``think``), once
        the room's turn at its worker comes; ``owner``: whose bot time it counts as (the
        address that opened the room; ``None``: the room's own). A worker that dies is
        replaced and the guard's fallback move is played."""
        loop = asyncio.get_running_loop()
        owner = self._owner[room] = owner or room
        worker = self._pool[self.home(room, loop.time())]
        await self._turn(worker, owner, loop.time())
        started = loop.time()
        answer: Answer | None = None
        try:
            channel = await self._channel(worker)
            ask = functools.partial(
                channel.question,
                room,
                dict(specs),
                seed,
                state,
                game_number=game_number,
                player=player,
                limit=limit,
            )
            told = await channel.ask(ask(whole=False))
            if isinstance(told, Resync):
                told = await channel.ask(ask(whole=True))
            if isinstance(told, Resync):  # the whole game always follows: never here
                channel.told.pop(room, None)
                return self._fallback(state, f"its worker lost the game: {told.why}")
            answer = unpack_answer(told)
            return answer
        except (WorkerDied, OSError):
            return self._fallback(state, "its worker process died")
        except BaseException:
            if (live := worker.live_channel()) is not None:
                live.told.pop(room, None)  # told or not: the next question tells it all
            raise
        finally:
            now = loop.time()  # the bot's own time: not the wait behind other rooms' moves
            spent = answer.seconds if answer is not None else now - started
            self._used[owner] = (self.used(owner, now) + spent, now)
            self._release(worker, owner)

    @staticmethod
    def _fallback(state: GameState, problem: str) -> Answer:
        """The guard's fallback move at ``state``, for a move the worker could not make."""
        view = state.view(state.current_player)
        return Answer(fallback(view, state.legal_actions()), 0.0, problem)

    async def _turn(self, worker: _Worker, owner: str, now: float) -> None:
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(worker.waiting, (self.used(owner, now), next(self._order), turn, owner))
        self._dispatch(worker)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(worker, owner)  # handed a place while being cancelled: pass it on
            raise

    def _release(self, worker: _Worker, owner: str) -> None:
        """A move of ``owner`` is answered: hand its place on to the rooms waiting."""
        worker.free += 1
        worker.busy[owner] -= 1
        if worker.busy[owner] <= 0:
            del worker.busy[owner]
        self._dispatch(worker)

    @staticmethod
    def _dispatch(worker: _Worker) -> None:
        """Hand the worker's free places to the rooms waiting for it, least used first;
        an owner's move waits while another of its moves is in the worker."""
        held = []
        while worker.waiting and worker.free:
            entry = heapq.heappop(worker.waiting)
            turn, owner = entry[2], entry[3]
            if turn.done():
                continue
            if worker.busy[owner]:
                held.append(entry)
                continue
            worker.free -= 1
            worker.busy[owner] += 1
            turn.set_result(None)
        for entry in held:
            heapq.heappush(worker.waiting, entry)

    def forget(self, room: str) -> None:
        """``room`` is gone: its bots and game go from every worker told of it (its owner's
        use is kept, and forgotten once it has decayed to nothing)."""
        self._owner.pop(room, None)
        now = time.monotonic()  # the event loop's clock
        for owner in [owner for owner in self._used if self.used(owner, now) < IDLE]:
            del self._used[owner]
        home = self._home.pop(room, None)
        for number, worker in enumerate(self._pool):
            channel = worker.live_channel()
            if channel is not None and (room in channel.told or number == home):
                channel.drop(room)

    def shutdown(self) -> None:
        """Stop the workers (the server stops)."""
        for worker in self._pool:
            if (channel := worker.live_channel()) is not None:
                channel.close()
            elif worker.channel is not None:
                worker.channel.cancel()
