"""Calibrate the bot levels' ratings: the levels play each other in the arena, at mixed
tables of 3 to 5 players, and every game is rated in turn (``coloretto.rating.rate_game``).

Run: ``python benchmarks/calibrate_ratings.py [--games 120] [--seed 1] [--jobs 2]
[--out coloretto/bots/ratings.json]``. ``--games`` is the games of each table with the hard
level (the tables without it, quick, play twice as many), rounded up to whole rotations of
the seats. Every bot starts as a new player (``NEW``); the games of all tables are
interleaved, so that no table's games come all at the end, and rated in that order. The
file written holds each level's rating (what ``bot_rating`` reads), each table's figures,
the games, the date, the seconds taken and the command; docs/ratings.md tells the figures.
The expert, not a level, sits at two tables and is rated along (not written as a level).

``--person BOT --against LEVELS`` checks the ratings instead (nothing is written): BOT
plays ``--games`` 4-player games against three bots of each level in turn (same deals for
each level, seats rotated) and is rated as ``coloretto stats`` rates a person, the levels
held at their packaged ratings; it prints the rating BOT ends with. A bot that plays like a
level should end near that level's rating.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from itertools import zip_longest
from pathlib import Path

from coloretto.bots.arena import Arena, ArenaGameResult, play_game
from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.engine import Outcome, Rules
from coloretto.rating import NEW, Rating, bot_rating, rate_game

TABLES: tuple[tuple[tuple[str, ...], int], ...] = (
    (("beginner", "easy", "normal", "hard"), 1),
    (("beginner", "easy", "normal", "hard", "expert"), 1),
    (("easy", "normal", "hard"), 1),
    (("beginner", "easy", "normal"), 2),
    (("beginner", "easy", "normal", "expert"), 2),
)
"""Each table's bots (one seat each; seats rotated over every deal) and its share of
``--games``: every level at one table, the three strongest, the three weakest, and the
expert (between easy and normal, about a millisecond a move) with all four and with the
three weakest."""

OUT = Path(__file__).resolve().parent.parent / "coloretto" / "bots" / "ratings.json"


def arenas(games: int, seed: int) -> list[Arena]:
    """One arena per table, with its games rounded up to whole rotations of the seats."""
    made = []
    for bots, share in TABLES:
        players = len(bots)
        wanted = games * share
        made.append(Arena(Rules(players=players), bots, -(-wanted // players) * players, seed))
    return made


def interleaved(tables: Sequence[Arena]) -> list[tuple[Arena, int]]:
    """Every game of every table, the tables taken in turn (a table's games in order).

    >>> a = Arena(Rules(players=3), ("easy", "normal", "hard"), 3)
    >>> b = Arena(Rules(players=3), ("beginner", "easy", "normal"), 6)
    >>> [(x.games, n) for x, n in interleaved([a, b])][:4]
    [(3, 0), (6, 0), (3, 1), (6, 1)]
    """
    rounds = zip_longest(*([(arena, n) for n in range(arena.games)] for arena in tables))
    return [job for games in rounds for job in games if job is not None]


def _play(job: tuple[Arena, int]) -> ArenaGameResult:
    return play_game(*job)


def played(jobs: Sequence[tuple[Arena, int]], workers: int) -> Iterator[ArenaGameResult]:
    """The games' results in the order of ``jobs``, played over ``workers`` processes."""
    if workers == 1:
        yield from map(_play, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_play, jobs, chunksize=1)


class Table:
    """One table's figures: games, wins (ties split) and total score per bot."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.games = 0
        self.wins = dict.fromkeys(arena.bots, 0.0)
        self.scores = dict.fromkeys(arena.bots, 0)

    def add(self, result: ArenaGameResult) -> None:
        """Count one game."""
        self.games += 1
        outcome = Outcome.of(result.scores)
        for entry, bot in enumerate(self.arena.bots):
            self.wins[bot] += outcome.share(entry)
            self.scores[bot] += result.scores[entry]

    def to_json(self) -> dict[str, object]:
        """The figures as JSON values."""
        return {
            "players": len(self.arena.bots),
            "games": self.games,
            "win_rate": {b: round(w / self.games, 4) for b, w in self.wins.items()},
            "mean_score": {b: round(s / self.games, 2) for b, s in self.scores.items()},
        }


def check(person: str, levels: Sequence[str], games: int, seed: int, workers: int) -> None:
    """Rate ``person`` from ``games`` games against three bots of each of ``levels``."""
    tables = [Arena(Rules(players=4), (person, *[level] * 3), games, seed) for level in levels]
    jobs = interleaved(tables)
    rating, wins = NEW, dict.fromkeys(levels, 0.0)
    for (arena, _), result in zip(jobs, played(jobs, workers), strict=True):
        level = arena.bots[1]
        wins[level] += Outcome.of(result.scores).share(0)
        before = [rating, *[bot_rating(level)] * 3]
        rating = rate_game(before, result.scores, fixed=[1, 2, 3])[0]
    won = ", ".join(f"{100 * w / games:.1f}% against three {level}" for level, w in wins.items())
    print(
        f"{person}: rating {rating.shown} (mu {rating.mu:.2f} ± {rating.sigma:.2f}) from "
        f"{rating.games} games; won {won}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games per table with hard")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--out", type=Path, default=OUT, help="the ratings file to write")
    parser.add_argument("--person", metavar="BOT", help="check: rate BOT as a person")
    parser.add_argument("--against", metavar="LEVELS", help="check: the levels, comma-separated")
    args = parser.parse_args()
    if not 1 <= args.games <= 100_000 or not 1 <= args.jobs <= 64:
        parser.error("--games is 1 to 100000 and --jobs 1 to 64")
    if (args.person is None) != (args.against is None):
        parser.error("--person and --against go together")
    if args.person is not None:
        levels = args.against.split(",")
        if unknown := [level for level in levels if level not in LEVELS]:
            parser.error(f"--against takes levels ({', '.join(LEVELS)}), not {unknown}")
        try:
            check(args.person, levels, args.games, args.seed, args.jobs)
        except ValueError as error:  # an unknown bot, or options it does not take
            parser.error(str(error))
        return
    tables = arenas(args.games, args.seed)
    figures = {id(arena): Table(arena) for arena in tables}
    jobs = interleaved(tables)
    ratings: dict[str, Rating] = {}
    start = time.monotonic()
    for done, ((arena, _), result) in enumerate(zip(jobs, played(jobs, args.jobs), strict=True), 1):
        figures[id(arena)].add(result)
        new = rate_game([ratings.get(b, NEW) for b in arena.bots], result.scores)
        ratings.update(zip(arena.bots, new, strict=True))
        if done % 50 == 0 or done == len(jobs):
            now = ", ".join(f"{b} {r.mu:.2f}±{r.sigma:.2f}" for b, r in ratings.items())
            print(f"{done}/{len(jobs)} games, {time.monotonic() - start:.0f} s: {now}", flush=True)
    seconds = round(time.monotonic() - start)
    document = {
        "about": "The bot levels' ratings (coloretto.rating), calibrated in the arena by "
        "benchmarks/calibrate_ratings.py; docs/ratings.md",
        "command": "python benchmarks/calibrate_ratings.py " + " ".join(sys.argv[1:]),
        "date": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "games": len(jobs),
        "seconds": seconds,
        "jobs": args.jobs,
        "seed": args.seed,
        "specs": dict(LEVELS),
        "revisions": dict(LEVEL_REVISIONS),
        "tables": [{"bots": list(a.bots), **figures[id(a)].to_json()} for a in tables],
        "levels": {level: ratings[level].to_json() for level in LEVELS},
        "others": {b: r.to_json() for b, r in ratings.items() if b not in LEVELS},
    }
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(jobs)} games, {seconds} s)")


if __name__ == "__main__":
    main()
