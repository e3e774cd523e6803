"""The players: each one's collection as colour columns with counts, which colours score
plus now, the score (and the match total), the bot's level and what the seat is doing.

With room to spare (a large terminal, or the move log hidden) a collection is drawn as
stacked colour columns whose height follows the count; at 80x24 as a line of blocks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from coloretto.engine import Card, ScoreBreakdown
from coloretto.tui.glyphs import GLYPHS, card_block
from coloretto.tui.widgets.theme import theme_color

TIMES = "\N{MULTIPLICATION SIGN}"
MINUS = "\N{MINUS SIGN}"
SPECIALS = (Card.JOKER, Card.GOLDEN_JOKER, Card.PLUS2)
LOG_ROOM = 6
"""Lines kept for the move log under the players (when it is shown)."""
LOG_LEAST = 3
"""The least room the move log keeps under the players: its border and one line."""
MAX_STACK = 4
"""The tallest colour column, in lines."""
KEY = f"+ plus · {MINUS} minus · 2*: 2 + joker"
"""What the marks in a collection mean (the players' panel's subtitle): ``3*`` is three
cards and a joker counted with them."""


class SeatInfo(NamedTuple):
    """What one seat's panel shows."""

    name: str
    level: str | None
    """The bot's level or spec (``None`` for a person)."""
    collection: Mapping[Card, int]
    breakdown: ScoreBreakdown[Card]
    status: str
    current: bool
    match_total: int | None
    """The running match total (``None`` outside a match)."""


def stack_height(room: int, seats: int) -> int:
    """How tall colour columns are drawn when ``seats`` seats share ``room`` lines (0: one
    line of blocks and counts per seat).

    >>> stack_height(11, 4), stack_height(17, 4), stack_height(27, 4), stack_height(27, 5)
    (0, 1, 3, 2)
    """
    return max(0, min(MAX_STACK, room // max(1, seats) - 3))


class _Piece(NamedTuple):
    """One colour (or kind of special card) of a collection, as the panel shows it."""

    card: Card
    held: int
    """Cards of it held (a column's height)."""
    label: Text
    """The count as shown: ``3*`` is three and a joker counted with them."""
    group: str
    """``+`` (a plus colour), the minus sign (a minus colour) or ``""`` (special cards)."""


def _pieces(collection: Mapping[Card, int], breakdown: ScoreBreakdown[Card]) -> list[_Piece]:
    """The plus colours and the "+2" cards (they score plus), the minus colours, then
    jokers counted with no colour. Jokers stand on their own only then: otherwise the ``*``
    after a count says where each one is (shown twice, they read as more jokers than
    there are)."""
    pieces: list[_Piece] = []
    plus = [s for s in breakdown.sets if s.plus]
    minus = [s for s in breakdown.sets if not s.plus]
    for sign, sets in (("+", plus), (MINUS, minus)):
        for entry in sets:
            label = Text(f"{entry.cards}{'*' * entry.jokers}")
            label.stylize("bold" if entry.plus else "dim")
            pieces.append(_Piece(entry.colour, entry.cards, label, sign))
        if sign == "+" and (plus2 := collection.get(Card.PLUS2, 0)):
            pieces.append(_Piece(Card.PLUS2, plus2, Text(f"{TIMES}{plus2}", "bold"), sign))
    counted = sum(entry.jokers for entry in breakdown.sets)
    held = collection.get(Card.JOKER, 0) + collection.get(Card.GOLDEN_JOKER, 0)
    if counted < held:
        for card in (Card.JOKER, Card.GOLDEN_JOKER):
            if count := collection.get(card, 0):
                pieces.append(_Piece(card, count, Text(f"{TIMES}{count}"), ""))
    return pieces


def collection_lines(
    collection: Mapping[Card, int],
    breakdown: ScoreBreakdown[Card],
    *,
    plain: bool = False,
    width: int | None = None,
) -> list[Text]:
    """A collection in lines of at most ``width`` cells, broken between colours: the plus
    colours and the "+2" cards after ``+``, the minus colours after the minus sign (said
    again on a line that goes on with the group). ``3*`` is three cards and a joker
    counted with them.

    >>> from coloretto.engine import score
    >>> held = {Card.GREEN: 3, Card.BLUE: 1, Card.ORANGE: 1, Card.JOKER: 1, Card.PLUS2: 2}
    >>> b = score({Card.GREEN: 3, Card.BLUE: 1, Card.PINK: 0, Card.ORANGE: 1}, jokers=1, plus2=2)
    >>> [line.plain for line in collection_lines(held, b, plain=True)]
    ['+ [G]3* [B]1 [O]1 [+2]\N{MULTIPLICATION SIGN}2']
    >>> [line.plain for line in collection_lines(held, b, plain=True, width=12)]
    ['+ [G]3* [B]1', '+ [O]1', '+ [+2]\N{MULTIPLICATION SIGN}2']
    >>> held = {Card.GREEN: 5, Card.BROWN: 2, Card.GRAY: 2, Card.ORANGE: 2, Card.PLUS2: 2}
    >>> b = score({Card.GREEN: 5, Card.BROWN: 2, Card.GRAY: 2, Card.ORANGE: 2}, plus2=2)
    >>> [line.plain.replace(MINUS, "-") for line in collection_lines(held, b, plain=True)]
    ['+ [G]5 [N]2 [A]2 [+2]\N{MULTIPLICATION SIGN}2  - [O]2']
    """
    lines = [Text()]
    group: str | None = None
    for piece in _pieces(collection, breakdown):
        item = Text.assemble(card_block(piece.card, plain=plain), piece.label)
        gap = " " if piece.group == group else "  "
        line = lines[-1]
        sign = Text(f"{piece.group} ", style="bold") if piece.group else Text()
        starts = piece.group != group
        if line and width is not None:
            needed = len(gap) + (sign.cell_len if starts else 0) + item.cell_len
            if line.cell_len + needed > width:
                lines.append(line := Text())
                starts = True  # a group going on to a new line says its sign again
        if line:
            line.append(gap)
        if starts:
            line.append_text(sign)
        line.append_text(item)
        group = piece.group
    if not lines[0]:
        lines[0].append("no cards", style="dim")
    return lines


def collection_columns(
    collection: Mapping[Card, int],
    breakdown: ScoreBreakdown[Card],
    stack: int,
    *,
    plain: bool = False,
) -> list[Text]:
    """The collection as colour columns up to ``stack`` lines tall (a line per card, no
    taller than the largest colour needs), each with its count underneath (``3*``: three
    and a joker counted with them): the plus colours and the "+2" cards
    (``\N{MULTIPLICATION SIGN}2``) after ``+``, the minus colours after the minus sign (see
    ``_pieces`` for jokers). The signs mark the groups, so that a count never reads as
    points.

    >>> from coloretto.engine import score
    >>> held = {Card.GREEN: 2, Card.BLUE: 2, Card.PINK: 2, Card.ORANGE: 1, Card.PLUS2: 1}
    >>> b = score({Card.GREEN: 2, Card.BLUE: 2, Card.PINK: 2, Card.ORANGE: 1}, plus2=1)
    >>> for line in collection_columns(held, b, 2, plain=True):
    ...     print(line.plain.rstrip())
      [G] [B] [P]
      [G] [B] [P] [+2]   [O]
    + 2   2   2   \N{MULTIPLICATION SIGN}1   \N{MINUS SIGN} 1
    >>> held = {Card.BROWN: 2, Card.JOKER: 2, Card.ORANGE: 2}
    >>> b = score({Card.BROWN: 2, Card.ORANGE: 2}, jokers=2)
    >>> collection_columns(held, b, 1, plain=True)[-1].plain  # a wide label keeps a gap
    '+ 2** 2   '
    """
    columns = _pieces(collection, breakdown)
    if not columns:
        return [Text("no cards", style="dim")]
    stack = min(stack, max(piece.held for piece in columns))  # no empty lines on top
    lines = [Text() for _ in range(stack + 1)]
    group: str | None = None
    for card, count, label, sign in columns:
        if sign != group:  # a group starts: its sign in a gutter of its own
            for line in lines[:stack]:
                line.append("  ")
            lines[stack].append(f"{sign} " if sign else "  ", style="bold")
            group = sign
        width = card_block(card, plain=plain).cell_len
        gap = " " * (max(width, label.cell_len) - width + 1)  # a label never meets the next
        filled = min(count, stack)
        for i in range(stack):
            if i < stack - filled:
                lines[i].append(" " * width)
            elif plain or i == stack - filled:
                lines[i].append_text(card_block(card, plain=plain))
            else:
                lines[i].append(" " * width, style=GLYPHS[card].style)
            lines[i].append(gap)
        label.truncate(width + len(gap), pad=True)
        lines[stack].append_text(label)
    return lines


def fit_line(left: Text, right: Text, width: int) -> Text:
    """``left`` and ``right`` on one line ``width`` cells wide (measured in cells, so wide
    characters keep ``right`` in its column); ``left`` is cut when both do not fit.

    >>> fit_line(Text("李小龍"), Text("5 pts"), 14).plain
    '李小龍   5 pts'
    >>> fit_line(Text("Alexandra"), Text("5 pts"), 12).plain
    'Alexa… 5 pts'
    """
    room = width - right.cell_len - 1
    if left.cell_len > room:
        left = left.copy()
        left.truncate(max(1, room), overflow="ellipsis")
    pad = max(1, width - left.cell_len - right.cell_len)
    return Text.assemble(left, " " * pad, right)


class SeatView(Static):
    """One seat: marker, name, level, status and score on the first line, its cards below."""

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"seat-{seat + 1}", classes="seat")
        self.seat = seat
        self._shown: object = None
        self._lines = 0

    @property
    def room(self) -> int:
        """The cells across the seat's panel (before it is laid out, a guess)."""
        return self.content_size.width or 34

    def on_resize(self, event: events.Resize) -> None:
        """Drawn anew to the new width (the players' scrollbar came or went)."""
        if isinstance(self._shown, tuple) and self._shown[3] != self.room:
            info, stack, gap, _, plain = self._shown
            self.show(info, stack, gap, plain=plain)

    def columns_fit(self, info: SeatInfo, stack: int, *, plain: bool = False) -> bool:
        """True when ``info``'s collection drawn as columns fits the seat's width."""
        columns = collection_columns(info.collection, info.breakdown, stack, plain=plain)
        return max(line.cell_len for line in columns) <= self.room - 2

    def show(self, info: SeatInfo, stack: int, gap: int, *, plain: bool = False) -> None:
        """Show the seat with colour columns ``stack`` lines tall (0: lines of blocks)."""
        width = self.room
        key = (info, stack, gap, width, plain)
        if key == self._shown:
            return
        self._shown = key
        current = info.current
        self.styles.background = theme_color(self.app, "accent", 0.2) if current else None
        self.set_class(info.status.startswith("took"), "-out")
        left = Text("▶ " if current else "  ", style="bold")
        left.append(info.name, style="bold" if current else "")
        points = "pt" if abs(info.breakdown.total) == 1 else "pts"
        right = Text(f"{info.breakdown.total} {points}", style="bold")
        if info.match_total is not None:
            right.append(f" · match {info.match_total}")
        # The name and score come first, then the bot's level (who is playing), then the
        # status where there is room (a row taken is on the table, the turn marked).
        level = f" ({info.level})" if info.level else ""
        if left.cell_len + len(level) + 1 + right.cell_len <= width:
            left.append(level, style="dim")
        status = f"{info.status}  " if info.status else ""
        if left.cell_len + 1 + len(status) + right.cell_len <= width:
            right = Text.assemble((status, "italic"), right)
        head = fit_line(left, right, width)
        if stack:
            body = collection_columns(info.collection, info.breakdown, stack, plain=plain)
        else:
            body = collection_lines(info.collection, info.breakdown, plain=plain, width=width - 2)
        body = [Text.assemble("  ", line) for line in body]
        lines = 1 + sum(max(1, -(-line.cell_len // max(1, width))) for line in body)
        if self.styles.margin.bottom != gap:
            self.styles.margin = (0, 0, gap, 0)
        self.update(Text("\n").join([head, *body]), layout=lines != self._lines)
        self._lines = lines


class SeatsPanel(VerticalScroll):
    """Every seat at the table, in seat order; the colour columns fit the room there is
    (all seats drawn alike)."""

    can_focus = False

    def __init__(self, seats: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Players"
        self.border_subtitle = KEY
        self.count = seats
        self._last: tuple[Sequence[SeatInfo], bool] | None = None

    def compose(self) -> ComposeResult:
        """One ``SeatView`` per seat."""
        for seat in range(self.count):
            yield SeatView(seat)

    def show(self, seats: Sequence[SeatInfo], *, plain: bool = False) -> None:
        """Show every seat, as big as the room beside the table allows."""
        self._last = (seats, plain)
        parent = self.parent
        height = parent.content_size.height if isinstance(parent, Vertical) else 0
        log_shown = any(child.display for child in self.siblings)
        room = height - 2 - (LOG_ROOM if log_shown else 0)
        # Players taller than the room left scroll, never pushing the log's border out.
        self.styles.max_height = height - LOG_LEAST if log_shown and height > LOG_LEAST else None
        stack = stack_height(room, len(seats))
        views = self.query(SeatView)
        if len(views) != len(seats):  # shown before its seats are mounted (a busy machine)
            self.call_after_refresh(self.redraw)
            return
        pairs = list(zip(views, seats, strict=True))
        if stack and not all(view.columns_fit(info, stack, plain=plain) for view, info in pairs):
            stack = 0  # one layout for all: lines of blocks where some columns do not fit
        gap = 1 if stack or room >= 3 * len(seats) else 0
        for view, info in pairs:
            view.show(info, stack, gap, plain=plain)

    def redraw(self) -> None:
        """Show the seats again, sized anew (the room beside the table changed)."""
        if self._last is not None:
            self.show(self._last[0], plain=self._last[1])


class SidePanel(Vertical):
    """The column beside the table: the players and the move log."""

    def on_resize(self, event: events.Resize) -> None:
        """The players' columns grow and shrink with the room."""
        self.query_one(SeatsPanel).redraw()
