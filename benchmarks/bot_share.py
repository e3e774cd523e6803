"""Bots that think hard in some rooms, and the delay a person sees in another.

Run: ``python benchmarks/bot_share.py [--hogs 3] [--level hard] [--seconds 60] [--stay]
[--late] [--bot-workers 2]``.
A real ``coloretto server`` process (its own data directory in a temporary folder) on
loopback. ``--hogs`` rooms of five seats each, opened from one address (127.0.9.1), play a
99-game match of bots at ``--level`` without pause (their host's seat played by a bot too:
``away_after`` 0), as a client that wants the server's processor would: their host leaves
at once (the server then stops their bots after its grace), or with ``--stay`` keeps its
connections open all along (the bots play on for it: only the workers' fair share between
addresses protects the others). Meanwhile one person from another address (127.0.0.2)
plays a 3-player game against two easy bots in another room, answering after 0.2 s: every
action they send is timed until its ``move`` comes back, and every wait from their move to
their next turn (the two bots' moves). Printed: those times (p50, p95, max), the server's
processor seconds (its own process and its bot workers) over the run, and the machine's
cores and load. Without the hogs (``--hogs 0``) it gives the baseline. With ``--late``
the hogs come 3 s into the person's play (new rooms, all at once), not 2 s before it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect

from coloretto.engine import DRAW
from coloretto.online.wire.messages import GameMessage
from coloretto.online.wire.protocol import convert
from coloretto.online.wire.public import PublicGame, parse_move

ROOT = Path(__file__).resolve().parents[1]

THINK = 0.2
"""Seconds the person takes before each action (within the server's 10 messages a second)."""

HOG_ADDRESS = "127.0.9.1"
PERSON_ADDRESS = "127.0.0.2"


def cpu_seconds(pid: int) -> float:
    """User and system processor seconds of ``pid`` and its children that are running."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            pids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


async def ask(ws: ClientConnection, request: dict[str, object]) -> dict[str, object]:
    await ws.send(json.dumps({**request, "version": 1}))
    message: dict[str, object] = json.loads(await ws.recv())
    return message


async def hog(url: str, level: str) -> ClientConnection:
    """Open a room of bots that play a long match without pause; its connection."""
    ws = await connect(url, local_addr=(HOG_ADDRESS, 0))
    welcome = await ask(
        ws,
        {"type": "host", "name": "Hog", "rules": {"players": 5}, "games": 99,
         "bot": level, "delay": 0, "away_after": 0},
    )  # fmt: skip
    assert welcome["type"] == "welcome", welcome
    await ws.send(json.dumps({"type": "start"}))
    return ws


async def play_at_once(ws: ClientConnection) -> None:
    """A hog that stays: it plays its own seat the moment its turn comes, and deals the
    next game of the match the moment one is over (its bots think all the time)."""
    game: PublicGame | None = None
    number = 1
    async for text in ws:
        message = json.loads(text)
        if message["type"] == "game":
            told = convert(message, GameMessage, "game")
            game, number = PublicGame(told.rules, told.setup), told.number
            for ply, move in enumerate(told.moves):
                game.add(ply, move)
        elif message["type"] == "move" and game is not None:
            game.add(message["ply"], parse_move(message["move"]))
        elif message["type"] == "over":
            await ws.send(json.dumps({"type": "next", "game": number + 1}))
        if game is not None and not game.state.is_over and game.state.current_player == 0:
            legal = game.state.legal_actions()
            action = DRAW if DRAW in legal else legal[0]
            await ws.send(json.dumps({"type": "act", "ply": game.ply, "action": str(action)}))


async def person(url: str, seconds: float) -> tuple[list[float], list[float]]:
    """Play games for ``seconds``; each action's time to its move, and each wait for the
    bots (from the person's move to their next turn)."""
    times: list[float] = []
    waits: list[float] = []
    played: float | None = None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        async with connect(url, local_addr=(PERSON_ADDRESS, 0)) as ws:
            welcome = await ask(
                ws,
                {"type": "host", "name": "Ana", "rules": {"players": 3}, "bot": "easy",
                 "delay": 0, "away_after": 600},
            )  # fmt: skip
            await ws.recv()  # the lobby
            await ws.send(json.dumps({"type": "start"}))
            game: PublicGame | None = None
            sent: float | None = None
            while time.monotonic() < deadline:
                message = json.loads(await ws.recv())
                if message["type"] == "game":
                    told = convert(message, GameMessage, "game")
                    game = PublicGame(told.rules, told.setup)
                elif message["type"] == "move" and game is not None:
                    if sent is not None and message["move"]["player"] == welcome["seat"]:
                        times.append(time.monotonic() - sent)
                        sent = None
                        played = time.monotonic()
                    game.add(message["ply"], parse_move(message["move"]))
                elif message["type"] == "over":
                    break
                if game is None or game.state.is_over:
                    continue
                if game.state.current_player == welcome["seat"] and sent is None:
                    if played is not None:
                        waits.append(time.monotonic() - played)
                        played = None
                    legal = game.state.legal_actions()
                    action = DRAW if DRAW in legal else legal[0]
                    await asyncio.sleep(THINK)
                    sent = time.monotonic()
                    act = {"type": "act", "ply": game.ply, "action": str(action)}
                    await ws.send(json.dumps(act))
    return times, waits


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "COLORETTO_HOME": home, "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen(
            [sys.executable, "-m", "coloretto", "server", "--port", "0",
             "--bot-workers", str(args.bot_workers)],
            stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            url = "ws://" + line.split("ws://", 1)[1].split()[0]
            readers: list[asyncio.Future[None]] = []

            async def hogs() -> None:
                opened = [await hog(url, args.level) for _ in range(args.hogs)]
                for ws in opened:
                    if args.stay:
                        readers.append(asyncio.ensure_future(play_at_once(ws)))
                    else:
                        await ws.close()

            if not args.late:
                await hogs()
                await asyncio.sleep(2.0)  # the hogs' bots at work
            before = cpu_seconds(server.pid)
            started = time.monotonic()
            playing = asyncio.ensure_future(person(url, args.seconds))
            if args.late:
                await asyncio.sleep(3.0)
                await hogs()
            times, waits = await playing
            spent = cpu_seconds(server.pid) - before
            wall = time.monotonic() - started
            for task in readers:
                task.cancel()
        finally:
            server.terminate()
            server.wait(10)
    load = os.getloadavg()[0]
    stay = "their host connected all along" if args.stay else "their host gone"
    print(
        f"{args.hogs} rooms of {args.level} bots without pause ({stay}); "
        f"{os.cpu_count()} cores, load {load:.1f}"
    )
    for what, values in (("a person's action to its move", times),
                         ("the wait for the two bots' moves", waits)):  # fmt: skip
        if values:
            values.sort()
            p95 = values[int(0.95 * (len(values) - 1))]
            print(
                f"{what}: {len(values)} times, p50 {statistics.median(values) * 1000:.1f} ms, "
                f"p95 {p95 * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms"
            )
    print(f"server processor (its process and its bot workers): {spent:.1f} s in {wall:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hogs", type=int, default=3)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--stay", action="store_true", help="the hogs stay connected")
    parser.add_argument("--late", action="store_true", help="the hogs come during the play")
    parser.add_argument("--bot-workers", type=int, default=2)
    asyncio.run(main(parser.parse_args()))
