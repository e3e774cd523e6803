"""The rows on the table and the drawn card."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from coloretto.engine import Card
from coloretto.tui.glyphs import card_block, card_label, empty_slot
from coloretto.tui.widgets.theme import theme_color


def _slot_width(plain: bool) -> int:
    return 5 if plain else 4


class RowView(Static):
    """One row: its number, its cards and empty slots, or who took it this round.

    Clicking a row does what pressing its number does.
    """

    class Selected(Message):
        """The row was clicked."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, row: int) -> None:
        super().__init__(id=f"row-{row + 1}", classes="row")
        self.row = row
        self._shown: object = None

    def on_click(self, event: events.Click) -> None:
        """Clicking a row acts like its number key."""
        event.stop()
        self.post_message(self.Selected(self.row))

    def show(
        self,
        cards: Sequence[Card],
        capacity: int,
        widest: int,
        *,
        taker: str | None = None,
        fresh: bool = False,
        plain: bool = False,
    ) -> None:
        """Show the row's ``cards`` (``fresh``: the last one was just placed).

        ``widest`` is the largest capacity on the table, so that the rows line up.
        """
        key = (tuple(cards), capacity, widest, taker, fresh, plain)
        if key == self._shown:
            return
        self._shown = key
        line = Text(f"{self.row + 1} ", style="bold")
        self.set_class(taker is not None, "-taken")
        self.styles.background = theme_color(self.app, "accent", 0.25) if fresh else None
        self.set_class(taker is None and len(cards) == capacity, "-full")
        if taker is not None:
            line.append(f" taken by {taker}", style="italic")
            self.update(line, layout=False)
            return
        width = _slot_width(plain)
        for i, card in enumerate(cards):
            block = card_block(card, plain=plain)
            if fresh and i == len(cards) - 1:
                block.stylize("underline")
            line.append_text(block)
            line.append(" " * (width - block.cell_len))
        for _ in range(capacity - len(cards)):
            line.append_text(empty_slot(plain=plain))
            line.append(" " * (width - 3))
        line.append(" " * (width * (widest - capacity)))
        if fresh:
            line.append("◂ new", style="bold")
        elif len(cards) == capacity:
            line.append("full", style="dim")
        self.update(line, layout=False)  # always one line: no new layout needed


class DrawnCard(Static):
    """The card drawn this turn and waiting to be placed; clicking it draws."""

    class Selected(Message):
        """The drawn card (or the deck) was clicked."""

    def on_click(self, event: events.Click) -> None:
        """Clicking here acts like ``d``."""
        event.stop()
        self.post_message(self.Selected())

    _shown: tuple[Card | None, bool] | None = None

    def show(self, card: Card | None, *, plain: bool = False) -> None:
        """Show the drawn ``card``, or that none is drawn."""
        if self._shown == (card, plain):
            return
        self._shown = (card, plain)
        drawn = card is not None
        self.styles.background = theme_color(self.app, "accent", 0.25) if drawn else None
        if card is None:
            self.update(Text.assemble(("Drawn ", "bold"), ("none", "dim")), layout=False)
        else:
            label = card_label(card, plain=plain)
            self.update(Text.assemble(("Drawn ", "bold"), label), layout=False)


class RowsPanel(Vertical):
    """The table's rows, one ``RowView`` each, and the drawn card below them."""

    def __init__(self, rows: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Rows"
        self.count = rows

    def compose(self) -> ComposeResult:
        """A line per row, then the drawn card."""
        for row in range(self.count):
            yield RowView(row)
        yield DrawnCard(id="drawn")

    def show(
        self,
        rows: Sequence[Sequence[Card]],
        capacities: Sequence[int],
        takers: dict[int, str],
        drawn: Card | None,
        *,
        fresh_row: int | None = None,
        plain: bool = False,
    ) -> None:
        """Show every row, who took which this round, and the drawn card."""
        widest = max(capacities)
        for view in self.query(RowView):
            r = view.row
            view.show(
                rows[r],
                capacities[r],
                widest,
                taker=takers.get(r),
                fresh=r == fresh_row,
                plain=plain,
            )
        self.query_one(DrawnCard).show(drawn, plain=plain)
