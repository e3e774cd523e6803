"""Keys that cannot be played get a short message saying why; the other keys of the game."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Footer

from coloretto.engine import GameState
from coloretto.play.keeper import Keeper
from coloretto.play.saving import load_session
from coloretto.play.table_view import row_takers
from coloretto.play.words import DASH
from coloretto.store.saves import save_path
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import ConfirmQuit, GameScreen, HelpScreen, RulesScreen
from coloretto.tui.screens.dialogs import RulesView
from coloretto.tui.widgets import KeysBar, MoveLog, Notice
from tests.tui.frames import first_frame, record_frames

from .conftest import (
    SIZE,
    asynctest,
    game_screen,
    make_app,
    make_config,
    play_to_end,
    settle,
    text_of,
    until_a_bots_turn,
)


def notice(screen: GameScreen) -> str:
    return text_of(screen.query_one(Notice))


@asynctest
async def test_wrong_keys_say_why() -> None:
    # Three people at one keyboard: every move is made by a key press.
    app = make_app(3, humans=3, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)

        def game() -> GameState:
            return screen.view.game

        await pilot.press("1")
        assert "row 1 is empty" in notice(screen)
        assert "draw with d" in notice(screen)
        await pilot.press("5")
        assert "there is no row 5 (the rows are 1\N{EN DASH}3)" in notice(screen)
        await pilot.press("x")
        assert notice(screen).startswith("! x does nothing here: draw with d")

        await pilot.press("d")
        assert game().drawn_card is not None
        await pilot.press("d")
        assert "you have already drawn a card" in notice(screen)
        assert "put the card on row 1, 2 or 3" in notice(screen)
        await pilot.press("1")  # the first card goes on row 1
        assert len(game().rows[0]) == 1

        await pilot.press("z")
        assert "draw with d or take row 1 (? shows all keys)" in notice(screen)

        for _ in range(2):  # fill row 1
            await pilot.press("d", "1")
        assert len(game().rows[0]) == 3
        await pilot.press("d", "1")
        assert f"row 1 is full {DASH} put the card on row 2 or 3" in notice(screen)
        await pilot.press("2")

        taker = game().current_player
        await pilot.press("1")  # take the full row
        assert game().rows_taken[0]
        assert taker in row_takers(screen.view.game).values()
        await pilot.press("d", "1")
        assert "row 1 was taken this round" in notice(screen)
        await pilot.press("1")
        assert "row 1 was taken this round" in notice(screen)
        # Nothing was played: the drawn card still waits for a row that can take it.
        assert game().drawn_card is not None
        assert str(game().history()[-1].action) == "draw"


def slow_bot_app() -> ColorettoApp:
    """A heads-up game whose bot waits 10 s before each move: time to press keys."""
    config = make_config(2, humans=1, seed=1)
    config = type(config)(config.rules, config.players, config.seed, delay=10, hint_bot="greedy")
    return ColorettoApp(config)


@asynctest
async def test_keys_during_a_bots_turn_say_to_wait() -> None:
    app = slow_bot_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(pilot)
        await until_a_bots_turn(pilot, screen)
        assert "Bot 1 is thinking" in text_of(screen.query_one("#turn"))
        for key in ("d", "2", "x"):
            await pilot.press(key)
            assert "It is Bot 1's turn: wait a moment." in notice(screen)


@asynctest
async def test_hint_says_what_the_bot_would_do_and_why() -> None:
    app = make_app(3, humans=1, seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        for _ in range(3):  # a few turns in, so that there is something to weigh
            await pilot.press("d", "1")
            await settle(pilot)
        await pilot.press("h")
        for _ in range(500):
            if screen.hints:
                break
            await pilot.pause(0.01)
        assert screen.hints, "no hint arrived"
        hint = screen.hints[-1]
        assert hint.startswith(("draw a card", "take row", "put the"))
        assert any(words in hint for words in ("for you", "to you", "no row", "the others"))
        assert notice(screen).startswith("Hint: ")


@asynctest
async def test_help_rules_log_pace_and_quit() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)

        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        help_text = text_of(pilot.app.screen.query_one("#help-text"))
        assert "draw the top card" in help_text
        assert "N = browN, A = grAy" in help_text
        await pilot.press("escape")
        assert pilot.app.screen is screen

        await pilot.press("r")
        assert isinstance(pilot.app.screen, RulesScreen)
        rules = pilot.app.screen.query_one(RulesView)
        await pilot.pause()
        while not rules.width_set:  # set in a worker thread, if not before
            await pilot.pause()
        assert any("Last Round" in line.text for line in rules.lines)
        await pilot.press("escape")
        assert pilot.app.screen is screen

        log = screen.query_one(MoveLog)
        assert log.display
        await pilot.press("l")
        assert not log.display
        await pilot.press("l")
        assert log.display

        assert screen.delay == 0
        await pilot.press("minus", "minus")
        assert screen.delay == 0.4
        await pilot.press("plus")
        assert screen.delay == 0.2
        await pilot.press("plus", "plus")
        assert screen.delay == 0
        assert notice(screen).strip() == "Bots already play at once: - slows them down."
        await pilot.press(*["minus"] * 7)
        assert screen.delay == 2.5
        assert notice(screen).strip() == "Bots already wait 2.5 s: + speeds them up."
        await pilot.press("plus")
        assert notice(screen).strip() == "Bots now wait 1.5 s between actions (+ faster, - slower)."

        await pilot.press("q")
        assert isinstance(pilot.app.screen, ConfirmQuit)
        await pilot.press("n")
        assert pilot.app.screen is screen
        await pilot.press("q", "y")
        await pilot.pause()
        assert not pilot.app.is_running


@asynctest
async def test_the_pace_keys_say_so_at_a_table_without_bots() -> None:
    app = make_app(3, humans=3, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        delay = screen.delay
        await pilot.press("plus")
        assert notice(screen).startswith("No bot plays at this table")
        assert screen.delay == delay


@asynctest
async def test_clicking_a_row_plays_like_its_number() -> None:
    app = make_app(3, humans=3, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        await pilot.click("#drawn")
        assert screen.view.game.drawn_card is not None
        await pilot.click("#row-2")
        assert len(screen.view.game.rows[1]) == 1
        await pilot.click("#row-2")  # no card drawn: take it
        assert screen.view.game.rows_taken[1]


async def footer_keys(pilot: Pilot[None]) -> list[str]:
    """The keys the footer on top shows (the topmost screen's footer)."""
    await pilot.pause()
    bars = list(pilot.app.screen.query(KeysBar))
    if bars:
        return [shown for shown, _, _ in bars[0].keys]
    footers = list(pilot.app.screen.query(Footer))
    assert footers, f"{pilot.app.screen} has no footer of its own"
    app = pilot.app
    return [
        app.get_key_display(active.binding)
        for active in app.active_bindings.values()
        if active.binding.show
    ]


@asynctest
async def test_the_footer_and_help_name_the_rows_there_are_and_a_dialogs_own_keys() -> None:
    app = make_app(3, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")  # every row has room for the drawn card
        keys = await footer_keys(pilot)
        assert f"1{DASH}3" in keys
        assert f"1{DASH}5" not in keys
        await pilot.press("question_mark")
        await pilot.pause()
        help_text = text_of(pilot.app.screen.query_one("#help-text"))
        assert f"1{DASH}3" in help_text
        assert f"1{DASH}5" not in help_text
        assert "d" not in await footer_keys(pilot)
        await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmQuit)
        assert "d" not in await footer_keys(pilot)


@asynctest
async def test_the_footer_offers_the_moves_that_can_be_played() -> None:
    app = make_app(4, humans=4, seed=1)  # every move by a key press
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        keys = await footer_keys(pilot)
        assert "d" in keys
        assert not any(key[0].isdigit() for key in keys)  # no row to take yet
        assert "Enter" not in keys
        await pilot.press("1")  # left out of the footer, the key still says why
        assert f"row 1 is empty {DASH} draw with d" in notice(screen)
        await pilot.press("d")
        keys = await footer_keys(pilot)
        assert "d" not in keys
        assert f"1{DASH}4" in keys
        await pilot.press("d")
        assert "you have already drawn a card" in notice(screen)
        await pilot.press("1", "d", "1", "d", "1", "d")  # row 1 full, a card drawn
        assert len(screen.view.game.rows[0]) == 3
        assert f"2{DASH}4" in await footer_keys(pilot)
        await pilot.press("1")
        assert f"row 1 is full {DASH} put the card on row 2, 3 or 4" in notice(screen)
        await pilot.press("3")
        assert "1,3" in await footer_keys(pilot)  # draw, or take a row with cards
        assert "d" in await footer_keys(pilot)


@asynctest
async def test_the_footer_waits_with_the_moves_while_a_bot_plays() -> None:
    app = slow_bot_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = game_screen(pilot)
        await until_a_bots_turn(pilot, screen)
        keys = await footer_keys(pilot)
        assert "d" not in keys
        assert not any(key[0].isdigit() for key in keys)
        assert {"h", "l", "?", "r", "q"} <= set(keys)


@asynctest
async def test_the_help_fits_at_80x24_with_its_way_out_in_sight() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        box = pilot.app.screen.query_one("#help-box")
        assert pilot.app.screen.region.contains_region(box.region)
        assert "Esc closes" in str(box.border_subtitle)


@asynctest
async def test_quitting_after_the_game_promises_no_resume() -> None:
    app = make_app(2, humans=1, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmQuit)
        question = text_of(pilot.app.screen.query_one("#confirm-question"))
        assert "--resume" not in question
        assert "over" in question


@asynctest
async def test_the_pace_set_in_play_is_kept_with_the_game_and_for_next_time() -> None:
    keeper = Keeper()
    keeper.remember(make_config(3, humans=1, seed=1))
    app = ColorettoApp(make_config(3, humans=1, seed=2), keeper=keeper)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        await pilot.press("minus", "minus")
        assert screen.delay == 0.4
        session = screen.view
        await pilot.press("q", "y")
        await pilot.pause()
    resumed = load_session(save_path(keeper.data, session.id))
    assert resumed.config.delay == 0.4  # a resumed game goes on at the pace set
    kept = keeper.last_setup()
    assert kept is not None
    assert kept.delay == 0.4  # and the next setup starts at it


@asynctest
async def test_the_footer_changes_in_the_same_frame_as_the_turn_line() -> None:
    app = make_app(4, humans=4, seed=1)
    frames = record_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause()
        seen = len(frames)
        await pilot.press("d")  # the turn line says to place the card; d no longer draws
        await pilot.pause()
        shown = first_frame(frames, "card on a row", after=seen)
        assert f"1{DASH}4 Row" in shown
        assert "d Draw " not in shown  # the footer's key, not the drawn card's heading
