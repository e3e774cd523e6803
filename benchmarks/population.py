"""A bot against the opponent population: the whole matrix of tables, as docs/bots.md shows it.

For every number of players and scoring side asked for, the bot plays a table of
players-1 copies of each opponent style (``coloretto arena --bots BOT --against ...``: the
same seeded deals for every table, seats rotated). Each finished table is appended at once
to ``--out`` (JSON lines), and a table already there is not played again, so a run of
hours can be stopped and continued. At the end the matrix is printed as Markdown: per
table the win rate (ties split) with its 95% interval, the mean margin over the best other
seat, and the bot's mean thinking time per move.

Run: ``python benchmarks/population.py --bot hard --players 2,3,4,5 --scoring brown,gray
--games 1000 --seed 7 --jobs 2 --out hard.jsonl``. A fair share is 1/players.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from coloretto.bots.arena import Arena, ArenaResult, run_arena
from coloretto.engine import Rules, Scoring

POPULATION = ("builder", "netgain", "taker", "collector", "denial")


def table_key(players: int, scoring: str, opponent: str) -> str:
    """How a table is named in the ``--out`` file."""
    return f"{players}/{scoring}/{opponent}"


def play_table(bot: str, players: int, scoring: str, opponent: str, args: Any) -> dict[str, Any]:
    """One table played: the bot's figures as ``coloretto arena --json`` gives them."""
    games, seed, jobs = args.games, args.seed, args.jobs
    arena = Arena(
        Rules(players=players, scoring=Scoring(scoring)),
        (bot, *[opponent] * (players - 1)),
        games,
        seed,
    )
    start = time.perf_counter()
    result: ArenaResult = run_arena(arena, jobs)
    stats: list[dict[str, Any]] = result.to_json()["bots"]  # type: ignore[assignment]
    return {
        "table": table_key(players, scoring, opponent),
        "bot": bot,
        "seed": seed,
        "seconds": round(time.perf_counter() - start, 1),
        **stats[0],
    }


def cell(row: dict[str, Any]) -> str:
    """A table's figures in a Markdown cell."""
    low, high = row["ci95"]
    return (
        f"{row['win_rate']:.1%} ({low:.1%}-{high:.1%}), {row['mean_margin']:+.1f}, "
        f"{1000 * row['mean_move_seconds']:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--scoring", default="brown,gray")
    parser.add_argument("--against", default=",".join(POPULATION))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per table")
    args = parser.parse_args()
    players = [int(p) for p in args.players.split(",")]
    sides = args.scoring.split(",")
    opponents = args.against.split(",")
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            if row["bot"] == args.bot and row["games"] == args.games and row["seed"] == args.seed:
                done[str(row["table"])] = row
    print(
        f"{args.bot}, {args.games} games per table, seed {args.seed}, {args.jobs} jobs; "
        f"{platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    for n in players:
        for side in sides:
            for opponent in opponents:
                key = table_key(n, side, opponent)
                if key in done:
                    continue
                row = play_table(args.bot, n, side, opponent, args)
                row["load"] = round(os.getloadavg()[0], 1)
                done[key] = row
                with args.out.open("a") as out:
                    out.write(json.dumps(row) + "\n")
                print(f"{key}: {cell(row)} ({row['seconds']} s, load {row['load']})", flush=True)
    print(f"\n| players, side | {' | '.join(opponents)} |")
    print(f"|---|{'---|' * len(opponents)}")
    for n in players:
        for side in sides:
            cells = [done.get(table_key(n, side, o)) for o in opponents]
            shown = [cell(c) if c is not None else "" for c in cells]
            print(f"| {n}, {side} | {' | '.join(shown)} |")


if __name__ == "__main__":
    main()
