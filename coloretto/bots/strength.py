"""Measured strength of the built-in bots, shown by ``coloretto bots``.

Every figure comes from ``coloretto arena`` on a 2-core machine; the README's
"Bot strength" section gives the commands. Update both together.
"""

from collections.abc import Mapping

MEASURED: Mapping[str, str] = {
    "random": "the baseline: wins 0.4% heads-up against greedy (2000 games)",
    "greedy": "wins 88.4% of 4-player games against 3 random (2000 games); "
    "99.6% heads-up against random",
    "expert": "wins 80.0% of 4-player games against 3 greedy (1000 games); "
    "99.2% heads-up against greedy",
    "search": "iterations=16, seconds=0.5 (the hard level): wins 75.0% heads-up against "
    "expert (1000 games, 34 ms/move); 80.5% of 4-player games against 3 greedy "
    "(200 games, 116 ms/move) and 99.25% heads-up against greedy (400); "
    "the strongest bot",
}
