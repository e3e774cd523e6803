"""The coach's speed: a whole game's review as ``coloretto review`` runs it, and the
processor time of each decision's analysis.

Run: ``python benchmarks/review.py [--games 2] [--players 4] [--bot SPEC] [--jobs N]``; to
compare source trees under the same load, ``python benchmarks/review.py --code OLD --code
.`` (each tree measured in a process of its own, in turn, ``--rounds`` times, all with the
same ``--bot``: by default the coach's bot of the tree this script is in).

Each game is played by one person (the greedy bot at seat 0) against expert bots
(deterministic, so every run and every tree reviews the same games). Its decisions with a
choice (not ``forced``) are measured twice:

- the review: ``coloretto.play.review.analyse`` on ``--jobs`` processes (by default every
  core, as ``coloretto review`` runs it), analysis seed 0: its wall time, and the
  processor time of this process and its workers per decision;
- the analyses alone, in this process (one core): for each decision a new bot catches up
  with the game (``catch_up``: the fit of the other seats) and analyses it (``analyse``),
  which is the same work in every tree: processor seconds of each part per decision.

The target: a 4-player game's review (about 30 decisions) within 10 s of wall time on the
idle 2-core machine. A benchmark, not a test: the figures depend on the machine and its
load (printed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import time

from trees import Figures, load_average, measure_trees

from coloretto.bots.base import Analyst
from coloretto.bots.players import CatchesUp
from coloretto.bots.registry import make_bot
from coloretto.engine import GameState, Rules, new_game
from coloretto.play.advice import forced
from coloretto.play.coach import REVIEW_BOT
from coloretto.play.review import analyse

TARGET = 10.0
"""Seconds of wall time for the review of a 4-player game's person, on both cores."""


def game(players: int, seed: int) -> tuple[list[GameState], list[int]]:
    """A game of the greedy bot (seat 0) against experts: its positions, and the plies of
    seat 0's decisions with a choice."""
    state = new_game(Rules(players=players), seed=seed)
    states = [state]
    bots = [make_bot("greedy", seed=seed)] + [make_bot("expert") for _ in range(players - 1)]
    while not state.is_over:
        seat = state.current_player
        state = state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
        states.append(state)
    plies = [
        ply
        for ply, position in enumerate(states[:-1])
        if position.current_player == 0 and forced(position) is None
    ]
    return states, plies


def children_cpu() -> float:
    """Processor seconds of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(args: argparse.Namespace) -> Figures:
    """Every game reviewed (``jobs`` processes), then its decisions analysed one by one."""
    figures: Figures = {}
    for number in range(args.games):
        states, plies = game(args.players, 100 + number)
        figures.setdefault("decisions", []).append(len(plies))
        start, cpu, workers = time.perf_counter(), time.process_time(), children_cpu()
        reviewed = list(analyse(states, plies, args.bot, 0, args.jobs))
        assert len(reviewed) == len(plies)
        wall = time.perf_counter() - start
        used = time.process_time() - cpu + children_cpu() - workers
        figures.setdefault("review wall", []).append(wall)
        figures.setdefault("review cpu per decision", []).append(used / max(1, len(plies)))
        fitting, analysing = [], []
        for ply in plies:
            state = states[ply]
            bot = make_bot(args.bot, seed=ply)
            assert isinstance(bot, CatchesUp)
            assert isinstance(bot, Analyst)
            view = state.view(state.current_player)
            start = time.process_time()
            bot.catch_up(view)
            middle = time.process_time()
            bot.analyse(view, state.legal_actions())
            fitting.append(middle - start)
            analysing.append(time.process_time() - middle)
        figures.setdefault("catch_up cpu", []).extend(fitting)
        figures.setdefault("analyse cpu", []).extend(analysing)
    return figures


def report(figures: Figures, prefix: str = "") -> None:
    walls = figures.get("review wall", [])
    decisions = figures.get("decisions", [])
    for wall, count in zip(walls, decisions, strict=True):
        verdict = "within" if wall <= TARGET else "OVER"
        print(
            f"{prefix}review of {count:.0f} decisions: {wall:5.1f} s wall "
            f"({verdict} {TARGET:.0f} s)"
        )
    if walls:
        per = figures["review cpu per decision"]
        print(
            f"{prefix}review: processor {statistics.fmean(per):.3f} s per decision (all processes)"
        )
    fitting, analysing = figures.get("catch_up cpu", []), figures.get("analyse cpu", [])
    if fitting:
        print(
            f"{prefix}one core, per decision: catch_up {statistics.fmean(fitting):.3f} s, "
            f"analyse {statistics.fmean(analysing):.3f} s (median "
            f"{statistics.median(analysing):.3f}, max {max(analysing):.3f}) of processor time, "
            f"{len(fitting)} decisions"
        )


def compare(args: argparse.Namespace) -> None:
    """Each tree of ``--code`` measured in a process of its own, in turn, ``--rounds``
    times; the figures one tree after another."""
    arguments = ["--games", str(args.games), "--players", str(args.players),
                 "--bot", args.bot, "--jobs", str(args.jobs)]  # fmt: skip
    for tree, kept in measure_trees(__file__, args.code, args.rounds, arguments, say=True):
        print(f"{tree}:")
        report(kept, "  ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default=REVIEW_BOT)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rounds", type=int, default=1, help="runs of each tree (--code)")
    parser.add_argument(
        "--code", action="append", metavar="TREE", help="measure this source tree (repeatable)"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args)))
        return
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    print(f"load average before: {load_average()}; bot {args.bot}; {args.jobs} processes")
    if args.code:
        compare(args)
        return
    figures = measure(args)
    print(f"load average after: {load_average()}")
    report(figures)


if __name__ == "__main__":
    main()
