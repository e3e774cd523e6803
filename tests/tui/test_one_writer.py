"""One game, one writer: while ``coloretto play`` plays a game, a second ``coloretto play
--resume`` of it says who holds it and exits; once the first is gone (even by ``kill -9``)
the game resumes. Real processes in real terminals (tmux)."""

from __future__ import annotations

import os
import signal

from coloretto.play.keeper import Keeper
from coloretto.play.session import Session
from coloretto.store.paths import DataDir
from coloretto.store.saves import lock_path
from coloretto.tui.app import ColorettoApp
from coloretto.tui.screens import SetupScreen
from tests.tui.conftest import SIZE, asynctest, game_screen, make_config, render_text, settle
from tests.tui.test_kill_and_resume import (
    ARGS,
    Terminal,
    exited,
    pytestmark,
    terminal,
    the_save,
    wait,
)

__all__ = ["pytestmark", "terminal"]


def test_a_game_is_played_by_one_process_at_a_time(terminal: Terminal) -> None:
    first = terminal.start("first", *ARGS)
    terminal.wait_for(lambda s: "Your turn" in s, "the first game")
    lock = lock_path(DataDir(terminal.home), the_save(terminal.home).id)
    assert lock.read_text().startswith(f"{first} ")  # held from the start
    terminal.keys("d")
    wait(lambda: the_save(terminal.home).game.drawn_card is not None, "the drawn card saved")
    saved = the_save(terminal.home)

    # A second process, resuming the same game: refused, naming the first.
    second = terminal.start("second", "--resume")
    wait(lambda: exited(second), "the second process to give up")
    words = terminal.wait_for(lambda s: "exit status" in s, "the second's last words")
    assert "coloretto play: error: cannot resume: the game is being played" in " ".join(
        words.split()
    )
    assert f"process {first} on" in words.replace("\n", "")
    assert "exit status 2" in words
    assert the_save(terminal.home).game == saved.game

    # kill -9 the first: its lock goes with it, and the game resumes in a third process.
    os.kill(first, signal.SIGKILL)
    wait(lambda: exited(first), "the first process to die")
    third = terminal.start("third", "--resume")
    terminal.wait_for(lambda s: "Resumed after" in s, "the resumed game")
    wait(lambda: lock.exists() and lock.read_text().startswith(f"{third} "), "the third's lock")
    terminal.keys("q")
    terminal.wait_for(lambda s: "Quit the game?" in s, "the question")
    terminal.keys("y")
    wait(lambda: exited(third), "the third process to quit")
    assert not lock.exists()
    assert the_save(terminal.home).game == saved.game


def test_the_lock_file_is_no_save(terminal: Terminal) -> None:
    """A lock left by a killed game is neither listed nor resumed as a game."""
    first = terminal.start("first", *ARGS)
    terminal.wait_for(lambda s: "Your turn" in s, "the first game")
    os.kill(first, signal.SIGKILL)
    wait(lambda: exited(first), "the first process to die")
    assert list(DataDir(terminal.home).saves.glob("*.lock"))
    the_save(terminal.home)


@asynctest
async def test_the_setup_screen_does_not_resume_a_game_held_elsewhere() -> None:
    session = Session(make_config(3))
    other = Keeper()  # as if another process played it
    assert other.save(session) is None
    setup = ColorettoApp()
    async with setup.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+r")
        error = " ".join(render_text(setup.screen.query_one("#setup-error").render()).split())
        assert "cannot resume: the game is being played in another window" in error
        assert isinstance(setup.screen, SetupScreen)
    other.release()
    again = ColorettoApp()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert game_screen(pilot).view.id == session.id
