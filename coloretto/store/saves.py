"""Games in progress on disk: a game record (``coloretto-record/1``) with the session kept
in its metadata (see ``coloretto.play.saving``), so that a game resumes with the same deal,
seats, bots and match totals.

A save is written after every action, atomically (the engine's ``write_record``), one
file per session in ``DataDir.saves``. A finished game is copied to ``DataDir.history``;
when it ends the match, its save is removed. A game given up is discarded (``discard``:
the setup screen's ctrl+x, ``coloretto saves delete``).

The last setup chosen (players, people, names, level...) is kept beside them, in
``setup.json``, for the setup screen to start from.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from coloretto.engine import GameRecord
from coloretto.store.files import write_atomically
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
    return data.saves / f"{_checked(session_id)}{SUFFIX}"


def lock_path(data: DataDir, session_id: str) -> Path:
    """The lock file held by the process that plays the session (see ``store.lock``)."""
    return data.saves / f"{_checked(session_id)}.lock"


def _checked(session_id: str) -> str:
    if not SESSION_ID.fullmatch(session_id):
        raise ValueError(f"not a session id: {session_id[:40]!r}")
    return session_id


def history_path(data: DataDir, session_id: str, game_number: int | None = None) -> Path:
    """Where a finished game of the session ``session_id`` is kept (``game_number`` for a
    game of a match of several games); ``ValueError`` if the id is no session id."""
    suffix = f"-game{game_number}" if game_number is not None else ""
    return data.history / f"{_checked(session_id)}{suffix}{SUFFIX}"


def save(data: DataDir, session_id: str, record: GameRecord) -> Path:
    """Save the session's game record (atomically); raises ``OSError`` if the disk refuses."""
    data.ensure()
    path = save_path(data, session_id)
    write_record(path, record.state, record.seats, record.meta)
    return path


def keep_finished(
    data: DataDir, session_id: str, record: GameRecord, game_number: int, *, match_over: bool
) -> Path:
    """Copy the finished game to the history; remove the save once the match is over
    (until then the save, holding the finished game, deals the next one on resuming).

    Raises ``OSError`` if the disk refuses.
    """
    data.ensure()
    path = history_path(data, session_id, game_number if record.rules.games > 1 else None)
    write_record(path, record.state, record.seats, record.meta)
    if match_over:
        save_path(data, session_id).unlink(missing_ok=True)
    return path


def annotate(data: DataDir, path: Path, record: GameRecord) -> Path:
    """Write ``record`` back into the file ``path`` it was read from (atomically), to keep
    what a program added to its metadata (say, a game review): a game of the history or a
    file the user named. Never a save (the game being played rewrites it after every
    action): ``ValueError``. A symbolic link's target is written. Raises ``OSError`` if the
    disk refuses.

    A game of the history keeps its modification time: it is when the game finished, which
    orders the history (``finished_games``: the game finished last is the one ``coloretto
    replay`` and ``coloretto review`` take) and dates it in ``replay --list``; reviewing an
    older game must not make it the newest."""
    target = path.resolve()
    if target.parent == data.saves.resolve():
        raise ValueError(f"{path} is a game in progress (finish it first)")
    kept = _finished_at(target) if target.parent == data.history.resolve() else None
    write_record(target, record.state, record.seats, record.meta)
    if kept is not None:
        os.utime(target, ns=kept)
    return target


def _finished_at(path: Path) -> tuple[int, int] | None:
    """The access and modification times of ``path`` (``None`` if it has none to keep)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_atime_ns, status.st_mtime_ns)


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
    return [p.stem for p in _by_age(data.saves) if is_save(p)]


def finished_games(data: DataDir) -> list[Path]:
    """The history, newest first: the one rule for which finished game is the last one
    (``coloretto replay``, ``coloretto review``, ``replay --list``, the statistics'
    recount). A file's modification time is when its game finished (``keep_finished``
    writes it then; ``annotate`` keeps it)."""
    return _by_age(data.history)


def _by_age(folder: Path) -> list[Path]:
    try:
        files = [p for p in folder.iterdir() if p.suffix == SUFFIX and not p.name.startswith(".")]
    except OSError:
        return []
    return sorted(files, key=_modified, reverse=True)


def _modified(path: Path) -> tuple[float, str]:
    try:
        return (path.stat().st_mtime, path.name)
    except OSError:
        return (0.0, path.name)


SETUP_FILE = "setup.json"

MAX_SETUP_BYTES = 16 * 1024
"""The most read of the setup file (it takes a few hundred bytes)."""


def setup_path(data: DataDir) -> Path:
    """Where the last setup chosen is kept."""
    return data.root / SETUP_FILE


def write_setup(data: DataDir, setup: Mapping[str, Any]) -> Path:
    """Keep ``setup`` (JSON-ready) as the last setup, atomically; raises ``OSError`` if
    the disk refuses."""
    path = setup_path(data)
    data.root.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(setup, indent=1) + "\n")
    return path


def read_setup(data: DataDir) -> object:
    """The JSON value kept as the last setup, unchecked (see ``setup_from_json``); ``None``
    when there is none, or it cannot be read, is too large or is not JSON."""
    try:
        with setup_path(data).open("rb") as file:
            raw = file.read(MAX_SETUP_BYTES + 1)
    except OSError:
        return None
    if len(raw) > MAX_SETUP_BYTES:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
        return None
