"""Game record files (``coloretto-record/1``, the engine's format): read bounded and
checked, written atomically.

>>> import tempfile
>>> from coloretto.engine import new_game
>>> path = Path(tempfile.mkdtemp()) / "game.json"
>>> write_record(path, new_game(seed=3).apply("draw"), ["Ana", "Ben", "Cy", "Di"])
>>> read_record(path).seats
('Ana', 'Ben', 'Cy', 'Di')
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from coloretto.engine import GameRecord, GameState, RecordError, UnreadableRecord
from coloretto.engine.record import parse_record, record_text
from coloretto.store.files import TooLarge, read_bounded, write_atomically

MAX_RECORD_BYTES = 4 * 1024 * 1024
"""The largest record file read (a finished five-player game takes about 20 KiB)."""


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Load a record file; ``RecordError`` names the file and the problem
    (``UnreadableRecord`` when the file holds no JSON text at all).

    The file is untrusted: at most ``MAX_RECORD_BYTES`` are read, and the text is checked
    as the engine checks any record (``parse_record``).
    """
    path = Path(path)
    try:
        raw = read_bounded(path, MAX_RECORD_BYTES)
    except TooLarge:
        raise UnreadableRecord(
            f"not a game record (larger than {MAX_RECORD_BYTES // 2**20} MiB)", path=path
        ) from None
    except OSError as error:
        raise UnreadableRecord(
            f"cannot read the file ({error.strerror or error})", path=path
        ) from None
    try:
        return parse_record(raw)
    except RecordError as error:
        raise error.in_file(path) from None


def write_record(
    path: str | os.PathLike[str],
    state: GameState,
    seats: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> None:
    """Write the record atomically: a crash mid-write leaves any previous file intact.
    Raises ``OSError`` if the disk refuses."""
    write_atomically(path, record_text(state, seats, meta))
