"""Text fields: editing keys that arrive together with letters act in the order typed."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from coloretto.tui.widgets import TextInput

from .conftest import asynctest


class OneField(App[None]):
    def compose(self) -> ComposeResult:
        yield TextInput(id="field")


async def typed_at_once(keys: list[str]) -> str:
    """The field's text after ``keys`` are posted to the app together (as the terminal
    driver posts the keys of one read), without waiting between them."""
    app = OneField()
    async with app.run_test() as pilot:
        for key in keys:
            character = {"backspace": "\x7f", "delete": "\x1b[3~"}.get(key, key)
            app.post_message(events.Key(key, character if len(key) == 1 else None))
        await pilot.pause(0.1)
        return app.query_one(Input).value


@pytest.mark.parametrize(
    ("keys", "text"),
    [
        (["b", "a", "backspace", "c"], "bc"),
        (["a", "b", "left", "c"], "acb"),
        (["a", "b", "home", "delete", "c"], "cb"),
        (["a", "b", "backspace", "backspace", "backspace", "x", "y"], "xy"),
    ],
)
@asynctest
async def test_editing_keys_keep_their_place_among_the_letters(keys: list[str], text: str) -> None:
    assert await typed_at_once(keys) == text


@asynctest
async def test_enter_submits_once() -> None:
    submitted: list[str] = []

    class Submitting(OneField):
        def on_input_submitted(self, message: Input.Submitted) -> None:
            submitted.append(message.value)

    app = Submitting()
    async with app.run_test() as pilot:
        await pilot.press("o", "k", "enter")
        await pilot.pause()
    assert submitted == ["ok"]
