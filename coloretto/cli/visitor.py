"""One ``coloretto web`` visitor's process: a data directory of its own, then the game.

``python -m coloretto.cli.visitor BASE [ARGUMENT ...]`` makes a private directory in
``BASE`` (the server's), runs ``coloretto ARGUMENT ...`` with it as ``COLORETTO_HOME``, and
removes it when the visitor leaves. So a visitor never sees another's saves, statistics or
game lock, and the server user's own data directory is left alone.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from coloretto.cli.main import main as coloretto
from coloretto.store.paths import HOME_VARIABLE
from coloretto.store.text import printable

PREFIX = "visitor-"
"""Each visitor's data directory is ``BASE/visitor-XXXXXXXX``."""


def main(argv: Sequence[str]) -> int:
    """Play ``coloretto ARGV[1:]`` with a fresh data directory inside ``ARGV[0]``."""
    if not argv:
        print("usage: python -m coloretto.cli.visitor BASE [ARGUMENT ...]", file=sys.stderr)
        return 2
    base, *arguments = argv
    try:
        home = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))  # mode 0700: this visitor's
    except OSError as error:
        print(printable(f"coloretto: no data directory in {base} ({error})"), file=sys.stderr)
        return 1
    os.environ[HOME_VARIABLE] = str(home)
    try:
        return coloretto(arguments)
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
