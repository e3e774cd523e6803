"""The game's responsiveness: time to the first screen, and from a key press to the new screen.

Run: ``python benchmarks/tui.py [--keys 200] [--starts 5]``.

- First screen (real terminal): ``coloretto play --players 4 --seed 1`` is started in a
  detached 80x24 tmux session and the pane is read until the table is on it (wall clock,
  Python start-up included), with the CPU time the process had used by then (which does
  not depend on how busy the machine is). The package is byte-compiled first, as an
  installation would. Skipped when tmux is not installed.
- First screen (in process): from creating the app to its first frame, with Textual's pilot.
- Key press to updated screen (in process): a hotseat game of four people (no bots, so
  nothing else happens meanwhile) is played by key events; each is timed from posting the
  key to the end of the first frame that follows it (the frame is rendered to terminal
  output as it would be for a terminal).
- Key press to updated screen (real terminal): ``tmux send-keys``, then the pane is read
  until it changes. Includes tmux's own delay and the polling, so it is an upper bound.

The targets: first screen within 1 s, key press to updated screen within 50 ms.
A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from textual import events

import coloretto
from coloretto.engine import DRAW, ActionKind, GameState, Rules, new_game
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.screens import GameScreen

TMUX = shutil.which("tmux")


def summary(label: str, seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (
        f"{label:44} n={len(ms):<4} median {statistics.median(ms):7.1f} ms   "
        f"p95 {p95:7.1f} ms   max {ms[-1]:7.1f} ms"
    )


def next_key(game: GameState) -> str:
    """A legal key for the person to move: draw, then place, taking rows as they fill."""
    legal = game.legal_actions()
    if game.drawn_card is not None:
        return str((legal[-1].row or 0) + 1)
    takes = [a for a in legal if a.kind is ActionKind.TAKE]
    if DRAW in legal and (not takes or max(len(game.rows[a.row or 0]) for a in takes) < 3):
        return "d"
    return str((takes[0].row or 0) + 1)


async def in_process(keys: int) -> tuple[float, list[float]]:
    """Seconds to the first frame, and seconds from each key event to the next frame."""
    config = GameConfig.build(Rules(players=4), humans=4, seed=1, delay=0)
    frames: list[float] = []
    created = time.perf_counter()
    app = ColorettoApp(config)
    original: Callable[..., None] = app._display

    def display(screen: object, renderable: object) -> None:
        original(screen, renderable)
        if renderable is not None:
            render = getattr(renderable, "render_segments", None)
            if render is not None:
                render(app.console)  # what a real terminal would be sent
            frames.append(time.perf_counter())

    app._display = display  # type: ignore[method-assign]
    latencies: list[float] = []
    async with app.run_test(size=(80, 24)) as pilot:
        while not frames:
            await asyncio.sleep(0.001)
        first = frames[0] - created
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(keys):
            game = screen.session.game
            if game.is_over:
                break
            key = next_key(game)
            await pilot.pause()
            seen = len(frames)
            start = time.perf_counter()
            app.post_message(events.Key(key, key))
            while len(frames) == seen or (screen.session.game is game and key != "d"):
                await asyncio.sleep(0)
                if time.perf_counter() - start > 2:
                    raise RuntimeError(f"no new frame after {key!r}")
            latencies.append(frames[seen] - start)
    return first, latencies


class Tmux:
    """A private tmux server with one 80x24 session."""

    def __init__(self) -> None:
        assert TMUX is not None
        self.directory = tempfile.TemporaryDirectory(prefix="coloretto-bench-")
        socket = os.path.join(self.directory.name, "tmux.sock")
        self.command = [TMUX, "-S", socket, "-f", os.devnull]

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [*self.command, *args], capture_output=True, text=True, check=True, timeout=10
        )
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "bench")

    def close(self) -> None:
        subprocess.run([*self.command, "kill-server"], capture_output=True, check=False)
        self.directory.cleanup()


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_screen_in_tmux() -> tuple[float, float | None]:
    """Wall clock (and CPU time) from starting ``coloretto play`` to the table on screen."""
    tmux = Tmux()
    try:
        command = f"exec {sys.executable} -m coloretto play --players 4 --seed 1"
        start = time.perf_counter()
        tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "bench", command)
        pid = int(tmux.run("display-message", "-p", "-t", "bench", "#{pane_pid}"))
        while True:
            text = tmux.screen()
            if "Players" in text and "Deck" in text:
                wall = time.perf_counter() - start
                try:
                    return wall, cpu_seconds(pid)
                except OSError:
                    return wall, None
            if time.perf_counter() - start > 20:
                raise RuntimeError(f"no table after 20 s:\n{text}")
            time.sleep(0.02)  # gently: the polling itself takes CPU from the game
    finally:
        tmux.close()


def keys_in_tmux(keys: int) -> list[float]:
    """Seconds from ``send-keys`` to a changed pane, in a hotseat game."""
    tmux = Tmux()
    latencies: list[float] = []
    try:
        command = f"{sys.executable} -m coloretto play --players 4 --humans 4 --seed 1"
        tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "bench", command)
        deadline = time.perf_counter() + 20
        while "Your turn" not in (text := tmux.screen()) and "'s turn" not in text:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"no game after 20 s:\n{text}")
            time.sleep(0.01)
        time.sleep(0.3)
        # The same legal keys as in process: replay the game alongside, by the engine.
        game = new_game(Rules(players=4), seed=1)
        for _ in range(keys):
            if game.is_over:
                break
            key = next_key(game)
            before = tmux.screen()
            start = time.perf_counter()
            tmux.run("send-keys", "-t", "bench", key)
            while tmux.screen() == before:
                if time.perf_counter() - start > 2:
                    raise RuntimeError(f"screen did not change after {key!r}")
            latencies.append(time.perf_counter() - start)
            game = game.apply("draw" if key == "d" else _row_action(game, int(key)))
            time.sleep(0.02)
    finally:
        tmux.close()
    return latencies


def _row_action(game: GameState, number: int) -> str:
    return f"{'place' if game.drawn_card is not None else 'take'} {number}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=200, help="key presses to time")
    parser.add_argument("--starts", type=int, default=5, help="times to start the game")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}; "
        "targets: first screen < 1000 ms, key press to screen < 50 ms"
    )
    if os.path.exists("/proc/loadavg"):
        with open("/proc/loadavg") as load:
            print(f"load average before: {load.read().strip()}")
    if TMUX is None:
        print("first screen (tmux, wall clock): skipped, tmux is not installed")
    else:
        # Byte-compile the package, as an installation does (and a second start would).
        source = Path(coloretto.__file__).parent
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(source)],
            check=False,
            capture_output=True,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
        )
        starts = [first_screen_in_tmux() for _ in range(args.starts)]
        print(summary("first screen, real terminal, wall clock", [w for w, _ in starts]))
        cpu = [c for _, c in starts if c is not None]
        if cpu:
            print(summary("first screen, real terminal, CPU time used", cpu))
    first, latencies = asyncio.run(in_process(args.keys))
    print(summary("first frame, in process (app created -> frame)", [first]))
    print(summary("key press -> updated frame, in process", latencies))
    if TMUX is not None:
        print(summary("key press -> changed pane, real terminal", keys_in_tmux(min(args.keys, 60))))


if __name__ == "__main__":
    main()
