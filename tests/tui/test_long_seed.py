"""A seed of 39 digits (a game dealt at random) is shown in full: on the score screen (on
two lines if need be) and in the move log; the setup screen takes it back."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from coloretto.engine.setup import SEED_BITS
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import EndScreen, SetupScreen
from coloretto.tui.widgets import MoveLog, Notice

from .conftest import SIZE, asynctest, game_screen, make_app, play_to_end, render_text

LONGEST = 2**SEED_BITS - 1


@asynctest
async def test_the_score_screen_wraps_a_long_seed_rather_than_cut_it() -> None:
    app = make_app(2, humans=0, seed=LONGEST, scoring="gray", edition="anniversary",
                   variant="ghost")  # fmt: skip
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        notice = end.query_one(Notice)
        width, height = notice.content_size
        shown = render_text(notice.content, width).strip().splitlines()
        assert len(shown) == height == 2  # every line of it shows
        assert " ".join(line.strip() for line in shown).endswith(f"seed {LONGEST}.")
        log = "\n".join(entry.plain for entry in game_screen(pilot).query_one(MoveLog).entries)
        assert f"The seed was {LONGEST}." in log


@asynctest
async def test_the_setup_screen_takes_a_seed_of_up_to_128_bits() -> None:
    async with ColorettoApp().run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        seed = screen.query_one("#seed", Input)
        seed.value = str(LONGEST)
        assert screen.config().seed == LONGEST
        for beyond in (LONGEST + 1, -1):
            seed.value = str(beyond)
            with pytest.raises(ValueError, match=f"the seed must be 0 to {LONGEST}"):
                screen.config()
