"""The setup screen of plain ``coloretto``: the same choices as ``coloretto play``."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from coloretto.bots.registry import LEVELS
from coloretto.cli.main import main
from coloretto.engine import Rules
from coloretto.play.keeper import Keeper
from coloretto.play.saving import SavedGame, load_session, session_record
from coloretto.play.session import Session
from coloretto.store.last_setup import setup_path
from coloretto.store.paths import DataDir
from coloretto.store.saves import save
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.screens import GameScreen, SetupScreen
from coloretto.tui.screens.dialogs import ConfirmDiscard
from coloretto.tui.screens.tutorial import TutorialScreen
from coloretto.tui.widgets.choice import Choice
from tests.conftest import random_play

from .conftest import SIZE, asynctest, text_of
from .test_cli_play import config_of


@asynctest
async def test_the_defaults_start_a_game_against_three_bots() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(pilot.app.screen, SetupScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        config = screen.view.config
        assert config.rules == Rules(players=4)
        assert [p.name for p in config.players] == ["You", "Bot 1", "Bot 2", "Bot 3"]
        assert {p.bot for p in config.players[1:]} == {"normal"}
        assert config.delay == 0.6


@asynctest
async def test_choosing_a_hotseat_match_on_the_gray_side() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Choice).value = 3
        await pilot.pause()
        screen.query_one("#humans", Choice).value = 2
        screen.query_one("#scoring", Choice).value = "gray"
        screen.query_one("#level", Choice).value = "easy"
        screen.query_one("#delay", Choice).value = 0.0
        await pilot.click("#names")
        await pilot.press(*"Ana, Ben")
        screen.query_one("#games", Input).focus()  # focusing selects the text: typing replaces it
        await pilot.press("3")
        await pilot.click("#seed")
        await pilot.press(*"42")
        await pilot.press("enter")  # Enter in a text field starts the game
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        config = game.view.config
        assert config.rules == Rules(players=3, scoring="gray", games=3)
        assert [(p.name, p.bot) for p in config.players] == [
            ("Ana", None),
            ("Ben", None),
            ("Bot 1", "easy"),
        ]
        assert config.seed == 42
        assert config.delay == 0


@asynctest
async def test_impossible_choices_are_explained() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#variant", Choice).value = "ghost"
        await pilot.press("ctrl+s")
        assert isinstance(pilot.app.screen, SetupScreen)
        assert "the ghost variant is for 2 players, not 4" in text_of(
            screen.query_one("#setup-error", Static)
        )
        screen.query_one("#players", Choice).value = 2
        screen.query_one("#names", Input).value = "Ana, Ana"
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert "2 names given for 1 person" in text_of(screen.query_one("#setup-error", Static))


@asynctest
async def test_the_setup_screen_starts_from_given_choices() -> None:
    config = GameConfig.build(Rules(players=2, variant="ghost"), names=["Ana"], seed=7)
    app = ColorettoApp(config, setup=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#variant", Choice).value == "ghost"
        assert screen.query_one("#names", Input).value == "Ana"
        assert screen.query_one("#seed", Input).value == "7"


@asynctest
async def test_typed_names_are_cleaned_as_names_from_files_are() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#humans", Choice).value = 2
        screen.query_one("#names", Input).value = "Zoe\u0308\u200b, \x1b[31mBen\u202e"
        await pilot.press("ctrl+s")
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        assert [p.name for p in game.view.config.players][:2] == ["Zo\u00eb", "Ben"]


@asynctest
async def test_named_seats_keep_their_bot_level_and_an_odd_pace_is_kept() -> None:
    config = config_of("--setup", "--seat", "Ana", "--seat", "Ben", "--seat", "bot:hard")
    config = replace(config, delay=0.05)
    app = ColorettoApp(config, setup=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#level", Choice).value == "hard"
        delay = screen.query_one("#delay", Choice)
        assert delay.value == 0.05
        assert str(delay.render()).startswith("0.05 s per move")
        await pilot.press("ctrl+s")
        await pilot.pause()
        game = pilot.app.screen
        assert isinstance(game, GameScreen)
        assert [p.bot for p in game.view.config.players] == [None, None, "hard"]
        assert game.view.config.delay == 0.05


# ------------------------------------------------------- resuming and the last setup


def offered(screen: SetupScreen) -> list[str]:
    """What the footer offers (the bindings shown)."""
    return [b.binding.description for b in screen.active_bindings.values() if b.binding.show]


@asynctest
async def test_resume_is_offered_only_with_a_game_and_ctrl_r_says_there_is_none() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert offered(screen) == ["Start", "Quit"]
        assert not screen.query_one("#resume").display
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert "there is no game in progress to resume" in text_of(
            screen.query_one("#setup-error", Static)
        )
        assert isinstance(pilot.app.screen, SetupScreen)


def save_game(names: Sequence[str], rules: Rules, actions: int = 6) -> Path:
    """A game in progress on disk, ``actions`` moves in (people only: no bot moves)."""
    config = GameConfig.build(rules, humans=len(names), names=names, seed=3)
    session = Session(config)
    session.match = replace(
        session.match, game=random_play(session.game, random.Random(1), actions)
    )
    return save(DataDir.default(), session.id, session_record(session))


async def games_read(pilot: Pilot[None]) -> None:
    """Wait for the games in progress to be read (in a worker thread) and shown."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@asynctest
async def test_the_game_in_progress_is_described_who_plays_where_it_stands() -> None:
    path = save_game(["Ana", "Ben"], Rules(players=2, games=3))
    game = load_session(path).game
    when = datetime(2026, 11, 25, 1, 50).timestamp()
    os.utime(path, (when, when))
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        await games_read(pilot)
        assert "Resume" in offered(screen)
        ana, ben = game.scores()
        assert " ".join(text_of(screen.query_one("#setup-resume", Static)).split()) == (
            f"Game in progress, saved 25 Nov at 01:50: Ana: {ana}, Ben: {ben} "
            f"(game 1 of 3, round {game.round})."
        )


@asynctest
async def test_five_long_names_in_progress_still_fit_80x24() -> None:
    names = [f"{letter * 14}{n}" for n, letter in enumerate("ABCDE")]
    save_game(names, Rules(players=5, games=12), actions=40)
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        await games_read(pilot)
        described = screen.query_one("#setup-resume", Static)
        assert described.size.height <= 2
        assert "AAAAAAAAA…" in text_of(described)
        box = screen.query_one("#setup-box")
        assert box.region.bottom <= SIZE[1] - 1  # above the footer, nothing cut off


@asynctest
async def test_games_in_progress_are_listed_and_one_is_discarded_once_confirmed() -> None:
    paths = [save_game(names, Rules(players=2)) for names in (["Ana", "Ben"], ["Cy", "Di"])]
    paths.append(save_game(["Eve", "Flo"], Rules(players=2)))
    for age, path in enumerate(reversed(paths)):  # Eve and Flo's played last
        when = datetime(2026, 11, 25, 1, 50 - age).timestamp()
        os.utime(path, (when, when))
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        await games_read(pilot)
        assert {"Resume", "Discard"} <= set(offered(screen))
        heading = text_of(screen.query_one("#setup-resume", Static))
        assert heading.startswith("3 games in progress: ctrl+r resumes the one picked")
        listed = screen.query_one("#setup-games", OptionList)
        lines = [str(listed.get_option_at_index(i).prompt) for i in range(3)]
        assert [line.split(" · ")[-1] for line in lines] == [
            "Eve 2, Flo 2",
            "Cy 2, Di 2",
            "Ana 2, Ben 2",
        ]
        assert lines[0].startswith("25 Nov at 01:50 · round 1")
        assert screen.query_one("#setup-box").region.bottom <= SIZE[1] - 1  # all in sight
        listed.focus()
        await pilot.press("down")  # Cy and Di's game
        await pilot.press("ctrl+x")
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmDiscard)
        assert "Cy: 2, Di: 2" in text_of(dialog.query_one("#confirm-question", Static))
        await pilot.press("n")  # kept
        assert pilot.app.screen is screen
        assert all(path.exists() for path in paths)
        await pilot.press("ctrl+x", "y")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert [path.exists() for path in paths] == [True, False, True]
        assert "Discarded: Cy: 2, Di: 2" in text_of(screen.query_one("#setup-help", Static))
        assert text_of(screen.query_one("#setup-resume", Static)).startswith("2 games")
        await pilot.press("down")
        assert screen.resumable == paths[0]
        await pilot.press("enter")  # Enter resumes the game picked...
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.press("ctrl+x", "y", "ctrl+x", "y")  # ...and the others are discarded
        await pilot.pause()
        assert not any(path.exists() for path in paths)
        assert not screen.query_one("#resume").display
        assert offered(screen) == ["Start", "Quit"]


@asynctest
async def test_the_last_setup_is_remembered() -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Choice).value = 2
        await pilot.pause()
        screen.query_one("#humans", Choice).value = 2
        screen.query_one("#names", Input).value = "Ana, Ben"
        screen.query_one("#level", Choice).value = "hard"
        screen.query_one("#delay", Choice).value = 1.5
        screen.query_one("#scoring", Choice).value = "gray"
        screen.query_one("#games", Input).value = "3"
        screen.query_one("#seed", Input).value = "42"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)
    again = ColorettoApp()
    async with again.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#players", Choice).value == 2
        assert screen.query_one("#humans", Choice).value == 2
        assert screen.query_one("#names", Input).value == "Ana, Ben"
        assert screen.query_one("#level", Choice).value == "hard"
        assert screen.query_one("#delay", Choice).value == 1.5
        assert screen.query_one("#scoring", Choice).value == "gray"
        assert screen.query_one("#games", Input).value == "3"
        assert screen.query_one("#seed", Input).value == ""  # a new deal


def test_a_game_started_from_the_command_line_is_remembered_too(
    monkeypatch: pytest.MonkeyPatch, terminal: None
) -> None:
    monkeypatch.setattr(ColorettoApp, "run", lambda self, **kw: None)
    assert main(["play", "--seat", "Ana", "--seat", "Ben", "--seat", "bot:easy"]) == 0
    kept = Keeper().last_setup()
    assert kept is not None
    assert [(p.name, p.bot) for p in kept.players] == [
        ("Ana", None),
        ("Ben", None),
        ("Bot 1", "easy"),
    ]
    assert main(["play", "--setup", "--players", "5"]) == 0  # the setup screen keeps its own
    assert Keeper().last_setup() == kept


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[]",
        "null",
        '{"format": "coloretto-setup/1", "players": 9, "humans": "all", "names": 3}',
        '{"format": "coloretto-setup/1", "players": 2, "variant": "ghost", "humans": 5}',
        '{"format": "coloretto-setup/1", "delay": NaN, "level": "search", "games": 1e9}',
        '{"format": "coloretto-setup/1", "humans": 2, "names": ["Ann", "ann"]}',
        '{"format": "coloretto-setup/1", "names": ["' + "x" * 40 + '"]}',
        '{"format": "coloretto-setup/1", "names": ["\\u001b]0;pwned\\u0007Zoe"]}',
        "[" * 100_000,
        '{"format": "coloretto-setup/1", "pad": "' + "x" * 20_000 + '"}',
        "9" * 5000,
        "\udcff",
    ],
)
def test_a_damaged_setup_file_falls_back_to_the_defaults(text: str) -> None:
    data = DataDir.default()
    data.root.mkdir(parents=True, exist_ok=True)
    setup_path(data).write_bytes(text.encode("utf-8", "surrogateescape"))
    kept = Keeper(data).last_setup()
    config = GameConfig.build(Rules()) if kept is None else kept
    assert 2 <= config.rules.players <= 5
    assert all(p.bot in LEVELS for p in config.players if p.bot is not None)
    assert all(p.name.isprintable() and len(p.name) <= 16 for p in config.players)
    assert 0 <= config.delay <= 10


@asynctest
async def test_the_setup_screen_opens_on_a_damaged_setup_file() -> None:
    data = DataDir.default()
    data.root.mkdir(parents=True, exist_ok=True)
    setup_path(data).write_text('{"format": "coloretto-setup/1", "players": 3, "humans": 7}')
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.query_one("#players", Choice).value == 3  # what makes sense is kept
        assert screen.query_one("#humans", Choice).value == 1


def shown_lines(widget: Static) -> list[str]:
    """What ``widget`` shows on the screen, line by line (what does not fit is not there)."""
    return [
        "".join(segment.text for segment in widget.render_line(y)).rstrip()
        for y in range(widget.size.height)
    ]


@pytest.mark.parametrize("size", [SIZE, (200, 50)])
@asynctest
async def test_a_long_error_shows_whole(size: tuple[int, int], data_home: Path) -> None:
    saves = DataDir.default().saves
    saves.mkdir(parents=True)
    damaged = saves / "weird-and-with-a-rather-long-name-too.json"
    damaged.write_text('{"format": "coloretto-record/1", "rules": ')
    app = ColorettoApp()
    async with app.run_test(size=size) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        await pilot.press("ctrl+r")
        await pilot.pause()
        error = screen.query_one("#setup-error", Static)
        message = text_of(error)
        assert "cannot resume" in message
        assert str(damaged) in message.replace("\n", "")
        assert "".join("".join(shown_lines(error)).split()) == "".join(message.split())
        box = screen.query_one("#setup-box")
        assert box.region.bottom <= size[1] - 1  # above the footer, nothing cut off

        screen.query_one("#names", Input).value = "BenBenBenBenBenBenBenBen"
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = text_of(error)
        assert message.strip().endswith("is too long (at most 16 characters)")
        assert "".join("".join(shown_lines(error)).split()) == "".join(message.split())


@asynctest
async def test_t_in_a_text_field_types_and_opens_no_tutorial(data_home: Path) -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        setup = pilot.app.screen
        assert isinstance(setup, SetupScreen)
        names = setup.query_one("#names", Input)
        names.focus()
        await pilot.press("t", "o", "m", "comma", "space", "t", "a", "t", "e")
        assert names.value == "tom, tate"
        seed = setup.query_one("#seed", Input)
        seed.focus()
        await pilot.press("t", "7", "u")  # t is a symbol of a seed's code (u none), no key
        assert seed.value == "t7"
        await pilot.pause()
        assert pilot.app.screen is setup
        setup.query_one("#players", Choice).focus()
        await pilot.press("t")  # outside the text fields, t is the tutorial's key
        await pilot.pause()
        assert isinstance(pilot.app.screen, TutorialScreen)


@asynctest
async def test_the_screen_works_while_the_games_in_progress_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = save_game(["Ana", "Ben"], Rules(players=2))
    reading = threading.Event()
    read = SavedGame.read

    def slow_read(save: Path) -> SavedGame | None:
        assert threading.current_thread() is not threading.main_thread()
        reading.wait(10)
        return read(save)

    monkeypatch.setattr(SavedGame, "read", slow_read)
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, SetupScreen)
        described = screen.query_one("#setup-resume", Static)
        assert "reading it" in text_of(described)
        assert "Resume" in offered(screen)
        assert screen.resumable == path
        await pilot.press("tab")  # the form works meanwhile
        assert screen.query_one("#humans", Choice).has_focus
        reading.set()
        await games_read(pilot)
        assert text_of(described).startswith("Game in progress, saved")
