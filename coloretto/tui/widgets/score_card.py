"""One seat's final score on the end screen: the breakdown the scoring found best."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from coloretto.engine import Card, ScoreBreakdown
from coloretto.tui.glyphs import card_block


def breakdown_table(
    breakdown: ScoreBreakdown[Card], golden: int = 0, *, plain: bool = False
) -> Table:
    """Counts and points per colour (plus or minus), "+2"s, and where each joker went.

    ``golden`` says how many of the jokers are golden (they come first in the breakdown).
    """
    table = Table.grid(padding=(0, 0, 0, 1), pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    for entry in breakdown.sets:
        count = str(entry.cards) + (f"+{entry.jokers}" if entry.jokers else "")
        style = "bold" if entry.plus else "dim"
        table.add_row(
            Text("+" if entry.plus else "-", style="bold"),
            card_block(entry.colour, plain=plain),
            Text(count),
            Text(f"{entry.points:+d}", style=style),
        )
    if breakdown.plus2:
        plus2_points = breakdown.total - sum(entry.points for entry in breakdown.sets)
        table.add_row(
            "",
            card_block(Card.PLUS2, plain=plain),
            Text(f"\N{MULTIPLICATION SIGN}{breakdown.plus2}"),
            Text(f"{plus2_points:+d}", style="bold"),
        )
    for i, colour in enumerate(breakdown.jokers):
        joker = Card.GOLDEN_JOKER if i < golden else Card.JOKER
        table.add_row(
            "",
            card_block(joker, plain=plain),
            Text("→"),
            card_block(colour, plain=plain),
        )
    return table


NAME_WIDTH = 16
"""A longer name wraps rather than widening every card."""


class ScoreCard(Static):
    """A seat's final breakdown and total; the winner marked, or the place in the title."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"score-{seat + 1}", classes="score-card")
        self.seat = seat
        self.wanted_width = 0
        """The width the content needs (a long name wrapping), without border or padding."""

    def show(
        self,
        name: str,
        breakdown: ScoreBreakdown[Card],
        *,
        golden: int = 0,
        winner: bool = False,
        place: str = "",
        plain: bool = False,
    ) -> None:
        """Show the breakdown of ``name``'s score; ``place`` (``"2nd"``) titles a card that
        did not win."""
        self.set_class(winner, "-winner")
        self.border_title = "★ winner" if winner else place
        head = Text(name, style="bold")  # a name is no markup; a long one wraps, never cut
        table = breakdown_table(breakdown, golden, plain=plain)
        total = Text.assemble(("Total ", "bold"), (f"{breakdown.total}", "bold"))
        self.wanted_width = max(
            min(cell_len(name), NAME_WIDTH), _width(self.app.console, table), total.cell_len
        )
        self.update(Group(head, table, total))


def _width(console: Console, table: Table) -> int:
    """The width ``table`` takes unwrapped."""
    return Measurement.get(console, console.options, table).maximum
