"""The join command the host's screen prints works as printed: read back by a shell and by
``coloretto join``'s parser, it names the same server and room, and a friend who runs it
takes a seat, whether the host reached the server as ``HOST:PORT`` or by a ``ws://``
address with a path (behind a proxy)."""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

import pytest

from coloretto.cli.main import build_parser
from coloretto.cli.online_command import run_join, server_address
from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable, server_url
from coloretto.online.wire.messages import WelcomeMessage
from coloretto.online.wire.protocol import DEFAULT_AWAY_AFTER, Host, Join, encode, room_code
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineApp, join_hint
from tests.online.conftest import ServerProcess, until

HOST = Host.of("Ana", Rules(players=3), "easy", 0, DEFAULT_AWAY_AFTER)


def read_back(command: str) -> tuple[str, str]:
    """The server address and room code ``coloretto join`` makes of ``command``, split as
    a shell splits it (a usage error fails the test)."""
    words = shlex.split(command)
    assert words[:2] == ["coloretto", "join"], words
    parser = build_parser(words[1:])
    args = parser.parse_args(words[1:])
    assert args.run is run_join
    return server_address(args.server, args.parser), room_code(args.code)


@pytest.mark.parametrize(
    "server",
    [
        "ws://127.0.0.1:7787",
        "ws://[::1]:7787",
        "wss://games.example.org:7787",
        "ws://games.example.org/coloretto",
        "ws://games.example.org:7787/",
        "wss://games.example.org/a b/{room}",
    ],
)
def test_the_join_command_names_the_server_it_was_printed_for(server: str) -> None:
    command = join_hint(server).replace("{room}", "K7PQ2M", 1)
    assert read_back(command) == (server, "K7PQ2M")


@pytest.mark.parametrize("server", ["127.0.0.1:7787", "ws://games.example.org/coloretto"])
def test_the_command_that_takes_a_seat_back_names_the_server_too(server: str) -> None:
    table = RemoteTable(server, Join("K7PQ2M", "Ana"))
    assert table.handle(encode(WelcomeMessage("K7PQ2M", 1)))  # seated, no token kept
    assert table.comeback is not None
    assert read_back(table.comeback) == (server_url(server), "K7PQ2M")


@pytest.mark.parametrize("prefix", ["", "/coloretto"])
def test_a_friend_joins_with_the_command_the_host_screen_prints(
    server: ServerProcess, tmp_path: Path, prefix: str
) -> None:
    """Ana hosts on the screen (at ``HOST:PORT``, or at the same server under a path as a
    proxy passes it on); Ben runs the command her lobby prints, and she sees him seated."""

    async def test() -> None:
        address = server.address if not prefix else f"ws://{server.address}{prefix}"
        ana = RemoteTable(address, HOST, Keeper(DataDir(tmp_path / "ana")))
        app = OnlineApp(ana, host=True)
        async with app.run_test(size=(160, 40)) as pilot:
            await until(lambda: app.lobby.lobby is not None, 10)
            how = str(app.screen.query_one("#lobby-how").render())
            (line,) = [line for line in how.splitlines() if "Friends join with:" in line]
            command = line.split("Friends join with:", 1)[1].strip()
            url, code = read_back(command)
            assert code == ana.room
            assert url == f"ws://{server.address}{prefix}"
            ben = RemoteTable(url, Join(code, "Ben"), Keeper(DataDir(tmp_path / "ben")))
            joining = asyncio.create_task(ben.run())
            await until(lambda: ben.player == 1, 10)
            await until(
                lambda: (
                    app.lobby.lobby is not None
                    and [seat and seat[0] for seat in app.lobby.lobby.seats][:2] == ["Ana", "Ben"]
                ),
                10,
            )
            ben.suspend()
            await joining
            await pilot.press("q")

    asyncio.run(asyncio.wait_for(test(), 60))
