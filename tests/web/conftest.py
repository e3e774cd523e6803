"""Fixtures of the browser tests: a ``coloretto web`` server and headless chromium.

They are never skipped: without chromium or playwright these tests fail, saying what to
install (``.ci/run`` and the ``test`` extra install both).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.page import chromium, missing_browser, web_server

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """A running ``coloretto web``: its address, the server user's data directory, and the
    directory its visitors' data directories are made in (its TMPDIR)."""
    home = tmp_path_factory.mktemp("server-home")
    temp = tmp_path_factory.mktemp("server-tmp")
    with web_server(home, temp) as url:
        yield url, home, temp


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    """Headless chromium with a fresh profile; without chromium or playwright, the test
    fails saying what to install."""
    problem = missing_browser()
    if problem is not None:
        pytest.fail(problem, pytrace=False)
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as context:
        yield context
