"""Measured strength of the built-in bots, shown by ``coloretto bots``.

Every figure comes from ``coloretto arena`` on a 2-core machine; the README's
"Bot strength" section gives the commands. Update both together.
"""

from collections.abc import Mapping

MEASURED: Mapping[str, str] = {
    "random": "the baseline: wins 0.4% heads-up against greedy (2000 games)",
    "greedy": "wins 88.4% of 4-player games against 3 random (2000 games); "
    "99.6% heads-up against random",
    "expert": "wins 78.8% of 4-player games against 3 greedy (1000 games); "
    "99.2% heads-up against greedy; against 3 of each style (4 players, brown, 1000 games): "
    "builder 54.5%, netgain 80.2%, taker 90.0%, collector 65.8%, denial 71.0%",
    "search": "the normal and hard levels. hard (64 deals, 32 at five seats, capped at "
    "1.4 s a move, each deal's opponents drawn from what their play makes likely), as it "
    "plays: wins 60.5% of 4-player games against three gray held-out spoilers (1000 "
    "games), 62.1% against gray takers (1000 games), 55.9% of 5-player games against four "
    "gray held-out patient players (500 games; 45.1% with the likeliest opponents), and "
    "before the speed-ups of 2026-11-27 65.0% against gray held-out dumpers (456 games). "
    "With 16 deals, its spec before 2026-11-27: 75.0% "
    "heads-up against expert (1000 games); at 4 players against three of each style "
    "(200-1000 games a table, both scoring sides) 75.0-98.8%, and 60.3% against gray "
    "takers; against three held-out players (200-1000 games) 60.1-91.8%, 56.7% against "
    "gray spoilers. normal (iterations=4, seconds=0.05): wins 67.6% heads-up against "
    "expert (400 games); at 4 players against three of each style 53.4-96.8%. The "
    "README's Bot strength section has every table",
    "builder": "an opponent style: the expert wins 54.5% of 4-player games against 3 "
    "(brown, 1000 games), 92.6% on the gray side",
    "netgain": "an opponent style: the expert wins 80.2% of 4-player games against 3 "
    "(brown, 1000 games), 91.5% on the gray side",
    "taker": "an opponent style: the expert wins 90.0% of 4-player games against 3 "
    "(brown, 1000 games), 47.4% on the gray side",
    "collector": "an opponent style: the expert wins 65.8% of 4-player games against 3 "
    "(brown, 1000 games), 77.8% on the gray side",
    "denial": "an opponent style: the expert wins 71.0% of 4-player games against 3 "
    "(brown, 1000 games), 75.4% on the gray side",
}
