"""The data directory and the files in it."""

from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

HOME_VARIABLE = "COLORETTO_HOME"
"""Environment variable that moves the data directory (for tests, or a portable install)."""

APP_NAME = "coloretto"


@dataclass(frozen=True)
class DataDir:
    """Where the game keeps its files.

    >>> data = DataDir(Path("/tmp/c"))
    >>> data.saves, data.history.name, data.stats.name, data.log.name
    (PosixPath('/tmp/c/saves'), 'history', 'stats.sqlite3', 'coloretto.log')
    """

    root: Path

    @classmethod
    def default(cls) -> DataDir:
        """``$COLORETTO_HOME``, else the platform's user data directory for the game."""
        home = os.environ.get(HOME_VARIABLE, "").strip()
        if home:
            return cls(Path(home).expanduser())
        return cls(platformdirs.user_data_path(APP_NAME, appauthor=False))

    @property
    def saves(self) -> Path:
        """Games in progress, one record file each (autosaved after every action)."""
        return self.root / "saves"

    @property
    def history(self) -> Path:
        """Finished games, one record file each (for replays)."""
        return self.root / "history"

    @property
    def stats(self) -> Path:
        """The statistics database (SQLite)."""
        return self.root / "stats.sqlite3"

    @property
    def log(self) -> Path:
        """The log of incidents: failing bots, unexpected errors."""
        return self.root / "coloretto.log"

    def problem(self) -> str | None:
        """Why the files kept here cannot be read (the directory, or a folder in it, is
        something else, or cannot be looked into), without changing anything; ``None`` if
        they can, or simply are not there yet.

        >>> import tempfile
        >>> file = Path(tempfile.mkstemp()[1])
        >>> print(DataDir(file).problem())  # doctest: +ELLIPSIS
        the data directory /... is a file, not a directory: move the file away, or set ...
        >>> DataDir(file / "coloretto").problem()  # doctest: +ELLIPSIS
        'the data directory .../coloretto cannot be read (Not a directory): set ... you can read'
        """
        for path in (self.root, self.saves, self.history):
            try:
                mode = path.stat().st_mode
            except FileNotFoundError:
                return None
            except OSError as error:  # a file on the way (NotADirectoryError), no permission
                what = f"cannot be read ({error.strerror or error})"
                fix = f"set {HOME_VARIABLE} to a directory you can read"
            else:
                if stat.S_ISDIR(mode):
                    continue
                what = "is a file, not a directory"
                fix = f"move the file away, or set {HOME_VARIABLE} to a directory"
            where = "the data directory" if path == self.root else "the data directory's folder"
            return f"{where} {path} {what}: {fix}"
        return None

    def ensure(self) -> DataDir:
        """Create the directories (if missing); returns ``self``. Raises ``OSError``."""
        for path in (self.saves, self.history):
            path.mkdir(parents=True, exist_ok=True)
        return self

    def check(self) -> DataDir:
        """``ensure`` the directories and write (and remove) a file in each; returns
        ``self``, or raises ``OSError`` if the game could not keep its files here.

        >>> import tempfile
        >>> file = Path(tempfile.mkstemp()[1])
        >>> DataDir(file).check()
        Traceback (most recent call last):
        ...
        NotADirectoryError: [Errno 20] Not a directory: ...saves'
        """
        for folder in (self.ensure().saves, self.history):
            with tempfile.TemporaryFile(dir=folder):
                pass
        return self
