"""Without colour (``NO_COLOR``) every card still shows its letter, in brackets."""

from __future__ import annotations

import re

import pytest

from coloretto.tui.widgets import DrawnCard, Legend, RowView, SeatView

from .conftest import SIZE, asynctest, game_screen, make_app, settle, text_of


@pytest.fixture
def no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")


@asynctest
async def test_cards_are_letters_in_brackets(no_color: None) -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        assert pilot.app.no_color
        await settle(pilot)
        screen = game_screen(pilot)
        await pilot.press("d")
        drawn = screen.view.game.drawn_card
        assert drawn is not None
        assert re.search(r"Drawn\n.*\n.*\[.\](.|\n)*\w+", text_of(screen.query_one(DrawnCard)))
        rows = [text_of(row) for row in screen.query(RowView)]
        assert all(re.search(r"\[[ BNAGOPY*$]\]", row) or "taken" in row for row in rows)
        for seat in screen.query(SeatView):
            assert re.search(r"\+ \[[BNAGOPY]\]\d", text_of(seat))
        assert "B=blue N=brown A=gray" in text_of(screen.query_one(Legend))
