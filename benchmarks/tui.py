"""The game's responsiveness: time to the first screen, from a key to the screen it opens,
and from a key press to the new screen.

Run: ``python benchmarks/tui.py [--rounds 3] [--keys 200] [--starts 5]``; to compare two
trees under the same load, ``python benchmarks/tui.py --code OLD --code .`` (each
round runs every tree once, in turn, each in a process of its own).

- First screen (real terminal): ``coloretto play --players 4 --seed 1``, plain
  ``coloretto`` (the setup screen) and ``coloretto play --resume`` are started in a
  detached 80x24 tmux session and the pane is read until the screen is on it (wall clock,
  Python start-up included), with the CPU time the process had used by then (which does
  not depend on how busy the machine is). The package is byte-compiled first, as an
  installation would. The data directory is a temporary one. Skipped without tmux.
- First screen (in process): from creating the app to its first frame, with Textual's pilot.
- Screen opened by a key (in process): each timed from posting the key to the end of the
  first frame that shows the screen's text (the frame rendered to terminal output, as for
  a terminal): the rules (``r``; the first time and again), the keys (``?``), the score
  screen (Enter once the game is over), the coach's review (``v`` there), the setup screen
  (``s`` there), and the frame after it that describes the games in progress (they are
  read in a worker thread; games left by the first screens in tmux); and a replay
  (``coloretto replay``'s app, from its creation). The first is pressed ``PERSON``
  seconds after the table is on screen, as a person would.
- Key press to updated screen (in process): a hotseat game of four people (no bots, so
  nothing else happens meanwhile) is played by key events; each is timed from posting the
  key to the end of the first frame that follows it.
- Key press to updated screen (real terminal): ``tmux send-keys``, then the pane is read
  until it changes. Includes tmux's own delay and the polling, so it is an upper bound.

The targets: first screen within 500 ms, a screen opened within 100 ms, key press to
updated screen within 50 ms. A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.pilot import Pilot

import coloretto
from coloretto.engine import DRAW, ActionKind, GameState, Rules, new_game
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.store.history import finished_games
from coloretto.store.paths import HOME_VARIABLE, DataDir
from coloretto.store.records import read_record
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.screens import EndScreen, GameScreen

TMUX = shutil.which("tmux")

PERSON = 1.5
"""Seconds from the table on screen to the first screen opened: a person reads before
pressing a key (the rules are set in the background meanwhile)."""

Figures = dict[str, list[float]]
"""Seconds measured, by what was measured."""

SCREENS = {
    "rules": ("r", "r", "Coloretto is a card game"),
    "help": ("question_mark", "?", "draw the top card of the deck"),
    "score screen": ("enter", "\r", "points!"),
    "review": ("v", "v", "The coach's review"),
    "setup": ("s", "s", "a new game"),
}
"""Each screen timed: the key that opens it (Textual's name and the character) and a text
on it (the frame that shows the text is the one timed)."""

LABELS = {
    "first screen, tmux": "first screen (coloretto play), real terminal, wall clock",
    "first screen, tmux CPU": "first screen (coloretto play), real terminal, CPU",
    "setup first, tmux": "first screen (coloretto), real terminal, wall clock",
    "setup first, tmux CPU": "first screen (coloretto), real terminal, CPU",
    "resume, tmux": "first screen (play --resume), real terminal, wall",
    "resume, tmux CPU": "first screen (play --resume), real terminal, CPU",
    "first frame": "first frame, in process (app created -> frame)",
    "rules, first": "open: rules (r), first time",
    "rules": "open: rules (r), again",
    "help": "open: keys (?)",
    "score screen": "open: score screen (Enter)",
    "review": "open: review (v on the score screen)",
    "setup": "open: setup (s on the score screen)",
    "setup, games described": "open: setup, its games in progress described too",
    "replay": "open: replay (app created -> frame)",
    "rules, first, CPU": "open: rules (r), first time, CPU",
    "rules, CPU": "open: rules (r), again, CPU",
    "help, CPU": "open: keys (?), CPU",
    "score screen, CPU": "open: score screen (Enter), CPU",
    "review, CPU": "open: review (v on the score screen), CPU",
    "setup, CPU": "open: setup (s on the score screen), CPU",
    "key": "key press -> updated frame, in process",
    "key, tmux": "key press -> changed pane, real terminal",
}
"""What each figure is, in the order printed."""

_ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][A-Z0-9])")


def summary(label: str, seconds: list[float], width: int = 52) -> str:
    ms = sorted(1000 * s for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (
        f"{label:{width}} n={len(ms):<4} median {statistics.median(ms):7.1f} ms   "
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


class Frames:
    """Every frame ``app`` draws: when it was drawn and its text (rendered to terminal
    output as for a terminal, the escape sequences taken out)."""

    def __init__(self, app: App[Any]) -> None:
        self.times: list[float] = []
        self.cpu: list[float] = []
        """The process's CPU time when each frame was drawn."""
        self.texts: list[str] = []
        original: Callable[..., None] = app._display

        def display(screen: object, renderable: object) -> None:
            original(screen, renderable)
            if renderable is not None:
                render = getattr(renderable, "render_segments", None)
                output = render(app.console) if render is not None else ""
                self.times.append(time.perf_counter())
                self.cpu.append(time.process_time())
                self.texts.append(_ESCAPES.sub("", output))

        app._display = display  # type: ignore[method-assign]

    async def showing(self, text: str, after: int, start: float) -> float:
        """Seconds from ``start`` to the first frame from the ``after``-th on that shows
        ``text``."""
        return self.times[await self.first(text, after, start)] - start

    async def first(self, text: str, after: int, start: float) -> int:
        """The first frame from the ``after``-th on that shows ``text``."""
        while True:
            for i in range(after, len(self.texts)):
                if text in self.texts[i]:
                    return i
            after = len(self.texts)
            if time.perf_counter() - start > 30:
                raise RuntimeError(f"no frame with {text!r} after 30 s")
            await asyncio.sleep(0)


async def settled(pilot: Pilot[Any]) -> None:
    """Let the app finish what it was doing (a frame, a worker's message)."""
    for _ in range(3):
        await pilot.pause()
        await asyncio.sleep(0.05)


async def open_screen(pilot: Pilot[Any], frames: Frames, name: str, figures: Figures) -> float:
    """Time pressing the key of the screen ``name`` (``SCREENS``) to its text on screen:
    wall clock and CPU time, kept in ``figures`` (``name`` and ``name, CPU``); returns when
    the key was pressed (``time.perf_counter``)."""
    key, character, text = SCREENS[name]
    await settled(pilot)
    seen = len(frames.texts)
    start, cpu = time.perf_counter(), time.process_time()
    pilot.app.post_message(events.Key(key, character))
    shown = await frames.first(text, seen, start)
    figures.setdefault(name, []).append(frames.times[shown] - start)
    figures.setdefault(f"{name}, CPU", []).append(frames.cpu[shown] - cpu)
    return start


async def press(pilot: Pilot[Any], key: str, character: str | None = None) -> None:
    pilot.app.post_message(events.Key(key, character))
    await settled(pilot)


async def in_process(keys: int, opens: int, home: Path) -> Figures:
    """The first frame, each screen opened ``opens`` times, and a hotseat game's keys."""
    figures: Figures = {"first frame": [], "key": []}
    # The bots' pace at its slowest: the score screen waits for Enter (20 s).
    config = GameConfig.build(Rules(players=4), humans=4, seed=1, delay=10)
    created = time.perf_counter()
    app = ColorettoApp(config, keeper=Keeper(DataDir(home)))
    frames = Frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        figures["first frame"].append(await frames.showing("Deck", 0, created))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        await asyncio.sleep(PERSON)  # a person's first key comes later than the pilot's
        for i in range(opens):
            if i == 0:
                first: Figures = {}
                await open_screen(pilot, frames, "rules", first)
                figures["rules, first"] = first["rules"]
                figures["rules, first, CPU"] = first["rules, CPU"]
            else:
                await open_screen(pilot, frames, "rules", figures)
            await press(pilot, "escape", "\x1b")
            await open_screen(pilot, frames, "help", figures)
            await press(pilot, "escape", "\x1b")
        for _ in range(keys):
            game = shown(screen)
            if game.is_over:
                break
            key = next_key(game)
            await pilot.pause()
            seen = len(frames.times)
            start = time.perf_counter()
            app.post_message(events.Key(key, key))
            while len(frames.times) == seen or (shown(screen) is game and key != "d"):
                await asyncio.sleep(0)
                if time.perf_counter() - start > 2:
                    raise RuntimeError(f"no new frame after {key!r}")
            figures["key"].append(frames.times[seen] - start)
        while not shown(screen).is_over:
            await pilot.press(next_key(shown(screen)))
        for _ in range(opens):
            if isinstance(app.screen, EndScreen):
                await press(pilot, "b")  # back to the board, where Enter opens the scores
            await open_screen(pilot, frames, "score screen", figures)
            await open_screen(pilot, frames, "review", figures)
            await press(pilot, "escape", "\x1b")
        before = len(frames.texts)
        start = await open_screen(pilot, frames, "setup", figures)
        setup = app.screen
        if getattr(setup, "saves", None) and hasattr(setup, "games"):  # read in a worker
            # The frame with a game described: its line in the list, or its words.
            described = " · " if len(setup.saves) > 1 else "Game in progress, saved"
            drawn = await frames.first(described, before, start)
            figures["setup, games described"] = [frames.times[drawn] - start]
        await settled(pilot)
    return figures


def shown(screen: GameScreen) -> GameState:
    """The game on ``screen`` (a tree from before the table view calls it ``session``)."""
    view = getattr(screen, "view", None) or getattr(screen, "session")  # noqa: B009
    game: GameState = view.game
    return game


async def replay_open(home: Path) -> float:
    """Seconds from creating the replay app of the game finished last to its first frame."""
    path = finished_games(DataDir(home))[0]
    created = time.perf_counter()
    app = ReplayApp(Replay.from_record(read_record(path), path.name))
    frames = Frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        seconds = await frames.showing("Deck", 0, created)
        await settled(pilot)
    return seconds


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


def coloretto_command(home: Path, arguments: str) -> str:
    """The shell command that runs ``coloretto ARGUMENTS`` from this tree, with ``home`` as
    its data directory."""
    code = os.path.dirname(os.path.dirname(coloretto.__file__))
    return (
        f"exec env PYTHONPATH={code} {HOME_VARIABLE}={home} {sys.executable} -m coloretto "
        f"{arguments}"
    )


def first_screen_in_tmux(home: Path, arguments: str, *texts: str) -> tuple[float, float | None]:
    """Wall clock (and CPU time) from starting ``coloretto ARGUMENTS`` to ``texts`` on
    screen. The game is left as a terminal closed would leave it: saved."""
    tmux = Tmux()
    try:
        start = time.perf_counter()
        tmux.run(
            "new-session", "-d", "-x", "80", "-y", "24", "-s", "bench",
            coloretto_command(home, arguments),
        )  # fmt: skip
        pid = int(tmux.run("display-message", "-p", "-t", "bench", "#{pane_pid}"))
        while True:
            text = tmux.screen()
            if all(part in text for part in texts):
                wall = time.perf_counter() - start
                try:
                    return wall, cpu_seconds(pid)
                except OSError:
                    return wall, None
            if time.perf_counter() - start > 30:
                raise RuntimeError(f"no {texts} after 30 s:\n{text}")
            time.sleep(0.02)  # gently: the polling itself takes CPU from the game
    finally:
        tmux.close()
        time.sleep(0.3)  # the game saves as it goes (SIGHUP)


def keys_in_tmux(keys: int, home: Path) -> list[float]:
    """Seconds from ``send-keys`` to a changed pane, in a hotseat game."""
    tmux = Tmux()
    latencies: list[float] = []
    try:
        command = coloretto_command(home, "play --players 4 --humans 4 --seed 1")
        tmux.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "bench", command)
        deadline = time.perf_counter() + 30
        while "Your turn" not in (text := tmux.screen()) and "'s turn" not in text:
            if time.perf_counter() > deadline:
                raise RuntimeError(f"no game after 30 s:\n{text}")
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


def measure(args: argparse.Namespace) -> Figures:
    """Every figure, once over (``--starts`` starts, ``--opens`` of each screen)."""
    figures: Figures = {}
    with tempfile.TemporaryDirectory(prefix="coloretto-bench-home-") as temp:
        home = Path(temp)
        if TMUX is not None:
            # Byte-compile the package, as an installation does (and a second start would).
            source = Path(coloretto.__file__).parent
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", str(source)],
                check=False,
                capture_output=True,
                env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
            )
            starts = {
                "first screen": ("play --players 4 --seed 1", "Players", "Deck"),
                "setup first": ("", "a new game"),
                "resume": ("play --resume", "Players", "Deck"),
            }
            for name, (arguments, *texts) in starts.items():
                for _ in range(args.starts):
                    wall, cpu = first_screen_in_tmux(home, arguments, *texts)
                    figures.setdefault(f"{name}, tmux", []).append(wall)
                    if cpu is not None:
                        figures.setdefault(f"{name}, tmux CPU", []).append(cpu)
        figures.update(asyncio.run(in_process(args.keys, args.opens, home)))
        figures["replay"] = [asyncio.run(replay_open(home)) for _ in range(args.opens)]
        if TMUX is not None and args.tmux_keys:
            figures["key, tmux"] = keys_in_tmux(min(args.keys, 60), home)
    return figures


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def compare(args: argparse.Namespace) -> None:
    """Each tree of ``--code`` measured in a process of its own, in turn, ``--rounds``
    times; the figures side by side."""
    script = Path(__file__).resolve()
    trees = [Path(code).resolve() for code in args.code]
    figures: list[Figures] = [{} for _ in trees]
    for _ in range(args.rounds):
        for tree, kept in zip(trees, figures, strict=True):
            done = subprocess.run(
                [sys.executable, str(script), "--json", "--rounds", "1", "--keys", str(args.keys),
                 "--starts", str(args.starts), "--opens", str(args.opens),
                 *(["--tmux-keys"] if args.tmux_keys else [])],
                env={**os.environ, "PYTHONPATH": str(tree)},
                cwd=tree,
                capture_output=True,
                text=True,
                check=True,
            )  # fmt: skip
            for name, seconds in json.loads(done.stdout).items():
                kept.setdefault(name, []).extend(seconds)
    print(f"load average after: {load_average()}")
    width = max(len(str(tree)) for tree in trees)  # each figure's label, then a line a tree
    for name, label in LABELS.items():
        if any(kept.get(name) for kept in figures):
            print(label)
        for tree, kept in zip(trees, figures, strict=True):
            if kept.get(name):
                print(summary(f"  {tree}", kept[name], width + 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="times everything is measured")
    parser.add_argument("--keys", type=int, default=200, help="key presses to time")
    parser.add_argument("--starts", type=int, default=3, help="starts a round, of each kind")
    parser.add_argument("--opens", type=int, default=3, help="opens a round, of each screen")
    parser.add_argument(
        "--tmux-keys", action="store_true", help="time key presses in tmux too (slow)"
    )
    parser.add_argument(
        "--code", action="append", metavar="TREE", help="measure this source tree (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args)))
        return
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}; "
        "targets: first screen < 500 ms, a screen opened < 100 ms, key press to screen < 50 ms"
    )
    print(f"load average before: {load_average()}")
    if TMUX is None:
        print("first screens (tmux): skipped, tmux is not installed")
    if args.code:
        compare(args)
        return
    figures: Figures = {}
    for _ in range(args.rounds):
        for name, seconds in measure(args).items():
            figures.setdefault(name, []).extend(seconds)
    print(f"load average after: {load_average()}")
    for name, label in LABELS.items():
        if figures.get(name):
            print(summary(label, figures[name]))


if __name__ == "__main__":
    main()
