"""One-line bars: the top bar, whose turn it is, the last message, the colour legend and
the keys."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Literal

from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from coloretto.engine import Card, Edition
from coloretto.play.table_view import TableView
from coloretto.store.text import printable
from coloretto.tui.glyphs import legend
from coloretto.tui.widgets.theme import theme_color

NoticeKind = Literal["info", "error", "hint", "event"]


class TopBar(Static):
    """The game, the round, the deck's size and a clear Last Round indicator."""

    text = ""
    """What the bar shows, as plain text."""

    def show(self, view: TableView) -> None:
        """Show the current state of ``view``."""
        game = view.game
        rules = game.rules
        left = Text.assemble(("Coloretto", "bold"), f"  Round {game.round}")
        if rules.games > 1:
            left.append(f"  Game {view.match.game_number} of {rules.games}")
        if rules.scoring.value != "brown":
            left.append(f"  {rules.scoring.value} side")
        if game.last_round:
            right = Text.assemble((" LAST ROUND ", "bold reverse"), f"  Deck {game.deck_size}", " ")
        else:
            before = game.cards_before_last_round
            soon = "Last Round card next" if before == 0 else f"Last Round in {before}"
            right = Text(f"Deck {game.deck_size} · {soon} ")
        grid = Table.grid(expand=True, padding=0)
        grid.add_column(ratio=1, no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(left, right)
        self.set_class(game.last_round, "-last-round")
        text = f"{left.plain}  {right.plain}"
        if text != self.text:
            self.text = text
            self.update(grid, layout=False)


class TurnBar(Static):
    """Whose turn it is, by name, and what they may do (on two lines or three if need be)."""

    _shown_length = 0

    def show(self, prompt: Text, *, waiting: bool) -> None:
        """Show ``prompt``; ``waiting`` marks a bot's turn (the person waits)."""
        if waiting:
            self.styles.background = theme_color(self.app, "panel")
            self.styles.text_style = "italic"
        else:
            self.styles.background = theme_color(self.app, "primary", 0.3)
            self.styles.text_style = "bold"
        text = Text.assemble(("▶ ", "bold"), prompt)
        # A prompt too long for one line takes more (the height follows, a layout).
        longer = max(text.cell_len, self._shown_length) > self.content_region.width
        self._shown_length = text.cell_len
        self.update(text, layout=longer)


class Notice(Static):
    """The latest message: what just happened, a hint, or why a key did nothing."""

    kind: NoticeKind = "info"

    def say(self, text: Text | str, kind: NoticeKind = "info", *, hint_for: str = "") -> None:
        """Show ``text`` (a ``str`` as ``printable``: it may quote a file or a plug-in);
        errors are marked with "!" as well as in colour; a hint names ``hint_for`` when
        given ("Hint for Ben: ")."""
        if kind != self.kind:
            colour = {"error": "text-error", "hint": "text-success"}.get(kind)
            self.styles.color = theme_color(self.app, colour) if colour else None
            self.styles.text_style = "bold" if kind == "error" else "none"
            self.kind = kind
        prefix = {"error": "! ", "hint": "Hint: ", "info": "", "event": ""}[kind]
        if kind == "hint" and hint_for:
            prefix = f"Hint for {printable(hint_for)}: "
        body = text if isinstance(text, Text) else Text(printable(text))
        self.update(Text.assemble((prefix, "bold"), body))  # a long one takes more lines


class Legend(Static):
    """The key to the card letters (only the cards in this game)."""

    def show(self, colours: Iterable[Card], edition: Edition, *, plain: bool) -> None:
        """Show the letters of ``colours`` and the special cards."""
        cards = [*list(colours), Card.JOKER]
        if edition is Edition.ANNIVERSARY:
            cards.append(Card.GOLDEN_JOKER)
        self.update(legend(cards, plain=plain))


class KeysBar(Static):
    """The keys that work now, as Textual's compact footer shows them, on one line of
    text, shown anew as soon as the screen's bindings change (``refresh_bindings``): in
    the same refresh as what made them change (Textual's footer builds its keys anew a
    refresh later), for the cost of one update. Clicking a key presses it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"keys-bar--key", "keys-bar--description"}
    DEFAULT_CSS = """
    KeysBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .keys-bar--key {
            color: $footer-key-foreground;
            text-style: bold;
        }
        .keys-bar--description {
            color: $footer-description-foreground;
        }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.keys: list[tuple[str, str, str]] = []
        """The keys shown: as written, as Textual names them, and what they do."""
        self._spans: list[tuple[int, int, str]] = []

    def on_mount(self) -> None:
        """Show the keys, and again whenever the screen's bindings change."""
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self.show()

    def on_unmount(self) -> None:
        """No more news of the bindings."""
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _changed(self, screen: Screen[object]) -> None:
        self.show()

    def show(self) -> None:
        """Show the keys of the screen's bindings that work now, one a command (as the
        footer does), if they changed."""
        first: dict[str, Binding] = {}
        for active in self.screen.active_bindings.values():
            if active.binding.show:
                first.setdefault(active.binding.action, active.binding)
        keys = [(self.app.get_key_display(b), b.key, b.description) for b in first.values()]
        if keys == self.keys:
            return
        key_style = self.get_component_rich_style("keys-bar--key")
        description_style = self.get_component_rich_style("keys-bar--description")
        text, self._spans = Text(), []
        for shown, key, description in keys:
            start = text.cell_len
            text.append(shown, key_style)
            text.append(f" {description}", description_style)
            self._spans.append((start, text.cell_len, key))
            text.append(" ")
        self.keys = keys
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it."""
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
