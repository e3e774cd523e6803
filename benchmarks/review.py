"""The coach's speed and stability: how long ``coloretto review`` takes on a game, on one
core with the default budget, and whether two reviews with different seeds agree.

Run: ``python benchmarks/review.py [--games 3] [--players 4] [--all] [--bot SPEC]``. Each
game is played by one person (the greedy bot at seat 0) against expert bots
(deterministic, so every run reviews the same games); its
decisions (every seat's with ``--all``) are reviewed twice, with seeds 0 and 1, in this
process (one core). Printed per game: decisions, seconds, seconds per decision, processor
seconds, and the blunders and mistakes each seed finds (and whether they agree). The
target: a 4-player game's review (the person's decisions) under 60 s on one core. A
benchmark, not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from coloretto.bots.registry import make_bot
from coloretto.engine import Rules, new_game
from coloretto.play.coach import REVIEW_BOT, Grade
from coloretto.play.review import Review, analyse, pending

TARGET = 60.0
"""Seconds for the review of a 4-player game's person, on one core."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--all", action="store_true", help="every seat's decisions")
    parser.add_argument("--bot", default=REVIEW_BOT)
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    print(f"load average {os.getloadavg()[0]:.2f}; review bot {args.bot}; one core")
    worst = 0.0
    for number in range(args.games):
        seed = 100 + number
        state = new_game(Rules(players=args.players), seed=seed)
        states = [state]
        bots = [make_bot("greedy", seed=seed)] + [
            make_bot("expert", seed=seed) for _ in range(args.players - 1)
        ]
        while not state.is_over:
            seat = state.current_player
            state = state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
            states.append(state)
        seats = tuple(range(args.players)) if args.all else (0,)
        plies = pending(states, Review(), seats)
        found = []
        for review_seed in (0, 1):
            start, cpu = time.perf_counter(), time.process_time()
            decisions = list(analyse(states, plies, args.bot, review_seed))
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            errors = {
                grade: sorted(d.ply for d in decisions if d.grade is grade)
                for grade in (Grade.BLUNDER, Grade.MISTAKE)
            }
            found.append(errors)
            if review_seed == 0:
                worst = max(worst, seconds)
                print(
                    f"game {seed}: {len(plies)} decisions in {seconds:.1f} s "
                    f"({seconds / max(1, len(plies)):.2f} s each, processor {cpu:.1f} s)"
                )
        same = found[0][Grade.BLUNDER] == found[1][Grade.BLUNDER]
        print(
            f"  blunders (plies) seed 0: {found[0][Grade.BLUNDER]}, seed 1: "
            f"{found[1][Grade.BLUNDER]} -> {'agree' if same else 'DISAGREE'}; mistakes "
            f"{found[0][Grade.MISTAKE]} / {found[1][Grade.MISTAKE]}"
        )
    verdict = "within" if worst < TARGET else "OVER"
    print(f"slowest review {worst:.1f} s: {verdict} the {TARGET:.0f} s target")


if __name__ == "__main__":
    main()
