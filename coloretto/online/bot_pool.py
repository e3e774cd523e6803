"""Where the server's bots think: worker processes shared fairly between the rooms.

Bots think in other processes, so however hard they think, the event loop that serves
every connection never waits for them (threads would share Python's lock with it). There
are few workers; when rooms wait for one, the room whose bots have used the least time
lately goes first, so a room of hard bots that play without pause cannot crowd out the
others: each room waiting gets an equal share, and a room alone gets all of it. With two
workers or more, rooms whose bots used more than ``HEAVY`` seconds lately share all but
one of them: the last is kept for the rooms whose bots answer in milliseconds, which then
never wait behind a hard bot's long thought. Each move is bounded by the guard's time
limit.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from coloretto.bots.guard import Answer, fallback, guarded_choice
from coloretto.bots.registry import make_bot
from coloretto.engine import Action, PlayerView

HALF_LIFE = 60.0
"""Seconds after which a room's bot time counts half in choosing who goes next."""

HEAVY = 1.0
"""Seconds of the bots' own thinking (decayed by ``HALF_LIFE``) past which a room's bots
count as thinking hard: a few moves of the hard level, thousands of the easy one's."""


def ready() -> int:
    """Nothing: run once in each worker at start, so its imports are done before a bot's
    first move has to wait for them. Returns the worker's process id."""
    return os.getpid()


def think(spec: str, seed: int, view: PlayerView, legal: Sequence[Action], limit: float) -> Answer:
    """A bot ``spec`` (seeded ``seed``) asked for a move through the guard (in a worker)."""
    return guarded_choice(partial(make_bot, spec, seed=seed), view, legal, limit)


PIPELINE = 4
"""Moves handed to the workers at once, per worker: a worker that has answered finds the
next move waiting instead of idling while the answer and the next question cross between
the processes (what a move of an easy bot mostly costs)."""


class BotPool:
    """``workers`` processes, handed to the rooms by least recent use (see the module);
    ``pipeline`` moves per worker are handed over at once."""

    def __init__(self, workers: int, pipeline: int = PIPELINE) -> None:
        self.workers = max(1, workers)
        self._executor = self._new_executor()
        self._free = self.workers * max(1, pipeline)
        """Moves that may be handed to the workers now."""
        self._heavy = 0
        """Moves handed over for rooms that think hard: fewer than the workers, so one
        worker is always at the light rooms' moves."""
        self._waiting: list[tuple[float, int, bool, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._used: dict[str, tuple[float, float]] = {}
        """Each room's bot seconds (decayed) and when they were last counted."""

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    async def start(self) -> None:
        """Start every worker now (a worker's first start takes a second or more)."""
        loop = asyncio.get_running_loop()
        started: set[int] = set()
        for _ in range(3):  # a worker may take several warm-ups while another starts
            runs = [loop.run_in_executor(self._executor, ready) for _ in range(self.workers)]
            started.update(await asyncio.gather(*runs))
            if len(started) >= self.workers:
                return

    def used(self, room: str, now: float) -> float:
        """The bot seconds ``room`` used lately (halved every ``HALF_LIFE`` seconds)."""
        seconds, stamp = self._used.get(room, (0.0, now))
        return seconds * math.pow(0.5, (now - stamp) / HALF_LIFE)

    async def choose(
        self, room: str, spec: str, *, seed: int, view: PlayerView, legal: Sequence[Action],
        limit: float,
    ) -> Answer:  # fmt: skip
        """A move for ``view`` from bot ``spec``, once ``room``'s turn at a worker comes.
        A worker that dies is replaced and the guard's fallback move is played."""
        loop = asyncio.get_running_loop()
        heavy = self.used(room, loop.time()) > HEAVY
        await self._turn(room, heavy, loop.time())
        started = loop.time()
        answer: Answer | None = None
        try:
            answer = await loop.run_in_executor(
                self._executor, think, spec, seed, view, tuple(legal), limit
            )
            return answer
        except BrokenProcessPool:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            return Answer(fallback(view, legal), 0.0, "its worker process died")
        finally:
            now = loop.time()  # the bot's own time: not the wait behind other rooms' moves
            spent = answer.seconds if answer is not None else now - started
            self._used[room] = (self.used(room, now) + spent, now)
            self._release(heavy)

    def _may_start(self, heavy: bool) -> bool:
        """True when a room's move may be handed over now (a hard thinker's only while
        fewer than ``workers - 1`` are, or none with a single worker)."""
        if self._free == 0:
            return False
        return not heavy or self._heavy < max(1, self.workers - 1)

    def _take(self, heavy: bool) -> None:
        self._free -= 1
        self._heavy += heavy

    async def _turn(self, room: str, heavy: bool, now: float) -> None:
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (self.used(room, now), next(self._order), heavy, turn))
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(heavy)  # handed a worker while being cancelled: pass it on
            raise

    def _release(self, heavy: bool) -> None:
        """A move is answered: hand its place to the first waiting room that may take it."""
        self._free += 1
        self._heavy -= heavy
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand the free places to the waiting rooms, least used first, each that may take
        one (a hard thinker waits while its share is taken; a light room passes it)."""
        kept = []
        while self._waiting and self._free:
            entry = heapq.heappop(self._waiting)
            if entry[3].done():
                continue
            if self._may_start(entry[2]):
                self._take(entry[2])
                entry[3].set_result(None)
            else:
                kept.append(entry)
        for entry in kept:
            heapq.heappush(self._waiting, entry)

    def forget(self, room: str) -> None:
        """``room`` is gone: its record of use goes too."""
        self._used.pop(room, None)

    def shutdown(self) -> None:
        """Stop the workers (the server stops)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
