"""The hint follower: a seat that plays every hint's move, beside the hard level, on the same deals.

The follower is a bot (``hint-follower``, known to the registry for this run only) that
asks the hints exactly as the game's ``h`` does: a move with no choice at once
(``no_choice_hint``), else the coach's one analysis (``coloretto.play.analysis.Hints``, the
coach's bot kept for the game) and its best move. It plays the arena (``run_arena``:
seeded deals, seats rotated) at four players against players-1 copies of each opponent:
the population's styles and, when they are installed (``pip install benchmarks/heldout``
in a virtual environment of its own: never the development one), the held-out players.
The hard level plays the same tables on the same deals, so the two win rates compare
directly; the follower should be within noise of the hard level.

Run: ``python benchmarks/hint_follower.py --games 100 --jobs 2`` (each table's games are
split among the jobs; about 12 s of processor time per follower game on the 2-core machine
before the search was made faster). Figures in docs/coach.md ("How far the hints can be
trusted").
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Sequence

from coloretto.bots import Bot, Budget, registry
from coloretto.bots.arena import Arena, ArenaResult, run_arena
from coloretto.bots.base import BotFactory
from coloretto.engine import Action, PlayerView, Rules, Scoring
from coloretto.play.advice import no_choice_hint
from coloretto.play.analysis import COACH_SEED, Hints
from coloretto.play.coach import COACH_BOT
from coloretto.play.config import BOT_TIME_LIMIT

POPULATION = ("builder", "netgain", "taker", "collector", "denial")
HELD_OUT = tuple(
    f"heldout-{name}"
    for name in ("eager", "filler", "spoiler", "pair", "patient", "leader", "counter")
)
FOLLOWER = "hint-follower"


class HintFollower:
    """A seat that plays the hint's move at every turn, through the hints' own code."""

    def __init__(self, bot: str = COACH_BOT) -> None:
        self.hints = Hints(bot, COACH_SEED)

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The hint's move: the seat sees no hidden card of its own, so any deal
        consistent with ``view`` is the game as the hint sees it."""
        state = view.sample(random.Random(0))
        forced = no_choice_hint(state, [str(s) for s in range(state.rules.seats)])
        if forced is not None:
            return forced[0]
        return self.hints.advise(state, 1, BOT_TIME_LIMIT).action


def follower(seed: int | None = None, **options: object) -> Bot:
    """The factory of ``hint-follower`` (option: ``bot``, the coach's bot spec)."""
    bot = options.pop("bot", COACH_BOT)
    if options or not isinstance(bot, str):
        raise TypeError(f"hint-follower takes only a bot option, not {sorted(options)}")
    return HintFollower(bot)


def _with_follower() -> None:
    """Let the registry make ``hint-follower`` (for this process and the arena's forks)."""
    plain = registry.load_factory

    def load_factory(name: str) -> BotFactory:
        return follower if name == FOLLOWER else plain(name)

    registry.load_factory = load_factory


def play(bot: str, opponent: str, args: argparse.Namespace) -> ArenaResult:
    """One table: ``bot`` against three ``opponent``s, the arena's seeded deals."""
    rules = Rules(players=4, scoring=Scoring(args.scoring))
    arena = Arena(rules, (bot, *[opponent] * 3), args.games, args.seed)
    return run_arena(arena, args.jobs)


def line(result: ArenaResult) -> str:
    """The measured seat's win rate (ties split), its 95% interval, margin, time a move."""
    stats = result.to_json()["bots"][0]  # type: ignore[index]
    low, high = stats["ci95"]
    return (
        f"{stats['win_rate']:6.1%} ({low:.1%}-{high:.1%}) margin {stats['mean_margin']:+5.1f} "
        f"{1000 * stats['mean_move_seconds']:5.0f} ms/move"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per table")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--scoring", default="brown", choices=("brown", "gray"))
    parser.add_argument("--level", default="hard", help="what the follower is compared with")
    parser.add_argument("--against", default=None, help="opponents (default: all installed)")
    args = parser.parse_args()
    _with_follower()
    known = set(registry.available())
    opponents = (
        args.against.split(",")
        if args.against
        else [
            *POPULATION,
            *(o for o in HELD_OUT if o in known),
        ]
    )
    load = os.getloadavg()
    print(
        f"Hint follower ({COACH_BOT}) against {args.level}, 4 players, {args.scoring} side, "
        f"{args.games} games a table, seed {args.seed}; {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {load[0]:.1f}"
    )
    if not any(o in known for o in HELD_OUT):
        print("(held-out players not installed: pip install benchmarks/heldout in a venv)")
    totals: dict[str, list[float]] = {FOLLOWER: [], args.level: []}
    for opponent in opponents:
        for bot in (FOLLOWER, args.level):
            start = time.perf_counter()
            result = play(bot, opponent, args)
            totals[bot].append(result.to_json()["bots"][0]["win_rate"])  # type: ignore[index]
            took = time.perf_counter() - start
            print(f"  vs {opponent:16} {bot:14} {line(result)}  ({took:.0f} s)", flush=True)
    for bot, rates in totals.items():
        print(f"mean win rate, {bot}: {sum(rates) / len(rates):.1%} over {len(rates)} tables")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
