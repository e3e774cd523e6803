"""A match whose host leaves between two games does not hang: against a real server
process, Hana hosts a match of 2 games (a bare table playing by itself), Jo plays in a
pilot app, a bot takes the third seat. Jo's lobby names Hana; after game 1 Jo reads whom
the match waits for, and what leaving would mean now; Hana quits from her score screen
(told truthfully what happens); Jo learns that she has left and when game 2 starts, and
the server deals it after ``away_after`` seconds, a bot playing Hana's turns (the move
log says so); Hana back is told how many of her moves the bot played."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.protocol import Host, Join
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineApp, OnlineEndScreen
from coloretto.tui.screens.online_game import OnlineGameScreen
from coloretto.tui.widgets import MoveLog, Notice
from tests.online.conftest import AutoPlayer, ServerProcess, until
from tests.online.pilot_client import play_turns
from tests.tui.conftest import text_of

AWAY = 2
"""Seconds the host may be away between games before the server deals the next one."""


def test_the_server_deals_the_next_game_when_the_host_has_left(
    server: ServerProcess, tmp_path: Path
) -> None:
    asyncio.run(asyncio.wait_for(host_leaves(server, tmp_path), 60))


async def host_leaves(server: ServerProcess, tmp_path: Path) -> None:
    opening = Host.of("Hana", Rules(players=3, games=2), "easy", 0, AWAY)
    hana = RemoteTable(server.address, opening, Keeper(DataDir(tmp_path / "hana")))
    AutoPlayer(hana, seed=5, draws=0.1)
    hanas = asyncio.create_task(hana.run())
    await until(lambda: hana.room is not None)
    jo = RemoteTable(server.address, Join(hana.room, "Jo"),
                     Keeper(DataDir(tmp_path / "jo")))  # fmt: skip
    app = OnlineApp(jo, host=False)
    rng = random.Random(3)
    async with app.run_test(size=(120, 40)) as pilot:
        # The lobby names the host, in the words said between a match's games.
        await until(lambda: "Hana" in text_of(app.lobby.query_one("#lobby-how")), 10)
        assert "Waiting for Hana to start game 1 of 2…" in text_of(
            app.lobby.query_one("#lobby-how")
        )
        hana.start()

        async with asyncio.timeout(40):
            while not (
                isinstance(app.screen, OnlineEndScreen)
                and jo.machine.finished
                and hana.machine.finished
            ):
                await play_turns(app, pilot, rng, draws=0.1)
                await pilot.pause(0.02)
        end = app.screen
        assert isinstance(end, OnlineEndScreen)
        await pilot.pause()
        headline = text_of(end.query_one("#headline")).splitlines()
        assert headline[-1] == "Waiting for Hana to start game 2 of 2…"
        # Leaving now: no game runs, the match goes on when Hana deals the next one.
        assert jo.machine.without_you() == (
            f"The match goes on when Hana starts game 2 of 2; a bot plays for you when it "
            f"is your turn and you have been away {AWAY} s"
        )
        assert "The game goes on" not in app.quit_question()

        # Hana quits from her score screen: told what happens without her.
        said = hana.suspend()
        await hanas
        assert said is not None
        assert said.startswith(
            f"If you are not back within {AWAY} s, the server starts game 2 of 2 for the "
            f"others at the table, and a bot plays for you until you are back: coloretto join "
            f"{hana.room} --server {server.address} --name Hana takes your seat back."
        ), said

        # Jo hears it, sees the countdown, then game 2 comes without Hana.
        news = f"Hana has left: game 2 of 2 starts in {AWAY} s (a bot plays for Hana until"
        await until(lambda: news in str(end.query_one(Notice).render()), 5)
        assert "Hana has left: game 2 of 2 starts in " in text_of(end.query_one("#headline"))
        assert jo.machine.next_at is not None
        await until(lambda: isinstance(app.screen, OnlineGameScreen), AWAY + 5)
        assert jo.view.match.game_number == 2
        assert jo.machine.away == {0}
        assert jo.machine.next_at is None
        game = jo.view
        async with asyncio.timeout(15):  # a bot plays Hana's turns in game 2
            while not any(move.player == 0 for move in game.game.history()):
                await play_turns(app, pilot, rng, draws=0.1)
                await pilot.pause(0.02)

        # The move log (and so the list of all moves, m) says a bot played for Hana.
        def logged() -> list[str]:  # the screen on show (a new game's may still be mounting)
            screen = app.screen
            assert isinstance(screen, OnlineGameScreen)
            logs = screen.query(MoveLog)
            return [line.plain for line in logs.first().entries] if logs else []

        await until(lambda: any(" Hana (a bot, Hana away) " in line for line in logged()), 5)
        assert not any(" Jo (a bot" in line for line in logged()), logged()

    # Hana comes back (a new process would: her token is in her data directory) and is
    # told how many of her moves the bot played.
    back = RemoteTable(server.address, Join(hana.room, "Hana"),
                       Keeper(DataDir(tmp_path / "hana")))  # fmt: skip
    backs = asyncio.create_task(back.run())
    await until(lambda: back.started, 10)
    moves = len(back.view.game.history())
    mine = sum(1 for ply in back.view.covered if back.view.game.history()[ply].player == 0)
    assert mine > 0
    of_them = "one of them" if mine == 1 else f"{mine} of them"
    assert back.machine.back_words(moves) == (
        f"You are back after {moves} moves; a bot played {of_them} for you while away."
    )
    back.suspend()
    await backs
