"""Two or more bots on the same games of issue 60's tables: each one's win rate, and each
one's difference from the first, game by game.

Every bot plays the games of the arena (``played_game``: deal ``n // players``, seats
rotated by ``n % players``) at a table of ``benchmarks/oracle_gap.py``'s ``TABLES``, so game
``n`` is the same deal and the same seat for every bot, and also game ``n`` of ``coloretto
arena --games G --seed S`` with the same table. Each finished game is appended at once to
``--out`` (JSON lines: table, bot, seed, game, win, margin, time) and not played again, so a
run can be stopped and continued, and the bots may be played by separate runs into the same
file. At the end, per table: each bot's win rate (ties split) with its Wilson 95% interval,
mean margin and time per move; for every bot after the first, the mean difference from the
first in win rate (points) and margin on the games both played, with its standard error
(``paired``). A difference measured so has far less noise than two win rates side by side:
the games both bots win or both lose cancel out.

The held-out opponents need ``benchmarks/heldout`` installed (in an environment of its
own, never the development one).

Run: ``python benchmarks/paired_tables.py --bots search:iterations=64:at_five=32:sample=true,
search:iterations=64:at_five=32:sample=true:extend=2 --tables 4/gray/heldout-spoiler
--games 200 --seed 7 --out paired.jsonl``. Figures in docs/bots.md ("Deals where the
comparison is close").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from coloretto.bots.arena import Arena, played_game, wilson_interval
from coloretto.engine import Rules, Scoring

sys.path.insert(0, str(Path(__file__).parent))
from oracle_gap import TABLES

TIME_LIMIT = 60.0
"""Seconds a move may take: the arena gives each move half as its budget, so a search on
a count of deals is not cut short by the clock on a busy machine."""


def play(table: str, bot: str, number: int, seed: int) -> dict[str, Any]:
    """Game ``number`` of ``table`` with ``bot`` in the first entry: its result for ``bot``."""
    players, side, opponents = TABLES[table]
    rules = Rules(players=players, scoring=Scoring(side))
    arena = Arena(rules, (bot, *opponents), number + 1, seed, time_limit=TIME_LIMIT)
    result = played_game(arena, number).result
    mine, best = result.scores[0], max(result.scores[1:])
    tied = 1 + result.scores[1:].count(best)
    win = 1.0 if mine > best else 0.0 if mine < best else 1 / tied
    return {
        "table": table,
        "bot": bot,
        "seed": seed,
        "game": number,
        "win": win,
        "margin": mine - best,
        "seconds": result.move_seconds[0],
        "moves": result.moves[0],
    }


def paired(first: list[float], other: list[float]) -> tuple[float, float]:
    """The mean of ``other`` less ``first``, game by game, and its standard error.

    >>> paired([1, 0, 1, 0], [1, 1, 1, 0])
    (0.25, 0.25)
    """
    diffs = [b - a for a, b in zip(first, other, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def summary(rows: list[dict[str, Any]], tables: list[str], bots: list[str]) -> list[str]:
    """The Markdown lines of the tables' figures (``--out``'s rows of this seed)."""
    games: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    for row in rows:
        games.setdefault((row["table"], row["bot"]), {})[row["game"]] = row
    lines = [
        "| table | bot | games | win rate | margin | ms a move | against the first, "
        "game by game: win (points), margin |",
        "|---|---|---|---|---|---|---|",
    ]
    for table in tables:
        first = games.get((table, bots[0]), {})
        for bot in bots:
            mine = games.get((table, bot), {})
            if not mine:
                continue
            n = len(mine)
            wins = sum(r["win"] for r in mine.values())
            low, high = wilson_interval(wins, n)
            margin = sum(r["margin"] for r in mine.values()) / n
            moves = sum(r["moves"] for r in mine.values())
            ms = 1000 * sum(r["seconds"] for r in mine.values()) / max(1, moves)
            against = ""
            common = sorted(set(first) & set(mine))
            if bot != bots[0] and len(common) >= 2:
                win, win_error = paired(
                    [first[g]["win"] for g in common], [mine[g]["win"] for g in common]
                )
                gain, gain_error = paired(
                    [first[g]["margin"] for g in common], [mine[g]["margin"] for g in common]
                )
                against = (
                    f"{100 * win:+.1f} ({100 * win_error:.1f}), {gain:+.2f} ({gain_error:.2f})"
                    f" on {len(common)}"
                )
            lines.append(
                f"| {table} | {bot} | {n} | {wins / n:.1%} ({low:.1%}-{high:.1%}) | "
                f"{margin:+.2f} | {ms:.0f} | {against} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", required=True, help="comma-separated specs, the first compared")
    parser.add_argument("--tables", default=",".join(TABLES), help=f"of {', '.join(TABLES)}")
    parser.add_argument("--games", type=int, default=100, help="games per table (from game 0)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--play", default=None, help="play only these of --bots (default all)")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per game")
    args = parser.parse_args()
    bots = args.bots.split(",")
    tables = args.tables.split(",")
    for table in tables:
        if table not in TABLES:
            parser.error(f"unknown table {table!r}; choose from {', '.join(TABLES)}")

    def rows() -> list[dict[str, Any]]:
        if not args.out.exists():
            return []
        found = (json.loads(line) for line in args.out.read_text().splitlines())
        return [row for row in found if row["seed"] == args.seed]

    done = {(r["table"], r["bot"], r["game"]) for r in rows()}
    for table in tables:
        for bot in args.play.split(",") if args.play else bots:
            for number in range(args.games):
                if (table, bot, number) not in done:
                    row = play(table, bot, number, args.seed)
                    with args.out.open("a") as out:
                        out.write(json.dumps(row) + "\n")
            print(f"{table} {bot}: {args.games} games, load {os.getloadavg()[0]:.1f}", flush=True)
    print("\n".join(summary(rows(), tables, bots)))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
