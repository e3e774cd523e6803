"""The game's websocket against hostile pages: another site's page, absurd terminal sizes
and malformed messages never start a game or disturb one (a real ``coloretto web``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import aiohttp
import pytest

from tests.web.page import web_server


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``coloretto web``'s address."""
    home = tmp_path_factory.mktemp("server-home")
    temp = tmp_path_factory.mktemp("server-tmp")
    with web_server(home, temp) as address:
        yield address


def socket_url(url: str, width: object = 80, height: object = 24) -> str:
    return f"{url.replace('http', 'ws', 1)}ws?width={width}&height={height}"


async def status_of(url: str, origin: str) -> int:
    """The HTTP status with which the server answers a websocket from a page at ``origin``."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers={"Origin": origin}):
                return 101
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status


def test_a_page_of_another_site_may_not_start_a_game(url: str) -> None:
    assert asyncio.run(status_of(socket_url(url), "https://evil.example")) == 403


@pytest.mark.parametrize(("width", "height"), [(100_000, 24), (80, 0), ("1e9", 24), (80, "x")])
def test_an_absurd_terminal_size_is_refused(url: str, width: object, height: object) -> None:
    assert asyncio.run(status_of(socket_url(url, width, height), url.rstrip("/"))) == 400


async def pong_after_garbage(url: str) -> list[object]:
    """Send malformed and oversized messages, then a ping: the answer to the ping."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(socket_url(url), headers={"Origin": url.rstrip("/")}) as socket,
    ):
        for garbage in (
            "not json",
            "[" * 100_000,
            '["stdin", 7]',
            '["resize", {"width": 1000000000, "height": 1000000000}]',
            '["resize", "big"]',
            '{"stdin": "q"}',
            '["ping", "' + "x" * 200_000 + '"]',
        ):
            await socket.send_str(garbage)
        await socket.send_bytes(b"\x00\xff")
        await socket.send_json(["ping", "still there?"])
        async with asyncio.timeout(20):
            while True:
                message = await socket.receive()
                if message.type is aiohttp.WSMsgType.TEXT and message.data.startswith('["pong"'):
                    answer: list[object] = message.json()
                    return answer
                assert message.type in {aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY}


def test_malformed_messages_are_ignored_and_the_game_goes_on(url: str) -> None:
    assert asyncio.run(pong_after_garbage(url)) == ["pong", "still there?"]
