"""The table: the rows of cards in the middle and, beside them, the deck or the drawn card.

Cards are drawn as blocks whose size follows the space the table has (``card_size``): two
lines tall at 80x24, up to five on a large terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from coloretto.engine import Card
from coloretto.tui.glyphs import GLYPHS, card_back, card_face, empty_face
from coloretto.tui.widgets.theme import theme_color

LABEL = 2
"""Cells for a row's number."""
SIDE_GAP = 3
"""Cells between the rows and the drawn card."""
HATCH = "\N{BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT}"
"""Fills a row taken this round."""
FRESH = ("accent", 0.25)
"""The theme colour (and its alpha) that lights the row a card was just put on."""
MIN_HATCH = 3
"""The shortest hatch drawn after "taken by …" (a lone one reads as a slash)."""
SIDE_MIN = 7
"""The drawn card's column is at least this wide (for "Deck 52" and a card's name)."""


def fresh_style(app: App[object]) -> Style:
    """The style of words that name the row a card was just put on: lit as it is."""
    background = theme_color(app, "background")
    return Style(bgcolor=background.blend(theme_color(app, FRESH[0]), FRESH[1]).rich_color)


class CardSize(NamedTuple):
    """How big cards are drawn, and the blank lines between two rows."""

    width: int
    height: int
    gap: int


def card_size(width: int, height: int, rows: int, widest: int) -> CardSize:
    """The largest cards (up to 8 lines tall, about as wide as tall on screen) with which
    ``rows`` rows of ``widest`` cards and the drawn card fit in ``width`` x ``height`` cells.

    >>> card_size(38, 17, 4, 3), card_size(38, 17, 5, 3), card_size(68, 33, 4, 3)
    (CardSize(width=7, height=3, gap=1), CardSize(width=5, height=2, gap=1), \
CardSize(width=15, height=7, gap=1))
    """
    for tall in range(8, 0, -1):
        wide = 2 * tall + 1
        gap = 1 if tall > 1 or rows * 2 - 1 <= height else 0  # rows of blocks need a gap
        across = LABEL + widest * (wide + 1) + SIDE_GAP + max(wide, SIDE_MIN)
        if rows * tall + (rows - 1) * gap <= height and across <= width:
            return CardSize(wide, tall, gap)
    return CardSize(3, 1, 0)


class RowView(Static):
    """One row: its number and its cards and empty places, or who took it this round.

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
        size: CardSize,
        *,
        taker: str | None = None,
        fresh: bool = False,
        plain: bool = False,
    ) -> None:
        """Show the row's ``cards`` (``fresh``: the last one was just placed).

        ``widest`` is the largest capacity on the table, so that the rows line up.
        """
        key = (tuple(cards), capacity, widest, size, taker, fresh, plain)
        if key == self._shown:
            return
        resized = not isinstance(self._shown, tuple) or self._shown[3] != size
        self._shown = key
        if resized:
            self.styles.height = size.height
            self.styles.margin = (0, 0, size.gap, 0)
        self.set_class(taker is not None, "-taken")
        self.styles.background = theme_color(self.app, *FRESH) if fresh else None
        at = 0 if size.height <= 2 else 1
        lines = [
            Text(f"{self.row + 1:<{LABEL}}" if i == at else " " * LABEL, style="bold")
            for i in range(size.height)
        ]
        if taker is not None:
            across = widest * (size.width + 1) - 1
            label = Text(f" taken by {taker} ", style="bold italic")
            label.truncate(across, overflow="ellipsis")
            rest = across - label.cell_len
            for i, line in enumerate(lines):
                if i == at:
                    line.append_text(label)  # a hatch too short to read as one: blanks
                    line.append(HATCH * rest if rest >= MIN_HATCH else " " * rest, style="dim")
                else:
                    line.append(HATCH * across, style="dim")
        else:
            faces = [card_face(card, size.width, size.height, plain=plain) for card in cards]
            faces += [empty_face(size.width, size.height, plain=plain)] * (capacity - len(cards))
            for i, line in enumerate(lines):
                for face in faces:
                    line.append_text(face[i])
                    line.append(" ")
        self.update(Text("\n").join(lines), layout=resized)


class DrawnCard(Static):
    """The card drawn this turn, big, or the deck when none is; clicking it draws."""

    class Selected(Message):
        """The drawn card (or the deck) was clicked."""

    _shown: object = None

    def on_click(self, event: events.Click) -> None:
        """Clicking here acts like ``d``."""
        event.stop()
        self.post_message(self.Selected())

    def show(
        self,
        card: Card | None,
        deck: int,
        size: CardSize,
        *,
        plain: bool = False,
        drawable: bool = True,
    ) -> None:
        """Show the drawn ``card`` with its name, or the deck (``deck`` cards), with the key
        that draws from it while a person could (``drawable``)."""
        key = (card, deck, size, plain, drawable)
        if self._shown == key:
            return
        resized = not isinstance(self._shown, tuple) or self._shown[2] != size
        self._shown = key
        across = max(size.width, SIDE_MIN)
        if card is None:
            head = Text(f"Deck {deck}", style="bold")
            face = card_back(size.width, size.height, plain=plain)
            foot = Text("d draws" if drawable else "", style="dim")
        else:
            head = Text("Drawn", style="bold")
            face = card_face(card, size.width, size.height, plain=plain)
            foot = Text(GLYPHS[card].name, style="bold" if plain else GLYPHS[card].ink)
        foot.truncate(across, overflow="ellipsis")
        if resized:
            self.styles.width = across
        self.update(Text("\n").join([head, *face, foot]), layout=resized)


class RowsPanel(Horizontal):
    """The table's rows, one ``RowView`` each, and the drawn card (or the deck) beside them."""

    def __init__(self, rows: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Table"
        self.count = rows
        self._last: (
            tuple[
                Sequence[Sequence[Card]],
                Sequence[int],
                dict[int, str],
                Card | None,
                int,
                int | None,
                bool,
                bool,
            ]
            | None
        ) = None

    def compose(self) -> ComposeResult:
        """The rows, then the drawn card."""
        with Vertical(id="row-list"):
            for row in range(self.count):
                yield RowView(row)
        yield DrawnCard(id="drawn")

    def size_for(self, capacities: Sequence[int]) -> CardSize:
        """The card size that fits this panel now."""
        width, height = self.content_size
        if not width or not height:
            return CardSize(5, 2, 1)
        return card_size(width, height, len(capacities), max(capacities))

    def on_resize(self, event: events.Resize) -> None:
        """Cards grow and shrink with the panel."""
        if self._last is not None:
            rows, capacities, takers, drawn, deck, fresh_row, plain, drawable = self._last
            self.show(
                rows,
                capacities,
                takers,
                drawn,
                deck,
                fresh_row=fresh_row,
                plain=plain,
                drawable=drawable,
            )

    def show(
        self,
        rows: Sequence[Sequence[Card]],
        capacities: Sequence[int],
        takers: dict[int, str],
        drawn: Card | None,
        deck: int,
        *,
        fresh_row: int | None = None,
        plain: bool = False,
        drawable: bool = True,
    ) -> None:
        """Show every row, who took which this round, and the drawn card (or the deck, with
        its key while a person could draw: ``drawable``)."""
        self._last = (rows, capacities, takers, drawn, deck, fresh_row, plain, drawable)
        size = self.size_for(capacities)
        widest = max(capacities)
        for view in self.query(RowView):
            r = view.row
            view.show(
                rows[r],
                capacities[r],
                widest,
                size,
                taker=takers.get(r),
                fresh=r == fresh_row,
                plain=plain,
            )
        self.query_one(DrawnCard).show(drawn, deck, size, plain=plain, drawable=drawable)
