"""The rooms' files: a snapshot of each room, the log of the actions played since, and the
archive of finished rooms.

Under the server's data directory:

- ``rooms/CODE.json``: the room as it stood at its last ``save`` (a game record whose
  metadata holds the room, as ``Room.load`` reads it), written whole and atomically;
- ``rooms/CODE.log``: the actions played since, one JSON line each, appended and flushed
  to the disk one at a time (``append``: a few hundred microseconds, whatever the game's
  length). Its first line names the snapshot it follows (its deal and number of actions),
  so a log left over from an earlier snapshot is never replayed onto a later one;
- ``rooms/finished/CODE.json``: a finished room's whole record (``archive``), kept for a
  player or a watcher who comes late (``KEEP_FINISHED``: a week), and not loaded at start.

>>> import logging, tempfile
>>> from pathlib import Path
>>> from coloretto.engine import Rules
>>> from coloretto.online.protocol import Host
>>> store = RoomStore(DataDir(Path(tempfile.mkdtemp())))
>>> room, _ = Room.open("ABCDEF", Host("Ana", Rules(players=3), "easy", 0, 30))
>>> room.start()
>>> store.save(room.snapshot())
>>> store.append("ABCDEF", 0, room.session.apply(room.session.game.legal_actions()[0]), False)
>>> [(again.code, again.ply) for again in store.load_all(logging.getLogger())]
[('ABCDEF', 1)]
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from coloretto.engine import Action, GameState, IllegalAction, Move, RecordError
from coloretto.online.protocol import ROOM_CODE
from coloretto.online.public import move_json
from coloretto.online.rooms import Room, Snapshot
from coloretto.store.files import write_atomically
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record

MAX_LOG_ACTIONS = 1000
"""The most actions a log may hold (a game has fewer than 200)."""

MAX_LOG_LINE = 512
"""The longest line a log may hold, in bytes (an action takes about 100)."""

MAX_LOG_BYTES = (MAX_LOG_ACTIONS + 1) * MAX_LOG_LINE

KEEP_FINISHED = 7 * 24 * 3600.0
"""Seconds a finished room stays in the archive (by its file's time), for a late player or
watcher; older ones are deleted (``RoomStore.prune_finished``)."""

PRUNE_EVERY = 3600.0
"""Seconds between two prunings of the archive while rooms finish."""
"""The most of a log file that is read."""

_KEYS = frozenset({"ply", "move", "covered"})
"""The keys of a logged action (``covered`` only when a bot played for a person away)."""

_sync = getattr(os, "fdatasync", os.fsync)
"""Flush a file's content to the disk (and its size; not its times, where the system can)."""


class RoomStore:
    """The rooms' files under ``data.root / "rooms"``: each active room's snapshot and
    action log, and the finished rooms' archive. Not safe for two calls about the same room
    at once (calls about different rooms are)."""

    def __init__(self, data: DataDir) -> None:
        self.folder = data.root / "rooms"
        self.finished = self.folder / "finished"
        self._next_prune = 0.0
        """When (``time.monotonic``) ``archive`` prunes the archive next."""

    def path(self, code: str) -> Path:
        """The snapshot file of room ``code``; ``ValueError`` if it is no room code."""
        if not ROOM_CODE.fullmatch(code):
            raise ValueError(f"not a room code: {code[:20]!r}")
        return self.folder / f"{code}.json"

    def _log(self, code: str) -> Path:
        return self.path(code).with_suffix(".log")

    # ------------------------------------------------------------------ writing

    def save(self, snapshot: Snapshot) -> None:
        """Save the whole room atomically and durably, and start its log afresh (the
        snapshot holds every action); ``OSError`` if the disk refuses. Until a save
        succeeds again, the actions appended are not sure to be kept."""
        self.folder.mkdir(parents=True, exist_ok=True)
        write_record(self.path(snapshot.code), snapshot.state, snapshot.seats, snapshot.meta)
        _sync_folder(self.folder)  # the snapshot is there before its old log goes
        self._start_log(snapshot.code, snapshot.state)

    def _start_log(self, code: str, state: GameState) -> None:
        """Make the room's log empty, following the snapshot of ``state``."""
        header = {"deal": _deal_id(state), "from": len(state.history())}
        write_atomically(self._log(code), json.dumps(header) + "\n")
        _sync_folder(self.folder)

    def append(self, code: str, ply: int, move: Move, covered: bool) -> None:
        """Add action ``ply`` (from 0) to the room's log, flushed to the disk before it
        returns; ``covered``: a bot played it for a person away. ``OSError`` if the disk
        refuses (the log is then as it was, where the disk lets it) or if the room was never
        saved (it has no log). Actions are appended in order, from the snapshot's."""
        entry: dict[str, Any] = {"ply": ply, "move": move_json(move)}
        if covered:
            entry["covered"] = True
        line = (json.dumps(entry) + "\n").encode()
        fd = os.open(self._log(code), os.O_WRONLY | os.O_APPEND)
        try:
            end = os.lseek(fd, 0, os.SEEK_END)
            try:
                if os.write(fd, line) != len(line):
                    raise OSError(errno.ENOSPC, "the disk is full")
                _sync(fd)
            except OSError:  # no half line left for the next action to follow
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, end)
                raise
        finally:
            os.close(fd)

    def archive(self, room: Room) -> None:
        """Move a finished room out of the active rooms: its whole record is written to
        ``rooms/finished/CODE.json`` (atomically), then its active files go."""
        snapshot = room.snapshot()
        path = self.finished / self.path(snapshot.code).name
        self.finished.mkdir(parents=True, exist_ok=True)
        write_record(path, snapshot.state, snapshot.seats, snapshot.meta)
        _sync_folder(self.finished)
        self.remove(snapshot.code)
        if time.monotonic() >= self._next_prune:
            self._next_prune = time.monotonic() + PRUNE_EVERY
            self.prune_finished()

    def prune_finished(self, now: float | None = None) -> int:
        """Delete the finished rooms archived more than ``KEEP_FINISHED`` seconds before
        ``now`` (the files' modification times; by default the present). Only files named
        as a room's are touched; one that cannot be read or deleted is left. Returns how
        many went."""
        cutoff = (time.time() if now is None else now) - KEEP_FINISHED
        try:
            entries = list(os.scandir(self.finished))
        except OSError:
            return 0
        gone = 0
        for entry in entries:
            code = entry.name.removesuffix(".json")
            if code == entry.name or not ROOM_CODE.fullmatch(code):
                continue
            try:
                if entry.stat(follow_symlinks=False).st_mtime < cutoff:
                    os.unlink(entry.path)
                    gone += 1
            except OSError:
                continue
        return gone

    def remove(self, code: str) -> None:
        """Forget room ``code``'s active files (those missing are fine)."""
        self.path(code).unlink(missing_ok=True)
        self._log(code).unlink(missing_ok=True)

    # ------------------------------------------------------------------ reading

    def taken(self, code: str) -> bool:
        """True when ``code`` names a room kept here, in play or archived (a new room must
        not take the code of a finished one a late player may still ask for)."""
        return self.path(code).exists() or (self.finished / f"{code}.json").exists()

    def load_archived(self, code: str) -> Room | None:
        """The finished room ``code`` from the archive; ``None`` if there is none (or
        ``code`` is no room code). ``RecordError`` if its file is damaged."""
        if not ROOM_CODE.fullmatch(code):
            return None
        path = self.finished / f"{code}.json"
        if not path.is_file():
            return None
        return Room.load(path)

    def load_all(self, log: logging.Logger) -> Iterator[Room]:
        """Every active room: its snapshot with the actions of its log played again. A
        file that is no room is logged and left alone; so is the rest of a log from a line
        that does not fit (it is cut off there, so that later actions follow good ones)."""
        try:
            paths = sorted(self.folder.glob("*.json"))
        except OSError:
            return
        for path in paths:
            if ROOM_CODE.fullmatch(path.stem):
                room = self._load(path, log)
                if room is not None:
                    yield room

    def _load(self, path: Path, log: logging.Logger) -> Room | None:
        code = path.stem
        try:
            if (self.finished / path.name).is_file():  # archived, then stopped before removing
                self.remove(code)
                return None
            room = Room.load(path)
        except RecordError as error:
            log.error("room not loaded: %s", error)
            return None
        except OSError as error:
            log.error("room %s not loaded: %s", code, error)
            return None
        try:
            self._replay(room, log)
        except OSError as error:
            log.error("room %s: its log cannot be read or mended: %s", code, error)
        return room

    def _replay(self, room: Room, log: logging.Logger) -> None:
        """Play the room's log onto its snapshot; a log that does not follow this snapshot
        (or none at all: a room saved before logs were kept) is started afresh."""
        path = self._log(room.code)
        game = room.session.game
        try:
            with path.open("rb") as file:
                raw = file.read(MAX_LOG_BYTES + 1)
        except FileNotFoundError:
            self._start_log(room.code, game)
            return
        end = raw.find(b"\n") + 1
        ply = start = room.ply
        if _json(raw[:end]) != {"deal": _deal_id(game), "from": start}:
            log.warning("room %s: its log does not follow its snapshot: not replayed", room.code)
            self._start_log(room.code, game)
            return
        problem = None
        while end < len(raw) and problem is None:
            stop = raw.find(b"\n", end)
            if stop < 0:
                big = len(raw) > MAX_LOG_BYTES
                problem = f"more than {MAX_LOG_BYTES} bytes" if big else "a torn last line"
            elif stop - end > MAX_LOG_LINE or ply - start >= MAX_LOG_ACTIONS:
                problem = f"action {ply + 1}: a line too long, or too many"
            else:
                problem = _play(room, ply, raw[end:stop])
                if problem is None:
                    end, ply = stop + 1, ply + 1
        if problem is not None:
            log.warning("room %s: log replayed up to %s (cut off there)", room.code, problem)
            os.truncate(path, end)


def _json(line: bytes) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _play(room: Room, ply: int, line: bytes) -> str | None:
    """Play action ``ply``, logged as ``line``, in ``room``; what is wrong, if anything."""
    where = f"action {ply + 1}"
    entry = _json(line)
    if not isinstance(entry, Mapping) or not {"ply", "move"} <= set(entry) <= _KEYS:
        return f"{where}: not a logged action"
    if type(entry["ply"]) is not int or entry["ply"] != ply:
        return f"{where}: logged as action {str(entry['ply'])[:20]}"
    if entry.get("covered", True) is not True:
        return f"{where}: covered is not true"
    told = entry["move"]
    try:
        if not isinstance(told, Mapping) or not isinstance(told.get("action"), str):
            raise ValueError("no action")
        move = room.session.game.apply(Action.parse(told["action"])).last_move
    except (ValueError, IllegalAction) as error:
        return f"{where}: {error}"
    if move is None or move_json(move) != told:
        return f"{where}: {json.dumps(told)[:80]} does not fit the game"
    room.session.apply(move.action)
    if "covered" in entry:
        room.covered.append(ply)
    return None


def _deal_id(state: GameState) -> str:
    """A short fingerprint of ``state``'s deal, that tells the games of a match apart."""
    setup = state.setup
    text = json.dumps(
        [
            [card.text for card in setup.deck],
            [[card.text for card in hand] for hand in setup.starting],
            [card.text for card in setup.removed],
            setup.first_player,
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (files renamed or made in it) to the disk, where the
    system can (POSIX)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
