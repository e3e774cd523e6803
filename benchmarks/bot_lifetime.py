"""What keeping a bot for the whole match is worth: a level measured in the arena as it is
played now (one bot per player, kept from move to move) and, on the same deals, as the game
and the server played it before (a new bot for every move).

Run: ``python benchmarks/bot_lifetime.py [--bot normal] [--against heldout-spoiler]
[--players 4] [--scoring gray] [--games 200] [--seed 7]``. The two ways are played side
by side, one process each (a level capped in seconds searches less on a busy machine, so
both should meet the same load). Prints each way's win rate with its 95% interval, margin
and time per move. A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
from concurrent.futures import ProcessPoolExecutor

from coloretto.bots import arena as arena_module
from coloretto.bots.arena import Arena, ArenaResult, run_arena
from coloretto.bots.guard import Answer
from coloretto.bots.players import BotPlayers
from coloretto.engine import GameState, Rules


class FreshEveryMove(BotPlayers):
    """The bots as they were asked before: a new bot for every move."""

    def choose(
        self,
        state: GameState,
        *,
        time_limit: float,
        game_number: int = 1,
        player: int | None = None,
    ) -> Answer:
        """A new bot's move (the one kept is dropped first)."""
        self._bots.clear()
        return super().choose(state, time_limit=time_limit, game_number=game_number, player=player)


def measure(job: tuple[Arena, bool]) -> ArenaResult:
    """The arena's result, the bots kept for the game or (``fresh``) made for every move."""
    arena, fresh = job
    if fresh:
        arena_module.BotPlayers = FreshEveryMove  # type: ignore[misc]
    return run_arena(arena, jobs=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="normal")
    parser.add_argument("--against", default="heldout-spoiler")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--scoring", default="gray")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rules = Rules(players=args.players, scoring=args.scoring)
    bots = (args.bot, *[args.against] * (args.players - 1))
    arena = Arena(rules, bots, args.games, seed=args.seed)
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}: {args.bot} against "
        f"{args.players - 1} {args.against}, {args.scoring}, {args.games} games"
    )
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(measure, [(arena, False), (arena, True)]))
    for way, result in zip(("kept for the match", "a new bot every move"), results, strict=True):
        stats = result.bots[args.bot]
        low, high = stats.ci95
        print(
            f"  {way:22} {stats.win_rate:6.1%} ({low:.1%}-{high:.1%}), margin "
            f"{stats.mean_margin:+.1f}, {1000 * stats.mean_move_seconds:.1f} ms a move, "
            f"{1000 * stats.max_move_seconds:.0f} ms at worst"
        )
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
