"""One seat's final score on the end screen: the breakdown the scoring found best."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from coloretto.engine import Card, ScoreBreakdown
from coloretto.tui.glyphs import GLYPHS, card_block, set_text
from coloretto.tui.widgets.seats import MINUS


def signed(points: int) -> str:
    """Points with their sign, the minus a real one.

    >>> signed(6), signed(-3) == MINUS + "3", signed(0)
    ('+6', True, '+0')
    """
    return f"{points:+d}".replace("-", MINUS)


def breakdown_table(
    breakdown: ScoreBreakdown[Card],
    golden: int = 0,
    *,
    plain: bool = False,
    spaced: bool = False,
    compact: bool = False,
    width: int | None = None,
) -> Table:
    """Counts and points per colour (plus or minus), "+2"s, where each joker went (a line
    each, as each is a card), and the total, its number under the points.

    ``golden`` says how many of the jokers are golden (they come first in the breakdown).
    ``spaced``: a blank line after each (room to spare); ``compact``: the sign against the
    card (a narrow card); ``width``: the room the table spreads over (between each card
    and its count).
    """
    table = Table.grid(
        padding=(int(spaced), 0, 0, 1),
        collapse_padding=False,
        pad_edge=False,
        expand=width is not None,
    )
    table.width = width
    table.add_column(no_wrap=True)  # the sign and the card
    table.add_column(justify="right", no_wrap=True, ratio=1 if width else None)
    table.add_column(justify="right", no_wrap=True)
    space = "" if compact else " "

    def lead(sign: str, card: Card) -> Text:
        """The sign (or a blank) and the card."""
        return Text.assemble((sign, "bold"), space, card_block(card, plain=plain))

    for entry in breakdown.sets:
        count = f"{entry.cards}{'*' * entry.jokers}"  # as on the board: 5* is five and a joker
        style = "bold" if entry.plus else "dim"
        table.add_row(
            lead("+" if entry.plus else MINUS, entry.colour),
            Text(count),
            Text(signed(entry.points), style=style),
        )
    if breakdown.plus2:
        plus2_points = breakdown.total - sum(entry.points for entry in breakdown.sets)
        table.add_row(
            lead(" ", Card.PLUS2),
            Text(f"\N{MULTIPLICATION SIGN}{breakdown.plus2}"),
            Text(signed(plus2_points), style="bold"),
        )
    for i, colour in enumerate(breakdown.jokers):
        joker = Card.GOLDEN_JOKER if i < golden else Card.JOKER
        table.add_row(lead(" ", joker), Text("→"), card_block(colour, plain=plain))
    total = signed(breakdown.total).removeprefix("+")
    table.add_row(Text("Total", style="bold"), "", Text(total, style="bold"))
    return table


def legend(breakdowns: Sequence[tuple[ScoreBreakdown[Card], int]]) -> str:
    """The notation of the cards, for the breakdowns shown (with each one's golden
    jokers): the signs, and where jokers were counted, one of them as an example.

    >>> from coloretto.engine import score
    >>> legend([(score({Card.BLUE: 3}), 0)]).replace(MINUS, "-")
    '+ plus · - minus'
    >>> legend([(score({Card.BLUE: 3}, jokers=2), 0)]).split(" · ")[2:]
    ['3**: 3 + 2 jokers', '* → B: a joker as blue']
    """
    parts = ["+ plus", f"{MINUS} minus"]
    for breakdown, golden in breakdowns:
        counted = next((entry for entry in breakdown.sets if entry.jokers), None)
        if counted is None:
            continue
        cards, jokers = counted.cards, counted.jokers
        extra = "joker" if jokers == 1 else f"{jokers} jokers"
        parts.append(f"{cards}{'*' * jokers}: {cards} + {extra}")  # as the board's key says
        joker = GLYPHS[Card.GOLDEN_JOKER if golden else Card.JOKER]
        colour = GLYPHS[breakdown.jokers[0]]
        parts.append(f"{joker.letter} → {colour.letter}: a {joker.name} as {colour.name}")
        break
    return " · ".join(parts)


NAME_WIDTH = 16
"""A longer name wraps rather than widening every card."""


class ScoreCard(Static):
    """A seat's final breakdown and total; the winner marked, or the place in the title."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"score-{seat + 1}", classes="score-card")
        self.seat = seat
        self.wanted_width = 0
        """The width the content needs (a long name wrapping), without border or padding."""
        self.table_width = 0
        """The width the breakdown needs (a narrower card has its signs against its cards:
        ``breakdown_table``'s ``compact``)."""
        self.lines = 0
        """The lines the breakdown takes (one a card)."""
        self._titles: tuple[str, ...] = ("",)
        """The titles the card may have, longest first (the place, in full and short)."""
        self._shown: tuple[str, ScoreBreakdown[Card], int, bool] | None = None
        self._fitted: tuple[int, bool, bool] | None = None

    def show(
        self,
        name: str,
        breakdown: ScoreBreakdown[Card],
        *,
        golden: int = 0,
        winner: bool = False,
        place: str = "",
        short_place: str = "",
        plain: bool = False,
    ) -> None:
        """The breakdown of ``name``'s score, to show once ``fit``; ``place`` (``"shared
        2nd"``) titles a card that did not win, ``short_place`` (``"=2nd"``) a card too
        narrow for ``place``."""
        self.set_class(winner, "-winner")
        self._titles = ("★ winner",) if winner else (place, short_place or place)
        self._fit_title()
        self._shown = (name, breakdown, golden, plain)
        self.table_width = _width(self.app.console, breakdown_table(breakdown, golden, plain=plain))
        self.wanted_width = max(min(cell_len(name), NAME_WIDTH), self.table_width)
        self.lines = len(breakdown.sets) + bool(breakdown.plus2) + len(breakdown.jokers) + 1
        self._fitted = None

    def fit(self, width: int, *, spaced: bool = False, compact: bool = False) -> None:
        """Set the card ``width`` cells wide inside (the breakdown spread over them), with
        a blank line after each line when ``spaced``, the signs against the cards when
        ``compact`` (``show`` first; nothing to do when set so already)."""
        if self._shown is None or self._fitted == (width, spaced, compact):
            return
        self._fitted = (width, spaced, compact)
        name, breakdown, golden, plain = self._shown
        table = breakdown_table(
            breakdown, golden, plain=plain, spaced=spaced, compact=compact, width=width
        )
        head = Text(name, style="bold")  # a name is no markup; a long one wraps, never cut
        self.update(set_text(Group(head, table), width))

    def on_resize(self) -> None:
        """The title fits the card's new width."""
        self._fit_title()

    def _fit_title(self) -> None:
        """The longest title that fits on the top border whole (not cut to "shared 2…");
        until the card is laid out, the longest."""
        width = self.outer_size.width
        room = width - TITLE_FRAME
        fits = [title for title in self._titles if not width or cell_len(title) <= room]
        self.border_title = fits[0] if fits else self._titles[-1]


TITLE_FRAME = 6
"""The cells of the top border around a title: ``╭─ `` and `` ─╮``."""


def _width(console: Console, table: Table) -> int:
    """The width ``table`` takes unwrapped."""
    return Measurement.get(console, console.options, table).maximum
