"""The incident log: failing bots and unexpected errors, written to a file the player can send.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "coloretto.log"
>>> incident_log(path).warning("bot %s failed", "greedy")
>>> "WARNING bot greedy failed" in path.read_text()
True
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

LOGGER = "coloretto"


class _QuietFileHandler(logging.FileHandler):
    """A log file that never raises: a message that cannot be written is dropped (the
    game, a signal handler or the error handler must go on whatever the disk does)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            super().emit(record)
        except Exception:
            self.handleError(record)

    def handleError(self, record: logging.LogRecord) -> None:
        """Drop the message; nothing is printed (the screen belongs to the game)."""


def incident_log(path: Path) -> logging.Logger:
    """The ``coloretto`` logger, writing to ``path`` (created when first written to).

    Calling it again with another path moves the log there. Messages never reach the
    terminal: the screen belongs to the game. Logging never raises: a message that cannot
    be written (no such directory, no permission, a full disk) is lost.

    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkstemp()[1])
    >>> incident_log(file / "coloretto.log").error("not written, and no error")
    """
    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    target = os.path.abspath(path)  # as FileHandler keeps it (resolve may raise on a loop)
    for handler in list(logger.handlers):
        if isinstance(handler, logging.FileHandler) and handler.baseFilename == target:
            return logger
        logger.removeHandler(handler)
        handler.close()
    handler = _QuietFileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger
