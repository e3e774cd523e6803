"""A player in a process of their own: ``coloretto join`` driven by Textual's pilot.

``python -m tests.online.pilot_client HOST:PORT CODE NAME SEED`` joins room ``CODE`` (its
data directory is ``$COLORETTO_HOME``), plays its turns with the game's keys until the game
is over (every game of a match: between two games it prints the score screen's words
about the next one, ``waiting: …``) and prints ``finished``.
"""

from __future__ import annotations

import asyncio
import random
import sys

from textual.pilot import Pilot

from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.protocol import Join
from coloretto.tui.online_app import OnlineApp, OnlineEndScreen
from coloretto.tui.screens import GameScreen
from tests.online.conftest import choose, key_of


async def play_turns(
    app: OnlineApp, pilot: Pilot[None], rng: random.Random, draws: float = 0.7
) -> None:
    """Press a key for this player's move whenever it is their turn (drawing with chance
    ``draws``, else taking a row)."""
    table = app.table
    if not isinstance(app.screen, GameScreen) or table.machine.finished:
        return
    game = table.view.game
    if not game.is_over and table.plays_here(game.current_player):
        await pilot.press(key_of(choose(table.legal_actions(), rng, draws)))


async def main(server: str, code: str, name: str, seed: int) -> None:
    table = RemoteTable(server, Join(code, name))
    app = OnlineApp(table, host=False)
    rng = random.Random(seed)
    told: set[str] = set()
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(150):
            while not (isinstance(app.screen, OnlineEndScreen) and table.machine.match_over):
                if app.refusal is not None:
                    raise SystemExit(app.refusal)
                screen = app.screen
                if isinstance(screen, OnlineEndScreen) and screen.view.has_next_game:
                    # The screen may not be composed yet: its headline then comes later.
                    headlines = screen.query("#headline")
                    said = str(headlines.first().render()) if headlines else ""
                    for line in said.splitlines():
                        if line.startswith("Waiting") and line not in told:
                            told.add(line)
                            print(f"waiting: {line}", flush=True)
                await play_turns(app, pilot, rng, draws=0.1)  # few moves: each one is slow here
                await pilot.pause(0.02)
        print("finished", flush=True)
        await pilot.press("q")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
