"""The hint's latency: from asking (``h`` in the game) to the hint, at four players.

Run: ``python benchmarks/hint.py [--games 2] [--every 5] [--players 4]``; to compare
source trees under the same load, ``python benchmarks/hint.py --code OLD --code .`` (each
tree measured in a process of its own, in turn, ``--rounds`` times).

Each game is a hotseat game of people (no bots: nothing else runs meanwhile) whose moves
are the expert's (deterministic, so every tree sees the same positions). Every
``--every``-th position, a hint is asked as pressing ``h`` asks it (``LocalTable.hint``:
the guard, the coach's bot kept from one hint to the next, forced moves answered at once)
and timed on the wall clock and in processor time. Printed: the median, the 95th
percentile and the worst, for every hint and apart for forced moves (a single legal
action, or several alike). The target: 400 ms median and 1 s worst at four players.
A benchmark, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

from trees import Figures, load_average, measure_trees

from coloretto.bots.expert import ExpertBot
from coloretto.engine import Rules
from coloretto.play.advice import forced
from coloretto.play.config import GameConfig
from coloretto.play.session import Session
from coloretto.play.table import LocalTable

MEDIAN_TARGET = 0.4
WORST_TARGET = 1.0


def measure(games: int, every: int, players: int) -> Figures:
    """Hints asked every ``every`` positions of ``games`` games: seconds (wall, processor)
    for each, and for the forced ones apart."""
    figures: Figures = {
        "wall": [],
        "cpu": [],
        "choice wall": [],
        "choice cpu": [],
        "forced wall": [],
    }
    expert = ExpertBot()
    for number in range(games):
        config = GameConfig.build(Rules(players=players), humans=players, seed=100 + number)
        session = Session(config)
        table = LocalTable(session)
        ply = 0
        while not session.game.is_over:
            state = session.game
            if ply % every == 0:
                start, cpu = time.perf_counter(), time.process_time()
                table.hint()
                wall, cpu = time.perf_counter() - start, time.process_time() - cpu
                figures["wall"].append(wall)
                figures["cpu"].append(cpu)
                if forced(state):
                    figures["forced wall"].append(wall)
                else:
                    figures["choice wall"].append(wall)
                    figures["choice cpu"].append(cpu)
            seat = state.current_player
            table.act(expert.choose(state.view(seat), state.legal_actions()))
            ply += 1
    return figures


def summary(label: str, seconds: list[float], width: int = 28) -> str:
    """``label``: how many, the median, the 95th percentile and the worst, in ms."""
    if not seconds:
        return f"{label:<{width}} none"
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"{label:<{width}} {len(ordered):4d} hints  median {statistics.median(ordered) * 1e3:6.0f}"
        f" ms  p95 {p95 * 1e3:6.0f} ms  max {ordered[-1] * 1e3:6.0f} ms"
    )


def report(figures: Figures, prefix: str = "", width: int = 28) -> None:
    for name in ("wall", "cpu", "choice wall", "choice cpu", "forced wall"):
        print(summary(f"{prefix}{name}", figures.get(name, []), width))


def compare(args: argparse.Namespace) -> None:
    """Each tree of ``--code`` measured in a process of its own, in turn, ``--rounds``
    times; the figures side by side."""
    arguments = ["--games", str(args.games), "--every", str(args.every),
                 "--players", str(args.players)]  # fmt: skip
    measured = measure_trees(__file__, args.code, args.rounds, arguments)
    print(f"load average after: {load_average()}")
    width = max(len(str(tree)) for tree, _ in measured) + 14
    for tree, kept in measured:
        report(kept, f"{tree} ", width)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=5, help="a hint every this many moves")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree (--code)")
    parser.add_argument(
        "--code", action="append", metavar="TREE", help="measure this source tree (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.games, args.every, args.players)))
        return
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} "
        f"cores; {args.players} players; targets: median {MEDIAN_TARGET * 1e3:.0f} ms, worst "
        f"{WORST_TARGET * 1e3:.0f} ms"
    )
    print(f"load average before: {load_average()}")
    if args.code:
        compare(args)
        return
    figures = measure(args.games, args.every, args.players)
    print(f"load average after: {load_average()}")
    report(figures)


if __name__ == "__main__":
    main()
