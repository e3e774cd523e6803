"""Each online client has one seat: its turn reads "Your turn", its seat is marked "you",
another person's turn is waited for (not "thinking"), and leaving names the whole command
that takes the seat back. Against a real server process."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Static

from coloretto.engine import Match, Rules, new_game
from coloretto.online.client.remote_table import LobbyChanged, RemoteTable, RemoteView
from coloretto.online.wire.protocol import Host, Join
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineApp
from coloretto.tui.screens import ConfirmQuit
from coloretto.tui.screens.online_game import OnlineGameScreen, online_turn_prompt
from coloretto.tui.table import seat_status
from coloretto.tui.widgets import TurnBar
from tests.online.conftest import ServerProcess, key_of, until

NAME = "[b]Ana"
"""The host's name: brackets, which Textual's markup would eat."""


def shown(widget: Widget) -> str:
    return str(widget.render())


def test_each_seat_reads_its_own_turn_and_the_others(server: ServerProcess, tmp_path: Path) -> None:
    asyncio.run(asyncio.wait_for(own_seat(server, tmp_path), 60))


async def own_seat(server: ServerProcess, tmp_path: Path) -> None:
    """Ana hosts (in a pilot app), Ben joins (a bare table), a bot takes the third seat."""
    opening = Host.of(NAME, Rules(players=3), "easy", 0, 60)
    table = RemoteTable(server.address, opening, Keeper(DataDir(tmp_path / "ana")))
    app = OnlineApp(table, host=True)
    lobby: list[LobbyChanged] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: table.room is not None)
        ben = RemoteTable(server.address, Join(table.room, "Ben"),
                          Keeper(DataDir(tmp_path / "ben")))  # fmt: skip
        ben.subscribe(lambda e: lobby.append(e) if isinstance(e, LobbyChanged) else None)
        bens = asyncio.create_task(ben.run())
        await until(lambda: bool(lobby) and lobby[-1].seats[1] is not None)
        assert lobby[-1].here == 1  # Ben's lobby knows his seat
        await until(lambda: "Ben" in shown(app.lobby.query_one("#lobby-seats")))
        seats = shown(app.lobby.query_one("#lobby-seats")).splitlines()
        assert seats[:2] == [f"  1. {NAME} (you)", "  2. Ben"]

        await pilot.press("s")
        await until(lambda: isinstance(app.screen, OnlineGameScreen) and ben.started)
        screen = app.screen
        assert isinstance(screen, OnlineGameScreen)
        assert f"{NAME} (you)" in shown(screen.query_one("#seat-1"))
        assert "(you)" not in shown(screen.query_one("#seat-2"))
        seen: set[str] = set()

        def turn() -> str:
            return shown(screen.query_one(TurnBar))

        def turn_is(check: Callable[[str], bool]) -> Callable[[], bool]:
            return lambda: check(turn())

        while len(seen) < 3:
            game = table.view.game
            seat = game.current_player
            if seat == 0:
                drawn = game.drawn_card is not None
                own = f"▶ Your turn ({NAME}): {'put the' if drawn else 'draw a card'}"
                await until(turn_is(lambda t, own=own: t.startswith(own)))
                seen.add(f"own, drawn {drawn}")
                await pilot.press(key_of(table.legal_actions()[0]))
            elif seat == 1:
                await until(turn_is(lambda t: t == "▶ Ben's turn: waiting for their move…"))
                assert "to move" in shown(screen.query_one("#seat-2"))
                seen.add("Ben")
                ben.act(ben.legal_actions()[0])
            await until(lambda game=game: table.view.game is not game)  # the bot at once

        await pilot.press("q")  # the leave dialog names the whole command
        await until(lambda: isinstance(app.screen, ConfirmQuit) and app.screen.is_mounted)
        await pilot.pause()
        question = "\n".join(shown(text) for text in app.screen.query(Static))
        assert (
            f"to take your seat back:\ncoloretto join {table.room} "
            f"--server {server.address} --name '{NAME}'"
        ) in question, question
        await pilot.press("n")

        ben.suspend()  # Ben's connection goes: on his turn, Ana's screen says he is away
        await bens
        while table.view.game.current_player != 1:
            if table.plays_here(table.view.game.current_player):
                await pilot.press(key_of(table.legal_actions()[0]))
            await pilot.pause(0.05)
        await until(
            lambda: (
                turn() == "▶ Ben's turn: Ben is away (a bot plays once they have been away 60 s)…"
            )
        )
        assert "away" in shown(screen.query_one("#seat-2"))
        await pilot.press("ctrl+c")


@pytest.mark.parametrize(
    ("here", "seat", "expected"),
    [
        (0, 2, "Your ghost's turn (you play it): draw a card (d); no row holds cards yet"),
        (1, 2, "Ana's ghost's turn: waiting for Ana's move…"),
        (None, 2, "Ana's ghost's turn: waiting for Ana's move…"),
        (1, 1, "Your turn (Ben): draw a card (d) or take a row (1)"),
        (None, 1, "Ben's turn: waiting for their move…"),
        (0, 1, "Ben's turn: waiting for their move…"),
    ],
)
def test_the_ghosts_turns_online(here: int | None, seat: int, expected: str) -> None:
    """Two people and their ghosts: whose turn it is, as Ana, Ben or a watcher reads it."""
    rules = Rules(players=2, variant="ghost")
    config = GameConfig(rules, (Player("Ana"), Player("Ben")))
    game = new_game(rules, seed=1)
    while game.current_player != seat or game.drawn_card is not None:
        game = game.apply(game.legal_actions()[0])  # draw, then place on row 1
    session = RemoteView(config, game, "id", here)
    assert online_turn_prompt(session, away_after=30).plain == expected
    session.away = frozenset({rules.controller(seat)})
    if here != rules.controller(seat):
        away = "Ana" if seat == 2 else "Ben"
        assert online_turn_prompt(session, away_after=30).plain.endswith(
            f"turn: {away} is away (a bot plays once they have been away 30 s)…"
        )


def test_a_bot_thinks_and_a_person_is_to_move() -> None:
    rules = Rules(players=3)
    config = GameConfig(rules, (Player("Ana"), Player("Ben"), Player("Bot 1", "normal")))
    game = new_game(rules, seed=1)
    session = RemoteView(config, game, "id", here=0)
    statuses = {}
    while len(statuses) < 3:
        statuses[game.current_player] = seat_status(session, game.current_player, {})
        game = game.apply(game.legal_actions()[0])
        session.match = Match(rules, None, game)
    assert statuses == {0: "to move", 1: "to move", 2: "thinking…"}
