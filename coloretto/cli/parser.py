"""An argument parser whose errors are one line and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """``argparse`` with a one-line error message that points to ``--help``."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


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
