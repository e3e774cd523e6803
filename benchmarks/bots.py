"""Bot speed: mean and worst thinking time per move, and the search bot's iterations/s.

(A search iteration is one sampled deal: with the expert's rollouts, one playout of every
candidate move on it; in the tree mode, ``search:playout=greedy``, one walk and playout.)

Run: ``python benchmarks/bots.py [--games 3] [--players 4] [--bots random,greedy,...]``.
Each bot plays every seat of a few seeded games against greedy opponents; only its own
moves are timed. A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from coloretto.bots.registry import LEVELS, make_bot
from coloretto.bots.search import SearchBot
from coloretto.engine import Rules, new_game


def time_bot(spec: str, rules: Rules, games: int) -> tuple[list[float], int]:
    """Seconds per move of ``spec`` over ``games`` games, and search iterations run."""
    times: list[float] = []
    iterations = 0
    for game in range(games):
        hero = game % rules.players
        bots = [
            make_bot(spec if p == hero else "greedy", seed=game * 10 + p)
            for p in range(rules.players)
        ]
        state = new_game(rules, seed=game)
        while not state.is_over:
            player = rules.controller(state.current_player)
            legal = state.legal_actions()
            start = time.perf_counter()
            action = bots[player].choose(state.view(state.current_player), legal)
            if player == hero:
                times.append(time.perf_counter() - start)
                bot = bots[player]
                if isinstance(bot, SearchBot):
                    iterations += bot.last_iterations
            state = state.apply(action)
    return times, iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--bots",
        default=",".join(["random", "greedy", "expert", "search", *LEVELS]),
        help="comma-separated bot specs or levels",
    )
    args = parser.parse_args()
    rules = Rules(players=args.players)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, "
        f"{args.games} {args.players}-player games per bot (one process)"
    )
    print(f"{'bot':36} {'moves':>6} {'mean ms':>9} {'worst ms':>9} {'iterations/s':>13}")
    for spec in args.bots.split(","):
        times, iterations = time_bot(spec, rules, args.games)
        total = sum(times)
        rate = f"{iterations / total:13.0f}" if iterations else f"{'':13}"
        print(
            f"{spec:36} {len(times):6} {1000 * total / len(times):9.2f} "
            f"{1000 * max(times):9.2f} {rate}"
        )


if __name__ == "__main__":
    main()
