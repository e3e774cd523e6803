"""Engine speed: uniformly random games through the public API, one core.

Run: ``python benchmarks/engine.py [--players 4] [--games 5000]``. Prints games
and actions per second. A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from coloretto.engine import Rules, new_game


def play_random_games(rules: Rules, games: int, seed: int) -> tuple[int, float]:
    """Deal and play ``games`` random games; return the actions played and the seconds taken."""
    rng = random.Random(seed)
    uniform = rng.random
    actions = 0
    start = time.perf_counter()
    for game in range(games):
        state = new_game(rules, seed=seed + game)
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[int(uniform() * len(legal))])
            actions += 1
        state.final_scores()
    return actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--scoring", default="brown")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is reported")
    args = parser.parse_args()
    rules = Rules(players=args.players, scoring=args.scoring)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, "
        f"{args.games} random {args.players}-player games, best of {args.repeat}"
    )
    best = None
    for run in range(args.repeat):
        actions, seconds = play_random_games(rules, args.games, seed=run * args.games)
        print(
            f"  run {run + 1}: {args.games / seconds:8.0f} games/s  "
            f"{actions / seconds:10.0f} actions/s  ({actions / args.games:.1f} actions/game)"
        )
        best = max(best or 0.0, args.games / seconds)
    print(f"games per second (best): {best:.0f}")


if __name__ == "__main__":
    main()
