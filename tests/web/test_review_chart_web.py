"""The review's chart in the browser: a ``coloretto web`` visitor plays a game to its end
(keys sent blindly: each either plays a legal move or is refused), opens the coach's
review on the score screen (``v``), and the chart of their chance to win is on the page.
The page's websocket is spoken to directly (what the terminal shows is in its output)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import aiohttp

from tests.web.page import web_server
from tests.web.test_tutorial_web import ESCAPES

MOVE = ("d", "1", "2", "3", "4", "5", "\r")
"""Draw, place or take on the first row that can be, and Enter (the scores, once the game
is over: last, so that no key of the batch reaches the score screen)."""


async def review_reached(url: str) -> str:
    """Start a game at 80x24, play it to the end, press ``v`` on the score screen: what the
    terminal shows of the review once its chart is drawn."""
    socket_url = f"{url.replace('http', 'ws', 1)}ws?width=80&height=24"
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(socket_url, headers={"Origin": url.rstrip("/")}) as socket,
    ):
        shown = ""

        async def read(seconds: float) -> None:
            """What the terminal shows in the next ``seconds``, added to ``shown``."""
            nonlocal shown
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    while True:
                        message = await socket.receive()
                        assert message.type in {aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY}
                        if message.type is aiohttp.WSMsgType.BINARY:
                            text = message.data.decode("utf-8", "replace")
                            shown += ESCAPES.sub("", text)

        async def wait_for(text: str, seconds: float = 30) -> None:
            nonlocal shown
            async with asyncio.timeout(seconds):
                while text not in " ".join(shown.split()):
                    await read(0.2)

        async def press(*keys: str) -> None:
            for key in keys:
                await socket.send_json(["stdin", key])

        await wait_for("Start (ctrl+s)")
        await press("\x13")  # ctrl+s: the game the setup screen offers
        await wait_for("Your turn")
        await press("+", "+", "+")  # the bots at once
        async with asyncio.timeout(240):
            while "points!" not in shown:
                shown = ""
                await press(*MOVE)
                await read(0.3)
        shown = ""
        await press("v")
        await wait_for("Your chance to win after each decision")
        seen = shown
        await wait_for("Decision 1 of ")
        return " ".join((seen + shown).split())


def test_the_review_chart_shows_on_the_web_page(tmp_path: Path) -> None:
    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    with web_server(home, temp) as url:
        review = asyncio.run(review_reached(url))
    assert "The coach's review" in review
    assert "100%│" in review  # the chart's axis
    assert "0%┼" in review
    assert "⁇ blunder" in review  # its legend
    assert "Decision 1 of " in review  # the selected decision, told under it
