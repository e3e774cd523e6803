"""Nothing is lost: ``q``, Ctrl+C, SIGTERM, a closed terminal (SIGHUP) and ``kill -9`` all
leave a save from which ``coloretto play --resume`` goes on exactly where the game stood.

The real ``coloretto`` command runs in a real terminal (a private tmux server), is ended by
real keys and signals, and leaves real files in ``$COLORETTO_HOME``. What it saved is
checked against the same game played by the engine alone (same seed, same deterministic
bots), and the resumed game is read off the screen and played on.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from coloretto.engine import DRAW, Action, ActionKind, GameState, Rules
from coloretto.play.config import GameConfig
from coloretto.play.saving import read_session, session_record
from coloretto.play.session import Session
from coloretto.store.paths import DataDir
from coloretto.store.saves import save
from coloretto.tui.glyphs import GLYPHS

TMUX = shutil.which("tmux")
COLORETTO = Path(sys.executable).parent / "coloretto"
pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="the real-terminal test needs tmux"),
    pytest.mark.skipif(not COLORETTO.exists(), reason=f"no coloretto command at {COLORETTO}"),
]

ARGS = ["--players", "3", "--bot", "easy", "--seed", "4", "--delay", "0", "--games", "2"]
"""The game every test starts: you against two bots (deterministic per seed), a 2-game match."""

TIMEOUT = 30.0
"""Generous: the machine is shared; every wait polls and returns as soon as it can."""


def config() -> GameConfig:
    """The game ``coloretto play ARGS`` sets up."""
    return GameConfig.build(Rules(players=3, games=2), bot="easy", seed=4, delay=0)


# ---------------------------------------------------------------------- the engine alone


def bots_play(session: Session) -> None:
    """Let the bots move, as the app does, until a person is to move or the game ends."""
    while not session.game.is_over and session.is_bot(session.game.current_player):
        session.apply(session.bot_move().action)


def play(session: Session, action: Action) -> None:
    """The person's ``action``, then the bots' answers (none while a drawn card waits)."""
    session.apply(action)
    bots_play(session)


def key_of(action: Action) -> str:
    """The key that plays ``action``."""
    return "d" if action == DRAW else str((action.row or 0) + 1)


# ---------------------------------------------------------------------- the terminal


def exited(pid: int) -> bool:
    """True once ``pid`` is gone (or a zombie: it has exited, its parent has not reaped it)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status


def wait(condition: Callable[[], object], what: str, timeout: float = TIMEOUT) -> None:
    """Poll ``condition`` until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {timeout} s")
        time.sleep(0.05)


class Terminal:
    """80x24 tmux sessions on a private server (its socket in the test's directory), so
    that the user's own tmux is never touched."""

    def __init__(self, folder: Path, home: Path) -> None:
        assert TMUX is not None
        self.tmux = TMUX
        self.socket = str(folder / "tmux.sock")
        self.folder = folder
        self.home = home
        self.session = ""

    def run(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            [self.tmux, "-S", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            timeout=15,
            check=check,
        )
        return done.stdout

    def start(self, name: str, *argv: str) -> int:
        """Run ``coloretto play ARGV`` in a new session ``name``, the pane kept open after it
        to show its last words and exit status; returns the game's process id."""
        self.session = name
        pid_file = self.folder / f"{name}.pid"
        game = shlex.join(
            ["exec", "env", f"COLORETTO_HOME={self.home}", str(COLORETTO), "play", *argv]
        )
        inner = f"echo $$ >{shlex.quote(str(pid_file))}; {game}"
        command = f"sh -c {shlex.quote(inner)}; echo exit status $?; sleep 120"
        self.run("new-session", "-d", "-x", "80", "-y", "24", "-s", name, command)
        wait(lambda: pid_file.exists() and pid_file.read_text().strip(), "the game's pid")
        return int(pid_file.read_text())

    def screen(self) -> str:
        """The text on screen now."""
        return self.run("capture-pane", "-p", "-t", self.session)

    def wait_for(self, test: Callable[[str], bool], what: str, timeout: float = TIMEOUT) -> str:
        """Wait until the screen passes ``test``; returns the screen."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            if test(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not on screen after {timeout} s:\n{text}")
            time.sleep(0.05)

    def keys(self, *keys: str) -> None:
        """Type ``keys`` (tmux key names, e.g. ``C-c``)."""
        self.run("send-keys", "-t", self.session, *keys)

    def close(self) -> None:
        """Stop this test's tmux server (only ours)."""
        self.run("kill-server", check=False)


@pytest.fixture
def terminal(tmp_path: Path, data_home: Path) -> Iterator[Terminal]:
    term = Terminal(tmp_path, data_home)
    try:
        yield term
    finally:
        term.close()


# ---------------------------------------------------------------------- reading the screen


FRAME = "│╎┃━╌┏┓┗┛┌┐└┘░\N{BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT}"
"""The characters of frames, empty places, the deck and taken rows."""


def squeeze(line: str) -> str:
    """A line of a panel without frames, single-spaced."""
    return " ".join(line.translate({ord(c): " " for c in FRAME}).split())


def table_panel(screen: str) -> list[str]:
    """The lines of the table (the left panel, up to its bottom edge), squeezed."""
    lines = []
    top, *rest = [*screen.splitlines()[1:], ""]
    width = top.find("╮")
    for line in rest:
        if line.startswith("╰"):
            break
        lines.append(squeeze(line[:width]))
    return lines


def rows_panel(screen: str) -> list[str]:
    """Each row's line with its number: ``1 B O ·`` or ``1 taken by Ana``."""
    return [line for line in table_panel(screen) if line[:1].isdigit()]


def shows_position(game: GameState, names: tuple[str, ...]) -> Callable[[str], bool]:
    """A test for a screen showing ``game``'s rows and drawn card (and that it is ours)."""
    expected = []
    for r, (row, capacity) in enumerate(zip(game.rows, game.row_capacities, strict=True)):
        if game.rows_taken[r]:
            taker = next(m.player for m in reversed(game.history()) if m.action == Action.take(r))
            expected.append(f"{r + 1} taken by {names[taker]}")
        else:
            slots = [GLYPHS[card].letter for card in row] + ["·"] * (capacity - len(row))
            expected.append(f"{r + 1} {' '.join(slots)}")
    card = game.drawn_card
    drawn = "d draws" if card is None else GLYPHS[card].name

    def test(screen: str) -> bool:
        rows = rows_panel(screen)
        return (
            rows == expected
            and any(line.endswith(drawn) for line in table_panel(screen))
            and "Your turn" in screen
        )

    return test


def the_save(home: Path) -> Session:
    """The one save in the data directory."""
    saves = [p for p in DataDir(home).saves.glob("*.json") if not p.name.startswith(".")]
    assert len(saves) == 1, saves
    return read_session(saves[0])


# ---------------------------------------------------------------------- the ways to end it


def quit_key(terminal: Terminal, pid: int) -> None:
    terminal.keys("q")
    terminal.wait_for(lambda s: "Quit the game?" in s, "the question")
    terminal.keys("y")


def ctrl_c(terminal: Terminal, pid: int) -> None:
    terminal.keys("C-c")


def sigterm(terminal: Terminal, pid: int) -> None:
    os.kill(pid, signal.SIGTERM)


def closed_terminal(terminal: Terminal, pid: int) -> None:
    terminal.run("kill-session", "-t", terminal.session)  # the terminal hangs up: SIGHUP


def sigkill(terminal: Terminal, pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


ENDINGS: dict[str, Callable[[Terminal, int], None]] = {
    "q": quit_key,
    "ctrl-c": ctrl_c,
    "sigterm": sigterm,
    "sighup": closed_terminal,
    "sigkill": sigkill,
}
CLEAN = {"q", "ctrl-c", "sigterm"}
"""The endings the game sees coming: it says how to resume, and no traceback shows."""


# ---------------------------------------------------------------------- the test


def end_and_resume(terminal: Terminal, pid: int, ending: str, session: Session) -> None:
    """End the game in the terminal by ``ending``, check the save against ``session`` (the
    same game played by the engine), resume it, check the screen and play on."""
    home = terminal.home
    names = session.seat_names
    ENDINGS[ending](terminal, pid)
    wait(lambda: exited(pid), f"the game's process {pid} to exit after {ending}")
    if ending in CLEAN:
        last_words = terminal.wait_for(lambda s: "exit status" in s, "the exit status")
        assert "Traceback" not in last_words
        assert "Your game is saved: coloretto play --resume continues it." in last_words
        assert "exit status 0" in last_words
    if ending in {"sigterm", "sighup"}:
        signal_name = "SIGTERM" if ending == "sigterm" else "SIGHUP"
        log = DataDir(home).log
        wait(lambda: f"quitting on {signal_name}" in log.read_text(), "the log entry", 5)

    saved = the_save(home)
    game = saved.game
    assert game == session.game  # the same deal, after the same moves
    assert game.drawn_card is not None
    assert game.drawn_card == session.game.drawn_card  # the card is still in hand
    assert saved.match.results == session.match.results  # the same match totals
    assert saved.match.game_number == session.match.game_number
    assert saved.match.seed == session.seed
    assert saved.seat_names == names
    assert [(p.name, p.bot) for p in saved.config.players] == [
        (p.name, p.bot) for p in session.config.players
    ]
    assert (saved.id, saved.config.delay) == (session.id, 0)

    # Resume in a new terminal: the same table, the drawn card still in hand.
    resumed = terminal.start(f"resume-{ending}", "--resume")
    terminal.wait_for(shows_position(session.game, names), "the position as it was saved")
    screen = terminal.wait_for(lambda s: f"Resumed after {len(game.history())}" in s, "the log")
    assert f"Game {saved.match.game_number} of 2" in screen

    # Play on: the card goes on a row; the bots answer exactly as without the break.
    moves_before = len(game.history())
    place = next(a for a in session.game.legal_actions() if a.kind is ActionKind.PLACE)
    play(session, place)
    terminal.keys(key_of(place))

    def caught_up() -> bool:
        return the_save(home).game == session.game

    wait(caught_up, "the resumed game's save to reach the engine's position")
    after = the_save(home).game
    assert after.history()[moves_before].action == place
    assert len(after.history()) > moves_before
    assert the_save(home).match.results == session.match.results
    terminal.wait_for(shows_position(session.game, names), "the position after the move")

    terminal.keys("q")
    terminal.wait_for(lambda s: "Quit the game?" in s, "the question")
    terminal.keys("y")
    wait(lambda: exited(resumed), "the resumed game to exit")
    last_words = terminal.wait_for(lambda s: "exit status" in s, "the exit status")
    assert "Traceback" not in last_words
    assert "exit status 0" in last_words
    assert the_save(home).game == session.game


@pytest.mark.parametrize("ending", ENDINGS)
def test_a_game_ended_mid_turn_resumes_where_it_stood(terminal: Terminal, ending: str) -> None:
    session = Session(config())
    bots_play(session)
    pid = terminal.start("game", *ARGS)
    names = session.seat_names
    terminal.wait_for(shows_position(session.game, names), "the first position")

    # A few actions: draw and place, then draw again and leave the card in hand.
    for _ in range(2):
        terminal.keys("d")
        play(session, DRAW)
        terminal.wait_for(shows_position(session.game, names), "the drawn card")
        place = next(a for a in session.game.legal_actions() if a.kind is ActionKind.PLACE)
        terminal.keys(key_of(place))
        play(session, place)
        terminal.wait_for(shows_position(session.game, names), "the bots' answers")
    terminal.keys("d")
    play(session, DRAW)
    terminal.wait_for(shows_position(session.game, names), "the card drawn mid-turn")
    assert session.game.drawn_card is not None

    session.id = the_save(terminal.home).id  # the only thing the engine cannot know
    end_and_resume(terminal, pid, ending, session)


@pytest.mark.parametrize("ending", ["sigkill", "sighup"])
def test_the_match_totals_survive(terminal: Terminal, ending: str) -> None:
    """In the second game of a match, the first game's scores come back with the save."""
    session = Session(config())
    seat0 = replace(session.config.players[0], bot="easy")
    robot = Session(replace(session.config, players=(seat0, *session.config.players[1:])))
    while not robot.game.is_over:  # game 1, every seat played by a bot
        robot.apply(robot.bot_move().action)
    session.match = robot.match.next_game()
    bots_play(session)
    assert session.match.results
    assert session.match.game_number == 2
    save(DataDir(terminal.home), session.id, session_record(session))

    pid = terminal.start("game", "--resume")
    names = session.seat_names
    terminal.wait_for(shows_position(session.game, names), "game 2")
    terminal.keys("d")
    play(session, DRAW)
    terminal.wait_for(shows_position(session.game, names), "the card drawn mid-turn")
    end_and_resume(terminal, pid, ending, session)


def test_a_game_killed_during_the_bots_turn_goes_on_as_without_the_break(
    terminal: Terminal,
) -> None:
    """``kill -9`` while the bots play (slowly): resumed, they play on exactly as they would
    have without the break (their choices depend on the seed and the moves so far only)."""
    session = Session(replace(config(), delay=0.5))
    bots_play(session)
    slow = ["--players", "3", "--bot", "easy", "--seed", "4", "--delay", "0.5", "--games", "2"]
    pid = terminal.start("game", *slow)
    names = session.seat_names
    terminal.wait_for(shows_position(session.game, names), "the first position")
    terminal.keys("d")
    play(session, DRAW)
    terminal.wait_for(shows_position(session.game, names), "the drawn card")
    ours = len(session.game.history()) + 1
    place = next(a for a in session.game.legal_actions() if a.kind is ActionKind.PLACE)
    terminal.keys(key_of(place))
    play(session, place)  # the engine plays the bots' answers at once
    assert len(session.game.history()) > ours + 1

    home = terminal.home
    wait(lambda: len(the_save(home).game.history()) > ours, "a bot's first action")
    os.kill(pid, signal.SIGKILL)
    wait(lambda: exited(pid), "the killed game to exit")
    saved = the_save(home)
    assert ours < len(saved.game.history()) < len(session.game.history())
    assert saved.game.history() == session.game.history()[: len(saved.game.history())]
    assert saved.game.current_player != 0  # killed in the bots' turn

    resumed = terminal.start("resume", "--resume", "--delay", "0")
    session.id = saved.id
    wait(lambda: the_save(home).game == session.game, "the bots to play on as before")
    terminal.wait_for(shows_position(session.game, names), "our turn again")
    terminal.keys("q")
    terminal.wait_for(lambda s: "Quit the game?" in s, "the question")
    terminal.keys("y")
    wait(lambda: exited(resumed), "the resumed game to exit")
