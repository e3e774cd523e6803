"""A seed of 128 bits (a game dealt at random) shows as a code, whole on one line at 80x24:
on the score screen (beside the longest rules) and in the move log; the setup screen shows
it so and takes it back, and takes the decimal form as before."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from coloretto.engine.seeds import SEED_BITS
from coloretto.play.seed_text import seed_code
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import EndScreen, SetupScreen
from coloretto.tui.widgets import MoveLog, Notice

from .conftest import SIZE, asynctest, game_screen, make_app, make_config, play_to_end, render_text

LONGEST = 2**SEED_BITS - 1


@asynctest
async def test_the_score_screen_and_the_log_show_a_random_seed_whole_on_one_line() -> None:
    app = make_app(2, humans=0, seed=LONGEST, scoring="gray", edition="anniversary",
                   variant="ghost")  # fmt: skip
    code = seed_code(LONGEST)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        notice = end.query_one(Notice)
        width, height = notice.content_size
        shown = render_text(notice.content, width).strip().splitlines()
        assert len(shown) == height  # every line of it shows
        assert any(code in line for line in shown)  # not broken across two lines
        assert " ".join(line.strip() for line in shown).endswith(f"seed {code}.")
        await pilot.press("b")  # the board, its move log
        log = game_screen(pilot).query_one(MoveLog)
        last = log.entries[-1]
        assert last.plain.endswith(f"The seed was {code}.")
        lines = [line.plain for line in last.wrap(pilot.app.console, log.content_size.width)]
        assert any(code in line for line in lines), lines


@asynctest
async def test_the_setup_screen_shows_a_code_and_takes_it_or_a_number_back() -> None:
    app = ColorettoApp(make_config(3, seed=LONGEST), setup=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        seed = screen.query_one("#seed", Input)
        assert seed.value == seed_code(LONGEST)
        assert seed.content_size.width >= len(seed.value)  # the whole code in sight
        assert screen.config().seed == LONGEST
        seed.value = str(LONGEST)  # the decimal form, as the game showed it before
        assert screen.config().seed == LONGEST
        seed.value = seed_code(LONGEST).lower()
        assert screen.config().seed == LONGEST
        for beyond in (LONGEST + 1, -1):
            seed.value = str(beyond)
            with pytest.raises(ValueError, match=f"the seed must be 0 to {LONGEST}"):
                screen.config()
        seed.value = seed_code(LONGEST)[:-1] + "X"
        with pytest.raises(ValueError, match="the seed has a mistyped symbol"):
            screen.config()
