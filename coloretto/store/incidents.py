"""The incident log: failing bots and unexpected errors, written to a file the player can send.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "coloretto.log"
>>> incident_log(path).warning("bot %s failed", "greedy")
>>> "WARNING bot greedy failed" in path.read_text()
True
"""

from __future__ import annotations

import logging
from pathlib import Path

LOGGER = "coloretto"


def incident_log(path: Path) -> logging.Logger:
    """The ``coloretto`` logger, writing to ``path`` (created when first written to).

    Calling it again with another path moves the log there. Messages never reach the
    terminal: the screen belongs to the game.
    """
    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    target = str(path.resolve())
    for handler in list(logger.handlers):
        if isinstance(handler, logging.FileHandler) and handler.baseFilename == target:
            return logger
        logger.removeHandler(handler)
        handler.close()
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger
