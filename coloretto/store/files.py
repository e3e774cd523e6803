"""Reading and writing the game's files: reads bounded (every file is untrusted), writes
atomic (a crash mid-write leaves the previous file whole). The one atomic writer of the
package.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "note.txt"
>>> write_atomically(path, "kept\\n")
>>> read_bounded(path, 100)
b'kept\\n'
>>> read_bounded(path, 4)
Traceback (most recent call last):
...
coloretto.store.files.TooLarge: .../note.txt: larger than 4 bytes
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class TooLarge(ValueError):
    """A file holding more than a reader takes."""

    def __init__(self, path: Path, limit: int) -> None:
        super().__init__(f"{path}: larger than {limit} bytes")
        self.path = path
        self.limit = limit


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the file ``path``, of which at most ``limit`` are read: ``TooLarge``
    if it holds more, ``OSError`` if it cannot be read."""
    path = Path(path)
    with path.open("rb") as file:
        raw = file.read(limit + 1)
    if len(raw) > limit:
        raise TooLarge(path, limit)
    return raw


def write_atomically(path: str | os.PathLike[str], text: str, *, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it, flushed to the
    disk first: a crash mid-write leaves any previous file intact. The file gets ``mode``
    (say ``0o600``, a private file), else the permissions it had (a new one the usual
    ones). Raises ``OSError`` if the disk refuses."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):  # POSIX; elsewhere the defaults are fine
            os.fchmod(fd, _file_mode(path) if mode is None else mode)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _file_mode(path: Path) -> int:
    """The permissions a new file gets (``mkstemp`` makes it private): the existing file's,
    else the usual ones for the user's umask."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def newest_first(folder: Path, suffix: str) -> list[Path]:
    """The files of ``folder`` named ``*suffix`` (hidden ones left out), the one modified
    last first (``[]`` if the folder cannot be listed)."""
    try:
        files = [p for p in folder.iterdir() if p.suffix == suffix and not p.name.startswith(".")]
    except OSError:
        return []
    return sorted(files, key=_modified, reverse=True)


def _modified(path: Path) -> tuple[float, str]:
    try:
        return (path.stat().st_mtime, path.name)
    except OSError:
        return (0.0, path.name)
