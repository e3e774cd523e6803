"""Keeping the game on disk while it is played: a save after every action, the finished
games in the history, their results in the statistics, incidents in the log.

Disk trouble never stops a game: the keeper says what went wrong (once) and play goes on.
"""

from __future__ import annotations

import contextlib
import logging

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.play.saving import session_record
from coloretto.play.session import Session
from coloretto.store.incidents import incident_log
from coloretto.store.lock import Lock, Locked, hold
from coloretto.store.paths import DataDir
from coloretto.store.saves import games_in_progress, keep_finished, lock_path, save, save_path
from coloretto.store.stats import GameResult, Stats, StatsError


class Keeper:
    """The app's link to its data directory (``DataDir.default()`` unless given)."""

    def __init__(self, data: DataDir | None = None) -> None:
        self.data = data or DataDir.default()
        self._log: logging.Logger | None = None
        self._lock: Lock | None = None

    @property
    def log(self) -> logging.Logger:
        """The incident log (``DataDir.log``)."""
        if self._log is None:
            with contextlib.suppress(OSError):  # the handler reports it; play goes on
                self.data.root.mkdir(parents=True, exist_ok=True)
            self._log = incident_log(self.data.log)
        return self._log

    def games_in_progress(self, *, besides: Session) -> list[str]:
        """The ids of the other games saved in progress, the one played last first."""
        return [i for i in games_in_progress(self.data) if i != besides.id]

    def claim(self, session: Session) -> str | None:
        """Hold the session's game for this process (one game, one writer) until
        ``release``, another claim, or the process's end; says who holds it if another
        process does. A lock that cannot be made is no reason not to play."""
        path = lock_path(self.data, session.id)
        if self._lock is not None and self._lock.path == path:
            return None
        try:
            self.data.ensure()
            lock = hold(path)
        except Locked as locked:
            who = locked.holder or "another process"
            return f"the game is being played in another window ({who})"
        except OSError:
            return None
        self.release()
        self._lock = lock
        return None

    def release(self) -> None:
        """Let the game claimed last go."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def save(self, session: Session) -> str | None:
        """Save the session (if this process holds it); a problem is logged and returned
        as a message."""
        if (problem := self.claim(session)) is not None:
            return f"could not save the game: {problem}"
        try:
            save(self.data, session.id, session_record(session))
        except OSError as error:
            return self._trouble("save the game", save_path(self.data, session.id), error)
        return None

    def finish(self, session: Session) -> str | None:
        """Once a game is over: keep it in the history and count it in the statistics
        (both idempotent: the same game is kept and counted once)."""
        if not session.game.is_over:
            return None
        if (problem := self.claim(session)) is not None:
            return f"the game was not kept: {problem}"
        record = session_record(session)
        match = session.match
        problems = []
        try:
            keep_finished(
                self.data, session.id, record, match.game_number, match_over=match.is_over
            )
        except OSError as error:
            problems.append(self._trouble("keep the finished game", self.data.history, error))
        try:
            players = [(p.name, p.bot) for p in session.config.players]
            game_id = f"{session.id}/{match.game_number}"
            result = GameResult.of(
                game_id, session.game, players, levels=LEVELS, revisions=LEVEL_REVISIONS
            )
            Stats(self.data.stats).add(result)
        except StatsError as error:
            self.log.error("statistics: %s", error)
            problems.append(f"the statistics were not updated ({error})")
        return "; ".join(problems) or None

    def _trouble(self, what: str, path: object, error: OSError) -> str:
        self.log.error("could not %s in %s: %s", what, path, error)
        return f"could not {what} ({error.strerror or error}) in {path}"
