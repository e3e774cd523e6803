"""The top bar says how far the Last Round card is in words that hold at every count."""

from __future__ import annotations

import random
from types import SimpleNamespace

from textual.app import App, ComposeResult

from coloretto.engine import GameState, new_game
from coloretto.tui.widgets import TopBar
from tests.tui.conftest import asynctest


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TopBar()


def game_with(before: int) -> GameState:
    """A game played at random until ``before`` cards are left before the Last Round card."""
    game, rng = new_game(seed=3), random.Random(3)
    while game.cards_before_last_round != before:
        game = game.apply(rng.choice(game.legal_actions()))
    return game


@asynctest
async def test_the_last_round_card_next_is_said_so_not_in_0() -> None:
    async with BarApp().run_test() as pilot:
        bar = pilot.app.query_one(TopBar)
        bar.show(SimpleNamespace(game=game_with(1)))  # type: ignore[arg-type]
        assert "Last Round in 1" in bar.text
        bar.show(SimpleNamespace(game=game_with(0)))  # type: ignore[arg-type]
        assert "Last Round card next" in bar.text
        assert "in 0" not in bar.text
