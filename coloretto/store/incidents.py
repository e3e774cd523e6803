"""The incident log: failing bots and unexpected errors, written to a file the player can send.

The file is rotated as the server's audit log is: at ``MAX_BYTES`` it becomes
``coloretto.log.1`` (the older ones ``.2`` to ``.5``, the oldest dropped), so a server left
running, or a flood of failures, never fills the disk.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "coloretto.log"
>>> incident_log(path).warning("bot %s failed", "greedy")
>>> "WARNING bot greedy failed" in path.read_text()
True
"""

from __future__ import annotations

import logging
import os
from logging.handlers import RotatingFileHandler
from pathlib import Path

LOGGER = "coloretto"
MAX_BYTES = 1024 * 1024
"""The size at which a log file (this one, the server's audit log) is rotated."""
BACKUPS = 5
"""The old files kept of a rotated log."""


class QuietRotatingHandler(RotatingFileHandler):
    """A log file rotated at ``MAX_BYTES`` with ``BACKUPS`` old files kept, that never
    raises: a message that cannot be written is dropped (the game, a signal handler or the
    error handler must go on whatever the disk does), and nothing is printed."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8",
                         delay=True)  # fmt: skip

    def handleError(self, record: logging.LogRecord) -> None:
        """Drop the message."""


def incident_log(path: Path) -> logging.Logger:
    """The ``coloretto`` logger, writing to ``path`` (created when first written to,
    rotated as the module says).

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
        if isinstance(handler, QuietRotatingHandler) and handler.baseFilename == target:
            return logger
        logger.removeHandler(handler)
        handler.close()
    handler = QuietRotatingHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger
