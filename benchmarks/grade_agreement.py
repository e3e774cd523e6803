"""How far the review's grades can be trusted: arena games reviewed twice, with two seeds.

The arena plays ``--games`` four-player games (``--table``: the measured seat first, its
opponents after; seeded deals, seats rotated) and keeps their records; each game's
decisions (the first player's, or every seat's with ``--all``) are reviewed twice by the
coach (``coloretto.play.review.analyse``, ``--jobs`` processes), with seeds 0 and 1. Printed:
how often the two reviews grade a decision alike (also after each game, as it goes), the
grades side by side (rows: seed 0, columns: seed 1), how many decisions each review left
unsettled after its further looks (``Decision.unsettled``), and the decisions graded a
mistake or worse by one review and best by the other (the target: none).

Run: ``python benchmarks/grade_agreement.py --games 50 --jobs 1`` (about 25 minutes on the
idle 2-core machine). Figures in docs/coach.md ("How far the hints and the grades can be
trusted").
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from coloretto.bots.arena import Arena, run_arena
from coloretto.engine import Rules
from coloretto.play.coach import COACH_BOT, Decision, Grade
from coloretto.play.review import Review, analyse, pending, positions
from coloretto.store.records import read_record


def reviewed(path: Path, seats: tuple[int, ...], bot: str, seed: int, jobs: int) -> list[Decision]:
    """The decisions of ``seats`` in the record at ``path``, reviewed with ``seed``."""
    states = positions(read_record(path))
    plies = pending(states, Review(), seats)
    return sorted(analyse(states, plies, bot, seed, jobs), key=lambda d: d.ply)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--table", default="normal,normal,normal,normal")
    parser.add_argument("--all", action="store_true", help="every seat's decisions")
    parser.add_argument("--bot", default=COACH_BOT)
    parser.add_argument("--seed", type=int, default=7, help="the arena's seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    bots = tuple(args.table.split(","))
    print(
        f"{args.games} arena games of {', '.join(bots)} (seed {args.seed}) reviewed by {args.bot} "
        f"with seeds 0 and 1; {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    grades = list(Grade)
    table = {(a, b): 0 for a in grades for b in grades}
    serious: list[str] = []
    unsettled = [0, 0]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        arena = Arena(Rules(players=len(bots)), bots, args.games, args.seed, Path(folder))
        run_arena(arena, args.jobs)
        for path in sorted(Path(folder).glob("*.json")):
            rules_seats = tuple(range(len(bots)))
            seats = rules_seats if args.all else (_first_entry(path, bots),)
            first, second = (reviewed(path, seats, args.bot, s, args.jobs) for s in (0, 1))
            found = len(serious)
            for one, two in zip(first, second, strict=True):
                table[one.grade, two.grade] += 1
                unsettled[0] += one.unsettled
                unsettled[1] += two.unsettled
                both = {one.grade, two.grade}
                if both & {Grade.MISTAKE, Grade.BLUNDER} and Grade.BEST in both:
                    serious.append(
                        f"{path.name} move {one.ply + 1}: {one.grade.value} "
                        f"(loss {one.loss:.3f} ± {one.noise:.3f}, {one.valuation.samples} deals) "
                        f"/ {two.grade.value} (loss {two.loss:.3f} ± {two.noise:.3f}, "
                        f"{two.valuation.samples} deals)"
                    )
            total = sum(table.values())
            alike = sum(table[g, g] for g in grades)
            print(
                f"  {path.name}: {len(first)} decisions; so far {alike / total:.1%} of {total} "
                f"alike, {len(serious)} a mistake or worse in one and best in the other",
                flush=True,
            )
            for line in serious[found:]:
                print(f"    {line}", flush=True)
    total = sum(table.values())
    alike = sum(table[g, g] for g in grades)
    print(f"{total} decisions in {time.perf_counter() - start:.0f} s")
    print(f"graded alike: {alike} ({alike / max(1, total):.1%})")
    width = max(len(g.value) for g in grades)
    print(" " * (width + 2) + " ".join(f"{g.value:>{width}}" for g in grades))
    for a in grades:
        print(f"  {a.value:>{width}} " + " ".join(f"{table[a, b]:>{width}}" for b in grades))
    flaws = sum(n for (a, b), n in table.items() if a.is_error or b.is_error)
    print(f"graded a mistake or worse by either: {flaws}")
    print(
        f"still unsettled after the reviews' further looks: "
        f"{unsettled[0]} (seed 0), {unsettled[1]} (seed 1)"
    )
    print(f"a mistake or worse in one, best in the other: {len(serious)} (target 0)")
    for line in serious:
        print(f"  {line}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


def _first_entry(path: Path, bots: tuple[str, ...]) -> int:
    """The seat the arena's first entry played in the game at ``path`` (seats rotate)."""
    record = read_record(path)
    names = Arena(Rules(players=len(bots)), bots, 1).names
    return next(s for s, name in enumerate(record.seats) if name == names[0])


if __name__ == "__main__":
    main()
