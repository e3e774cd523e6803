"""What a bot's move costs in the server's bot workers: the bytes of each question handed
to a worker, and processor time per question in the workers and in the server's process.

Run: ``python benchmarks/bot_questions.py [--rooms 1000] [--players 4] [--people 2]
[--bot easy] [--workers 2] [--games 1]``.
``--rooms`` rooms play at once through one ``BotPool`` (``--workers`` real worker
processes), as the server's rooms do, without pause: in each, the first ``--people``
seats are people who play a random legal action (seeded by the room), the others bots at
``--bot``. Printed: the questions asked, their size (mean, p50, p95, max: the bytes of
the frame that crosses to a worker, ``bot_wire``), the workers' processor time and the
server process's (the pool, the people's moves and this script) per question, the wall
time, and a digest of every bot move of every room: the same digest from two versions of
the pool means their bots chose alike. Measure a version of the code by putting it first
on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from coloretto.bots.registry import BotSpec
from coloretto.engine import Rules
from coloretto.engine.match import Match
from coloretto.online.server import bot_pool
from coloretto.online.server.bot_pool import BotPool
from coloretto.online.server.bot_wire import Ask, Drop, Hello, Resync, Told, frame


def weighed(sizes: list[int]) -> Callable[[Ask | Drop | Told | Resync | Hello], bytes]:
    """``frame`` that notes the size of each frame made (in this process: those the
    server sends its workers)."""

    def framed(message: Ask | Drop | Told | Resync | Hello) -> bytes:
        made = frame(message)
        sizes.append(len(made))
        return made

    return framed


def children_cpu() -> float:
    """User and system processor seconds of this process's children now running."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for task in Path(f"/proc/{os.getpid()}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def room(pool: BotPool, number: int, args: argparse.Namespace, bot: str) -> list[str]:
    """Play room ``number``'s match; its bots' moves."""
    code = f"R{number:05d}"
    specs = dict.fromkeys(range(args.people, args.players), bot)
    match = Match.start(Rules(players=args.players, games=args.games), seed=number)
    people = random.Random(number)
    moves = []
    while not match.is_over:
        game = match.game
        if game.is_over:
            match = match.next_game()
            continue
        if game.current_player < args.people:
            match = match.apply(people.choice(game.legal_actions()))
            continue
        answer = await pool.choose(
            code, specs, seed=number, state=game, game_number=match.game_number, limit=30.0
        )
        moves.append(str(answer.action))
        match = match.apply(answer.action)
    pool.forget(code)
    return moves


async def run(args: argparse.Namespace) -> None:
    sizes: list[int] = []
    bot_pool.frame = weighed(sizes)  # type: ignore[assignment,attr-defined]
    pool = BotPool(args.workers)
    await pool.start()
    bot = str(BotSpec.parse(args.bot))
    workers, own, wall = children_cpu(), time.process_time(), time.perf_counter()
    played = await asyncio.gather(*(room(pool, n, args, bot) for n in range(args.rooms)))
    wall = time.perf_counter() - wall
    own = time.process_time() - own
    workers = children_cpu() - workers
    pool.shutdown()
    questions = len(sizes)
    digest = hashlib.sha256(repr(played).encode()).hexdigest()[:16]
    print(
        f"{os.cpu_count()} cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
        f"{args.rooms} rooms of {args.players} seats ({args.people} people, the others "
        f"{args.bot} bots), {args.games} game(s) each, {args.workers} workers"
    )
    print(
        f"{sum(map(len, played))} bot moves, {questions} questions (drops included); "
        f"digest of the bots' moves {digest}"
    )
    ordered = sorted(sizes)
    print(
        f"bytes a question: mean {statistics.fmean(sizes):.0f}, p50 "
        f"{ordered[len(ordered) // 2]}, p95 {ordered[len(ordered) * 95 // 100]}, "
        f"max {ordered[-1]}"
    )
    print(
        f"processor a question: workers {workers / questions * 1000:.3f} ms, "
        f"this process {own / questions * 1000:.3f} ms; wall {wall:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--people", type=int, default=2)
    parser.add_argument("--bot", default="easy")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
