"""Where the search bot's analysis spends its time: a profile of the coach's question.

Run: ``python benchmarks/profile_search.py [--players 4] [--decisions 10] [--bot SPEC]
[--sampler] [--top 30]``. One seeded game is played (the greedy bot at seat 0 against
expert bots, as ``benchmarks/review.py`` plays it); at each of seat 0's first
``--decisions`` decisions with a choice, a bot made for the question catches up with the
game (``catch_up``: the opponents' fit) and analyses it (``analyse``), as the coach asks.
Printed: the processor time of each part per decision, then cProfile's costliest functions
by their own time and by their cumulative time, or with ``--sampler`` pyinstrument's
sampled call tree (if installed). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import platform
import pstats
import time

from coloretto.bots.base import Analyst
from coloretto.bots.players import CatchesUp
from coloretto.bots.registry import make_bot
from coloretto.engine import GameState, Rules, new_game

BOT = "search:iterations=32"


def positions(players: int, seed: int) -> list[GameState]:
    """Seat 0's positions with a choice in a game of the greedy bot against experts."""
    state = new_game(Rules(players=players), seed=seed)
    bots = [make_bot("greedy", seed=seed)] + [make_bot("expert") for _ in range(players - 1)]
    found = []
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        if seat == 0 and len(legal) > 1:
            found.append(state)
        state = state.apply(bots[seat].choose(state.view(seat), legal))
    return found


def analyse_all(states: list[GameState], bot: str) -> tuple[float, float]:
    """Each position caught up with and analysed by a new bot: processor seconds of each."""
    fitting = analysing = 0.0
    for ply, state in enumerate(states):
        analyst = make_bot(bot, seed=ply)
        assert isinstance(analyst, Analyst)
        assert isinstance(analyst, CatchesUp)
        view = state.view(state.current_player)
        start = time.process_time()
        analyst.catch_up(view)
        middle = time.process_time()
        analyst.analyse(view, state.legal_actions())
        fitting += middle - start
        analysing += time.process_time() - middle
    return fitting, analysing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=10)
    parser.add_argument("--bot", default=BOT)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sampler", action="store_true", help="pyinstrument's call tree")
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    print(f"load average {os.getloadavg()[0]:.2f}; bot {args.bot}")
    found = positions(args.players, args.seed)
    step = max(1, len(found) // max(1, args.decisions))
    states = found[::step][: args.decisions]
    fitting, analysing = analyse_all(states, args.bot)  # unprofiled, for the figures
    n = max(1, len(states))
    print(
        f"{len(states)} decisions: catch_up {fitting / n:.3f} s, analyse {analysing / n:.3f} s "
        f"of processor time each"
    )
    if args.sampler:
        try:
            profiler = importlib.import_module("pyinstrument").Profiler(interval=0.001)
        except ImportError:
            print("pyinstrument is not installed: pip install pyinstrument")
            return
        profiler.start()
        analyse_all(states, args.bot)
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False, show_all=False))
        return
    profile = cProfile.Profile()
    profile.enable()
    analyse_all(states, args.bot)
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
