"""Nothing lost: the game is saved after every action and resumes exactly; finished games
go to the history; a damaged save is refused and left alone; failing bots, a too small
terminal and bad saves never stop the game."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from textual.geometry import Region

from coloretto.bots.base import Budget
from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.engine import Action, PlayerView
from coloretto.play.saving import load_session, read_session
from coloretto.store.history import finished_games
from coloretto.store.paths import DataDir
from coloretto.store.saves import latest_save
from coloretto.store.stats import Stats
from coloretto.tui import ColorettoApp, Session
from coloretto.tui.screens import EndScreen, GameScreen, SetupScreen, TooSmallScreen
from coloretto.tui.widgets import DrawnCard
from coloretto.tui.widgets.action_button import ActionButton
from tests.tui.conftest import (
    SIZE,
    asynctest,
    game_screen,
    key_for,
    make_app,
    make_config,
    play_to_end,
    render_text,
    settle,
    text_of,
)


def saved_now() -> Session:
    path = latest_save(DataDir.default())
    assert path is not None
    return load_session(path)


@asynctest
async def test_every_action_is_saved_and_a_drawn_card_resumes_in_hand() -> None:
    app = make_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press(key_for(game_screen(pilot).view.game))
            await settle(pilot)
            assert saved_now().game == game_screen(pilot).view.game
        if game_screen(pilot).view.game.drawn_card is None:
            await pilot.press("d")
        game = game_screen(pilot).view.game
        assert game.drawn_card is not None
        await pilot.press("q", "y")
    resumed = saved_now()
    assert resumed.game == game
    assert app.session is not None
    assert resumed.seat_names == app.session.seat_names
    assert resumed.config == app.config

    again = ColorettoApp(session=resumed)
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        assert screen.view.game.drawn_card == game.drawn_card
        drawn = text_of(screen.query_one(DrawnCard))
        assert "Drawn" in drawn
        assert game.drawn_card is not None
        assert game.drawn_card.name.lower() in drawn
        await pilot.press(key_for(screen.view.game))
        await settle(pilot)
        assert len(saved_now().game.history()) > len(game.history())


@asynctest
async def test_a_resumed_game_goes_on_as_if_never_interrupted() -> None:
    """Bots are seeded by the match and the moves so far: resuming changes nothing."""
    straight = make_app(3, humans=0)
    async with straight.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert straight.session is not None
    whole = straight.session.game
    assert whole.is_over

    # Paced bots, so that the game is surely cut before its end on a fast machine.
    cut = ColorettoApp(replace(make_config(3, humans=0), delay=0.05))
    async with cut.run_test(size=SIZE) as pilot:
        while cut.session is None or len(cut.session.game.history()) < 20:
            await pilot.pause()
        await pilot.press("ctrl+c")
    assert cut.session is not None
    assert not cut.session.game.is_over
    session = saved_now()
    session.config = replace(session.config, delay=0)
    resumed = ColorettoApp(session=session)
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert resumed.session is not None
    assert resumed.session.game == whole


@asynctest
async def test_a_finished_game_goes_to_the_history_not_to_resume() -> None:
    app = make_app(2)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
    data = DataDir.default()
    assert latest_save(data) is None
    finished = finished_games(data)[0]
    assert finished is not None
    assert app.session is not None
    assert read_session(finished).game == app.session.game
    summary = Stats(data.stats).summary()
    assert summary.games == 1
    (you,) = summary.people
    assert you.player == "You"
    assert you.best == app.session.game.final_scores()[0]


@asynctest
async def test_a_game_against_a_level_is_counted_with_what_the_level_plays_now() -> None:
    app = make_app(2, bot="normal")
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        assert isinstance(app.screen, EndScreen)
    stats = Stats(DataDir.default().stats)
    (group,) = stats.summary(levels=LEVELS, revisions=LEVEL_REVISIONS).groups
    assert group.opponents == "normal"
    (group,) = stats.summary(levels=LEVELS, revisions={"normal": "2099-01-01"}).groups
    assert group.opponents == f"normal (play of {LEVEL_REVISIONS['normal']})"


@asynctest
async def test_a_match_resumes_with_its_totals() -> None:
    app = ColorettoApp(make_config(2, games=2))
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        await pilot.press("n")  # the next game
        await settle(pilot)
        assert app.session is not None
        totals = app.session.match.totals()
        await pilot.press("q", "y")
    resumed = saved_now()
    assert resumed.match.game_number == 2
    assert resumed.match.totals() == totals


# ---------------------------------------------------------------- the setup screen


@asynctest
async def test_the_setup_screen_resumes_the_game_in_progress() -> None:
    app = make_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await pilot.press("q", "y")
    game = saved_now().game
    setup = ColorettoApp()
    async with setup.run_test(size=SIZE) as pilot:
        assert isinstance(setup.screen, SetupScreen)
        assert setup.screen.query_one("#resume", ActionButton).display
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert game_screen(pilot).view.game == game


@asynctest
async def test_a_damaged_save_is_refused_left_untouched_and_a_new_game_can_start() -> None:
    app = make_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q", "y")
    path = latest_save(DataDir.default())
    assert path is not None
    path.write_text('{"format": "coloretto-record/1", "rules": ')
    damaged = path.read_bytes()
    setup = ColorettoApp()
    async with setup.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+r")
        error = render_text(setup.screen.query_one("#setup-error").render())
        assert "cannot resume" in error
        assert path.name in error.replace("\n", "")
        await pilot.press("ctrl+s")  # a new game instead
        await settle(pilot)
        assert isinstance(setup.screen, GameScreen)
    assert path.read_bytes() == damaged
    assert len(list(DataDir.default().saves.glob("*.json"))) == 2


# ---------------------------------------------------------------- failing bots


class Raising:
    def choose(self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None):
        raise RuntimeError("the bot broke")


class Garbage:
    def choose(self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None):
        return "banana"


class Slow:
    def choose(self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None):
        time.sleep(1.0)
        return legal[0]


def notifications_shown(app: ColorettoApp) -> list[str]:
    """The notifications on the screen, each one's text as shown, its lines rejoined."""
    shown = []
    for toast in app.screen.query("Toast"):
        lines = toast.render_lines(Region(0, 0, *toast.outer_size))
        shown.append(" ".join(" ".join(line.text for line in lines).replace("▌", " ").split()))
    return shown


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        (Raising, "failed: it raised RuntimeError: the bot broke"),
        (Garbage, "failed: it answered 'banana', which is not a legal action"),
        (Slow, "failed: it did not answer within 0.2 s"),
    ],
)
@asynctest
async def test_a_failing_bot_never_stops_the_game(
    bot: type, says: str, monkeypatch: pytest.MonkeyPatch, data_home: Path
) -> None:
    monkeypatch.setattr("coloretto.bots.players.make_bot", lambda spec, seed: bot())
    config = replace(make_config(2, humans=0), time_limit=0.2)
    app = ColorettoApp(config)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = game_screen(pilot)
        while len(screen.faults) < 2:
            await pilot.pause(0.05)
        assert says in screen.faults[0]
        assert len(screen.view.game.history()) >= 2
        await pilot.pause()
        assert any(says in shown for shown in notifications_shown(app))
    log = (data_home / "coloretto.log").read_text()
    assert says in log


# ---------------------------------------------------------------- a small terminal


@asynctest
async def test_a_too_small_terminal_shows_a_notice_and_recovers() -> None:
    app = make_app(3)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = render_text(app.screen.query_one("#too-small").render())
        assert "at least 80x24" in text
        assert "60x20" in text
        await pilot.press("d")  # keys do nothing harmful meanwhile
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.resize_terminal(79, 30)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


# ---------------------------------------------------------------- unexpected errors


@asynctest
async def test_an_unexpected_error_saves_logs_and_exits_with_one_line(
    monkeypatch: pytest.MonkeyPatch, data_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = make_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        game = game_screen(pilot).view.game
        monkeypatch.setattr(ColorettoApp, "is_headless", property(lambda self: False))

        def broken(screen: GameScreen) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(GameScreen, "action_help", broken)  # a bug behind a key
        app.simulate_key("question_mark")  # not pilot.press: the app is gone, no screen to wait for
        await pilot.pause()
    assert app.return_code == 1
    message = " ".join(capsys.readouterr().err.split())  # as printed, rewrapped
    assert "Traceback" not in message
    assert "unexpected error (RuntimeError: a bug)" in message
    assert "coloretto play --resume" in message
    assert f"The details are in {data_home / 'coloretto.log'}" in message
    log = (data_home / "coloretto.log").read_text()
    assert "Traceback" in log
    assert "RuntimeError: a bug" in log
    assert saved_now().game == game


@pytest.mark.parametrize("part", ["Notice", "TurnBar", "MoveLog"])
@asynctest
async def test_a_move_told_to_a_screen_being_taken_down_shows_nothing(part: str) -> None:
    """A screen's widgets go one by one before it is unmounted, while the table (a bot's
    worker) may still tell it moves: it hears no more, it does not fail on a missing one."""
    app = make_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        await screen.query_one(part).remove()
        before = screen.view.game.ply
        assert screen.play(screen.view.game.legal_actions()[0])
        assert screen.view.game.ply == before + 1
        await pilot.pause()
