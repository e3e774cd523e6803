"""The tutorial in the browser: a ``coloretto web`` visitor's first screen offers it (each
visitor has a data directory of their own: always a first run), and ``t`` opens it. The
page's websocket is spoken to directly (what the terminal shows is in its output)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from tests.web.page import web_server

ESCAPES = re.compile(r"\x1b(\[[0-9;?<>]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][A-Z0-9])")


async def tutorial_reached(url: str) -> list[str]:
    """Open the page's terminal at 80x24, press t on the first screen, then Enter: the
    texts seen on the way."""
    socket_url = f"{url.replace('http', 'ws', 1)}ws?width=80&height=24"
    seen: list[str] = []
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(socket_url, headers={"Origin": url.rstrip("/")}) as socket,
    ):
        shown = ""

        async def wait_for(text: str) -> None:
            nonlocal shown
            async with asyncio.timeout(30):
                while text not in " ".join(shown.split()):
                    message = await socket.receive()
                    if message.type is aiohttp.WSMsgType.BINARY:
                        shown += ESCAPES.sub("", message.data.decode("utf-8", "replace"))
                    assert message.type in {aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY}
            seen.append(text)
            shown = ""

        await wait_for("New to Coloretto? Press t for a 3-minute tutorial.")
        await socket.send_json(["stdin", "t"])
        await wait_for("Welcome to Coloretto!")
        await socket.send_json(["stdin", "\r"])
        await wait_for("This is you.")
    return seen


def test_a_visitor_is_offered_the_tutorial_and_plays_it(tmp_path: Path) -> None:
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    with web_server(home, temp) as url:
        assert len(asyncio.run(tutorial_reached(url))) == 3
