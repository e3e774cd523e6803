"""One game, one writer: an advisory lock held by the process that plays a game.

The lock is ``flock`` on a lock file beside the save (the save itself is replaced by every
atomic write, so a lock on it would not last). The system lets it go when the process
ends, however it ends (``kill -9`` too); the file then says who held it last, which is
harmless. A process that finds the lock taken learns who holds it. (Windows has no
``flock``: there a game is not locked.)

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "game.lock"
>>> with hold(path):
...     hold(path)  # as if by another process
Traceback (most recent call last):
...
coloretto.store.lock.Locked: /.../game.lock is held by process ... on ..., since ... UTC
>>> path.exists()
False
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

if sys.platform == "win32":  # no flock: a game is not locked there

    def _try_lock(fd: int) -> bool:
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        """Lock the open file ``fd`` without waiting; False if another holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@dataclass(frozen=True)
class Holder:
    """Who holds a lock: a process on a host, since a time (UTC).

    >>> print(Holder(42, "box", "2026-11-22 22:40 UTC"))
    process 42 on box, since 2026-11-22 22:40 UTC
    """

    pid: int
    host: str
    since: str

    def __str__(self) -> str:
        return f"process {self.pid} on {self.host}, since {self.since}"

    def line(self) -> str:
        """As kept in the lock file."""
        return f"{self.pid} {self.host} {self.since}\n"

    @classmethod
    def parse(cls, text: str) -> Holder | None:
        """The holder a lock file names (``None`` if it names none)."""
        pid, _, rest = text.strip().partition(" ")
        host, _, since = rest.partition(" ")
        if not pid.isdigit() or not host:
            return None
        return cls(int(pid), host, since)


class Locked(Exception):
    """The lock is held by another process: ``holder``, if the lock file says who."""

    def __init__(self, path: Path, holder: Holder | None) -> None:
        self.path = path
        self.holder = holder
        super().__init__(f"{path} is held by {holder or 'another process'}")


class Lock:
    """A held lock; ``release`` (or leaving the ``with`` block, or the process's end)
    lets it go."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        """True until released."""
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock file and let the lock go (again: nothing)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):  # while held: no one else has it now
            self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> Lock:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def hold(path: Path) -> Lock:
    """Take the lock at ``path`` (creating the file) for this process, without waiting.

    Raises ``Locked`` if another process holds it (a lock taken twice by one process
    counts as two holders), ``OSError`` if the file cannot be made.
    """
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)  # not inherited by children
        try:
            if not _try_lock(fd):
                found = Holder.parse(os.read(fd, 200).decode("utf-8", "replace"))
                raise Locked(path, found)
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            break
        os.close(fd)  # its last holder removed the file before we locked it: again
    me = Holder(os.getpid(), socket.gethostname(), f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    with contextlib.suppress(OSError):  # held all the same; only the holder's name is missing
        os.ftruncate(fd, 0)
        os.write(fd, me.line().encode())
    return Lock(path, fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.fstat(fd).st_ino == path.stat().st_ino
    except OSError:
        return False
