"""A player's review summary as Rich renderables, without Textual: the score screen's
review and ``coloretto review`` show it alike; and the hint given in the game for a move,
as the replay's move list shows it."""

from __future__ import annotations

from rich.console import RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from coloretto.engine import Action, GameState
from coloretto.play.coach import StoredHint
from coloretto.play.review import NO_FLAWS, Summary
from coloretto.play.words import short_action


def costly_list(summary: Summary) -> RenderableType:
    """A player's costliest decisions, numbered, each wrapped under its own start (or
    ``NO_FLAWS``), indented under the player's headline.

    >>> from coloretto.play.coach import Grade
    >>> from rich.console import Console
    >>> clean = Summary(0, "Ana", 97.0, {Grade.BEST: 30}, ())
    >>> Console(width=60).print(costly_list(clean))  # doctest: +NORMALIZE_WHITESPACE
      No inaccuracy, mistake or blunder: every decision was the
      best or close to it.
    """
    if not summary.costliest:
        return Padding(Text(NO_FLAWS, style="italic"), (0, 0, 0, 2))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right")
    grid.add_column()
    for number, costly in enumerate(summary.costliest, start=1):
        grid.add_row(f"{number}.", f"{costly.where}: {costly.why.plain}")
    return Padding(grid, (0, 0, 0, 2))


def hint_text(hint: StoredHint, played: Action, state: GameState) -> Text:
    """The hint given in the game for a move, after its line: `` · as hinted`` when the
    move is the one recommended (or one alike), else `` · hint: take 2``.

    >>> from coloretto.bots import Estimate
    >>> from coloretto.engine import DRAW, Rules, new_game
    >>> from coloretto.play.coach import Valuation
    >>> hint = StoredHint(DRAW, Valuation({DRAW: Estimate(0.3, 0.0)}), "search", 0)
    >>> game = new_game(Rules(players=3), seed=1)
    >>> hint_text(hint, DRAW, game).plain
    ' · as hinted'
    """
    if hint.recommends(played):
        return Text(" · as hinted", "dim")
    return Text(f" · hint: {short_action(hint.action, state)}", "dim")
