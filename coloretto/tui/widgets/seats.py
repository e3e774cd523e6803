"""The players: each one's collection by colour, current score and plus colours, and status."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from coloretto.engine import Card, ScoreBreakdown
from coloretto.tui.glyphs import card_block
from coloretto.tui.widgets.theme import theme_color

NAME_WIDTH = 16
TIMES = "\N{MULTIPLICATION SIGN}"


def collection_line(
    collection: Mapping[Card, int], breakdown: ScoreBreakdown[Card], *, plain: bool = False
) -> Text:
    """A collection grouped by colour: plus colours after ``+``, minus colours after ``-``,
    then jokers and "+2" cards. A ``*`` after a count marks where a joker counts best.

    >>> from coloretto.engine import score
    >>> held = {Card.GREEN: 3, Card.BLUE: 1, Card.JOKER: 1, Card.PLUS2: 2}
    >>> b = score({Card.GREEN: 3, Card.BLUE: 1, Card.PINK: 0, Card.GRAY: 0}, jokers=1, plus2=2)
    >>> collection_line(held, b, plain=True).plain
    '+ [G]3* [B]1  [*]1 [+2]\N{MULTIPLICATION SIGN}2'
    """
    line = Text()
    plus = [s for s in breakdown.sets if s.plus]
    minus = [s for s in breakdown.sets if not s.plus]
    for sign, sets in (("+", plus), ("-", minus)):
        if not sets:
            continue
        if line:
            line.append("  ")
        line.append(f"{sign} ", style="bold")
        for i, entry in enumerate(sets):
            if i:
                line.append(" ")
            line.append_text(card_block(entry.colour, plain=plain))
            line.append(str(entry.cards), style="bold" if entry.plus else "")
            line.append("*" * entry.jokers)
    extras = [c for c in (Card.JOKER, Card.GOLDEN_JOKER, Card.PLUS2) if collection.get(c)]
    if extras and line:
        line.append(" ")
    for card in extras:
        line.append(" ")
        line.append_text(card_block(card, plain=plain))
        # "+2" followed by a count would read as "+21": the count of "+2" cards gets a times sign.
        times = TIMES if card is Card.PLUS2 else ""
        line.append(f"{times}{collection[card]}")
    if not line:
        line.append("no cards", style="dim")
    return line


class SeatView(Static):
    """One seat: marker, name, score and status on the first line, its cards on the second."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat + 1}", classes="seat")
        self.seat = seat
        self._shown: object = None
        self._lines = 0

    def show(
        self,
        name: str,
        collection: Mapping[Card, int],
        breakdown: ScoreBreakdown[Card],
        status: str,
        *,
        current: bool,
        plain: bool = False,
    ) -> None:
        """Show the seat; ``current`` marks whose turn it is."""
        key = (name, tuple(collection.items()), breakdown, status, current, plain)
        if key == self._shown:
            return
        self._shown = key
        self.styles.background = theme_color(self.app, "accent", 0.2) if current else None
        self.set_class(bool(status) and status.startswith("took"), "-out")
        head = Text()
        head.append("▶ " if current else "  ", style="bold")
        head.append(f"{name:<{NAME_WIDTH}}", style="bold" if current else "")
        points = "pt " if abs(breakdown.total) == 1 else "pts"
        head.append(f"{breakdown.total:>4} {points}", style="bold")
        if status:
            head.append(f"  {status}", style="italic")
        body = Text("  ")
        body.append_text(collection_line(collection, breakdown, plain=plain))
        # A new layout only when the seat needs more or fewer lines (a long collection wraps).
        width = max(1, self.content_size.width or NAME_WIDTH)
        lines = sum(max(1, -(-line.cell_len // width)) for line in (head, body))
        self.update(Text("\n").join([head, body]), layout=lines != self._lines)
        self._lines = lines


class SeatsPanel(VerticalScroll):
    """Every seat at the table, in seat order."""

    can_focus = False

    def __init__(self, seats: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Players"
        self.count = seats

    def compose(self) -> ComposeResult:
        """One ``SeatView`` per seat."""
        for seat in range(self.count):
            yield SeatView(seat)

    def views(self) -> Sequence[SeatView]:
        """The seat views, in seat order."""
        return list(self.query(SeatView))
