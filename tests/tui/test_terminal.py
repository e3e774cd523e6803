"""The real thing: ``coloretto`` in a real terminal (tmux), driven by keys, read off the screen."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed; the real-terminal check needs it"
)


class Terminal:
    """A detached 80x24 tmux session on a private server (its socket in a temporary
    directory), so that the user's own tmux is never touched."""

    def __init__(self, socket: Path) -> None:
        assert TMUX is not None
        self.tmux = TMUX
        self.socket = str(socket)

    def _run(self, *args: str) -> str:
        done = subprocess.run(
            [self.tmux, "-S", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            timeout=15,
            check=True,
        )
        return done.stdout

    def start(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        """Run ``python -m coloretto ARGV`` and keep the pane open to show its exit status."""
        command = shlex.join([sys.executable, "-m", "coloretto", *argv])
        settings = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
        shell = f"env {settings} {command}; echo exit status $?; sleep 60"
        self._run("new-session", "-d", "-x", "80", "-y", "24", "-s", "game", shell)

    def screen(self) -> str:
        """The text on screen now."""
        return self._run("capture-pane", "-p", "-t", "game")

    def wait_for(self, *needles: str, timeout: float = 20.0) -> str:
        """Wait until every needle is on screen; returns the screen."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if all(needle in text for needle in needles):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{needles} not on screen after {timeout} s:\n{text}")
            time.sleep(0.05)

    def wait_until_gone(self, needle: str, timeout: float = 20.0) -> str:
        """Wait until ``needle`` has left the screen; returns the screen."""
        deadline = time.monotonic() + timeout
        while needle in (text := self.screen()):
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} still on screen after {timeout} s:\n{text}")
            time.sleep(0.05)
        return text

    def wait_for_focus(self, label: str, timeout: float = 20.0) -> None:
        """Wait until the setup screen marks ``label`` as the field with the focus (its
        label in reverse video)."""
        marked = re.compile(r"\x1b\[[0-9;]*;7m(?:\x1b\[[0-9;]*m)*" + re.escape(label))
        deadline = time.monotonic() + timeout
        while not marked.search(styled := self._run("capture-pane", "-p", "-e", "-t", "game")):
            if time.monotonic() > deadline:
                raise AssertionError(f"{label!r} never had the focus:\n{styled!r}")
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names, e.g. ``Escape``, ``C-s``)."""
        self._run("send-keys", "-t", "game", *keys)

    def close(self) -> None:
        """Stop this test's tmux server (only ours)."""
        subprocess.run(
            [self.tmux, "-S", self.socket, "kill-server"], capture_output=True, check=False
        )


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path / "tmux.sock")
    try:
        yield term
    finally:
        term.close()


def test_a_game_in_a_real_terminal(terminal: Terminal) -> None:
    terminal.start(["play", "--players", "4", "--seed", "1", "--bot", "greedy", "--delay", "0"])
    screen = terminal.wait_for("Table", "Players", "Your turn", "Deck")
    assert len(screen.splitlines()) <= 24
    assert all(len(line) <= 80 for line in screen.splitlines())
    for name in ("You", "Bot 1", "Bot 2", "Bot 3"):
        assert name in screen
    terminal.keys("x")
    terminal.wait_for("x does nothing here")
    terminal.keys("d")
    screen = terminal.wait_for("card on a row (")
    terminal.keys("1")
    terminal.wait_until_gone("card on a row (")  # placed; the bots play until our turn
    terminal.wait_for("Your turn")
    terminal.keys("m")  # every move so far
    terminal.wait_for("All moves", "You drew", "You put")
    terminal.keys("Escape")
    terminal.wait_until_gone("All moves")
    terminal.keys("?")
    terminal.wait_for("draw the top card of the deck", "N = browN, A = grAy")
    terminal.keys("Escape")
    terminal.wait_until_gone("draw the top card of the deck")
    terminal.keys("q")
    terminal.wait_for("Quit the game?")
    terminal.keys("y")
    terminal.wait_for("exit status 0")


def test_no_color_in_a_real_terminal(terminal: Terminal) -> None:
    terminal.start(
        ["play", "--players", "3", "--seed", "2", "--bot", "greedy", "--delay", "0"],
        env={"NO_COLOR": "1"},
    )
    screen = terminal.wait_for("Your turn", "B=blue")
    assert "[ ]" in screen or "taken by" in screen
    terminal.keys("d")
    screen = terminal.wait_for("Drawn", "┃[")
    terminal.keys("q")
    terminal.wait_for("Quit the game?")
    terminal.keys("y")
    terminal.wait_for("exit status 0")


def test_plain_coloretto_opens_the_setup_screen(terminal: Terminal) -> None:
    terminal.start([])
    terminal.wait_for("a new game", "Players", "Bots", "Scoring", "Start")
    terminal.keys("C-s")
    terminal.wait_for("Table", "Players", "Deck")
    terminal.keys("q")
    terminal.wait_for("Quit the game?")
    terminal.keys("y")
    terminal.wait_for("exit status 0")


def test_bad_arguments_in_a_real_terminal(terminal: Terminal) -> None:
    terminal.start(["play", "--players", "7"])
    screen = terminal.wait_for("exit status 2")
    assert screen.startswith("coloretto play: error: ")
    assert "--players must be 2 to 5, not 7" in screen
    assert "Traceback" not in screen


def test_keys_typed_in_one_burst_edit_a_name_in_order(terminal: Terminal) -> None:
    # tmux writes one send-keys call to the terminal at once: the app reads these keys
    # together, as it does those of a fast typist or a key macro.
    terminal.start([])
    terminal.wait_for_focus("Players")
    terminal.keys("Tab", "Tab")  # People, then the names
    terminal.wait_for_focus("Names")
    terminal.keys("Christopher")
    terminal.wait_for("Christopher")
    terminal.keys(*["BSpace"] * 5, "ine", "Left", "Left", "Left", "-")
    terminal.wait_for("Names     Christ-ine ")
    terminal.keys("Escape")
    terminal.wait_for("exit status 0")
