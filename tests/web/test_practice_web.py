"""Practice from your mistakes in a real browser: a ``coloretto web`` visitor plays a game
to its end in headless chromium (keys sent blindly: each either plays a legal move or is
refused), opens the coach's review on the score screen (``v``), waits until it has found a
mistake, opens practice (``t``) and solves the first puzzle with the move the review's
analysis (kept in the visitor's own history as it goes) finds best."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from coloretto.engine import ActionKind
from coloretto.play.practice import Puzzle, puzzles
from coloretto.store.paths import DataDir
from coloretto.store.practice import read_results
from coloretto.store.records import read_record
from tests.web.page import Screen, web_server
from tests.web.test_browser import visitor_homes

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

MOVE = ("d", "1", "2", "3", "4", "5", "Enter")
"""Draw, place or take on the first row that can be, and Enter (the scores, once the game
is over: last, so that no key of the batch reaches the score screen)."""

GAMES = 3
"""Games played at most until one has a decision to practise: the keys are sent blindly,
and a game so played now and then has none (24 best, 6 good in one CI run)."""

NO_FLAW = "No inaccuracy, mistake or blunder"
"""What the review says when a game has nothing to practise."""

BUDGET = 150.0
"""Seconds the whole test may take, from the server's start to the puzzle solved: on the
2-core machine shared by other work one game took 16 s at load average 5.5 (the game 12
s, the review's first mistake 3 s later, the puzzle 1 s) and 33 s at load 4.0; every wait
is bounded by what is left of this (room for a second game, and about three times the
slowest seen) instead of minutes each (the review's first mistake used to be given 600
s, the game 300 s)."""


class Budget:
    """What is left of ``BUDGET``, for each wait of the test."""

    def __init__(self, seconds: float = BUDGET) -> None:
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left (at least a tenth: the wait then says what it waited for)."""
        return max(0.1, self.deadline - time.monotonic())


def the_puzzle(home: Path, ply: int, timeout: float) -> Puzzle:
    """The puzzle of the decision at ``ply`` of the game in the visitor's history, once the
    review kept there (every few seconds, as it goes) has analysed it."""
    deadline = time.monotonic() + timeout
    while True:
        for path in DataDir(home).history.glob("*.json"):
            found = [p for p in puzzles(read_record(path), path.name) if p.decision.ply == ply]
            if found:
                return found[0]
        assert time.monotonic() < deadline, f"no puzzle at ply {ply} in {home}"
        time.sleep(0.5)


def key_of(puzzle: Puzzle) -> str:
    """The key that plays the puzzle's best move."""
    best = puzzle.best
    return "d" if best.kind is ActionKind.DRAW else str((best.row or 0) + 1)


def test_practice_solves_a_puzzle_in_the_browser(browser: BrowserContext, tmp_path: Path) -> None:
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    budget = Budget()
    with web_server(home, temp, timeout=budget.left()) as url:
        page = browser.new_page()
        try:
            page.goto(url)
            screen = Screen(page)
            screen.wait_for("Start (ctrl+s)", timeout=budget.left())
            (visitor,) = visitor_homes(temp)
            screen.press("Control+s")
            for game in range(GAMES):
                screen.wait_for("Your turn", timeout=budget.left())
                screen.press("+", "+", "+")  # the bots at once
                while "points!" not in screen.text():
                    assert time.monotonic() < budget.deadline, screen.text()
                    screen.press(*MOVE)
                    time.sleep(0.3)
                screen.press("v")
                screen.wait_for("The coach's review", timeout=budget.left())
                reviewed = screen.wait_until(
                    lambda shown: "t Practice mistakes" in shown or NO_FLAW in shown,
                    "a mistake found, or none",
                    budget.left(),
                )
                if "t Practice mistakes" in reviewed:
                    break
                assert game < GAMES - 1, reviewed  # a game without a flaw every time
                screen.press("b")  # the scores again, and a rematch
                screen.wait_for("Rematch", timeout=budget.left())
                screen.press("r")
                screen.wait_for("Rematch (y)", timeout=budget.left())
                screen.press("y")
            screen.press("t")
            pattern = r"Puzzle 1 of \d+ · move (\d+), round"
            shown = screen.wait_for_pattern(pattern, timeout=budget.left())
            puzzle = the_puzzle(visitor, int(shown.group(1)) - 1, timeout=budget.left())
            screen.press(key_of(puzzle))
            after = screen.wait_for(
                "Solved at the first try!", "Best: ", "Why: ", timeout=budget.left()
            )
            results = read_results(DataDir(visitor)).results  # kept before it is shown
        finally:
            page.close()
    assert re.search(r"chance to win \d+(\.\d+)?%", after)
    assert "final margin" not in after
    assert [(r.ply, r.outcome, r.player) for r in results] == [
        (puzzle.decision.ply, "first", puzzle.player)
    ]
