"""The results of practice (``coloretto practice``: the puzzles made of a reviewed game's
mistakes), kept in ``practice.json`` of the data directory for ``coloretto stats``.

The file is versioned (``"format": "coloretto-practice/1"``), written atomically, read
bounded, and untrusted: an entry that is not a result is dropped; a file that is not one of
ours (or is damaged) is put aside as ``practice.json.damaged`` when a result is next kept,
and a file of a newer version is left alone (the result is then not kept, and said so).
At most ``MOST_RESULTS`` results are kept, the oldest dropped first.

>>> import tempfile
>>> data = DataDir(Path(tempfile.mkdtemp()))
>>> read_results(data)
Results(results=(), problem=None)
>>> at = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)
>>> keep_result(data, PracticeResult("game.json", 12, "mistake", "second", at))
>>> read_results(data).results[0].outcome
'second'
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from coloretto.store.files import read_bounded, write_atomically
from coloretto.store.paths import DataDir
from coloretto.store.text import LONGEST_NAME, printable

PRACTICE_FILE = "practice.json"

FORMAT = "coloretto-practice/1"

FORMAT_PREFIX = "coloretto-practice/"
"""The formats of this file, of any version (a newer one is left alone)."""

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
    grade of the move played in the game, how it went (``OUTCOMES``), and when (UTC)."""

    game: str
    ply: int
    grade: str
    outcome: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """The result as the file keeps it."""
        return {
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


def read_results(data: DataDir) -> Results:
    """The results kept (those entries that are results), and what was wrong with the
    file, if anything: never raises."""
    path = practice_path(data)
    try:
        found = _read(path)
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
    """The results in ``path``; ``_Newer`` for a newer version, ``ValueError`` for a file
    that is not one of ours, ``OSError`` if it cannot be read."""
    if not stat.S_ISREG(path.stat().st_mode):  # a folder, a pipe that would never end
        raise ValueError("not a regular file")
    data = json.loads(read_bounded(path, MAX_PRACTICE_BYTES).decode("utf-8"))
    if not isinstance(data, Mapping) or not isinstance(data.get("format"), str):
        raise ValueError("not a file of practice results")
    if data["format"] != FORMAT:
        if data["format"].startswith(FORMAT_PREFIX):
            raise _Newer
        raise ValueError("not a file of practice results")
    entries = data.get("results")
    if not isinstance(entries, list):
        raise ValueError("no list of results")
    found = (_result(entry) for entry in entries[-MOST_RESULTS:])
    return tuple(result for result in found if result is not None)


def _result(entry: object) -> PracticeResult | None:
    """A result from the file, if the entry is one; else ``None``."""
    if not isinstance(entry, Mapping):
        return None
    game, ply, grade, outcome, at = (
        entry.get(k) for k in ("game", "ply", "grade", "outcome", "at")
    )
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
        printable(game, LONGEST_NAME * 4), ply, str(grade), str(outcome), when.astimezone(UTC)
    )


def keep_result(data: DataDir, result: PracticeResult) -> str | None:
    """Add ``result`` to those kept, atomically; says what went wrong (``None``: nothing).
    A file that is not one of ours is put aside first (``practice.json.damaged``); one of
    a newer version is left alone."""
    path = practice_path(data)
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
        data.root.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text + "\n")
    except OSError as error:
        return printable(f"the result was not kept: {error}")
    return None
