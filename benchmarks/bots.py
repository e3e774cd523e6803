"""Bot speed: mean and worst thinking time per move, and the search bot's iterations/s.

(A search iteration is one sampled deal: one playout of every candidate move on it.)

Run: ``python benchmarks/bots.py [--games 3] [--players 4] [--bots random,greedy,...]
[--opponents builder]``. Each bot plays every seat of a few seeded games against the
opponents (greedy by default); only its own moves are timed, by the clock (what a player
waits) and by the processor time of this process (what the machine's load does not
change). The levels' targets are checked against the clock: ``normal`` under 50 ms mean,
``hard`` at most 500 ms mean and 1,500 ms worst (at 4-5 players, one core). A benchmark,
not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from coloretto.bots.registry import LEVELS, make_bot
from coloretto.bots.search import SearchBot
from coloretto.engine import Rules, new_game

TARGETS = {"normal": (0.050, None), "hard": (0.5, 1.5)}
"""Per level: the most seconds per move on average, and at worst (``None``: no target)."""


def time_bot(
    spec: str, rules: Rules, games: int, opponent: str = "greedy"
) -> tuple[list[float], list[float], int]:
    """Seconds per move of ``spec`` over ``games`` games (clock and processor), and search
    iterations run."""
    times: list[float] = []
    cpu: list[float] = []
    iterations = 0
    for game in range(games):
        hero = game % rules.players
        bots = [
            make_bot(spec if p == hero else opponent, seed=game * 10 + p)
            for p in range(rules.players)
        ]
        state = new_game(rules, seed=game)
        while not state.is_over:
            player = rules.controller(state.current_player)
            legal = state.legal_actions()
            start, processor = time.perf_counter(), time.process_time()
            action = bots[player].choose(state.view(state.current_player), legal)
            if player == hero:
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - processor)
                bot = bots[player]
                if isinstance(bot, SearchBot):
                    iterations += bot.last_iterations
            state = state.apply(action)
    return times, cpu, iterations


def verdict(spec: str, times: list[float]) -> str:
    """Whether a level meets its target: "ok", "MISSED" or "" (no target)."""
    mean_limit, worst_limit = TARGETS.get(spec, (None, None))
    if mean_limit is None:
        return ""
    missed = sum(times) / len(times) > mean_limit or (
        worst_limit is not None and max(times) > worst_limit
    )
    return "MISSED" if missed else "ok"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--bots",
        default=",".join(["random", "greedy", "expert", "search", *LEVELS]),
        help="comma-separated bot specs or levels",
    )
    parser.add_argument("--opponents", default="greedy", help="the bot in the other seats")
    parser.add_argument("--scoring", default="brown", choices=["brown", "gray"])
    args = parser.parse_args()
    rules = Rules(players=args.players, scoring=args.scoring)
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, load "
        f"{os.getloadavg()[0]:.1f}, {args.games} {args.players}-player games per bot "
        f"against {args.opponents} (one process)"
    )
    print(
        f"{'bot':36} {'moves':>6} {'mean ms':>9} {'worst ms':>9} {'cpu ms':>8} "
        f"{'worst cpu':>9} {'iterations/s':>13}  target"
    )
    for spec in args.bots.split(","):
        times, cpu, iterations = time_bot(spec, rules, args.games, args.opponents)
        total = sum(times)
        rate = f"{iterations / total:13.0f}" if iterations else f"{'':13}"
        print(
            f"{spec:36} {len(times):6} {1000 * total / len(times):9.2f} "
            f"{1000 * max(times):9.2f} {1000 * sum(cpu) / len(cpu):8.2f} "
            f"{1000 * max(cpu):9.2f} {rate}  {verdict(spec, times)}"
        )


if __name__ == "__main__":
    main()
