"""``coloretto web``: the time from opening the page to a playable board, in a real browser.

Run: ``python benchmarks/web.py [--runs 5]`` (needs the ``test`` extra and Debian's chromium,
as the browser tests do).

One ``coloretto web`` server on 127.0.0.1; each run is a first visit: a new headless
chromium with a fresh profile (its start is not counted), then, timed by the wall clock:

- page loaded: from asking for the page to its load event (the page, its script, styles and
  font; the browser's own navigation timing);
- page to setup screen: from asking for the page to the setup screen on it (the page loaded,
  then the websocket, the visitor's own game process starting, its first frame);
- ctrl+s to board: from pressing ctrl+s on the setup screen to the table with its rows and
  whose turn it is;
- page to board: the two together, the time a visitor waits to play.

A benchmark, not a test: the figures depend on the machine and on how busy it is (the load
average is printed before and after).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.web.page

from tests.web.page import Screen, chromium, web_server

SETUP = ("Coloretto: a new game", "Start (ctrl+s)")
BOARD = ("Round 1", "Deck ", "▶ ", "h Hint")
"""On the screen once the board is playable: the top bar, the turn line, the keys (``h``
is always offered, at the start of a line when a bot moves first: the keys to move, and
the row keys with them, come only at the person's turn, after the bots' moves)."""


LOADED = "() => performance.getEntriesByType('navigation')[0].loadEventEnd"
"""Milliseconds from the start of the navigation to the end of the page's load event."""


def one_visit(url: str, profile: Path) -> tuple[float, float, float]:
    """Seconds from asking for the page to its load event and to the setup screen, and from
    ctrl+s to the board."""
    with chromium(profile) as browser:
        page = browser.new_page()
        screen = Screen(page)
        start = time.perf_counter()
        page.goto(url)
        screen.wait_for(*SETUP, timeout=60)
        setup = time.perf_counter()
        screen.press("Control+s")
        screen.wait_for(*BOARD, timeout=60)
        board = time.perf_counter()
        loaded = page.evaluate(LOADED) / 1000
        page.close()
    return loaded, setup - start, board - setup


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="first visits to time (default 5)")
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    print(f"load average before: {load()}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="coloretto-bench-web-") as temp:
        folder = Path(temp)
        (folder / "home").mkdir()
        (folder / "server").mkdir()
        with web_server(folder / "home", folder / "server") as url:
            for run in range(args.runs):
                loaded, to_setup, to_board = one_visit(url, folder / f"profile-{run}")
                rows.append((loaded, to_setup, to_board, to_setup + to_board))
                print(
                    f"run {run + 1}: page loaded {loaded * 1000:.0f} ms, "
                    f"page to setup screen {to_setup * 1000:.0f} ms, "
                    f"ctrl+s to board {to_board * 1000:.0f} ms, "
                    f"page to board {(to_setup + to_board) * 1000:.0f} ms"
                )
    print(f"load average after: {load()}")
    whats = ("page loaded", "page to setup screen", "ctrl+s to board", "page to board")
    for i, what in enumerate(whats):
        values = [row[i] * 1000 for row in rows]
        print(
            f"{what}: {statistics.median(values):.0f} ms median, "
            f"{min(values):.0f}-{max(values):.0f} ms over {len(values)} runs"
        )


if __name__ == "__main__":
    main()
