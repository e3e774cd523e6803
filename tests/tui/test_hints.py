"""The hint key: the best move and why, again on a second ``h`` or after any other message,
and at your turn when asked for during someone else's; at once for a move with no choice."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.pilot import Pilot

from coloretto.engine import DRAW
from coloretto.play import table as table_module
from coloretto.play.analysis import Hints
from coloretto.play.session import Session
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import GameScreen
from coloretto.tui.widgets import Notice

from .conftest import (
    SIZE,
    asynctest,
    game_screen,
    key_for,
    make_app,
    make_config,
    settle,
    text_of,
    until_a_bots_turn,
)


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


@asynctest
async def test_h_during_a_bots_turn_brings_the_hint_at_your_turn() -> None:
    config = make_config(2, humans=1, seed=1, bot="easy")
    app = ColorettoApp(replace(config, delay=0.5))
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(pilot)
        await until_a_bots_turn(pilot, screen)
        await pilot.press("h")
        assert notice(screen).strip() == "Bot 1 is to move: a hint comes once it is your turn."
        assert not screen.hints
        await settle(pilot)  # the bot has moved: our turn
        for _ in range(1000):
            if screen.hints:
                break
            await pilot.pause(0.01)
        assert len(screen.hints) == 1, "the hint asked for during the bot's turn never came"
        assert notice(screen).strip() == f"Hint: {screen.hints[0]}"


@asynctest
async def test_watching_bots_the_keys_say_so() -> None:
    config = make_config(3, humans=0, seed=1, bot="easy")
    app = ColorettoApp(replace(config, delay=10))
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(pilot)
        await pilot.pause()
        await pilot.press("h")
        assert notice(screen).strip() == "! You are watching: hints are for the players."
        await pilot.press("d")
        assert notice(screen).strip() == "! You are watching: nobody plays from this keyboard."


@asynctest
async def test_a_long_hint_shows_whole_on_the_smallest_terminal() -> None:
    app = make_app(5, humans=1, seed=3, bot="easy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        words = " ".join(f"word{n}" for n in range(30))  # three lines at 80 columns
        screen.notice.say(words, "hint")
        await pilot.pause()
        shown = [
            "".join(segment.text for segment in screen.notice.render_line(y))
            for y in range(screen.notice.size.height)
        ]
        assert screen.notice.size.height == 3
        assert " ".join(" ".join(shown).split()) == f"Hint: {words}"


@asynctest
async def test_a_hint_with_what_the_coach_foresees_shows_whole_at_80x24() -> None:
    # Issue 59: a hint that says what the coach foresees takes five lines at 80 columns.
    app = make_app(5, humans=1, seed=3, bot="easy")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        words = " ".join(f"word{n}" for n in range(50))  # five lines at 80 columns
        screen.notice.say(words, "hint")
        await pilot.pause()
        shown = [
            "".join(segment.text for segment in screen.notice.render_line(y))
            for y in range(screen.notice.size.height)
        ]
        assert screen.notice.size.height == 5
        assert " ".join(" ".join(shown).split()) == f"Hint: {words}"


def _ana_bot_ben(delay: float) -> ColorettoApp:
    """Ana, a bot and Ben at one keyboard, in that order of play."""
    config = make_config(3, humans=2, names=("Ana", "Ben"), seed=5, bot="easy")
    ana, ben, bot = config.players
    return ColorettoApp(replace(config, players=(ana, bot, ben), delay=delay))


async def _until_seat(pilot: Pilot[None], screen: GameScreen, seat: int) -> None:
    """Play ``key_for``'s moves until ``seat`` (a person's) is to move."""
    for _ in range(20):
        await settle(pilot)
        if screen.view.game.current_player == seat:
            return
        await pilot.press(key_for(screen.view.game))
    raise AssertionError(f"seat {seat} never came to move")


async def _hints_come(pilot: Pilot[None], screen: GameScreen, count: int) -> None:
    for _ in range(300):
        if len(screen.hints) >= count and "thinking" not in notice(screen):
            return
        await pilot.pause(0.01)
    raise AssertionError(f"{count} hints never came: {notice(screen)!r}")


@asynctest
async def test_hotseat_a_hint_asked_during_a_bots_turn_is_not_given_to_the_next_person() -> None:
    app = _ana_bot_ben(delay=0.5)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(pilot)
        await _until_seat(pilot, screen, 0)
        await pilot.press("d", "1")  # Ana plays; the bot is to move, then Ben
        await pilot.pause()
        assert screen.busy
        await pilot.press("h")
        assert notice(screen).strip() == "Bot 1 is to move: a hint for Ana comes if Ana plays next."
        await settle(pilot)
        assert screen.view.game.current_player == 2  # Ben's turn: Ana's hint is not his
        await pilot.pause(0.3)
        assert not screen.hints
        assert "Hint" not in notice(screen)


@asynctest
async def test_hotseat_hints_name_whom_they_are_for() -> None:
    app = _ana_bot_ben(delay=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(pilot)
        await _until_seat(pilot, screen, 2)
        await pilot.press("h")
        await _hints_come(pilot, screen, 1)
        assert notice(screen).strip() == f"Hint for Ben: {screen.hints[0]}"
        await pilot.press("x", "h")  # shown again, for the same person
        assert notice(screen).strip() == f"Hint for Ben: {screen.hints[0]}"


@asynctest
async def test_a_move_with_no_choice_is_hinted_at_once_without_the_hint_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_search(*args: object) -> object:
        raise AssertionError("the hint bot was asked about a move with no choice")

    monkeypatch.setattr(Hints, "advise", no_search)
    app = make_app(4, humans=4, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        await pilot.press("h")  # nothing on the table: the only move is to draw
        assert ": draw a card: no row holds cards yet" in notice(screen)
        await pilot.press("d", "h")  # four empty rows, alike: any of them
        assert " card on row 1: " in notice(screen)
        assert notice(screen).rstrip().endswith("; rows 1\N{EN DASH}4 are alike for it")
        assert len(screen.hints) == 2


def test_advise_answers_a_move_with_no_choice_without_the_hint_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Hints, "advise", None)  # not called
    session = Session(make_config(4, humans=4, seed=1))
    hint = table_module.advise(session, session.hints)
    assert hint.action == DRAW
    assert hint.reason == "draw a card: no row holds cards yet"
