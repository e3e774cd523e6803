"""A speech bubble over the table: a few words in a box beside the part of the board they
are about, with a tail that points at it (the tutorial's, as on Board Game Arena).

``place_bubble`` works out where the box goes (pure geometry, so it can be tested without a
screen); ``Bubble`` and ``BubbleTail`` draw it, above everything else on the screen.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from rich.console import Console
from rich.text import Text
from textual.geometry import Region, Size
from textual.widgets import Static

MAX_WIDTH = 42
"""The widest a bubble gets, border included (about 36 characters a line)."""
MIN_WIDTH = 12
"""The narrowest a bubble gets (on a terminal too small for the table, under its notice)."""
FRAME = 4
"""Cells of a bubble's width that are no text: the border and the padding."""


class Side(StrEnum):
    """Where a bubble goes beside its target, and so which way its tail points."""

    RIGHT = "right"
    """Right of the target; the tail points left."""
    LEFT = "left"
    """Left of the target; the tail points right."""
    BELOW = "below"
    """Under the target (centred on it); the tail points up at its middle."""
    OVER = "over"
    """Over the middle of the target, without a tail."""


TAILS = {Side.RIGHT: "◀", Side.LEFT: "▶", Side.BELOW: "▲"}
"""The tail's character on the box's border, pointing at the target."""


class Placement(NamedTuple):
    """Where a bubble's box and its tail go, in screen cells."""

    box: Region
    tail: tuple[int, int] | None
    """The tail's cell (on the box's border), or ``None`` for none."""


def place_bubble(
    target: Region, side: Side, *, edge: int, screen: Size, lines: int, width: int
) -> Placement:
    """Where a bubble of ``lines`` lines of text, ``width`` cells wide with its border,
    goes to point at ``target`` from ``side``: beyond ``edge`` (the x where the box starts
    to the right, or ends to the left; the y it starts at below), at the height of the
    target's middle line (its first line when pointing from the left, a seat's name), kept
    on the screen above the footer's line.

    >>> screen = Size(80, 24)
    >>> place_bubble(Region(2, 5, 30, 3), Side.RIGHT, edge=42, screen=screen, lines=3, width=38)
    Placement(box=Region(x=42, y=5, width=38, height=5), tail=(42, 6))
    >>> place_bubble(Region(42, 2, 36, 2), Side.LEFT, edge=42, screen=screen, lines=4, width=40)
    Placement(box=Region(x=2, y=1, width=40, height=6), tail=(41, 2))
    >>> place_bubble(Region(0, 0, 80, 1), Side.BELOW, edge=1, screen=screen, lines=2, width=40)
    Placement(box=Region(x=20, y=1, width=40, height=4), tail=(40, 1))
    >>> place_bubble(Region(3, 4, 26, 3), Side.BELOW, edge=7, screen=screen, lines=3, width=30)
    Placement(box=Region(x=1, y=7, width=30, height=5), tail=(16, 7))
    """
    height = lines + 2
    bottom = screen.height - 1  # the footer's line stays in sight
    if side is Side.OVER:
        x = target.x + (target.width - width) // 2
        y = target.y + (target.height - height) // 2
        return Placement(_on_screen(Region(x, y, width, height), screen.width, bottom), None)
    if side is Side.BELOW:
        x = target.x + (target.width - width) // 2
        box = _on_screen(Region(x, edge, width, height), screen.width, bottom)
        tail_x = min(box.right - 2, max(box.x + 1, target.x + target.width // 2))
        return Placement(box, (tail_x, box.y))
    aim = target.y if side is Side.LEFT else target.y + (target.height - 1) // 2
    y = max(aim - height + 2, min(aim - 1, bottom - height))
    x = edge if side is Side.RIGHT else edge - width
    box = _on_screen(Region(x, y, width, height), screen.width, bottom)
    tail_x = box.x if side is Side.RIGHT else box.right - 1
    tail_y = min(max(aim, box.y + 1), box.bottom - 2)
    return Placement(box, (tail_x, tail_y))


def _on_screen(box: Region, width: int, bottom: int) -> Region:
    """``box`` moved as little as needed to lie within ``width`` columns, above line
    ``bottom``."""
    x = max(0, min(box.x, width - box.width))
    y = max(0, min(box.y, bottom - box.height))
    return Region(x, y, box.width, box.height)


class Bubble(Static):
    """The bubble's box: its words, wrapped to its width."""

    can_focus = False

    def point(self, words: Text, placement: Placement) -> None:
        """Show ``words`` in the box at ``placement``."""
        box = placement.box
        self.styles.offset = (box.x, box.y)
        self.styles.width = box.width
        self.styles.height = box.height
        self.update(words)
        self.display = True


class BubbleTail(Static):
    """The bubble's tail: one character on the box's border, pointing at the target."""

    can_focus = False

    def point(self, side: Side, cell: tuple[int, int] | None) -> None:
        """Draw the tail for ``side`` at ``cell`` (none: hidden)."""
        if cell is None or side is Side.OVER:
            self.display = False
            return
        self.styles.offset = cell
        self.update(TAILS[side])
        self.display = True


def wrapped_lines(text: Text, width: int, console: Console) -> int:
    """How many lines ``text`` takes in a box ``width`` cells wide (border and padding
    included)."""
    return len(text.wrap(console, max(1, width - FRAME)))
