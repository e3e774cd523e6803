"""A real ``coloretto web`` server and a real browser (Debian's chromium, driven by
Playwright) looking at its page: for the browser tests and ``benchmarks/web.py``.

The page's terminal is xterm.js drawing on a canvas, so its text is read from xterm's own
screen buffer (what the canvas shows, cell by cell): ``TERMINAL_HOOK`` keeps a reference to
the page's ``Terminal`` when textual-serve's script creates it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # playwright is imported to start the browser (see missing_browser)
    from playwright.sync_api import BrowserContext, Page

ROOT = Path(__file__).resolve().parents[2]

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium (``apt-get install chromium``; ``.ci/run`` installs it)."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

VIEWPORT = {"width": 1280, "height": 800}
"""The browser window: 142 x 38 cells of the page's terminal."""

TERMINAL_HOOK = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    window.__terminal = value;
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
  },
});
"""
"""Keeps the page's xterm.js ``Terminal`` as ``window.__terminal`` (textual-serve's script
sets ``this.terminal = new Terminal(...)``; this setter sees it go by)."""

READ_SCREEN = """() => {
  const term = window.__terminal;
  if (!term) return null;
  const buffer = term.buffer.active, lines = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines;
}"""

CELL = """() => {
  const term = window.__terminal;
  const box = term.element.querySelector(".xterm-screen").getBoundingClientRect();
  return [box.x, box.y, box.width / term.cols, box.height / term.rows];
}"""


class ServerFailed(RuntimeError):
    """The server did not start, or stopped."""


def free_port() -> int:
    """A port nothing listens on now (the system's choice for port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def web_server(home: Path, temp: Path, *options: str, timeout: float = 30) -> Iterator[str]:
    """``python -m coloretto web OPTIONS`` on a free port of 127.0.0.1, with ``home`` as the
    server user's data directory and ``temp`` as its TMPDIR (so the visitors' data
    directories are in ``temp``); yields its address once it answers. The server and every
    visitor's process are ended on the way out."""
    port = free_port()
    log = (temp / "server.log").open("w")
    env = {**os.environ, "COLORETTO_HOME": str(home), "TMPDIR": str(temp)}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    server = subprocess.Popen(
        [sys.executable, "-m", "coloretto", "web", "--port", str(port), *options],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
        env=env,
        start_new_session=True,  # its own process group: the visitors' processes are in it
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if server.poll() is not None:
                raise ServerFailed(f"coloretto web stopped: {(temp / 'server.log').read_text()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if time.monotonic() > deadline:
                raise ServerFailed(f"coloretto web did not answer within {timeout:g} s")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(server)
        log.close()


def _stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group, then SIGKILL to whatever is left of it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=10)


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (``None`` when they can)."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is missing: pip install -e '.[test]'"
    if not CHROMIUM.exists():
        return (
            f"{CHROMIUM} is missing: apt-get install chromium (.ci/run installs it); "
            "the browser tests use Debian's chromium, never playwright install"
        )
    return None


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[BrowserContext]:
    """Headless chromium with a fresh user-data-dir ``profile``; every page it opens has
    ``TERMINAL_HOOK``."""
    problem = missing_browser()
    if problem is not None:
        raise FileNotFoundError(problem)
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 (see missing_browser)

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport=VIEWPORT,  # type: ignore[arg-type]
        )
        try:
            context.add_init_script(TERMINAL_HOOK)
            yield context
        finally:
            context.close()


class Screen:
    """The terminal in a page, as the visitor sees it: its lines of text, where a text is
    (to click on it), and waiting until something shows."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def lines(self) -> list[str]:
        """The terminal's lines, as shown (empty before the terminal exists)."""
        lines: list[str] | None = self.page.evaluate(READ_SCREEN)
        return lines or []

    def has_keyboard(self) -> bool:
        """True when the keys typed go to the terminal (its input field has the focus)."""
        focused: bool = self.page.evaluate(
            "() => document.activeElement?.classList.contains('xterm-helper-textarea') ?? false"
        )
        return focused

    def text(self) -> str:
        """The whole screen, one line per terminal row."""
        return "\n".join(self.lines())

    def wait_for(self, *texts: str, timeout: float = 20) -> str:
        """Wait until every one of ``texts`` is on the screen; returns the screen."""
        return self.wait_until(lambda screen: all(text in screen for text in texts), texts, timeout)

    def wait_for_pattern(self, pattern: str, timeout: float = 20) -> re.Match[str]:
        """Wait until the regular expression ``pattern`` matches on the screen."""
        screen = self.wait_until(
            lambda screen: re.search(pattern, screen) is not None, pattern, timeout
        )
        found = re.search(pattern, screen)
        assert found is not None
        return found

    def wait_until(self, shown: Callable[[str], bool], what: object, timeout: float) -> str:
        """Wait (at most ``timeout`` seconds) until ``shown(screen)``; returns the screen."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if shown(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"not on the page after {timeout:g} s: {what}\n{screen}")
            time.sleep(0.05)

    def find(self, text: str) -> tuple[int, int]:
        """The cell (column, row) where ``text`` starts on the screen."""
        for y, line in enumerate(self.lines()):
            x = line.find(text)
            if x >= 0:
                return x, y
        raise AssertionError(f"{text!r} is not on the page:\n{self.text()}")

    def line_with(self, text: str) -> str:
        """The first line of the screen that holds ``text``."""
        return self.lines()[self.find(text)[1]]

    def click(self, column: int, row: int) -> None:
        """A mouse click in the middle of a cell."""
        left, top, width, height = self.page.evaluate(CELL)
        self.page.mouse.click(left + (column + 0.5) * width, top + (row + 0.5) * height)

    def click_text(self, text: str) -> None:
        """A mouse click on the first letter of ``text``."""
        self.click(*self.find(text))

    def press(self, *keys: str) -> None:
        """Type ``keys`` (Playwright's names: ``d``, ``1``, ``Control+s``, ``Enter``) as fast
        as the page takes them: the text fields keep backspaces and letters in order even
        when they reach the app in one read (``coloretto.tui.widgets.TextInput``)."""
        for key in keys:
            self.page.keyboard.press(key)
