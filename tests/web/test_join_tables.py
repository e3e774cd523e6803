"""``coloretto web --server``'s lobby page, ``/tables``: the game server's public tables
(fetched by the web server, as ``coloretto lobby`` asks them), names escaped, each with a
link to the game page that joins it; that page's game plays at ``/ws/CODE``, its process
started with the code. Against a tiny game server made here (``LobbyServer``)."""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from coloretto.web import server as web_server
from coloretto.web.server import TerminalPageServer
from tests.online.test_lobby_cli import LobbyServer, running

COMMAND = "coloretto join --server SERVER --name ''"


@pytest.fixture
def lobby_server() -> Iterator[LobbyServer]:
    yield from running(LobbyServer())


def pages(game_server: str | None) -> TerminalPageServer:
    return TerminalPageServer(
        COMMAND,
        host="127.0.0.1",
        port=8000,
        public_url="http://127.0.0.1:8000",
        max_visitors=2,
        game_server=game_server,
    )


async def fetched(server: TerminalPageServer, *paths: str) -> list[tuple[int, str]]:
    """Each path's status and page."""
    async with TestClient(TestServer(server.make_app())) as client:
        found = []
        for path in paths:
            response = await client.get(path)
            found.append((response.status, await response.text()))
        return found


def test_the_page_lists_the_tables_with_links_that_join_them(lobby_server: LobbyServer) -> None:
    server = pages(f"ws://{lobby_server.address}")
    ((status, page),) = asyncio.run(fetched(server, "/tables"))
    assert status == 200
    assert "<td>K7PQ2M</td>" in page
    assert "<td>2/4 Ana, Ben</td>" in page
    assert "bots fill in 42 s" in page
    assert "gray side, ghost variant" in page
    assert "<td>rated</td>" in page
    assert 'href="http://127.0.0.1:8000/?room=K7PQ2M"' in page
    assert 'href="http://127.0.0.1:8000/?room=H3JX9W"' in page


def test_names_are_escaped_and_cleaned(lobby_server: LobbyServer) -> None:
    table = json.loads(lobby_server.answers["tables"])["tables"][0]
    table["seated"] = ['<script>alert("x")</script>', "\x1b[2JBen&co"]
    lobby_server.answers["tables"] = json.dumps({"type": "tables", "tables": [table]})
    ((_, page),) = asyncio.run(fetched(pages(lobby_server.address), "/tables"))
    assert "<script>alert" not in page
    assert "<td>2/4 &lt;script&gt;alert(&#34;…, Ben&amp;co</td>" in page  # names: 16 at most
    assert "\x1b" not in page


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ('{"type": "tables", "tables": 7}', "broke the protocol"),
        ("x" * (2 << 20), "too long"),
        (None, "does not list public tables"),
    ],
)
def test_a_hostile_or_old_game_server_is_a_line_on_the_page(
    lobby_server: LobbyServer, answer: str | None, said: str
) -> None:
    if answer is None:
        del lobby_server.answers["tables"]
    else:
        lobby_server.answers["tables"] = answer
    ((status, page),) = asyncio.run(fetched(pages(lobby_server.address), "/tables"))
    assert status == 200
    assert 'id="tables-problem"' in page
    assert said in page


def test_the_list_is_asked_for_once_in_a_while(lobby_server: LobbyServer) -> None:
    found = asyncio.run(fetched(pages(lobby_server.address), "/tables", "/tables", "/tables"))
    assert [status for status, _ in found] == [200] * 3
    assert lobby_server.asked == [("tables", "/")]  # within the game server's budget


def test_no_tables_is_said(lobby_server: LobbyServer) -> None:
    lobby_server.answers["tables"] = '{"type": "tables", "tables": []}'
    ((_, page),) = asyncio.run(fetched(pages(lobby_server.address), "/tables"))
    assert 'id="no-tables"' in page


def test_a_table_picked_plays_at_its_own_address(lobby_server: LobbyServer) -> None:
    server = pages(lobby_server.address)
    found = asyncio.run(fetched(server, "/?room=k7pq2m", "/?room=<b>", "/"))
    assert 'data-session-websocket-url="ws://127.0.0.1:8000/ws/K7PQ2M"' in found[0][1]
    assert 'data-session-websocket-url="ws://127.0.0.1:8000/ws"' in found[1][1]
    assert 'data-session-websocket-url="ws://127.0.0.1:8000/ws"' in found[2][1]


def test_the_visitors_process_gets_the_code(
    lobby_server: LobbyServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[str] = []

    class Game:
        def __init__(self, command: str, **_: Any) -> None:
            started.append(command)

        async def start(self, width: int, height: int) -> None:
            pass

        async def stop(self) -> None:
            pass

    async def ignored(*_: Any) -> None:
        pass

    monkeypatch.setattr(web_server, "AppService", Game)
    monkeypatch.setattr(web_server, "forward", ignored)

    async def visit() -> None:
        async with TestClient(TestServer(pages(lobby_server.address).make_app())) as client:
            for path in ("/ws/K7PQ2M", "/ws/nonsense", "/ws"):
                async with client.ws_connect(path + "?width=80&height=24") as ws:
                    await ws.close()
            response = await client.get("/ws/K7PQ2M?width=80&height=24",
                                        headers={"Origin": "http://evil.example"})  # fmt: skip
            assert response.status == 403

    asyncio.run(visit())
    assert started[0] == f"{COMMAND} K7PQ2M"
    assert started[1:] == [COMMAND, COMMAND]
    assert shlex.split(started[0])[-1] == "K7PQ2M"


def test_without_a_game_server_there_is_no_lobby() -> None:
    found = asyncio.run(fetched(pages(None), "/tables", "/?room=K7PQ2M"))
    assert found[0][0] == 404
    assert 'data-session-websocket-url="ws://127.0.0.1:8000/ws"' in found[1][1]
