"""The README's picture of the board (docs/board.png): a real game, played by keys with the
pilot against three normal-level bots, caught mid-round and drawn as a PNG.

Run: ``python -m tests.tui.board_png [OUT]`` (needs ``rsvg-convert``, Debian's
``librsvg2-bin``; OUT defaults to docs/board.png). Look at the picture before committing it:
the bots think against the clock, so another run may catch another position.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from coloretto.engine import ActionKind, GameState
from coloretto.tui.screens import EndScreen
from tests.tui.conftest import game_screen, key_for, make_app, settle
from tests.tui.snapshot_png import preserve_spaces

ROOT = Path(__file__).resolve().parents[2]
SIZE = (100, 30)
SEED = 3
CARDS_ON_THE_TABLE = 6
"""Stop at our turn once this many cards are on the rows (a round well under way)."""


def next_key(game: GameState) -> str:
    """Draw and place on the shortest row until the rows fill up, then play as the tests'
    simple player does."""
    legal = game.legal_actions()
    if game.drawn_card is not None:
        row = min((a.row for a in legal if a.row is not None), key=lambda r: len(game.rows[r]))
        return str(row + 1)
    on_table = sum(len(row) for row in game.rows)
    if any(a.kind is ActionKind.DRAW for a in legal) and on_table <= CARDS_ON_THE_TABLE:
        return "d"
    return key_for(game)


async def board_svg() -> str:
    """The board as an SVG screenshot, mid-round, at our turn."""
    app = make_app(4, seed=SEED, bot="normal", names=["You"])
    async with app.run_test(size=SIZE) as pilot:
        for pressed in range(400):
            await settle(pilot)
            if isinstance(app.screen, EndScreen):
                raise RuntimeError("the game ended before a picture was taken")
            game = game_screen(pilot).view.game
            cards = sum(len(row) for row in game.rows)
            if pressed >= 12 and game.drawn_card is None and cards >= CARDS_ON_THE_TABLE:
                break
            await pilot.press(next_key(game))
        await pilot.pause(0.3)
        return app.export_screenshot(title="Coloretto")


def main() -> int:
    """Write the picture; print where it is."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "board.png"
    with tempfile.TemporaryDirectory() as home:
        os.environ["COLORETTO_HOME"] = home  # the game's saves, not the user's
        svg = Path(home) / "board.svg"
        svg.write_text(preserve_spaces(asyncio.run(board_svg())), encoding="utf-8")
        subprocess.run(["rsvg-convert", str(svg), "-o", str(out)], check=True)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
