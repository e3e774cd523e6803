"""The history: every finished game, one record file each in ``DataDir.history``, and how
a game is found there (``coloretto replay``, ``coloretto review``, the score screen).

A file's modification time is when its game finished: it orders the history, newest
first (``finished_games``), and ``annotate`` keeps it.

>>> data = DataDir(Path("/c"))
>>> history_path(data, "20261121-070503-a1b2c3").name, history_path(data, "ID", 2, 3).name
('20261121-070503-a1b2c3.json', 'ID-game2.json')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from coloretto.engine import GameRecord, RecordError, UnreadableRecord
from coloretto.store.files import newest_first
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record, write_record
from coloretto.store.saves import SESSION_ID, SUFFIX, checked_id, save_path

MOST_TRIED = 100
"""The most files of the history tried, newest first, for the game finished last (the
history is untrusted: a folder full of unreadable files must not be read for ever)."""


class HistoryProblem(Exception):
    """A game that cannot be found or read; the message names the file and the problem."""


def history_path(data: DataDir, session_id: str, game_number: int = 1, games: int = 1) -> Path:
    """Where game ``game_number`` of the session's match of ``games`` games is kept once
    finished (the number is in the name only in a match of several games); ``ValueError``
    if the id is no session id."""
    suffix = f"-game{game_number}" if games > 1 else ""
    return data.history / f"{checked_id(session_id)}{suffix}{SUFFIX}"


def keep_finished(
    data: DataDir, session_id: str, record: GameRecord, game_number: int, *, match_over: bool
) -> Path:
    """Copy the finished game to the history; remove the save once the match is over
    (until then the save, holding the finished game, deals the next one on resuming).

    Raises ``OSError`` if the disk refuses.
    """
    data.ensure()
    path = history_path(data, session_id, game_number, record.rules.games)
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
    orders the history (the game finished last is the one ``coloretto replay`` and
    ``coloretto review`` take) and dates it in ``replay --list``; reviewing an older game
    must not make it the newest."""
    target = path.resolve()
    if target.parent == data.saves.resolve():
        raise ValueError(f"{path} is a game in progress (finish it first)")
    kept = _finished_at(target) if target.parent == data.history.resolve() else None
    write_record(target, record.state, record.seats, record.meta)
    if kept is not None:
        os.utime(target, ns=kept)
    return target


def annotating(data: DataDir, path: Path) -> Callable[[GameRecord], str | None]:
    """``annotate`` into ``path``, saying what went wrong (``None``: nothing) instead of
    raising: for a review, which goes on whatever the disk does."""

    def keep(record: GameRecord) -> str | None:
        try:
            annotate(data, path, record)
        except ValueError as error:
            return str(error)
        except OSError as error:
            return f"{path}: {error.strerror or error}"
        return None

    return keep


def _finished_at(path: Path) -> tuple[int, int] | None:
    """The access and modification times of ``path`` (``None`` if it has none to keep)."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_atime_ns, status.st_mtime_ns)


def finished_games(data: DataDir) -> list[Path]:
    """The history, newest first: the one rule for which finished game is the last one
    (``coloretto replay``, ``coloretto review``, ``replay --list``, the statistics'
    recount)."""
    return newest_first(data.history, SUFFIX)


def newest_finished(data: DataDir) -> tuple[Path, GameRecord, list[Path]]:
    """The newest finished game of the history that can be read: its file, its record, and
    the newer files passed over (unreadable, or no finished game); ``HistoryProblem`` when
    there is none (at most ``MOST_TRIED`` files are tried)."""
    games = finished_games(data)
    if not games:
        raise HistoryProblem(
            f"no finished games in {data.history} yet (finish a game with coloretto play, "
            "or give a record FILE)"
        )
    skipped: list[Path] = []
    for path in games[:MOST_TRIED]:
        try:
            record = read_record(path)
        except RecordError:
            skipped.append(path)
            continue
        if record.state.is_over:
            return path, record, skipped
        skipped.append(path)
    tried = min(len(games), MOST_TRIED)
    some = "the file" if tried == 1 else f"the {tried} newest files"
    raise HistoryProblem(
        f"no finished game in {data.history} can be read ({some} there: "
        f"coloretto replay --list says what is wrong); give a record FILE"
    )


def find_record(name: str, data: DataDir) -> Path:
    """The record file ``name``: a path, the name of a game in the history (as ``replay
    --list`` prints it), or the session id of a finished game there (as ``--resume`` takes
    an id); ``HistoryProblem`` for an id that names no finished game."""
    path = Path(name)
    kept = data.history / path.name
    if not path.exists() and path.name == name and kept.is_file():
        return kept
    if path.exists() or not SESSION_ID.fullmatch(name):  # an id never chooses another place
        return path
    by_id = data.history / f"{name}{SUFFIX}"
    if by_id.is_file():
        return by_id
    games = sorted(p.name for p in data.history.glob(f"{name}-game*{SUFFIX}"))
    if games:
        raise HistoryProblem(f"{name} is a match: give one of its games, {', '.join(games[:9])}")
    if save_path(data, name).is_file():
        raise HistoryProblem(
            f"{name} is a game in progress: coloretto play --resume {name} continues it"
        )
    raise HistoryProblem(
        f"{name}: no such file, nor a finished game of that id in {data.history} "
        "(coloretto replay --list lists them)"
    )


def open_record(path: Path) -> GameRecord:
    """The record in ``path``; ``HistoryProblem`` says what is wrong with the file."""
    if not path.exists():
        raise HistoryProblem(f"{path}: no such file")
    if path.is_dir():
        raise HistoryProblem(f"{path}: is a directory, not a game record")
    try:
        return read_record(path)
    except UnreadableRecord as error:
        raise HistoryProblem(f"{path}: {error.problem}") from None
    except RecordError as error:
        raise HistoryProblem(f"{path}: not a valid game record: {error.problem}") from None
