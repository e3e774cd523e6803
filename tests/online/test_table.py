"""Three people and a bot at one online table, each in a client of their own: the host in
a pilot app here, Ben in a pilot app in another process, Cy in ``coloretto join`` in a real
terminal (tmux). Cy's client is killed with ``kill -9`` on Cy's turn: the others see Cy
away, a bot plays for Cy, and Cy's client, started again, takes the seat back. The game
ends with the same record in everyone's history and on the server."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.text import Text

from coloretto.engine import GameState, Match, Rules, new_game
from coloretto.online.client.remote_table import RemoteTable, RemoteView
from coloretto.online.wire.protocol import Host, Watch
from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.tui.online_app import OnlineApp, OnlineEndScreen
from coloretto.tui.prompt import turn_prompt
from coloretto.tui.screens import GameScreen
from coloretto.tui.table import seat_status
from coloretto.tui.widgets import Notice
from coloretto.tui.widgets.bars import NoticeKind
from tests.conftest import run_coloretto
from tests.online.conftest import (
    ROOT,
    ServerProcess,
    choose,
    history_record,
    key_of,
    same_game,
    until,
)
from tests.online.pilot_client import play_turns


class Tmux:
    """A private tmux server (its socket in the test's own directory, so that none is left
    behind in the user's tmux directory), killed at the end."""

    def __init__(self, socket: Path) -> None:
        self.socket = str(socket)

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stdout

    def start(self, name: str, command: str) -> int:
        """Run ``command`` in a new 120x40 terminal; returns its process id."""
        self("new-session", "-d", "-s", name, "-x", "120", "-y", "40", f"exec {command}")
        return int(self("display-message", "-p", "-t", name, "#{pane_pid}").strip())

    def screen(self, name: str) -> str:
        return self("capture-pane", "-p", "-t", name)

    def close(self) -> None:
        self("kill-server")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    terminal = Tmux(tmp_path / "tmux.sock")
    try:
        yield terminal
    finally:
        terminal.close()


def test_three_people_and_a_bot_play_online_to_the_end(
    server: ServerProcess, tmux: Tmux, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    homes = {name: tmp_path / name for name in ("ana", "ben", "cy")}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rules = {"players": 4, "scoring": "brown", "edition": "classic", "variant": "standard"}
    opening = Host.of("Ana", Rules(**rules), "easy", 0, 1.0)  # type: ignore[arg-type]
    table = RemoteTable(server.address, opening, Keeper(DataDir(homes["ana"])))
    app = OnlineApp(table, host=True)
    rng = random.Random(5)
    ben: subprocess.Popen[bytes] | None = None
    ben_log = tmp_path / "ben.log"

    def cy_sees(game: GameState) -> bool:
        """True when Cy's screen shows Cy to move in ``game``'s phase (a card drawn or not):
        a key pressed before Cy's client has heard of the last move is lost."""
        turn = [line for line in tmux.screen("cy").splitlines() if "Your turn (Cy)" in line]
        return bool(turn) and ("put the" in turn[-1]) == (game.drawn_card is not None)

    def join_cy() -> int:
        command = (
            f"env COLORETTO_HOME={shlex.quote(str(homes['cy']))} {shlex.quote(sys.executable)}"
            f" -m coloretto join {table.room} --server {server.address} --name Cy"
        )
        return tmux.start("cy", command)

    async def test() -> None:
        nonlocal ben
        async with app.run_test(size=(120, 40)) as pilot:
            await until(lambda: table.room is not None)
            ben = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.online.pilot_client",
                    server.address,
                    str(table.room),
                    "Ben",
                    "7",
                ],
                env={**env, "COLORETTO_HOME": str(homes["ben"])},
                cwd=ROOT,
                stdout=ben_log.open("w"),
                stderr=subprocess.STDOUT,
            )
            cy = join_cy()
            watcher = RemoteTable(server.address, Watch(table.room),
                                  Keeper(DataDir(tmp_path / "watcher")))  # fmt: skip
            watching = asyncio.create_task(watcher.run())
            await until(lambda: app.lobby.lobby is not None and all(app.lobby.lobby.seats[:3]))
            seated = [seat and seat[0] for seat in app.lobby.lobby.seats]
            cy_seat = seated.index("Cy")  # Ben and Cy take seats 1 and 2 as they come
            await pilot.press("s")
            await until(lambda: isinstance(app.screen, GameScreen) and watcher.started)
            cut = False
            back = False
            cy_rng = random.Random(9)
            sent: tuple[int, float] = (-1, 0.0)
            loop = asyncio.get_running_loop()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            # The bots play at once (delay 0): their moves' notices may follow this one
            # before the pilot looks, so every notice said is kept.
            said: list[str] = []
            notice = screen.query_one(Notice)
            say = notice.say

            def keep(text: Text | str, kind: NoticeKind = "info", *, hint_for: str = "") -> None:
                said.append(str(text))
                say(text, kind, hint_for=hint_for)

            monkeypatch.setattr(notice, "say", keep)
            await pilot.press("plus")
            assert any("the pace the room's host set" in line for line in said), said
            hinted = False
            async with asyncio.timeout(90):
                while not watcher.machine.finished:
                    if not hinted and table.plays_here(table.view.game.current_player):
                        await pilot.press("h")  # the hint bot thinks here, on Ana's view
                        await until(lambda: bool(screen.hints), 15)
                        hinted = True
                    await play_turns(app, pilot, rng, draws=0.5)
                    game = watcher.view.game
                    ply = len(game.history())
                    if not game.is_over and game.current_player == cy_seat:
                        if not cut and ply >= 12:
                            os.kill(cy, signal.SIGKILL)  # Cy's client dies on Cy's turn
                            cut = True
                            await until(
                                lambda: (
                                    cy_seat in watcher.machine.away
                                    and cy_seat in table.machine.away
                                )
                            )
                        elif back == cut and (
                            (sent[0] != ply and cy_sees(game)) or loop.time() - sent[1] > 1.5
                        ):
                            action = choose(game.legal_actions(), cy_rng, draws=0.2)
                            tmux("send-keys", "-t", "cy", key_of(action))
                            sent = (ply, loop.time())
                    if (
                        cut
                        and not back
                        and any(m.player == cy_seat for m in game.history()[ply - 1 :])
                    ):  # a bot played for Cy: Cy comes back
                        cy = join_cy()
                        await until(lambda: cy_seat not in watcher.machine.away)
                        back = True
                    await pilot.pause(0.02)
            await until(lambda: table.machine.finished and isinstance(app.screen, OnlineEndScreen))
            assert cut
            assert back
            await until(lambda: "points" in tmux.screen("cy"), 10)
            watcher.suspend()
            await watching
            await pilot.press("q")

    try:
        asyncio.run(test())
        assert ben is not None
        ben.wait(60)
        assert "finished" in ben_log.read_text(), ben_log.read_text()
    finally:
        if ben is not None and ben.poll() is None:
            ben.kill()
            ben.wait()
    on_server = server.finished_game()
    for home in homes.values():
        assert same_game(history_record(home), on_server), home
        # Each player's own history and statistics have the game, ready to replay.
        (path,) = (home / "history").glob("*.json")
        assert Replay.from_record(read_record(path)).last == len(on_server["actions"])
        record = read_record(path)
        assert record.meta["stood_in"] == [record.seats.index("Cy")]  # a bot played for Cy
        stats = json.loads(run_coloretto(home, "stats", "--json").stdout)
        assert stats["games"] == 1
        assert {person["player"] for person in stats["people"]} == {"Ana", "Ben"}
        assert stats["left_out"] == [{"player": "Cy", "games": 1}]  # not in Cy's figures


def test_a_player_away_is_shown_away_not_thinking() -> None:
    rules = Rules(players=3)
    config = GameConfig(rules, (Player("Ana"), Player("Ben"), Player("Bot", "normal")))
    game = new_game(rules, seed=1)
    session = RemoteView(config, game, "id", here=0)
    ben = next(s for s in range(rules.seats) if rules.controller(s) == 1)
    while game.current_player != ben:
        game = game.apply(game.legal_actions()[0])
    session.match = Match(rules, None, game)
    assert seat_status(session, ben, {}) == "to move"  # a person, not a bot thinking
    session.away = frozenset({1})
    assert seat_status(session, ben, {}) == "away"
    assert turn_prompt(session).plain == "Ben is away"
