"""Games in progress on disk: a game record (``coloretto-record/1``) with the session kept
in its metadata, so that a game resumes with the same deal, seats, bots and match totals.

A save is written after every action, atomically (the engine's ``write_record``), one
file per session in ``DataDir.saves``. A finished game is copied to ``DataDir.history``;
when it ends the match, its save is removed.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from coloretto.engine import GameState, Match
from coloretto.engine.record import GameRecord, RecordError, expect, read_record, write_record
from coloretto.engine.setup import deal
from coloretto.store.paths import DataDir

SESSION_KEY = "session"
"""The key of the session in a record's metadata."""

SUFFIX = ".json"

SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""What a session id may be: it names files, so no dots, slashes or other surprises
(``new_id`` makes ids like ``20261121-070503-a1b2c3``)."""


@dataclass(frozen=True)
class SavedPlayer:
    """A player as saved: a name, and the bot spec or level (``None`` for a person)."""

    name: str
    bot: str | None = None


@dataclass(frozen=True)
class SavedGame:
    """A session as saved: who plays, the match so far, and the table's settings.

    >>> from coloretto.engine import Rules
    >>> match = Match.start(Rules(players=2), seed=5)
    >>> saved = SavedGame("s1", (SavedPlayer("Ana"), SavedPlayer("Bot 1", "easy")), match,
    ...                   ("Ana", "Bot 1"))
    >>> SavedGame.from_record(saved.record_of()).match == match
    True
    """

    id: str
    players: tuple[SavedPlayer, ...]
    match: Match
    seat_names: tuple[str, ...]
    delay: float = 0.6
    hint_bot: str = "expert"
    level: str = "normal"
    seeded: bool = False
    """True when the player chose the seed (a rematch then takes the next seed)."""

    @property
    def game(self) -> GameState:
        """The game being played."""
        return self.match.game

    def meta(self) -> dict[str, Any]:
        """The session as the JSON-ready metadata of the game's record."""
        match = self.match
        return {
            SESSION_KEY: {
                "id": self.id,
                "players": [{"name": p.name, "bot": p.bot} for p in self.players],
                "match": {
                    "seed": match.seed,
                    "game": match.game_number,
                    "results": [list(scores) for scores in match.results],
                },
                "delay": self.delay,
                "hint_bot": self.hint_bot,
                "level": self.level,
                "seeded": self.seeded,
            }
        }

    def record_of(self) -> GameRecord:
        """The game's record, as ``read_record`` would give it back."""
        return GameRecord(self.match.rules, self.seat_names, self.game, self.meta())

    @classmethod
    def from_record(cls, record: GameRecord, default_bot: str = "normal") -> SavedGame:
        """The session kept in ``record``; raises ``RecordError`` if it does not fit the game.

        A record without a session (say, from the arena) is a new session: the first
        player is a person, the others are bots at ``default_bot``.
        """
        rules = record.rules
        data = record.meta.get(SESSION_KEY)
        if data is None:
            players = tuple(
                SavedPlayer(name, None if seat == 0 else default_bot)
                for seat, name in enumerate(record.seats[: rules.players])
            )
            seed = record.state.setup.seed
            match = Match(rules, seed if isinstance(seed, int) else 0, record.state)
            return cls(new_id(), players, match, record.seats, level=default_bot)
        session = expect(data, Mapping, SESSION_KEY, "an object")
        where = f"meta.{SESSION_KEY}"
        entries = expect(session.get("players"), list, f"{where}.players", "a list")
        players = tuple(_player(entry, f"{where}.players[{i}]") for i, entry in enumerate(entries))
        if len(players) != rules.players:
            raise RecordError(f"{where}.players: expected {rules.players} players")
        match_data = expect(session.get("match"), Mapping, f"{where}.match", "an object")
        seed = expect(match_data.get("seed"), int, f"{where}.match.seed", "a number")
        results = tuple(
            tuple(expect(scores, list, f"{where}.match.results[{i}]", "a list of scores"))
            for i, scores in enumerate(
                expect(match_data.get("results"), list, f"{where}.match.results", "a list")
            )
        )
        if len(results) >= rules.games or any(
            len(scores) != rules.seats or not all(type(s) is int for s in scores)
            for scores in results
        ):
            raise RecordError(f"{where}.match.results: not the scores of earlier games")
        match = Match(rules, seed, record.state, results)
        setup = record.state.setup
        if deal(rules, match.game_seed(match.game_number), setup.first_player) != setup:
            raise RecordError(
                f"{where}.match: the deal is not game {match.game_number} of match {seed}"
            )
        delay = expect(session.get("delay", 0.6), (int, float), f"{where}.delay", "seconds")
        session_id = expect(session.get("id"), str, f"{where}.id", "text")
        if not SESSION_ID.fullmatch(session_id):
            raise RecordError(f"{where}.id: not a session id: {session_id[:40]!r}")
        return cls(
            session_id,
            players,
            match,
            record.seats,
            float(delay),
            expect(session.get("hint_bot", "expert"), str, f"{where}.hint_bot", "a bot"),
            expect(session.get("level", "normal"), str, f"{where}.level", "a level"),
            bool(session.get("seeded", False)),
        )


def _player(entry: object, where: str) -> SavedPlayer:
    data = expect(entry, Mapping, where, "an object")
    bot = data.get("bot")
    if bot is not None and not isinstance(bot, str):
        raise RecordError(f"{where}.bot: expected a bot spec or null")
    return SavedPlayer(expect(data.get("name"), str, f"{where}.name", "a name"), bot)


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


def history_path(data: DataDir, saved: SavedGame) -> Path:
    """Where the current game of ``saved`` is kept once finished."""
    match = saved.match
    suffix = f"-game{match.game_number}" if match.rules.games > 1 else ""
    return data.history / f"{_checked(saved.id)}{suffix}{SUFFIX}"


def save(data: DataDir, saved: SavedGame) -> Path:
    """Save the session (atomically); raises ``OSError`` if the disk refuses."""
    data.ensure()
    path = save_path(data, saved.id)
    write_record(path, saved.game, saved.seat_names, saved.meta())
    return path


def keep_finished(data: DataDir, saved: SavedGame) -> Path:
    """Copy the finished game to the history; remove the save once the match is over
    (until then the save, holding the finished game, deals the next one on resuming).

    Raises ``OSError`` if the disk refuses.
    """
    data.ensure()
    path = history_path(data, saved)
    write_record(path, saved.game, saved.seat_names, saved.meta())
    if saved.match.is_over:
        save_path(data, saved.id).unlink(missing_ok=True)
    return path


def latest_save(data: DataDir) -> Path | None:
    """The save touched last (the game to resume), if any."""
    return _newest(data.saves)


def latest_finished(data: DataDir) -> Path | None:
    """The finished game kept last, if any."""
    return _newest(data.history)


def finished_games(data: DataDir) -> list[Path]:
    """The history, newest first."""
    return _by_age(data.history)


def _newest(folder: Path) -> Path | None:
    files = _by_age(folder)
    return files[0] if files else None


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


def load_save(path: str | os.PathLike[str], default_bot: str = "normal") -> SavedGame:
    """The session saved in ``path``; ``RecordError`` names the file and the problem.

    The file is only read, never changed.
    """
    record = read_record(path)
    try:
        return SavedGame.from_record(record, default_bot)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
