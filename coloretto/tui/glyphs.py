"""How cards look on screen: every card has its own letter or symbol as well as a colour.

The scheme, so that the game can be played without telling colours apart (and with
``NO_COLOR`` set or in a monochrome terminal):

======  ========================  ======  ==========================
Letter  Card                      Letter  Card
======  ========================  ======  ==========================
``B``   blue                      ``P``   pink
``N``   brown (brow\\ **N**)       ``Y``   yellow
``A``   gray (gr\\ **A**\\ y)         ``*``   joker
``G``   green                     ``$``   golden joker (anniversary)
``O``   orange                    ``+2``  "+2" card
======  ========================  ======  ==========================

In colour, a card is a small coloured block with its letter (`` B ``); without colour it is
the letter in brackets (``[B]``), so card boundaries stay visible. On the table cards are
drawn bigger (``card_face``: a block several cells wide and tall, or a box without colour).

>>> GLYPHS[Card.BROWN].letter, GLYPHS[Card.GRAY].letter, GLYPHS[Card.PLUS2].letter
('N', 'A', '+2')
>>> card_block(Card.BLUE, plain=True).plain, card_block(Card.PLUS2, plain=True).plain
('[B]', '[+2]')
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from coloretto.engine import COLOURS, Card
from coloretto.play.words import CARD_NAMES, Line

_BLACK = "#000000"
_WHITE = "#ffffff"


@dataclass(frozen=True)
class Glyph:
    """How one kind of card is drawn: its letter or symbol, name and block colours."""

    letter: str
    """One letter per colour, a symbol for the special cards (``+2`` has two)."""
    name: str
    """The card's name in words, as used in the move log (``CARD_NAMES``)."""
    background: str
    foreground: str

    @property
    def style(self) -> Style:
        """The style of the card's block."""
        return Style(color=self.foreground, bgcolor=self.background, bold=True)

    @property
    def ink(self) -> Style:
        """A style for writing the card's name in its colour on the usual background."""
        return Style(color=self.background, bold=True)


def _glyph(card: Card, letter: str, background: str, foreground: str) -> Glyph:
    return Glyph(letter, CARD_NAMES[card], background, foreground)


GLYPHS: Mapping[Card, Glyph] = MappingProxyType(
    {
        Card.BLUE: _glyph(Card.BLUE, "B", "#2f6fdb", _WHITE),
        Card.BROWN: _glyph(Card.BROWN, "N", "#8b5a2b", _WHITE),
        Card.GRAY: _glyph(Card.GRAY, "A", "#8e8e8e", _BLACK),
        Card.GREEN: _glyph(Card.GREEN, "G", "#3aa655", _BLACK),
        Card.ORANGE: _glyph(Card.ORANGE, "O", "#f28a1e", _BLACK),
        Card.PINK: _glyph(Card.PINK, "P", "#f4a3c8", _BLACK),
        Card.YELLOW: _glyph(Card.YELLOW, "Y", "#f5d742", _BLACK),
        Card.JOKER: _glyph(Card.JOKER, "*", "#8e44ad", _WHITE),
        Card.GOLDEN_JOKER: _glyph(Card.GOLDEN_JOKER, "$", "#c9a227", _BLACK),
        Card.PLUS2: _glyph(Card.PLUS2, "+2", "#e6e6e6", _BLACK),
        Card.LAST_ROUND: _glyph(Card.LAST_ROUND, "!", "#c0392b", _WHITE),
    }
)
"""Every card's glyph."""

CARD_WIDTH = 3
"""Cells a card block takes (``[+2]`` without colour takes 4)."""


def card_block(card: Card, *, plain: bool = False) -> Text:
    """A card as a small block: `` B `` in colour, ``[B]`` without colour."""
    glyph = GLYPHS[card]
    if plain:
        return Text(f"[{glyph.letter}]", style="bold")
    return Text(f"{glyph.letter:^{CARD_WIDTH}}", style=glyph.style)


def _framed(middle: str, width: int, height: int, style: str) -> list[Text]:
    """A box ``width`` x ``height`` with ``middle`` centred on its letter line (the first
    line inside, or the top line of a box two lines tall)."""
    inner = width - 2
    if height == 1:
        return [Text(f"{middle:^{width}}", style=style)]
    heavy = style != "dim"
    h, v = ("━", "┃") if heavy else ("╌", "╎")
    top = ("┏", "┓") if heavy else ("┌", "┐")
    bottom = ("┗", "┛") if heavy else ("└", "┘")
    lines = [f"{top[0]}{h * inner}{top[1]}"]
    lines += [f"{v}{' ' * inner}{v}" for _ in range(height - 2)]
    lines.append(f"{bottom[0]}{h * inner}{bottom[1]}")
    at = 0 if height == 2 else 1
    fill = h if height == 2 else " "
    lines[at] = f"{lines[at][0]}{middle:{fill}^{inner}}{lines[at][-1]}"
    return [Text(line, style=style) for line in lines]


def card_face(card: Card, width: int, height: int, *, plain: bool = False) -> list[Text]:
    """A card as a block ``width`` cells wide and ``height`` lines tall, its letter on the
    first line inside; without colour a box with the letter in brackets.

    >>> [t.plain for t in card_face(Card.BLUE, 5, 3, plain=True)]
    ['┏━━━┓', '┃[B]┃', '┗━━━┛']
    >>> [t.plain for t in card_face(Card.BLUE, 5, 2)]
    ['  B  ', '     ']
    """
    glyph = GLYPHS[card]
    if plain:
        return _framed(f"[{glyph.letter}]", width, height, "bold")
    at = 0 if height <= 2 else 1
    return [
        Text(f"{glyph.letter if i == at else '':^{width}}", style=glyph.style)
        for i in range(height)
    ]


def empty_face(width: int, height: int, *, plain: bool = False) -> list[Text]:
    """Room for a card on a row, the size of a card: a dim dashed outline.

    >>> [t.plain for t in empty_face(5, 3, plain=True)]
    ['┌╌╌╌┐', '╎[ ]╎', '└╌╌╌┘']
    """
    return _framed("[ ]" if plain else "·", width, height, "dim")


def card_back(width: int, height: int, *, plain: bool = False) -> list[Text]:
    """The back of a card (the deck), hatched.

    >>> [t.plain for t in card_back(3, 2, plain=True)]
    ['░░░', '░░░']
    """
    style = "dim" if plain else Style(color="#6c7a89", bgcolor="#2c3e50")
    return [Text("░" * width, style=style) for _ in range(height)]


def card_name(card: Card, *, plain: bool = False) -> Text:
    """The card's name in words, in the card's colour unless ``plain``."""
    glyph = GLYPHS[card]
    return Text(glyph.name, style="bold" if plain else glyph.ink)


def cards_in_words(cards: Iterable[Card], *, plain: bool = False) -> Text:
    """A list of cards by name, e.g. ``orange, green, "+2"``."""
    return Text(", ").join(card_name(card, plain=plain) for card in cards)


def legend(cards: Iterable[Card] = COLOURS, *, plain: bool = False) -> Text:
    """The key to the letters, e.g. `` B blue  N brown`` (``B=blue N=brown`` without colour).

    >>> legend([Card.BROWN, Card.GOLDEN_JOKER], plain=True).plain
    'N=brown $=golden'
    """
    parts = []
    for card in cards:
        glyph = GLYPHS[card]
        name = glyph.name.split()[0] if card is Card.GOLDEN_JOKER else glyph.name
        if plain:
            parts.append(Text(f"{glyph.letter}={name}"))
        else:
            parts.append(Text.assemble(card_block(card), name))
    return Text(" ").join(parts)


def render(line: Line, *, plain: bool = False) -> Text:
    """A narrated line for the terminal: cards by name in their colours (unless ``plain``).

    >>> render(Line(("Ana drew ", Card.BLUE, ".")), plain=True).plain
    'Ana drew blue.'
    """
    parts = []
    for part in line.parts:
        if isinstance(part, str):
            parts.append(Text(part))
        elif isinstance(part, Card):
            parts.append(card_name(part, plain=plain))
        else:
            parts.append(cards_in_words(part, plain=plain))
    return Text.assemble(*parts, style="bold" if line.bold else "")


def set_text(renderable: RenderableType, width: int) -> Text:
    """``renderable`` (a table, say) set ``width`` cells wide once, as lines of text: a
    table is measured anew at every layout, text costs little. The blanks a table pads its
    lines with are left out (a coloured block is kept).

    >>> from rich.table import Table
    >>> grid = Table.grid(padding=(0, 1))
    >>> grid.add_row("a", "b")
    >>> set_text(grid, 20).plain
    'a b'
    """
    console = Console(width=width, file=io.StringIO(), force_terminal=True)
    lines = console.render_lines(renderable, console.options, pad=False)
    return Text("\n").join(_trimmed(line) for line in lines)


def _trimmed(line: list[Segment]) -> Text:
    """A line of segments as text, without the blanks at its end that have no background."""
    parts = [(segment.text, segment.style) for segment in line]
    while parts and (parts[-1][1] is None or parts[-1][1].bgcolor is None):
        text = parts[-1][0].rstrip()
        if text:
            parts[-1] = (text, parts[-1][1])
            break
        parts.pop()
    return Text.assemble(*((text, style or "") for text, style in parts))
