"""Games in progress on disk: a game record (``coloretto-record/1``) with the session kept
in its metadata (see ``coloretto.play.saving``), so that a game resumes with the same deal,
seats, bots and match totals.

A save is written after every action, atomically (``store.records.write_record``), one
file per session in ``DataDir.saves``. A finished game is copied to the history
(``store.history``); when it ends the match, its save is removed. A game given up is
discarded (``discard``: the setup screen's ctrl+x, ``coloretto saves delete``).
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from pathlib import Path

from coloretto.engine import GameRecord
from coloretto.store.files import newest_first
from coloretto.store.lock import hold
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record

SUFFIX = ".json"

SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""What a session id may be: it names files, so no dots, slashes or other surprises
(``new_id`` makes ids like ``20261121-070503-a1b2c3``)."""


def new_id(now: datetime | None = None) -> str:
    """A new session id: the time it started, and a random suffix.

    >>> new_id(datetime(2026, 11, 21, 7, 5, 3, tzinfo=UTC))[:16]
    '20261121-070503-'
    """
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def save_path(data: DataDir, session_id: str) -> Path:
    """Where the session ``session_id`` is saved while it is played; ``ValueError`` if the
    id is no session id (it must never choose a place outside ``data.saves``).

    >>> save_path(DataDir(Path("/c")), "../../outside")
    Traceback (most recent call last):
    ...
    ValueError: not a session id: '../../outside'
    """
    return data.saves / f"{checked_id(session_id)}{SUFFIX}"


def lock_path(data: DataDir, session_id: str) -> Path:
    """The lock file held by the process that plays the session (see ``store.lock``)."""
    return data.saves / f"{checked_id(session_id)}.lock"


def checked_id(session_id: str) -> str:
    """``session_id`` if it is a session id (``SESSION_ID``), else ``ValueError``."""
    if not SESSION_ID.fullmatch(session_id):
        raise ValueError(f"not a session id: {session_id[:40]!r}")
    return session_id


def save(data: DataDir, session_id: str, record: GameRecord) -> Path:
    """Save the session's game record (atomically); raises ``OSError`` if the disk refuses."""
    data.ensure()
    path = save_path(data, session_id)
    write_record(path, record.state, record.seats, record.meta)
    return path


def discard(data: DataDir, session_id: str) -> None:
    """Remove the game in progress ``session_id`` for good, unless a process is playing it
    (``Locked`` says which). ``ValueError`` if the id is no session id,
    ``FileNotFoundError`` if there is no such game, ``OSError`` if the disk refuses."""
    path = save_path(data, session_id)
    if not path.is_file():
        raise FileNotFoundError(path)
    with hold(lock_path(data, session_id)):  # nobody plays it meanwhile
        path.unlink()


def is_save(path: Path) -> bool:
    """The one rule for which files of ``DataDir.saves`` are games in progress: ``ID.json``,
    ``ID`` a session id (the name ``save_path`` gives; ``--resume ID`` takes the id).

    >>> is_save(Path("20261121-070503-a1b2c3.json")), is_save(Path("weird name.json"))
    (True, False)
    >>> is_save(Path(".hidden.json")), is_save(Path("20261121-070503-a1b2c3.lock"))
    (False, False)
    """
    return path.suffix == SUFFIX and SESSION_ID.fullmatch(path.stem) is not None


def latest_save(data: DataDir) -> Path | None:
    """The save touched last (the game to resume), if any (``is_save``)."""
    ids = games_in_progress(data)
    return save_path(data, ids[0]) if ids else None


def games_in_progress(data: DataDir) -> list[str]:
    """The session ids of the games saved in progress, the one touched last first (only
    files that are saves by ``is_save``; whether they can be read is not checked)."""
    return [p.stem for p in newest_first(data.saves, SUFFIX) if is_save(p)]
