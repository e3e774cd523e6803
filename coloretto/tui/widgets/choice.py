"""A compact drop-down list in one widget, for the setup screen's form.

Textual's ``Select`` is seven widgets (its list among them, made up front); the setup
screen has seven of them, and opening it took a third of a second. ``Choice`` is one: it
shows the option chosen and a ``▼``; ←/→ step through the options, and Enter, space, ↓ or
a click opens them in a menu (``ChoiceMenu``), made only then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

ARROW = " ▼"


class Choice(Static, can_focus=True):
    """One of ``options`` (label and value pairs), ``value`` the one chosen."""

    DEFAULT_CSS = """
    Choice {
        height: 1;
        width: 1fr;
        background: $surface;
        color: $foreground;
        padding: 0 1 0 0;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right", "step(1)", "Next", show=False),
        Binding("enter,space,down", "open", "Open", show=False),
    ]

    class Changed(Message):
        """Another option was chosen."""

        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            """The choice changed (for ``@on(Choice.Changed, "#id")``)."""
            return self.choice

    def __init__(self, options: Sequence[tuple[str, Any]], value: Any, *, id: str) -> None:
        super().__init__(id=id)
        self.options: list[tuple[str, Any]] = list(options)
        """The options: what each is called, and its value."""
        self._index = self._find(value)

    @property
    def index(self) -> int:
        """The option chosen, in ``options``."""
        return self._index

    @property
    def value(self) -> Any:
        """The value of the option chosen."""
        return self.options[self._index][1]

    @value.setter
    def value(self, value: Any) -> None:
        self._choose(self._find(value))

    def _find(self, value: Any) -> int:
        values = [option for _, option in self.options]
        if value not in values:
            raise ValueError(f"{value!r} is not an option of #{self.id}")
        return values.index(value)

    def set_options(self, options: Sequence[tuple[str, Any]]) -> None:
        """New options; the first is chosen until ``value`` is set."""
        self.options = list(options)
        self._index = 0
        self.refresh(layout=False)

    def render(self) -> Text:
        """The label of the option chosen, then the arrow at the right edge."""
        width = max(1, self.content_size.width - len(ARROW))
        label = Text(self.options[self._index][0])
        label.truncate(width, overflow="ellipsis", pad=True)
        return Text.assemble(label, (ARROW, "dim"))

    def _choose(self, index: int) -> None:
        if index != self._index:
            self._index = index
            self.refresh()
            self.post_message(self.Changed(self, self.value))

    def action_step(self, step: int) -> None:
        """←/→: the previous or next option (the first after the last)."""
        self._choose((self._index + step) % len(self.options))

    def action_open(self) -> None:
        """Enter, space, ↓: the options in a menu under the widget."""

        def chosen(index: int | None) -> None:
            if index is not None:
                self._choose(index)
            self.focus()

        self.app.push_screen(ChoiceMenu(self), chosen)

    def on_click(self, event: events.Click) -> None:
        """A click opens the menu."""
        event.stop()
        self.focus()
        self.action_open()


class ChoiceMenu(ModalScreen[int | None]):
    """A ``Choice``'s options in a list under it: Enter or a click picks one, Esc none."""

    DEFAULT_CSS = """
    ChoiceMenu {
        background: transparent;
    }
    #choice-menu, #choice-menu:focus {
        height: auto;
        max-height: 12;
        border: round $accent;
        padding: 0;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close", show=False)]

    def __init__(self, choice: Choice) -> None:
        super().__init__()
        self.choice = choice

    def compose(self) -> ComposeResult:
        """The options, the one chosen highlighted."""
        menu = OptionList(*(label for label, _ in self.choice.options), id="choice-menu")
        menu.highlighted = self.choice.index
        yield menu

    def on_mount(self) -> None:
        """Under the choice, as wide as it is (above it if there is no room below)."""
        region = self.choice.region
        menu = self.query_one(OptionList)
        menu.styles.width = region.width
        height = min(len(self.choice.options) + 2, 12)
        below = region.bottom + height <= self.size.height
        menu.styles.offset = (region.x, region.bottom if below else max(0, region.y - height))
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """The option picked."""
        self.dismiss(event.option_index)

    def on_click(self, event: events.Click) -> None:
        """A click outside the list closes it."""
        if event.widget is self:
            self.dismiss(None)

    def action_close(self) -> None:
        """Esc: nothing picked."""
        self.dismiss(None)
