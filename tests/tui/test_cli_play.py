"""``coloretto play``'s options, its help, and its one-line errors (exit status 2)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest
from textual.css.stylesheet import Stylesheet

from coloretto.cli import play_command
from coloretto.cli.main import build_parser, main
from coloretto.engine import Rules
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.screens import GameScreen
from tests.conftest import ROOT

from .conftest import SIZE, asynctest, make_app


def config_of(*argv: str) -> GameConfig:
    parser = build_parser()
    args = parser.parse_args(["play", *argv])
    return play_command.config_from_args(args, args.parser)


def test_players_4_is_you_and_three_bots_at_the_default_level() -> None:
    config = config_of("--players", "4")
    assert config.rules == Rules(players=4)
    assert [(p.name, p.bot) for p in config.players] == [
        ("You", None),
        ("Bot 1", "normal"),
        ("Bot 2", "normal"),
        ("Bot 3", "normal"),
    ]
    assert config.seed is None
    assert config.delay == 0.6


def test_every_option() -> None:
    config = config_of(
        "--players", "3", "--humans", "2", "--bot", "hard", "--scoring", "gray",
        "--edition", "anniversary", "--games", "3", "--seed", "7", "--delay", "0",
    )  # fmt: skip
    assert config.rules == Rules(players=3, scoring="gray", edition="anniversary", games=3)
    assert [(p.name, p.bot) for p in config.players] == [
        ("Player 1", None),
        ("Player 2", None),
        ("Bot 1", "hard"),
    ]
    assert (config.seed, config.delay) == (7, 0)


def test_named_seats_set_the_players() -> None:
    config = config_of("--seat", "Ana", "--seat", "Ben", "--seat", "bot:expert", "--seat", "bot")
    assert config.rules.players == 4
    assert [(p.name, p.bot) for p in config.players] == [
        ("Ana", None),
        ("Ben", None),
        ("Bot 1", "expert"),
        ("Bot 2", "normal"),
    ]


def test_the_two_player_variants_default_to_two_players() -> None:
    assert config_of("--variant", "ghost").rules == Rules(players=2, variant="ghost")
    assert config_of("--variant", "four-rows", "--bot", "greedy").rules.players == 2
    assert config_of("--bot", "search:iterations=200").players[1].bot == "search:iterations=200"
    assert config_of("--humans", "0").humans == 0


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--players", "6"], "--players"),
        (["--players", "four"], "--players"),
        (["--humans", "5", "--players", "4"], "--humans 5"),
        (["--humans", "-1"], "--humans"),
        (["--humans", "1", "--seat", "Ana"], "either --humans or --seat"),
        (["--seat", "Ana", "--seat", "Ben", "--players", "3"], "but 2 --seat options were given"),
        (["--seat", "Ana"], "--seat was given once, but a game has 2 to 5 players: give --seat"),
        (["--seat", "bot"] * 6, "--seat was given 6 times, but a game has 2 to 5 players"),
        (["--seat", "Ana", "--bot", "nosuch"], "--seat was given once"),
        (["--seat", "Ana", "--seat", "ana"], "two players are named"),
        (["--seat", "Ana", "--seat", "A" * 30], "too long"),
        (["--bot", "nonsense"], "unknown bot 'nonsense'; choose a level (beginner, easy,"),
        (["--seat", "Ana", "--seat", "bot:nonsense"], "unknown bot"),
        (["--bot", "search:frobs=3"], "--bot"),
        (["--delay", "-1"], "--delay"),
        (["--delay", "soon"], "--delay"),
        (["--games", "0"], "--games"),
        (["--seed", "-3"], "--seed"),
        (["--variant", "ghost", "--players", "4"], "ghost variant is for 2 players"),
        (["--scoring", "purple"], "purple"),
        (["--frobnicate"], "--frobnicate"),
    ],
    ids=" ".join,
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", *argv])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "error" in lines[0]
    assert needle in lines[0]


def test_help_explains_everything(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--help"])
    assert exit_info.value.code in (0, None)
    out, _ = capsys.readouterr()
    for needle in (
        "--players", "--humans", "--seat", "--bot", "--scoring", "--edition", "--variant",
        "--games", "--seed", "--delay", "draw the top card", "take that row", "hint",
        "beginner, easy, normal, hard", "B blue, N brown, A gray",
    ):  # fmt: skip
        assert needle in out, needle


def test_play_runs_the_app_with_the_chosen_game(
    monkeypatch: pytest.MonkeyPatch, terminal: None
) -> None:
    started: list[ColorettoApp] = []

    def run(app: ColorettoApp) -> None:
        started.append(app)

    monkeypatch.setattr(ColorettoApp, "run", run)
    assert main(["play", "--players", "3", "--seed", "5", "--bot", "easy"]) == 0
    (app,) = started
    assert app.config is not None
    assert app.config.rules == Rules(players=3)
    assert app.config.seed == 5
    assert not app.show_setup


def test_plain_coloretto_opens_the_setup_screen_in_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[ColorettoApp] = []

    def run(app: ColorettoApp) -> None:
        started.append(app)

    monkeypatch.setattr(ColorettoApp, "run", run)
    # Not a terminal (as here, under pytest): the usage text instead.
    assert main([]) == 0
    assert "usage: coloretto" in capsys.readouterr().out
    assert not started
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main([]) == 0
    (app,) = started
    assert app.show_setup
    assert app.config is None


def test_a_game_starts_without_importing_what_its_first_screen_does_not_need() -> None:
    # The package metadata (email, zipfile...) and the review's worker processes cost tens
    # of milliseconds of the first screen's half second (docs/tui-speed.md).
    code = (
        "import sys\n"
        "from coloretto.cli.main import build_parser\n"
        "build_parser(['play']).parse_args(['play', '--players', '4'])\n"
        "import coloretto.tui.app\n"
        "late = ('importlib.metadata', 'multiprocessing', 'coloretto.play.review')\n"
        "print(' '.join(name for name in late if name in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.split() == []


def test_the_app_starts_with_the_garbage_collector_off_and_turns_it_on(
    monkeypatch: pytest.MonkeyPatch, terminal: None
) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(ColorettoApp, "run", lambda app: seen.append(gc.isenabled()))
    assert main(["play", "--players", "3", "--seed", "5"]) == 0
    assert seen == [False]  # while it started
    assert gc.isenabled()  # once it ended, at the latest


@asynctest
async def test_once_the_first_screen_is_up_the_collector_is_on_and_skips_the_start() -> None:
    gc.disable()  # as play_command.starting_up leaves it
    try:
        app = make_app(3)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert gc.isenabled()
            assert gc.get_freeze_count() > 10_000
    finally:
        gc.enable()
        gc.unfreeze()


@asynctest
async def test_the_game_screen_shows_without_parsing_the_styles_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A screen's own style sheet, read when it first shows, has Textual parse every style
    # sheet again and restyle every widget: the game's is read with the app's.
    parsed: list[str] = []  # who had the style sheets parsed again (not a theme's change)
    reparse = Stylesheet.reparse

    def counted(sheet: Stylesheet) -> None:
        parsed.append(sys._getframe(1).f_code.co_name)
        reparse(sheet)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = make_app(4)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert "_load_screen_css" not in parsed
