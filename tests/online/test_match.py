"""A match of two games at one online table, against a real server process: Ana hosts in
a pilot app here, Ben plays in a pilot app in a process of his own, a bot takes the third
seat. Between the games both see the scores and the match so far, Ben waits for Ana, and
Ana's ``n`` deals game 2. The server is killed with ``kill -9`` in game 2: its room file
holds the match, and the server started again goes on in game 2, where both clients
reconnect and finish the match. Each player's history has both games."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from textual.pilot import Pilot

from coloretto.engine import Rules
from coloretto.online.client.remote_table import GameStarted, RemoteTable
from coloretto.online.wire.protocol import Host, Watch
from coloretto.play.keeper import Keeper
from coloretto.play.table import MovePlayed
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineApp, OnlineEndScreen
from coloretto.tui.screens.online_game import OnlineGameScreen
from coloretto.tui.widgets.bars import TopBar
from tests.online.conftest import ROOT, ServerProcess, same_game, until
from tests.online.pilot_client import play_turns
from tests.tui.conftest import text_of


async def play_until_scores(app: OnlineApp, pilot: Pilot[None], rng: random.Random) -> None:
    """Ana plays her turns until the score screen of the game on the table."""
    async with asyncio.timeout(60):
        while not (isinstance(app.screen, OnlineEndScreen) and app.table.machine.finished):
            await play_turns(app, pilot, rng, draws=0.1)
            await pilot.pause(0.02)
    await pilot.pause()


def test_a_match_of_two_games_online_survives_a_server_restart(
    server: ServerProcess, tmp_path: Path
) -> None:
    homes = {name: tmp_path / name for name in ("ana", "ben")}
    opening = Host.of("Ana", Rules(players=3, games=2), "easy", 0, 60)
    table = RemoteTable(server.address, opening, Keeper(DataDir(homes["ana"])))
    app = OnlineApp(table, host=True)
    rng = random.Random(11)
    ben: subprocess.Popen[bytes] | None = None
    ben_log = tmp_path / "ben.log"
    first: tuple[int, ...] = ()

    async def test() -> None:
        nonlocal ben, first
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: table.room is not None)
            ben = subprocess.Popen(
                [sys.executable, "-m", "tests.online.pilot_client", server.address,
                 str(table.room), "Ben", "7"],
                env={**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(homes["ben"])},
                cwd=ROOT, stdout=ben_log.open("w"), stderr=subprocess.STDOUT,
            )  # fmt: skip
            await until(lambda: app.lobby.lobby is not None and bool(app.lobby.lobby.seats[1]))
            assert "a match of 2 games" in text_of(app.lobby.query_one("#lobby-title"))
            await pilot.press("s")
            await until(lambda: isinstance(app.screen, OnlineGameScreen) and table.started)
            assert "Game 1 of 2" in app.screen.query_one(TopBar).text

            # Game 1 over: the scores, the match so far, and the host's key for game 2.
            await play_until_scores(app, pilot, rng)
            end = app.screen
            assert isinstance(end, OnlineEndScreen)
            first = table.view.game.final_scores()
            headline = text_of(end.query_one("#headline")).splitlines()
            assert headline[0].startswith("Game 1 of 2: ")
            assert headline[-1] == "Press n to start game 2 of 2."
            standings = text_of(end.query_one("#standings"))
            assert "Total (after 1 of 2)" in standings
            assert end.check_action("choose", ("next",))
            await until(lambda: "waiting:" in ben_log.read_text(), 20)
            assert "waiting: Waiting for Ana to start game 2 of 2…" in ben_log.read_text()

            # Game 1's board hears nothing of game 2, not even its deal: its widgets go
            # while game 2's first moves come.
            (old_board,) = (s for s in app.screen_stack if isinstance(s, OnlineGameScreen))
            heard: list[object] = []
            old_board._show_event = heard.append  # type: ignore[method-assign]
            await pilot.press("n")
            await until(
                lambda: (
                    isinstance(app.screen, OnlineGameScreen) and table.view.match.game_number == 2
                )
            )
            assert "Game 2 of 2" in app.screen.query_one(TopBar).text
            assert not [e for e in heard if isinstance(e, GameStarted | MovePlayed)], heard
            assert table.view.match.results == (first,)

            # kill -9 in game 2: the room's file holds the match, and the server started
            # again goes on in game 2.
            async with asyncio.timeout(60):
                while len(table.view.game.history()) < 12:
                    await play_turns(app, pilot, rng, draws=0.1)
                    await pilot.pause(0.02)
            server.kill9()
            (saved,) = server.rooms()
            assert saved.session.match.game_number == 2
            assert saved.session.match.results == (first,)
            assert len(saved.session.game.history()) >= 12
            await until(lambda: not table.connected)
            server.start()
            watcher = RemoteTable(server.address, Watch(table.room),
                                  Keeper(DataDir(tmp_path / "watcher")))  # fmt: skip
            watching = asyncio.create_task(watcher.run())
            await until(lambda: watcher.started)
            assert watcher.view.match.game_number == 2
            assert watcher.view.match.results == (first,)
            assert watcher.view.game.history()[:12] == saved.session.game.history()[:12]
            watcher.suspend()
            await watching
            await until(lambda: table.connected)

            await play_until_scores(app, pilot, rng)
            end = app.screen
            assert isinstance(end, OnlineEndScreen)
            assert table.machine.match_over
            headline = text_of(end.query_one("#headline")).splitlines()
            assert headline[0].startswith("Game 2 of 2: ")
            assert any("the match with" in line for line in headline), headline
            assert not end.check_action("choose", ("next",))
            await pilot.press("q")

    try:
        asyncio.run(asyncio.wait_for(test(), 150))
        assert ben is not None
        ben.wait(60)
        log = ben_log.read_text()
        assert "finished" in log, log
    finally:
        if ben is not None and ben.poll() is None:
            ben.kill()
            ben.wait()
        if ben_log.exists():
            print(f"Ben's client said:\n{ben_log.read_text()}")  # shown if the test fails
    on_server = server.finished_game()
    for home in homes.values():
        one, two = sorted((home / "history").glob("*.json"))  # game 1, game 2 of the match
        assert same_game(json.loads(two.read_text()), on_server), home
        kept = json.loads(one.read_text())
        assert kept["result"]["scores"] == list(first)
        assert kept["setup"]["seed"] is None  # told before the match was over
        assert kept["meta"]["session"]["id"] == on_server["meta"]["session"]["id"]
