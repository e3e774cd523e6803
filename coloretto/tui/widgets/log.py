"""The move log: every move in words, the newest at the bottom.

The panel shows the latest moves that fit (a ``Static``, updated without a new layout, so a
move costs no more than a repaint); the whole log opens in a scrolling screen with ``m``.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import Static


class MoveLog(Static):
    """The latest moves in words (toggled with ``l``); ``entries`` holds them all."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Moves"
        self.entries: list[Text] = []
        """Every line written, oldest first."""

    def add(self, line: Text, *, round_number: int | None = None) -> None:
        """Write one line, optionally tagged with the round (``R3``)."""
        if round_number is not None:
            line = Text.assemble((f"R{round_number} ", "dim"), line)
        self.entries.append(line)
        self._show_tail()

    def on_resize(self, event: events.Resize) -> None:
        """Fill the new size with the latest lines."""
        self._show_tail()

    def _show_tail(self) -> None:
        width, height = self.content_size
        if not width or not height or not self.is_mounted:
            return
        console = self.app.console
        shown: list[Text] = []
        used = 0
        for entry in reversed(self.entries):
            lines = entry.wrap(console, width)
            if not shown and len(lines) > height:  # the newest alone is too long: its end
                shown.append(Text("\n").join(lines[-height:]))
                break
            if shown and used + len(lines) > height:
                break
            shown.append(entry)
            used += len(lines)
        self.update(Text("\n").join(reversed(shown)), layout=False)
