"""How strong the built-in bots and the difficulty levels are, shown by ``coloretto bots``.

Every figure comes from ``coloretto arena`` on a 2-core machine, seats rotated over every
deal; docs/bots.md gives the tables and the commands, docs/bot-strength.md every
measurement behind them. Update them together.
"""

from collections.abc import Mapping

LEVEL_STRENGTH: Mapping[str, str] = {
    "beginner": "Plays any legal move at random, for learning the rules: the easy level "
    "beats it in 99.6% of 2,000 two-player games.",
    "easy": "Takes the row that raises its own score most when that is worth it, else "
    "draws: it wins 88.4% of 2,000 four-player games against three beginners.",
    "normal": "Thinks a few possible deals ahead in under 50 ms a move and reads how each "
    "opponent plays: it wins 52.0% of 1,000 four-player games even at the toughest table "
    "measured, where a fair share is 25%.",
    "hard": "Thinks 64 possible deals ahead, up to 1.4 s a move: "
    "it wins 63.0% of 400 four-player games at that toughest table.",
}
"""Each difficulty level in one sentence: what it plays like, and one measured figure with
the games it was measured over (``of N ... games``: the same count wherever the figure is
shown, ``MEASURED`` and the README's table of the levels too).

The toughest table measured is three held-out "spoiler" players (written apart from the
bots' code, each placing cards where they hurt the next player most) on the gray side,
each level played as people play it (docs/bots.md)."""

MEASURED: Mapping[str, str] = {
    "random": "wins 0.4% of 2,000 two-player games against greedy",
    "greedy": "wins 88.4% of 2,000 four-player games against three random",
    "expert": "wins 99.2% of 1,000 two-player games against greedy",
    "search": "as the hard level, wins 63.0% of 400 four-player games against the toughest "
    "table measured",
    "builder": "an opponent style: the expert wins 54.5% of 1,000 four-player games against three",
    "netgain": "an opponent style: the expert wins 80.2% of 1,000 four-player games against three",
    "taker": "an opponent style: the expert wins 90.0% of 1,000 four-player games against "
    "three (47.4% of 1,000 on the gray side)",
    "collector": "an opponent style: the expert wins 65.8% of 1,000 four-player games "
    "against three",
    "denial": "an opponent style: the expert wins 71.0% of 1,000 four-player games against three",
}
"""Each built-in bot's strength, one measured figure and its games (brown scoring unless it
says)."""
