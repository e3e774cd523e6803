"""Dialogs over the table: the keys, the rules, "really quit?" and "please enlarge"."""

from __future__ import annotations

import functools
import io
import shlex
import threading
from functools import partial
from itertools import zip_longest
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Button, Static

from coloretto.engine import COLOURS, Card
from coloretto.tui.glyphs import GLYPHS, card_block, set_text
from coloretto.tui.keys import GAME_KEYS, MOUSE_HELP, row_keys
from coloretto.tui.widgets import KeysBar

RULES_FILES = (
    Path(__file__).resolve().parents[2] / "rules.md",  # installed: copied into the wheel
    Path(__file__).resolve().parents[3] / "docs" / "rules.md",  # a source checkout
)
"""Where the rules as this program plays them (``docs/rules.md``) may be found."""


def help_text(*, plain: bool = False, rows: int = 5) -> Table:
    """The key bindings and the card letters, as a table; the row keys as the ``rows``
    there are (``1-3`` with three rows)."""
    keys = Table.grid(padding=(0, 2))
    keys.add_column(style="bold", no_wrap=True)
    keys.add_column()
    for key in GAME_KEYS:
        shown = row_keys(rows) if key.id == "row" else key.shown
        keys.add_row(shown, " ".join(key.explains))
    keys.add_row(*MOUSE_HELP)
    keys.add_row("lit row", "the row the last card was put on (lit in the message too)")
    cards = Table.grid(padding=(0, 1))
    for _ in range(2):
        cards.add_column(no_wrap=True)
        cards.add_column(no_wrap=True)
    specials = (Card.JOKER, Card.GOLDEN_JOKER, Card.PLUS2)
    entries = [
        *((c, GLYPHS[c].name) for c in COLOURS),
        *((c, GLYPHS[c].name) for c in specials),
    ]
    half = (len(entries) + 1) // 2
    for left, right in zip_longest(entries[:half], entries[half:]):
        cells: list[Text | str] = [card_block(left[0], plain=plain), left[1]]
        if right is not None:
            cells += [card_block(right[0], plain=plain), right[1]]
        cards.add_row(*cells)
    outer = Table.grid(padding=(0, 0))
    outer.add_column()
    outer.add_row(Text("Keys", style="bold underline"))
    outer.add_row(keys)
    outer.add_row("")
    outer.add_row(Text("Cards (N = browN, A = grAy)", style="bold underline"))
    outer.add_row(cards)
    return outer


HELP_WIDTH = 68
"""The cells the help is set in (its box is 74 wide: border, padding and a scroll bar)."""


@functools.cache
def help_lines(*, plain: bool = False, rows: int = 5) -> Text:
    """``help_text`` set once, as lines of text (``set_text``)."""
    return set_text(help_text(plain=plain, rows=rows), HELP_WIDTH)


class Dialog(ModalScreen[None]):
    """A box over the table; its ``close`` action goes back to the game."""

    CSS_PATH = "dialogs.tcss"

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)


class HelpScreen(Dialog):
    """The key bindings and the letters of the cards, for a table of ``rows`` rows."""

    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("escape,question_mark,q", "close", "Close", id="close-help"),
    ]

    def __init__(self, rows: int = 5) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        """The help text in a box that scrolls when the terminal is short; the way out is on
        its frame, always in sight."""
        with VerticalScroll(id="help-box", classes="dialog") as box:
            box.border_title = "Help"
            box.border_subtitle = "Esc closes this help"
            yield Static(help_lines(plain=self.app.no_color, rows=self.rows), id="help-text")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Focus the help, so that the arrow keys scroll it."""
        self.query_one("#help-box").focus()


def rules_markdown() -> str:
    """The rules as Markdown (``docs/rules.md``), or a short note where it cannot be found."""
    for path in RULES_FILES:
        try:
            return path.read_text(encoding="utf-8")
        except OSError:
            continue
    return (
        "# Coloretto: Rules\n\nThe full rules are in `docs/rules.md` in the source "
        "distribution.\n\n- **Draw** a card (`d`) and put it on a row (`1`-`5`), or "
        "**take** a row (`1`-`5`).\n- After taking a row you sit out the round.\n"
        "- At the end, your best 3 colours score plus, the rest minus; '+2' cards score 2."
    )


RULES_WIDTH = 76
"""The rules are set at most this many cells wide (lines easy to read)."""
RULES_FRAME = 5
"""The cells around the rules in their box: border (2), padding (2) and scroll bar (1)."""
RULES_MARGIN = 2
"""The cells kept free on either side of the rules' box."""

_set_rules: dict[int, list[Strip]] = {}
"""The rules set so far, by width."""
_setting = threading.Lock()


def rules_width(screen_width: int) -> int:
    """How wide the rules are set on a screen ``screen_width`` cells wide.

    >>> rules_width(80), rules_width(120)
    (71, 76)
    """
    return max(1, min(RULES_WIDTH, screen_width - RULES_FRAME - 2 * RULES_MARGIN))


@functools.cache
def _rules_document() -> RenderableType:
    """The rules, parsed once."""
    from rich.markdown import Markdown  # noqa: PLC0415 (slow import, used here only)

    return Markdown(rules_markdown())


def set_rules(width: int) -> list[Strip]:
    """The rules set ``width`` cells wide, a line each; set once for each width (it takes a
    tenth of a second: in a worker thread, see ``prepare_rules``)."""
    with _setting:
        lines = _set_rules.get(width)
        if lines is None:
            console = Console(width=width, file=io.StringIO(), force_terminal=True)
            rendered = console.render_lines(_rules_document(), console.options, pad=False)
            lines = _set_rules[width] = [Strip(line) for line in rendered]
        return lines


RULES_LATER = 0.5
"""Seconds after a screen comes up that the rules are set (not while it is drawn)."""


def prepare_rules(screen: Screen[Any]) -> None:
    """Set the rules for ``screen``'s width in a worker thread once the screen is up
    (``RULES_LATER``), so that ``r`` shows them at once."""

    def prepare() -> None:
        width = rules_width(screen.app.size.width)
        if width not in _set_rules:
            screen.run_worker(partial(set_rules, width), thread=True, exit_on_error=False)

    screen.set_timer(RULES_LATER, prepare)


class RulesView(ScrollView, can_focus=True):
    """The rules (``docs/rules.md``), set once for a width (``set_rules``) and drawn a
    line at a time: only the lines in sight."""

    def __init__(self, width: int, *, id: str | None = None, classes: str | None = None) -> None:
        """``width``: the width the rules are expected at (shown from the first frame
        when set already)."""
        super().__init__(id=id, classes=classes)
        self.lines: list[Strip] = [Strip([Segment("Reading the rules…", Style(italic=True))])]
        self.width_set = 0
        """The width the lines shown were set for (0: none yet)."""
        if (lines := _set_rules.get(width)) is not None:
            self.lines, self.width_set = lines, width
            self.virtual_size = Size(width, len(lines))

    def on_resize(self) -> None:
        """The rules for the new width: at once when set before, else set in a worker."""
        width = self.scrollable_content_region.width
        if width == self.width_set or not width:
            return
        lines = _set_rules.get(width)
        if lines is None:
            self._set(width)
        else:
            self._show(width, lines)

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _set(self, width: int) -> None:
        lines = set_rules(width)
        self.app.call_from_thread(self._show, width, lines)

    def _show(self, width: int, lines: list[Strip]) -> None:
        if width == self.scrollable_content_region.width:
            self.lines, self.width_set = lines, width
            self.virtual_size = Size(width, len(lines))
            self.refresh()

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the box: the line of the rules scrolled there."""
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        if index >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        line = self.lines[index].crop_extend(scroll_x, scroll_x + width, self.rich_style)
        return line.apply_style(self.rich_style)


class RulesScreen(Dialog):
    """The rules of the game (``docs/rules.md``), scrollable."""

    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("escape,q,r", "close", "Close", id="close-rules"),
    ]

    def compose(self) -> ComposeResult:
        """The rules in a scrolling box."""
        width = rules_width(self.app.size.width)
        view = RulesView(width, id="rules-box", classes="dialog")
        view.border_title = "Rules"
        view.styles.width = width + RULES_FRAME
        yield view
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Focus the rules, so that the arrow keys and Page Up/Down scroll them."""
        self.query_one(RulesView).focus()

    def on_resize(self) -> None:
        """The box as wide as the rules are set for the new width."""
        self.query_one(RulesView).styles.width = rules_width(self.size.width) + RULES_FRAME


class MovesScreen(Dialog):
    """The whole move log, scrollable (``m``)."""

    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("escape,q,m", "close", "Close", id="close-moves"),
    ]

    def __init__(self, entries: list[Text]) -> None:
        super().__init__()
        self.entries = entries

    def compose(self) -> ComposeResult:
        """Every move in a scrolling log, scrolled to the latest move."""
        from textual.widgets import RichLog  # noqa: PLC0415 (its rich.pretty slows the start)

        log = RichLog(id="moves-log", wrap=True, min_width=20)
        log.border_title = "All moves"
        for entry in self.entries:
            log.write(entry)
        yield log
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Let the arrow keys scroll the log."""
        self.query_one("#moves-log").focus()


COMMAND = "coloretto "
"""How a line of a question that is a command to copy begins."""


def fold_command(command: str, width: int) -> list[str]:
    r"""``command`` in lines of at most ``width`` cells that still copy as one command:
    broken between arguments (an option kept with its value where it fits), each line but
    the last ending in a shell line continuation (`` \``), the ends lined up (so that the
    lines centred stay lined up too). A line that is no shell command stays whole.

    >>> for line in fold_command("coloretto join K7PQ2M --server example.org:7797 --name Ana", 30):
    ...     print(f"|{line}|")
    |coloretto join K7PQ2M       \|
    |  --server example.org:7797 \|
    |  --name Ana                 |
    """
    if cell_len(command) <= width:
        return [command]
    try:
        words = shlex.split(command)
    except ValueError:
        return [command]
    if shlex.join(words) != command:  # quoted otherwise: not ours to rewrite
        return [command]
    quoted = [shlex.quote(word) for word in words]
    pieces: list[str] = []  # an option with its value, or a word
    for word in quoted:
        if pieces and pieces[-1].startswith("-") and " " not in pieces[-1] and word[0] != "-":
            pieces[-1] += f" {word}"
        else:
            pieces.append(word)
    room = width - 2  # for " \\"
    lines: list[str] = []
    for piece in pieces:
        parts = [piece] if cell_len(piece) <= room - 2 else piece.split(" ", 1)
        for part in parts:
            if lines and cell_len(f"{lines[-1]} {part}") <= room:
                lines[-1] += f" {part}"
            else:
                lines.append(part if not lines else f"  {part}")
    wide = max(cell_len(line) for line in lines)
    *head, last = lines
    return [f"{line.ljust(wide)} \\" for line in head] + [last.ljust(wide + 2)]


class Confirm(ModalScreen[bool]):
    """A yes-or-no question (Textual markup) with two buttons; a subclass binds the keys
    (``y``, ``n`` and Esc, and one of its own) to ``answer(True)`` and ``answer(False)``.

    A line of the question that is a command (``coloretto …``) is kept whole: the box
    widens for it, up to the screen's width, and where even that is too narrow the command
    breaks between its arguments with shell line continuations (``fold_command``)."""

    CSS_PATH = "dialogs.tcss"

    heading = ""
    """The box's title."""
    yes_label = "Yes (y)"
    WIDTH = 52
    """The box's width, unless a command needs more."""
    MARGIN = 2
    """The cells kept free on either side of a box widened for a command."""

    def __init__(self, question: str, *, no: str = "Back (n)") -> None:
        super().__init__()
        self.question = question
        """What is asked (a command on a line of its own is kept whole)."""
        self.no_label = no

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical(id="confirm-box", classes="dialog") as box:
            box.border_title = self.heading
            yield Static(id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.yes_label, id="yes", variant="error", compact=True)
                yield Button(self.no_label, id="no", variant="primary", compact=True)
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Fit the box to the question's commands."""
        self._fit()

    def on_resize(self) -> None:
        """Fit the box to the question's commands at the new width."""
        self._fit()

    def _fit(self) -> None:
        """The box as wide as the widest command needs (border and padding: 4 cells), at
        least ``WIDTH``, at most the screen's width less the margins; the commands folded
        to the room there is."""
        lines = Text.from_markup(self.question).split("\n")
        commands = [line.plain for line in lines if line.plain.startswith(COMMAND)]
        frame = 4
        need = max((cell_len(command) + frame for command in commands), default=0)
        width = max(min(max(self.WIDTH, need), self.size.width - 2 * self.MARGIN), frame + 1)
        self.query_one("#confirm-box").styles.width = width
        shown = [
            Text("\n".join(fold_command(line.plain, width - frame)))
            if line.plain.startswith(COMMAND)
            else line
            for line in lines
        ]
        self.query_one("#confirm-question", Static).update(Text("\n").join(shown))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The buttons answer like the keys."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """``y`` says yes, ``n`` goes back."""
        self.dismiss(yes)


class ConfirmQuit(Confirm):
    """Asks before quitting: ``y`` (or ``q`` again) quits, ``n`` or Esc goes back."""

    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("y,q", "answer(True)", "Quit", id="quit-yes"),
        Binding("n,escape", "answer(False)", "Keep playing", id="quit-no"),
    ]
    heading = "Quit"
    yes_label = "Quit (y)"

    def __init__(self, *, saved: bool = True, question: str | None = None) -> None:
        if question is None and saved:
            question = "Quit the game? It is saved:\ncoloretto play --resume continues it."
        elif question is None:
            question = "Quit? The game is over and kept in the history:\ncoloretto replay shows it."
        super().__init__(question, no="Keep playing (n)" if saved else "Back (n)")
        self.saved = saved
        """True when there is a game to resume later (not after the match is over)."""


class ConfirmDiscard(Confirm):
    """Asks before discarding a game in progress for good (the setup screen's ctrl+x):
    ``y`` (or ctrl+x again) discards it, ``n`` or Esc keeps it."""

    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("y,ctrl+x", "answer(True)", "Discard", id="discard-yes"),
        Binding("n,escape", "answer(False)", "Keep it", id="discard-no"),
    ]
    heading = "Discard"
    yes_label = "Discard (y)"

    def __init__(self, game: str) -> None:
        """``game``: the game in words."""
        super().__init__(f"Discard this game for good?\n{escape(game)}", no="Keep it (n)")


class ConfirmRematch(Confirm):
    """Asks before a rematch from the score screen (where ``r`` is not the rules, as on
    the board): ``y`` (or ``r`` again) starts it, ``n`` or Esc goes back to the scores."""

    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("y,r", "answer(True)", "Rematch", id="rematch-yes"),
        Binding("n,escape", "answer(False)", "Back to the scores", id="rematch-no"),
    ]
    heading = "Rematch"
    yes_label = "Rematch (y)"

    def __init__(self, *, played: int = 1, games: int = 1) -> None:
        if played < games:
            question = (
                "Start a new match with the same players?\n"
                f"This one stops after game {played} of {games}."
            )
        else:
            kind = "match" if games > 1 else "game"
            question = f"Start a new {kind} with the same players\n(a new deal)?"
        super().__init__(question)


class TooSmallScreen(Dialog):
    """Covers everything while the terminal is too small for the table; the game goes on
    underneath (bots keep playing) and comes back as soon as the terminal is enlarged."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.need = Size(width, height)

    def compose(self) -> ComposeResult:
        """The notice, centred."""
        yield Static(id="too-small")

    def on_mount(self) -> None:
        """Say how big the terminal is and how big it must be."""
        self.show(self.app.size)

    def show(self, size: Size) -> None:
        """Update the notice for a terminal of ``size``."""
        need = self.need
        self.query_one("#too-small", Static).update(
            f"Please enlarge the terminal to at least {need.width}x{need.height} "
            f"(it is {size.width}x{size.height} now).\n"
            "The game waits for you: nothing is lost. Ctrl+C quits (the game is saved)."
        )
