"""The results of practice (``coloretto practice``: the puzzles made of a reviewed game's
mistakes), kept in ``practice.json`` of the data directory for ``coloretto stats``, each
under the name of the player who solved it (people sharing a computer, or a hotseat game,
keep theirs apart).

The file is versioned (``"format": "coloretto-practice/2"``), written atomically, read
bounded, and untrusted: an entry that is not a result is dropped; a file that is not one of
ours (or is damaged) is put aside as ``practice.json.damaged`` when a result is next kept,
and a file of a newer version is left alone (the result is then not kept, and said so).
Version 1 did not name the player: its results are read as the default player's
(``DEFAULT_PLAYER``) and written as version 2 when a result is next kept. A result is kept
under the lock ``practice.lock`` (``coloretto.store.lock``): two processes keeping results
at once (two ``coloretto practice``) each read what the other kept. At most
``MOST_RESULTS`` results are kept, the oldest dropped first.

>>> import tempfile
>>> data = DataDir(Path(tempfile.mkdtemp()))
>>> read_results(data)
Results(results=(), problem=None)
>>> at = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
>>> keep_result(data, PracticeResult("game.json", 12, "mistake", "second", at, "Ana"))
>>> [(r.player, r.outcome) for r in read_results(data).results]
[('Ana', 'second')]
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from coloretto.store.files import read_bounded, write_atomically
from coloretto.store.lock import Lock, Locked, hold
from coloretto.store.paths import DataDir
from coloretto.store.text import LONGEST_NAME, printable

PRACTICE_FILE = "practice.json"

LOCK_FILE = "practice.lock"
"""Held while a result is kept (``coloretto.store.lock``)."""

LOCK_WAIT = 5.0
"""Seconds a result waits for another process keeping one (it takes milliseconds)."""

FORMAT = "coloretto-practice/2"

FORMAT_PREFIX = "coloretto-practice/"
"""The formats of this file, of any version (a newer one is left alone)."""

VERSION = 2
"""This file's version: 1 (no player named) is read and upgraded, a newer one left alone."""

DEFAULT_PLAYER = "You"
"""The player of version 1's results, which named none: the name of the only person at the
keyboard (``coloretto.play.config.YOU``)."""

MOST_RESULTS = 5000
"""Results kept at the most (the oldest go first): years of practice."""

MAX_PRACTICE_BYTES = 2 * 1024 * 1024
"""The most read of the file (``MOST_RESULTS`` results take about 600 kB)."""

GRADES = ("inaccuracy", "mistake", "blunder")
"""The grades a puzzle is made of (``coloretto.play.coach.Grade``'s flaws)."""

OUTCOMES = ("first", "second", "missed")
"""How a puzzle went: solved at the first try, at the second, or not solved."""

MOST_PLY = 10_000
"""The largest ply a result may name (a game is a few hundred actions long)."""


@dataclass(frozen=True)
class PracticeResult:
    """One puzzle tried: the game (its record's file name) and the ply of the decision, the
    grade of the move played in the game, how it went (``OUTCOMES``), when (UTC), and by
    whom (the player's name, as the game's record names their seat)."""

    game: str
    ply: int
    grade: str
    outcome: str
    at: datetime
    player: str

    def to_json(self) -> dict[str, Any]:
        """The result as the file keeps it."""
        return {
            "player": self.player,
            "game": self.game,
            "ply": self.ply,
            "grade": self.grade,
            "outcome": self.outcome,
            "at": self.at.astimezone(UTC).isoformat(timespec="seconds"),
        }


@dataclass(frozen=True)
class Results:
    """The results kept, oldest first, and why the file could not be read (``None``: it
    could, or there is none yet)."""

    results: tuple[PracticeResult, ...]
    problem: str | None = None


def practice_path(data: DataDir) -> Path:
    """Where the results of practice are kept."""
    return data.root / PRACTICE_FILE


class _Newer(Exception):
    """The file is of a newer version of the game: left alone."""


def read_results(data: DataDir, player: str | None = None) -> Results:
    """The results kept (those entries that are results; ``player``'s only, the name
    ignoring case, when given), and what was wrong with the file, if anything: never
    raises."""
    path = practice_path(data)
    try:
        found = _read(path)
        if player is not None:
            found = tuple(r for r in found if r.player.casefold() == player.casefold())
    except FileNotFoundError:
        return Results(())
    except _Newer:
        return Results((), f"{path} was written by a newer version of Coloretto")
    except (OSError, ValueError, RecursionError) as error:
        return Results((), printable(f"{path} cannot be read ({_reason(error)})"))
    return Results(found)


def _reason(error: Exception) -> str:
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    if isinstance(error, RecursionError):
        return "nested too deep"
    return str(error)[:200]


def _read(path: Path) -> tuple[PracticeResult, ...]:
    """The results in ``path`` (version 1's as ``DEFAULT_PLAYER``'s); ``_Newer`` for a
    newer version, ``ValueError`` for a file that is not one of ours, ``OSError`` if it
    cannot be read."""
    if not stat.S_ISREG(path.stat().st_mode):  # a folder, a pipe that would never end
        raise ValueError("not a regular file")
    data = json.loads(read_bounded(path, MAX_PRACTICE_BYTES).decode("utf-8"))
    if not isinstance(data, Mapping) or not isinstance(data.get("format"), str):
        raise ValueError("not a file of practice results")
    version = _version(data["format"])
    if version > VERSION:
        raise _Newer
    entries = data.get("results")
    if not isinstance(entries, list):
        raise ValueError("no list of results")
    player = DEFAULT_PLAYER if version == 1 else None
    found = (_result(entry, player) for entry in entries[-MOST_RESULTS:])
    return tuple(result for result in found if result is not None)


def _version(name: str) -> int:
    """The version of the file's format ``name``; ``ValueError`` if it is not ours.

    >>> _version("coloretto-practice/1"), _version("coloretto-practice/12")
    (1, 12)
    """
    number = name.removeprefix(FORMAT_PREFIX)
    if number == name or not number.isascii() or not number.isdigit() or len(number) > 6:
        raise ValueError("not a file of practice results")
    if int(number) < 1:
        raise ValueError("not a file of practice results")
    return int(number)


def _result(entry: object, player: str | None) -> PracticeResult | None:
    """A result from the file, if the entry is one (by ``player``, when the file's version
    names none); else ``None``."""
    if not isinstance(entry, Mapping):
        return None
    game, ply, grade, outcome, at = (
        entry.get(k) for k in ("game", "ply", "grade", "outcome", "at")
    )
    who = player if player is not None else entry.get("player")
    if not isinstance(who, str) or not (name := printable(who, LONGEST_NAME).strip()):
        return None
    if not isinstance(game, str) or type(ply) is not int or not 0 <= ply <= MOST_PLY:
        return None
    if grade not in GRADES or outcome not in OUTCOMES or not isinstance(at, str):
        return None
    try:
        when = datetime.fromisoformat(at[:40])
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return PracticeResult(
        printable(game, LONGEST_NAME * 4),
        ply,
        str(grade),
        str(outcome),
        when.astimezone(UTC),
        name,
    )


def keep_result(data: DataDir, result: PracticeResult) -> str | None:
    """Add ``result`` to those kept, atomically, under the lock (waiting for another
    process keeping one); says what went wrong (``None``: nothing). A file that is not one
    of ours is put aside first (``practice.json.damaged``); one of a newer version is left
    alone."""
    path = practice_path(data)
    try:
        data.root.mkdir(parents=True, exist_ok=True)
        lock = _hold(data.root / LOCK_FILE)
    except Locked as locked:
        return printable(f"the result was not kept: {locked}")
    except OSError as error:
        return printable(f"the result was not kept: {error}")
    with lock:
        return _keep(path, result)


def _hold(path: Path) -> Lock:
    """The lock at ``path``, once no other process holds it (``LOCK_WAIT`` at most, then
    ``Locked``)."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            return hold(path)
        except Locked:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def _keep(path: Path, result: PracticeResult) -> str | None:
    """Add ``result`` to the results in ``path`` (the lock held)."""
    try:
        kept = _read(path)
    except FileNotFoundError:
        kept = ()
    except _Newer:
        return f"the result was not kept: {path} was written by a newer version of Coloretto"
    except (OSError, ValueError, RecursionError):
        try:
            os.replace(path, path.with_name(f"{PRACTICE_FILE}.damaged"))
        except OSError as error:
            return printable(f"the result was not kept: {path} cannot be replaced ({error})")
        kept = ()
    results = [*kept, result][-MOST_RESULTS:]
    text = json.dumps({"format": FORMAT, "results": [r.to_json() for r in results]}, indent=0)
    try:
        write_atomically(path, text + "\n")
    except OSError as error:
        return printable(f"the result was not kept: {error}")
    return None
