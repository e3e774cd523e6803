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
    "search": "iterations=16, seconds=0.5 (the hard level): wins 75.0% heads-up against "
    "expert (1000 games, 34 ms/move); 80.5% of 4-player games against 3 greedy "
    "(200 games, 116 ms/move) and 99.25% heads-up against greedy (400); "
    "against 3 of each style (4 players, 1000 games) brown: builder 75.8%, netgain 90.5%, "
    "taker 96.2%, collector 76.6%, denial 86.4%, held-out patient 56.0%, held-out leader "
    "63.6%; gray: builder 98.1%, netgain 96.4%, taker 52.5%, collector 87.9%, denial "
    "88.3%, held-out spoiler 50.0%; the strongest bot; iterations=4, seconds=0.05 (the "
    "normal level): against 3 of each (4 players, 1000 games) brown: builder 68.1%, "
    "collector 75.4%, denial 80.7%, netgain 87.6%, taker 93.7%, held-out patient 47.8%, "
    "held-out leader 59.1%; gray: builder 97.1%, netgain 94.3%, taker 49.1%, collector "
    "81.2%, denial 83.5%, held-out spoiler 49.2%",
    "builder": "an opponent style: the expert wins 54.5% of 4-player games against 3 "
    "(brown, 1000 games), 89.6% on the gray side",
    "netgain": "an opponent style: the expert wins 80.2% of 4-player games against 3 "
    "(brown, 1000 games), 89.5% on the gray side",
    "taker": "an opponent style: the expert wins 90.0% of 4-player games against 3 "
    "(brown, 1000 games), 46.3% on the gray side",
    "collector": "an opponent style: the expert wins 65.8% of 4-player games against 3 "
    "(brown, 1000 games), 77.9% on the gray side",
    "denial": "an opponent style: the expert wins 71.0% of 4-player games against 3 "
    "(brown, 1000 games), 77.2% on the gray side",
}
