"""The page a visitor waits on while their game starts shows the game's own splash (its
cards, its name), not Textual's logo (a real ``coloretto web``)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from coloretto.engine import COLOURS
from coloretto.tui.glyphs import GLYPHS
from tests.web.page import web_server

TEXTUAL_LOGO = "M2927.81 0H1677.1"
"""The start of the path of Textual's logo in textual-serve's own page."""


async def page_of(url: str) -> str:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        return await response.text()


def test_the_splash_is_the_games_own(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    (tmp_path / "temp").mkdir()
    with web_server(tmp_path / "home", tmp_path / "temp") as url:
        page = asyncio.run(page_of(url))
    assert TEXTUAL_LOGO not in page
    assert "images/background.png" not in page  # textual-serve's backdrop
    splash = page[page.index('<svg\n          id="coloretto-splash"') : page.index("</svg>")]
    fills = re.findall(r'<rect [^>]*fill="(#[0-9a-f]{6})"', splash)
    assert fills == [GLYPHS[colour].background for colour in COLOURS]  # the seven colours
    assert '<div class="name">Coloretto</div>' in page
