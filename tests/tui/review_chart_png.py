"""The picture of the review's chart (docs/review-chart.png): a real four-player game (the
greedy bot in the person's seat, against expert bots), reviewed by the coach, its review
screen with the first mistake or blunder selected, drawn as a PNG.

Run: ``python -m tests.tui.review_chart_png [OUT]`` (needs ``rsvg-convert``, Debian's
``librsvg2-bin``; OUT defaults to docs/review-chart.png; the review takes a minute or two
on two cores). Look at the picture before committing it.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from textual.widgets import Static

from coloretto.play.coach import REVIEW_BOT
from coloretto.play.keeper import Keeper
from coloretto.play.review import Review, Reviewing
from coloretto.play.saving import people
from coloretto.store.history import annotating
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.tui import ColorettoApp
from coloretto.tui.screens.review import ReviewScreen
from tests.test_review import finished
from tests.tui.conftest import text_of
from tests.tui.snapshot_png import preserve_spaces

ROOT = Path(__file__).resolve().parents[2]
SIZE = (100, 32)
SEED = 7


async def review_svg(home: Path, out: Path) -> None:
    """Review a game kept in ``home``'s history, and save its review screen as ``out``."""
    path = finished(home, 4, seed=SEED, me="greedy")
    record = read_record(path)
    data = DataDir(home)
    Reviewing(record, Review(REVIEW_BOT, 0), people(record), annotating(data, path)).run(jobs=2)
    app = ColorettoApp(keeper=Keeper(data))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.push_screen(ReviewScreen(read_record(path), path, data))
        body = app.screen.query_one("#review-body", Static)
        while "accuracy" not in text_of(body):
            await pilot.pause(0.05)
        await pilot.press("n")
        await pilot.pause(0.3)
        app.save_screenshot(out.name, str(out.parent))


def main() -> int:
    """Write the picture; print where it is."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "review-chart.png"
    with tempfile.TemporaryDirectory() as home:
        os.environ["COLORETTO_HOME"] = home  # the game's history, not the user's
        svg = Path(home) / "review-chart.svg"
        asyncio.run(review_svg(Path(home), svg))
        svg.write_text(preserve_spaces(svg.read_text(encoding="utf-8")), encoding="utf-8")
        subprocess.run(["rsvg-convert", str(svg), "-o", str(out)], check=True)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
