"""How strong the built-in bots and the difficulty levels are, shown by ``coloretto bots``.

Every figure comes from ``coloretto arena`` on a 2-core machine, seats rotated over every
deal; docs/bots.md gives the tables and the commands, docs/bot-strength.md every
measurement behind them. Update them together.
"""

from collections.abc import Mapping

LEVEL_STRENGTH: Mapping[str, str] = {
    "beginner": "Plays any legal move at random, for learning the rules: the easy level "
    "beats it in 99.6% of two-player games.",
    "easy": "Takes the row that raises its own score most when that is worth it, else "
    "draws: it wins 88.4% of four-player games against three beginners.",
    "normal": "Thinks a few possible deals ahead in under 50 ms a move and reads how each "
    "opponent plays: it wins 52.0% of four-player games even at the toughest table "
    "measured, where a fair share is 25%.",
    "hard": "Thinks 64 possible deals ahead, up to 1.4 s a move: "
    "it wins 63.0% of four-player games at that toughest table.",
}
"""Each difficulty level in one sentence: what it plays like, and one measured figure.

The toughest table measured is three held-out "spoiler" players (written apart from the
bots' code, each placing cards where they hurt the next player most) on the gray side:
1,000 games for the normal level, 400 for the hard one, each played as people play it
(docs/bots.md)."""

MEASURED: Mapping[str, str] = {
    "random": "wins 0.4% of two-player games against greedy (2,000 games)",
    "greedy": "wins 88.4% of four-player games against three random (2,000 games)",
    "expert": "wins 99.2% of two-player games against greedy (1,000 games)",
    "search": "as the hard level, wins 63.0% of four-player games against the toughest "
    "table measured (400 games)",
    "builder": "an opponent style: the expert wins 54.5% of four-player games against "
    "three (1,000 games)",
    "netgain": "an opponent style: the expert wins 80.2% of four-player games against "
    "three (1,000 games)",
    "taker": "an opponent style: the expert wins 90.0% of four-player games against three "
    "(1,000 games; 47.4% on the gray side)",
    "collector": "an opponent style: the expert wins 65.8% of four-player games against "
    "three (1,000 games)",
    "denial": "an opponent style: the expert wins 71.0% of four-player games against three "
    "(1,000 games)",
}
"""Each built-in bot's strength, one measured figure (brown scoring unless it says)."""
