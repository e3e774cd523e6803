"""Rooms kept as files by servers before the database (``rooms/CODE.json`` snapshots,
``rooms/CODE.log`` action logs, ``rooms/finished/CODE.json``), moved into the database
the first time a newer server starts on the same data directory.

The files are untrusted like any: each is read bounded and checked as a record, each
logged action is played again only if it fits (the rest of a log is left out, logged).
Once every room is in the database, the folder is renamed ``rooms.moved`` (kept, not
deleted, in case someone wants it), so nothing is moved twice.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

from coloretto.engine import RecordError
from coloretto.online.server.room_space import RoomSpace, replay_entry
from coloretto.online.server.rooms import Room
from coloretto.online.wire.protocol import ROOM_CODE
from coloretto.store.files import TooLarge, read_bounded
from coloretto.store.paths import DataDir

MAX_LOG_BYTES = 1001 * 512
"""The most of a log file that is read (1,000 actions of at most 512 bytes)."""

MOVED = "rooms.moved"
"""What the rooms' folder is renamed once its rooms are in the database."""


def rooms_in(folder: Path, log: logging.Logger) -> Iterator[Room]:
    """The rooms kept in ``folder`` (``rooms/``): those in play with their logs played
    again, then the finished ones. A file that is no room is logged and left out."""
    for path in sorted(folder.glob("*.json")):
        if ROOM_CODE.fullmatch(path.stem) and (room := _load(path, log)) is not None:
            _replay(room, path.with_suffix(".log"), log)
            yield room
    for path in sorted((folder / "finished").glob("*.json")):
        if ROOM_CODE.fullmatch(path.stem) and (room := _load(path, log)) is not None:
            yield room


def _load(path: Path, log: logging.Logger) -> Room | None:
    try:
        return Room.load(path)
    except RecordError as error:
        log.error("room not moved: %s", error)
    except OSError as error:
        log.error("room %s not moved: %s", path.stem, error)
    return None


def _replay(room: Room, path: Path, log: logging.Logger) -> None:
    """Play the log's actions onto the room's snapshot, if the log follows it."""
    try:
        raw = read_bounded(path, MAX_LOG_BYTES)
    except (OSError, TooLarge):
        return
    lines = raw.split(b"\n")
    try:
        header = json.loads(lines[0])
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get("from") != room.ply:
        log.warning("room %s: its log does not follow its snapshot: not replayed", room.code)
        return
    for line in lines[1:]:
        if not line:
            break
        if (problem := replay_entry(room, room.ply, line)) is not None:
            log.warning("room %s: log replayed up to %s", room.code, problem)
            break


async def import_files(space: RoomSpace, data: DataDir, log: logging.Logger) -> int:
    """Move the rooms of ``data``'s ``rooms/`` folder into ``space`` (those already there
    are left as they are), then rename the folder ``rooms.moved``; how many moved."""
    folder = data.root / "rooms"
    if not folder.is_dir():
        return 0
    moved = 0
    for room in rooms_in(folder, log):
        if await space.taken(room.code):
            continue
        await space.save(room)
        if room.session.match.is_over:
            await space.archive(room)
        moved += 1
    folder.rename(data.root / MOVED)
    return moved
