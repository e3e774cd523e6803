"""The hint key: the best move and why, again on a second ``h`` or after any other message."""

from __future__ import annotations

from textual.pilot import Pilot

from coloretto.tui.screens import GameScreen
from coloretto.tui.widgets import Notice

from .conftest import SIZE, asynctest, game_screen, make_app, settle, text_of


def notice(screen: GameScreen) -> str:
    return text_of(screen.query_one(Notice))


async def hint(pilot: Pilot[None], screen: GameScreen) -> str:
    """Press ``h`` and wait for the hint to show (not "thinking")."""
    await pilot.press("h")
    for _ in range(1000):
        text = notice(screen)
        if "thinking" not in text:
            return text
        await pilot.pause(0.01)
    raise AssertionError(f"the hint never came: {notice(screen)!r}")


@asynctest
async def test_a_second_h_and_an_h_after_another_message_show_the_hint_again() -> None:
    app = make_app(3, humans=1, seed=2, bot="easy")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        await pilot.press("d", "1")
        await settle(pilot)
        first = await hint(pilot, screen)
        assert first.startswith("Hint: ")
        assert await hint(pilot, screen) == first
        await pilot.press("x")  # another message on the line
        assert "does nothing" in notice(screen)
        assert await hint(pilot, screen) == first
        assert len(screen.hints) == 1  # asked once: the same position, the same hint
