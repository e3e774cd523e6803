"""The hard level beside the oracle: how much of the possible edge the hard level takes.

For each table of issue 60 the hard level's search without its clock
(``search:iterations=64:at_five=32:sample=true``) and the oracle (``oracle:...``, the same
search told the true order of the deck: ``coloretto.bots.oracle``) play the arena's
seeded deals (``run_arena``: the same deals, seats rotated, for both), so the two win
rates are paired. A table is the measured bot against players-1 copies of one opponent,
or against one of each of several (``mixed``). Each finished (table, bot) is appended at
once to ``--out`` (JSON lines) and not played again, so a run can be stopped and
continued, and the bots may be played by separate runs into the same file. At the end the
tables are printed as Markdown: per table each bot's win rate (ties split) with its
Wilson 95% interval, and the share of the possible edge the first bot takes: its edge over
a fair share (1/players) over the oracle's (``edge_share``).

The tables' opponents include the held-out players (``benchmarks/heldout``, installed
in a virtual environment of its own: never the development one).

Run: ``python benchmarks/oracle_gap.py --games 100 --games-at-five 50 --seed 7 --jobs 2
--out gap.jsonl``. Figures in docs/bots.md ("The ceiling: the oracle").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any

from coloretto.bots.arena import DEFAULT_TIME_LIMIT, Arena, run_arena
from coloretto.engine import Rules, Scoring

HARD = "search:iterations=64:at_five=32:sample=true"
ORACLE = "oracle:iterations=64:at_five=32:sample=true"

TABLES: dict[str, tuple[int, str, tuple[str, ...]]] = {
    "4/brown/builder": (4, "brown", ("builder",) * 3),
    "4/gray/netgain": (4, "gray", ("netgain",) * 3),
    "4/brown/heldout-patient": (4, "brown", ("heldout-patient",) * 3),
    "4/brown/mixed": (4, "brown", ("builder", "netgain", "heldout-patient")),
    "5/brown/builder": (5, "brown", ("builder",) * 4),
    "5/gray/netgain": (5, "gray", ("netgain",) * 4),
    "4/gray/heldout-spoiler": (4, "gray", ("heldout-spoiler",) * 3),
    "4/gray/taker": (4, "gray", ("taker",) * 3),
}
"""Each table by name (players/side/opponent): players, scoring side, opponents."""


def play(table: str, bot: str, games: int, args: argparse.Namespace) -> dict[str, Any]:
    """``bot`` plays ``table``: its figures as ``coloretto arena --json`` gives them."""
    players, side, opponents = TABLES[table]
    rules = Rules(players=players, scoring=Scoring(side))
    arena = Arena(rules, (bot, *opponents), games, args.seed, time_limit=args.time_limit)
    start = time.perf_counter()

    def progress(done: int) -> None:
        if done % 10 == 0:
            print(f"  {table} {bot}: {done}/{games} ({time.perf_counter() - start:.0f} s)",
                  flush=True)  # fmt: skip

    result = run_arena(arena, args.jobs, on_game=progress)
    stats: dict[str, Any] = result.to_json()["bots"][0]  # type: ignore[index]
    return {
        "table": table,
        "bot": bot,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - start, 1),
        "load": round(os.getloadavg()[0], 1),
        **stats,
    }


def cell(row: dict[str, Any] | None) -> str:
    """A bot's win rate at a table, with its interval, in a Markdown cell."""
    if row is None:
        return ""
    low, high = row["ci95"]
    return f"{row['win_rate']:.1%} ({low:.1%}-{high:.1%}), {row['mean_margin']:+.1f}"


def edge_share(table: str, hard: dict[str, Any] | None, oracle: dict[str, Any] | None) -> str:
    """The share of the oracle's edge over a fair share (1/players) that ``hard`` takes, and
    in brackets the widest range its two Wilson intervals allow (a conservative bound, not
    an interval of its own: the games are paired, which the bound does not use).

    >>> hard = {"win_rate": 0.75, "ci95": [0.7, 0.8]}
    >>> edge_share("4/brown/builder", hard, {"win_rate": 0.95, "ci95": [0.9, 0.97]})
    '71% (62-85%)'
    """
    if hard is None or oracle is None:
        return ""
    fair = 1 / TABLES[table][0]
    (low, high), (oracle_low, oracle_high) = hard["ci95"], oracle["ci95"]
    if oracle_low <= fair:
        return "n/a"
    share = (hard["win_rate"] - fair) / (oracle["win_rate"] - fair)
    least = (low - fair) / (oracle_high - fair)
    most = min(1.0, (high - fair) / (oracle_low - fair))
    return f"{share:.0%} ({100 * least:.0f}-{most:.0%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=f"{HARD},{ORACLE}", help="the fair bot, the oracle")
    parser.add_argument("--tables", default=",".join(TABLES), help=f"of {', '.join(TABLES)}")
    parser.add_argument("--games", type=int, default=100, help="games per 4-player table")
    parser.add_argument("--games-at-five", type=int, default=50, help="per 5-player table")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        help="seconds a move may take (the arena's; half of it is each move's budget)",
    )
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per table")
    parser.add_argument("--play", default=None, help="play only these of --bots (default all)")
    args = parser.parse_args()
    bots = args.bots.split(",")
    playing = args.play.split(",") if args.play else bots
    tables = args.tables.split(",")
    for table in tables:
        if table not in TABLES:
            parser.error(f"unknown table {table!r}; choose from {', '.join(TABLES)}")

    def games_at(table: str) -> int:
        return int(args.games_at_five if TABLES[table][0] >= 5 else args.games)

    def done() -> dict[tuple[str, str], dict[str, Any]]:
        """The rows of ``--out`` played with this seed, the latest per table and bot."""
        rows = {}
        if args.out.exists():
            for line in args.out.read_text().splitlines():
                row = json.loads(line)
                if row["seed"] == args.seed:
                    rows[row["table"], row["bot"]] = row
        return rows

    print(
        f"{', '.join(playing)}; seed {args.seed}, {args.jobs} jobs; "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    for table in tables:
        for bot in playing:
            row = done().get((table, bot))
            if row is not None and row["games"] == games_at(table):
                continue
            row = play(table, bot, games_at(table), args)
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
            print(f"{table} {bot}: {cell(row)} ({row['seconds']} s, load {row['load']})",
                  flush=True)  # fmt: skip
    rows = done()
    hard, oracle = bots[0], bots[-1]
    print(f"\n| table | games | {hard} | {oracle} | share of the possible edge |")
    print("|---|---|---|---|---|")
    for table in tables:
        pair = rows.get((table, hard)), rows.get((table, oracle))
        games = {row["games"] for row in pair if row is not None}
        share = edge_share(table, *pair) if len(games) == 1 else ""
        shown = "/".join(str(n) for n in sorted(games))
        print(f"| {table} | {shown} | {cell(pair[0])} | {cell(pair[1])} | {share} |")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
