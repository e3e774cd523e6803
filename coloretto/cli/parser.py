"""An argument parser whose errors are one line and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn, Protocol

from coloretto.store.text import printable


class Parser(argparse.ArgumentParser):
    """``argparse`` with a one-line error message that points to ``--help``; text quoted
    from files or the command line is shown without control characters."""

    def error(self, message: str) -> NoReturn:
        print(printable(f"{self.prog}: error: {message} (see {self.prog} --help)"), file=sys.stderr)
        raise SystemExit(2)


class Commands(Protocol):
    """Where the sub-commands register their parsers: what ``add_subparsers`` returns."""

    def add_parser(self, name: str, **options: Any) -> argparse.ArgumentParser:
        """A new parser for the sub-command ``name``; ``options`` as ``ArgumentParser``'s."""
        ...


WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The Textual driver textual-serve names in ``TEXTUAL_DRIVER`` for a web visitor's process."""


def on_terminal() -> bool:
    """True when both the keyboard and the screen are a terminal (not a pipe or a file), or
    when Textual draws in a web page instead (``coloretto web``: its pipes carry the page)."""
    return (sys.stdin.isatty() and sys.stdout.isatty()) or in_browser()


def in_browser() -> bool:
    """True in a ``coloretto web`` visitor's process, whose screen is a web page."""
    return os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER


def need_terminal(parser: argparse.ArgumentParser, hint: str = "") -> None:
    """A usage error unless ``on_terminal()``: a full-screen command must not write its
    escape codes into a pipe or a file. ``hint`` says what to do instead."""
    if not on_terminal():
        parser.error(f"{parser.prog} is full-screen and needs a terminal, not a pipe or file{hint}")


def bounded_int(low: int, high: int, what: str) -> type[int]:
    """An argparse ``type`` accepting whole numbers from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number, not {text!r}"
            ) from None
        if value < 0 and low >= 0:
            raise argparse.ArgumentTypeError(f"{what} cannot be negative ({value})")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low} to {high}, not {value}")
        return value

    parse.__name__ = what
    return parse  # type: ignore[return-value]


def bounded_seconds(high: float, what: str) -> type[float]:
    """An argparse ``type`` accepting a number of seconds from 0 to ``high``.

    >>> bounded_seconds(10, "--delay")("0.5")
    0.5
    >>> bounded_seconds(10, "--delay")("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: --delay must be 0 to 10 seconds, not nan
    """

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what} must be a number of seconds, not {text!r}"
            ) from None
        if not 0 <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be 0 to {high:g} seconds, not {text}")
        return value

    parse.__name__ = what
    return parse  # type: ignore[return-value]


def fail(parser: argparse.ArgumentParser, message: str) -> int:
    """Say what went wrong in one line (control characters stripped); returns status 2."""
    print(printable(f"{parser.prog}: error: {message}"), file=sys.stderr)
    return 2
