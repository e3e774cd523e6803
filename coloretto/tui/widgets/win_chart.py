"""The chance to win after each of a player's decisions, drawn across the game as a bar
chart (as Lichess draws its evaluation graph): the coach's estimate of the move played, its
standard error as a shaded band above the bar, mistakes and blunders marked by a glyph and
a colour, the rounds' starts on the axis, and one decision selected with the keys.

Drawn with block characters, one to four cells a decision (a window that follows the
selection when there are more decisions than cells). Everything reads without colour too:
the marks are glyphs (``⁈`` inaccuracy, ``?`` mistake, ``⁇`` blunder), the selection a
``▲`` under its bar.

>>> from coloretto.bots import Estimate
>>> from coloretto.engine import DRAW, Action
>>> def decided(ply: int, win: float, error: float, other: float) -> Decision:
...     options = {DRAW: Estimate(win, 0.0, error), Action.take(0): Estimate(other, 0.0)}
...     return Decision(ply, 0, DRAW, options)
>>> first, blunder = decided(3, 0.5, 0.1, 0.1), decided(7, 0.2, 0.05, 0.4)
>>> points = [ChartPoint(3, 1, first), ChartPoint(7, 2, blunder), ChartPoint(9, 2)]
>>> lines = draw(points, selected=1, width=11, rows=4, share=0.25)
>>> print("\\n".join(line.plain.rstrip() for line in lines))
100%│  ┊
 50%┤░░┊
    │██┊┈┈┈
    │██▆▆··
  0%┼1─2▲──
        ⁇
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from coloretto.play.coach import Decision, Grade

AXIS = 5
"""Cells of the y axis: ``100%│``."""

MOST_CELLS = 8
"""The most cells a decision's bar takes (a short game on a wide screen)."""

EIGHTHS = " ▁▂▃▄▅▆▇█"
"""A cell filled from the bottom by 0 to 8 eighths."""

MARKS = {grade: grade.mark for grade in Grade if grade.mark}
"""The glyph under a flawed decision's bar: the grade's own mark (``Grade.mark``)."""

MARK_STYLES = {
    Grade.INACCURACY: Style(color="yellow", bold=True),
    Grade.MISTAKE: Style(color="dark_orange", bold=True),
    Grade.BLUNDER: Style(color="red", bold=True),
}
"""A flawed decision's bar and mark."""

PLAIN_MARK = Style(bold=True)
"""A mark without colour (``NO_COLOR``: a dark red would be a dim gray)."""


def mark_style(grade: Grade, *, plain: bool = False) -> Style:
    """The style of ``grade``'s mark and name (bold, for a grade that is no flaw)."""
    return PLAIN_MARK if plain else MARK_STYLES.get(grade, PLAIN_MARK)


BAR = Style(color="cornflower_blue")
BAND = Style(color="grey50")
FAINT = Style(color="grey42")
CHOSEN = Style(bgcolor="grey27")
CARET = Style(bold=True)

MIN_ROWS = 4
MAX_ROWS = 14
SPARE_ROWS = 16
"""The screen's lines left to the rest of the review (title, details, keys): the chart's
rows are the screen's height less these, between ``MIN_ROWS`` and ``MAX_ROWS``."""


@dataclass(frozen=True)
class ChartPoint:
    """One of the player's decisions: where it was (``ply``, ``round``) and the coach's
    judgement of it (``None`` while it is not analysed yet)."""

    ply: int
    round: int
    decision: Decision | None = None

    @property
    def win(self) -> float | None:
        """The chance to win after the move played (0 to 1), if analysed."""
        if self.decision is None:
            return None
        return self.decision.estimates[self.decision.played].win

    @property
    def win_error(self) -> float:
        """The standard error of ``win`` (0 if not analysed)."""
        if self.decision is None:
            return 0.0
        return self.decision.estimates[self.decision.played].win_error

    @property
    def grade(self) -> Grade | None:
        """The decision's grade, if analysed."""
        return None if self.decision is None else self.decision.grade


def window(points: int, width: int, selected: int) -> range:
    """The decisions shown in ``width`` cells (axis included): all of them, or as many as
    fit around the selected one, a cell each.

    >>> window(10, 80, 3), window(100, 45, 0), window(100, 45, 60), window(100, 45, 99)
    (range(0, 10), range(0, 40), range(40, 80), range(60, 100))
    """
    room = max(1, width - AXIS)
    if points <= room:
        return range(points)
    start = max(0, min(selected - room // 2, points - room))
    return range(start, start + room)


def widths(points: int, width: int) -> list[int]:
    """The cells of each bar shown in ``width`` cells (axis included): they share the room
    (one or two cells more for some), at most ``MOST_CELLS`` each.

    >>> widths(3, 20), widths(3, 40), widths(4, 11), widths(100, 45) == [1] * 40
    ([5, 5, 5], [8, 8, 8], [1, 2, 1, 2], True)
    """
    room = max(1, width - AXIS)
    count = min(points, room)
    if room >= MOST_CELLS * count:
        return [MOST_CELLS] * count
    return [(i + 1) * room // count - i * room // count for i in range(count)]


def draw(
    points: Sequence[ChartPoint],
    *,
    selected: int,
    width: int,
    rows: int,
    share: float,
    plain: bool = False,
) -> list[Text]:
    """The chart's lines: ``rows`` of bars (0 to 100 %), the axis (the rounds' numbers
    where they start, ``▲`` under the selected decision) and the marks of the flaws.

    ``share`` is an even chance (one in the number of players), drawn as a dotted line;
    ``plain``: the marks without colour."""
    shown = window(len(points), width, selected)
    cells = widths(len(points), width)
    lines: list[list[Cell]] = [[(_label(row, rows), FAINT)] for row in range(rows - 1, -1, -1)]
    axis: list[Cell] = [("─", FAINT)] * sum(cells)
    marks: list[Cell] = [(" " * AXIS, None)]
    even = min(rows - 1, int(share * rows))
    before = points[shown.start - 1].round if shown.start > 0 else None
    at = free = 0  # where this bar starts; where a round's number may start
    for index, each in zip(shown, cells, strict=True):
        point = points[index]
        chosen = index == selected
        starts = point.round != before
        line_up = starts and before is not None  # a new round: dotted up its first cell
        before = point.round
        win, grade = point.win, point.grade
        fill = top = None
        if win is not None:
            fill = round(win * rows * 8)
            top = round(min(1.0, win + point.win_error) * rows * 8)
        bar = MARK_STYLES.get(grade, BAR) if grade is not None else BAR
        middle = each // 2
        for cell in range(each):
            for row in range(rows):
                glyph, style = _cell(row, fill, top, bar, first=cell == 0 and line_up)
                if glyph == " " and row == even:
                    glyph, style = "┈", FAINT
                if chosen:
                    style = style + CHOSEN
                lines[rows - 1 - row].append((glyph, style))
            if grade in MARKS and cell == middle:
                marks.append((MARKS[grade], mark_style(grade, plain=plain)))
            else:
                marks.append((" ", None))
        label = str(point.round)
        if starts and at >= free and at + len(label) <= len(axis):
            axis[at : at + len(label)] = [(digit, CARET) for digit in label]
            free = at + len(label) + 1
        if chosen:
            axis[at + middle] = ("▲", CARET)
        at += each
    found = [_joined(line) for line in lines]
    found.append(_joined([("  0%┼", FAINT), *axis]))
    found.append(_joined(marks))
    found[-1].rstrip()
    return found


Cell = tuple[str, Style | None]
"""Text and its style (``None``: none)."""


def _joined(cells: Sequence[Cell]) -> Text:
    """The cells as one text, a span for each run of one style (a chart's line has few)."""
    text = Text()
    run: list[str] = []
    style: Style | None = None
    for glyph, next_style in cells:
        if next_style != style and run:
            text.append("".join(run), style)
            run = []
        run.append(glyph)
        style = next_style
    if run:
        text.append("".join(run), style)
    return text


def _label(row: int, rows: int) -> str:
    """The y axis at ``row`` (0 at the bottom): ``100%`` at the top, a tick at 50 %."""
    if row == rows - 1:
        return "100%│"
    if row == rows // 2 and rows >= MIN_ROWS:
        return " 50%┤"
    return "    │"


def _cell(
    row: int, fill: int | None, top: int | None, bar: Style, *, first: bool
) -> tuple[str, Style]:
    """One cell of a bar: its part of the bar (at least an eighth: a chance of nearly
    nothing is still there), the error band above it, or empty (a round's start dotted down
    its first cell)."""
    if fill is None or top is None:
        return ("·" if row == 0 else (" " if not first else "┊")), FAINT
    eighths = max(1 if row == 0 else 0, min(8, fill - 8 * row))
    if eighths:
        return EIGHTHS[eighths], bar
    if top > 8 * row:
        return "░", BAND
    return ("┊", FAINT) if first else (" ", FAINT)


def legend(share: float, width: int = 80, *, plain: bool = False) -> Text:
    """What the chart's glyphs mean, on one line of at most ``width`` cells (the last
    parts left out when they do not fit; ``plain``: the marks without colour).

    >>> legend(0.25, 100).plain
    '⁈ inaccuracy  ? mistake  ⁇ blunder  ░ ± error  ┈ even chance (25%)  2 round 2 starts'
    >>> legend(0.25).plain
    '⁈ inaccuracy  ? mistake  ⁇ blunder  ░ ± error  ┈ even chance (25%)'
    """
    parts = [(MARKS[grade], mark_style(grade, plain=plain), grade.value) for grade in MARKS]
    parts += [
        ("░", BAND, "± error"),
        ("┈", FAINT, f"even chance ({share:.0%})"),
        ("2", CARET, "round 2 starts"),
    ]
    text = Text()
    for glyph, style, name in parts:
        part = Text.assemble("  " if text else "", (glyph, style), f" {name}")
        if text.cell_len + part.cell_len > width:
            break
        text.append_text(part)
    return text


class WinChart(Widget, can_focus=True):
    """A player's chance to win after each decision, with one decision selected
    (←/→ or h/l, Home/End, ``n`` the next inaccuracy, mistake or blunder)."""

    DEFAULT_CSS = """
    WinChart {
        height: auto;
        width: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "select(-1)", "Decision", key_display="←/→", id="chart-step"),
        Binding("right,l", "select(1)", "Next", show=False, id="chart-step-2"),
        Binding("home", "select_end('first')", "First", show=False, id="chart-first"),
        Binding("end", "select_end('last')", "Last", show=False, id="chart-last"),
        Binding("n", "next_mistake", "Next mistake", id="chart-next-mistake"),
    ]

    selected: reactive[int] = reactive(0)
    """The selected decision (an index into ``points``)."""

    note: reactive[str] = reactive("")
    """Said in place of the legend until the next key (``n`` finding no mistake)."""

    class Selected(Message):
        """A decision was selected (by a key, or new points under the selection)."""

        def __init__(self, chart: WinChart, index: int, point: ChartPoint | None) -> None:
            super().__init__()
            self.chart = chart
            self.index = index
            self.point = point
            """``None`` when the chart has no decision."""

        @property
        def control(self) -> WinChart:
            """The chart."""
            return self.chart

    def __init__(self, players: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.share = 1 / max(1, players)
        """An even chance to win: one in the number of players."""
        self.points: tuple[ChartPoint, ...] = ()

    def show(self, points: Sequence[ChartPoint], selected: int | None = None) -> None:
        """Draw ``points`` (selecting ``selected``, or keeping the selection)."""
        self.points = tuple(points)
        index = self.selected if selected is None else selected
        index = max(0, min(index, len(self.points) - 1))
        if index != self.selected:
            self.selected = index  # the watcher tells
        else:
            self.post_message(self.Selected(self, index, self.current))
        self.refresh()

    @property
    def current(self) -> ChartPoint | None:
        """The selected decision (``None`` if there is none)."""
        if not self.points:
            return None
        return self.points[min(self.selected, len(self.points) - 1)]

    def watch_selected(self) -> None:
        """Redraw, and tell the screen."""
        self.refresh()
        self.post_message(self.Selected(self, self.selected, self.current))

    def on_key(self) -> None:
        """A key pressed: the legend again, in place of a note."""
        self.note = ""

    def action_select(self, delta: int) -> None:
        """←/→: the previous or next decision."""
        if self.points:
            self.selected = max(0, min(self.selected + delta, len(self.points) - 1))

    def action_select_end(self, which: str) -> None:
        """Home/End: the first or last decision."""
        if self.points:
            self.selected = 0 if which == "first" else len(self.points) - 1

    def action_next_mistake(self) -> None:
        """``n``: the next inaccuracy, mistake or blunder (from the start again after the
        last); when there is none, the chart says so under itself (a pop-up would cover the
        review)."""
        count = len(self.points)
        for step in range(1, count + 1):
            index = (self.selected + step) % count
            grade = self.points[index].grade
            if grade is not None and grade.is_flaw:
                self.selected = index
                return
        analysed = all(point.decision is not None for point in self.points)
        self.note = (
            "n: no inaccuracy, mistake or blunder in these decisions."
            if analysed
            else "n: no inaccuracy, mistake or blunder in the decisions analysed so far."
        )

    def rows_for(self, height: int) -> int:
        """The chart's rows on a screen ``height`` lines tall."""
        return max(MIN_ROWS, min(MAX_ROWS, height - SPARE_ROWS))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The bars' rows, the axis, the marks and the legend."""
        return self.rows_for(self.app.size.height) + 3

    def render(self) -> Text:
        """The chart and its legend."""
        width = self.content_region.width or self.size.width
        lines = draw(
            self.points,
            selected=self.selected,
            width=width,
            rows=self.rows_for(self.app.size.height),
            share=self.share,
            plain=self.app.no_color,
        )
        if self.note:
            lines.append(Text(self.note, "italic"))
        else:
            lines.append(legend(self.share, width, plain=self.app.no_color))
        return Text("\n").join(lines)
