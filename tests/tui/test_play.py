"""Whole games played by key presses through Textual's pilot."""

from __future__ import annotations

import re
from collections import Counter

from coloretto.engine import ActionKind, Card
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import EndScreen, GameScreen
from coloretto.tui.widgets import MoveLog, ScoreCard, TopBar, TurnBar

from .conftest import (
    SIZE,
    asynctest,
    game_screen,
    key_for,
    make_app,
    make_config,
    play_to_end,
    settle,
    text_of,
)


def log_lines(screen: GameScreen) -> list[str]:
    return [entry.plain for entry in screen.query_one(MoveLog).entries]


def assert_every_move_logged(screen: GameScreen) -> None:
    """The move log has one line in words for every move of the game."""
    game = screen.view.game
    kinds = Counter(move.action.kind for move in game.history())
    lines = log_lines(screen)
    assert sum(" drew " in line for line in lines) == kinds[ActionKind.DRAW]
    assert sum(" put " in line for line in lines) == kinds[ActionKind.PLACE]
    assert sum(" took row " in line for line in lines) == kinds[ActionKind.TAKE]


@asynctest
async def test_a_person_against_three_bots_plays_a_whole_game() -> None:
    app = make_app(4, humans=1, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        keys = await play_to_end(pilot)
        screen = game_screen(pilot)
        game = screen.view.game
        assert game.is_over
        assert keys == len([m for m in game.history() if m.player == 0]) > 10
        assert {m.player for m in game.history()} == {0, 1, 2, 3}
        assert_every_move_logged(screen)
        assert any("Last Round card came up" in line for line in log_lines(screen))
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        assert len(end.query(ScoreCard)) == 4
        assert "points!" in text_of(end.query_one("#headline"))


@asynctest
async def test_two_people_at_one_keyboard_are_told_whose_turn_it_is() -> None:
    app = make_app(2, humans=2, names=["Ana", "Ben"], seed=5, edition="anniversary")
    async with app.run_test(size=SIZE) as pilot:
        seen: Counter[str] = Counter()
        while True:
            await settle(pilot)
            if isinstance(pilot.app.screen, EndScreen):
                break
            screen = game_screen(pilot)
            game = screen.view.game
            name = screen.view.seat_names[game.current_player]
            assert f"{name}'s turn" in text_of(screen.query_one(TurnBar))
            seen[name] += 1
            await pilot.press(key_for(game))
        assert set(seen) == {"Ana", "Ben"}
        game = game_screen(pilot).view.game
        assert sum(seen.values()) == len(game.history())
        headline = text_of(pilot.app.screen.query_one("#headline"))
        assert "Ana" in headline or "Ben" in headline


@asynctest
async def test_a_two_player_game() -> None:
    app = make_app(2, humans=1, seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        assert screen.view.game.row_capacities == (1, 2, 3)
        assert any("Removed from the game" in line for line in log_lines(screen))
        await play_to_end(pilot)
        assert screen.view.game.is_over
        assert_every_move_logged(screen)
        assert any("discarded" in line for line in log_lines(screen))


@asynctest
async def test_the_gray_side() -> None:
    app = make_app(3, humans=1, seed=9, scoring="gray")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "gray side" in game_screen(pilot).query_one(TopBar).text
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        game = end.view.game
        assert game.score_breakdown(0).scoring.value == "gray"
        for card in end.query(ScoreCard):
            assert re.search(rf"Total +{game.final_scores()[card.seat]}\b", text_of(card))


@asynctest
async def test_a_match_of_two_games() -> None:
    app = make_app(2, humans=1, seed=11, games=2)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        session = end.view
        first = session.game.final_scores()
        first_player = session.game.setup.first_player
        assert "Game 1 of 2" in text_of(end.query_one("#headline"))
        assert end.active_bindings["n"].enabled  # the next game, in the footer
        assert "after 1 of 2" in text_of(end.query_one("#standings"))
        await pilot.press("n")
        await settle(pilot)
        assert session.match.game_number == 2
        assert session.game.setup.first_player == (first_player + 1) % 2
        assert "Game 2 of 2" in game_screen(pilot).query_one(TopBar).text
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        assert session.match.is_over
        second = session.game.final_scores()
        assert session.match.totals() == tuple(a + b for a, b in zip(first, second, strict=True))
        assert "the match with" in text_of(end.query_one("#headline"))
        standings = text_of(end.query_one("#standings"))
        assert "Total (final)" in standings
        assert "Game 2" in standings
        # The match is over: n says what to do instead of dealing a third game.
        await pilot.press("n")
        assert pilot.app.screen is end
        assert "n does nothing here: r rematch" in text_of(end.query_one("#end-notice"))
        await pilot.press("q")  # q on the score screen quits at once
        await pilot.pause()
        assert not pilot.app.is_running


@asynctest
async def test_ghost_seats_are_named_after_their_player() -> None:
    app = ColorettoApp(make_config(2, humans=1, names=["Ana"], seed=2, variant="ghost"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        session = screen.view
        assert session.seat_names == ("Ana", "Bot 1", "Ana's ghost", "Bot 1's ghost")
        for _ in range(12):  # Ana also plays for her ghost
            game = session.game
            if game.current_player == 2:
                assert "Ana's ghost's turn (Ana plays it)" in text_of(screen.query_one(TurnBar))
            await pilot.press(key_for(game))
            await settle(pilot)
        assert {m.player for m in session.game.history()} >= {0, 2}


@asynctest
async def test_four_rows_with_the_golden_joker() -> None:
    app = make_app(2, humans=1, seed=4, edition="anniversary", variant="four-rows")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        assert "$ golden" in text_of(screen.query_one("#legend"))
        assert len(screen.view.game.row_capacities) == 4
        await play_to_end(pilot)
        game = screen.view.game
        assert game.is_over
        assert sum(game.collection(s).get(Card.GOLDEN_JOKER, 0) for s in range(2)) <= 1
