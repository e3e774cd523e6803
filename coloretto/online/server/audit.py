"""The server's audit log: refused connections, broken limits, wrong codes, failed saves.

One line an event, in ``audit.log`` of the server's data directory, rotated as the
incident log is (at 1 MiB, five old files kept: ``coloretto.store.incidents``), so a
flood of bad requests cannot fill the disk. The same event from the same address is
written once in ``quiet_seconds``; the next line says how many were left out meanwhile.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> audit = Audit(folder / "audit.log", clock=lambda: 0.0)
>>> for _ in range(3):
...     audit.note("flooding", "10.0.0.1", "closed: too many messages")
>>> print((folder / "audit.log").read_text().split(" ", 2)[2].strip())
flooding 10.0.0.1: closed: too many messages
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from coloretto.store.incidents import QuietRotatingHandler
from coloretto.store.text import printable


class Audit:
    """Writes the audit log (see the module); ``note`` never raises."""

    def __init__(
        self,
        path: Path,
        *,
        quiet_seconds: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.quiet_seconds = quiet_seconds
        self.clock = clock
        self._last: dict[tuple[str, str], tuple[float, int]] = {}
        self._logger = logging.getLogger(f"coloretto.audit.{id(self)}")
        self._logger.setLevel(logging.INFO)
        self._logger.propagate = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = QuietRotatingHandler(path)
        except OSError:
            handler = logging.NullHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        self._logger.addHandler(handler)

    def note(self, kind: str, address: str, text: str) -> None:
        """Write ``kind`` (one word) from ``address``: ``text`` (unless the same kind from
        the same address was written within ``quiet_seconds``)."""
        now = self.clock()
        key = (kind, address)
        last = self._last.get(key)
        if last is not None and now - last[0] < self.quiet_seconds:
            self._last[key] = (last[0], last[1] + 1)
            return
        left_out = f" ({last[1]} more like it before)" if last is not None and last[1] else ""
        self._last[key] = (now, 0)
        if len(self._last) > 10_000:
            self._forget(now)
        self._logger.info("%s %s: %s%s", kind, printable(address, 64), printable(text, 300),
                          left_out)  # fmt: skip

    def _forget(self, now: float) -> None:
        for key in [k for k, (at, _) in self._last.items() if now - at >= self.quiet_seconds]:
            del self._last[key]

    def close(self) -> None:
        """Close the file (the server stops)."""
        for handler in list(self._logger.handlers):
            self._logger.removeHandler(handler)
            handler.close()
