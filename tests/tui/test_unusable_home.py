"""A data directory the game cannot write to: ``coloretto play`` says why and exits before
the screen is taken (never a blank screen for ever), and a directory that breaks during
the game never stops SIGTERM or SIGHUP. Real processes in a real terminal (tmux)."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from coloretto.store.incidents import incident_log
from coloretto.store.paths import DataDir
from tests.tui.test_kill_and_resume import ARGS, COLORETTO, Terminal, exited, pytestmark, wait

__all__ = ["pytestmark"]

STARTED = "Your turn"
"""On screen once the game has started."""


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path, tmp_path / "home")
    try:
        yield term
    finally:
        term.close()


def last_words(terminal: Terminal, pid: int) -> str:
    """What the process said before it exited, its lines wrapped at 80 columns joined."""
    wait(lambda: exited(pid), "the game to exit", 15)
    screen = terminal.wait_for(lambda s: "exit status" in s, "the exit status", 10)
    return "".join(screen.splitlines())


def file_home(terminal: Terminal) -> None:
    terminal.home.write_text("not a directory\n")


def under_a_file(terminal: Terminal) -> None:
    terminal.home.parent.joinpath("file").write_text("not a directory\n")
    terminal.home = terminal.home.parent / "file" / "home"


def read_only(terminal: Terminal) -> None:
    terminal.home.mkdir()
    terminal.home.chmod(0o500)


@pytest.mark.parametrize(
    "make",
    [
        file_home,
        under_a_file,
        pytest.param(
            read_only,
            marks=pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere"),
        ),
    ],
)
@pytest.mark.parametrize("argv", [ARGS, ["--setup"]])
def test_an_unusable_data_directory_is_said_at_once(
    terminal: Terminal, make: object, argv: list[str]
) -> None:
    make(terminal)  # type: ignore[operator]
    pid = terminal.start("game", *argv)
    words = last_words(terminal, pid)
    assert "coloretto play: error: cannot keep the game in" in words
    assert "COLORETTO_HOME" in words
    assert "exit status 2" in words
    assert "Traceback" not in words


def can_mount() -> bool:
    """True when a private mount namespace can be made (as root, usually)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return False
    done = subprocess.run(
        [unshare, "-m", "sh", "-c", "mount -t tmpfs -o ro tmpfs /mnt"],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


@pytest.mark.skipif(not can_mount(), reason="needs unshare -m and mount (root)")
def test_a_read_only_file_system_is_said_at_once(terminal: Terminal) -> None:
    """The data directory on a read-only file system (mounted in a private namespace, so
    nothing outside the test sees it)."""
    home = terminal.home
    home.mkdir()
    pid_file = terminal.folder / "game.pid"
    game = shlex.join(["exec", "env", f"COLORETTO_HOME={home}", str(COLORETTO), "play", *ARGS])
    inner = f"mount -t tmpfs -o ro tmpfs {shlex.quote(str(home))} && echo $$ >{pid_file} && {game}"
    command = f"unshare -m sh -c {shlex.quote(inner)}; echo exit status $?; sleep 120"
    terminal.session = "game"
    terminal.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "game", command)
    wait(lambda: pid_file.exists() and pid_file.read_text().strip(), "the game's pid")
    words = last_words(terminal, int(pid_file.read_text()))
    assert "coloretto play: error: cannot keep the game in" in words
    assert "Read-only file system" in words
    assert "exit status 2" in words


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_signals_still_end_a_game_whose_directory_broke(terminal: Terminal, number: int) -> None:
    pid = terminal.start("game", *ARGS)
    terminal.wait_for(lambda s: STARTED in s, "the game")
    shutil.rmtree(terminal.home)
    terminal.home.write_text("the directory is gone\n")
    os.kill(pid, number)
    if number == signal.SIGTERM:
        words = last_words(terminal, pid)
        assert "Traceback" not in words
        assert "Sorry, could not save the game" in words
    else:
        wait(lambda: exited(pid), "the game to exit on SIGHUP", 15)


def test_logging_never_raises(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for home in (file, loop, file / "below"):
        log = incident_log(DataDir(home).log)
        log.error("lost, and no error")
        log.info("nor here")
