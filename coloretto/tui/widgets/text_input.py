"""A text field whose editing keys keep their place among the letters typed.

Textual's ``Input`` inserts a letter as soon as its key reaches the field, but its bound
keys (backspace, delete, the arrows, ctrl+w, ...) act only once the key has bubbled up to
the app. When several keys come in one read of the terminal (a fast typist, a chorded
keyboard, a key macro, ``tmux send-keys``, a loaded machine), the letters overtake them:
``a b backspace c`` leaves ``ab`` rather than ``ac`` (Textual issue #6605, open in
Textual 8). ``TextInput`` runs the field's own bindings as each key arrives, as the app
would have run them a moment later.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input

COMPACT = "-textual-compact"
"""The class of a compact ``Input`` (its ``compact`` reactive's)."""


class TextInput(Input):
    """An ``Input`` whose bound keys act in the order they were typed; a ``compact`` one is
    made compact as it is made (``Input`` restyles itself for it at once, before it is even
    shown: a few milliseconds of the setup screen's opening for its three fields)."""

    def __init__(
        self,
        value: str | None = None,
        placeholder: str = "",
        *,
        compact: bool = False,
        classes: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(value, placeholder, classes=classes, **options)
        if compact:
            self.set_reactive(Input.compact, True)
            self.add_class(COMPACT, update=False)  # styled once, as it is mounted

    async def _on_key(self, event: events.Key) -> None:
        # The app checks the priority bindings before the key reaches the field, then the
        # focused widget's own bindings first: running those here changes only the timing.
        # ``_bindings`` (the field's resolved bindings) is the map the app itself consults.
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()  # handled: it must not bubble up and act a second time
                return
