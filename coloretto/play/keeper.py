"""Keeping the game on disk while it is played: what the table and the app call after each
action, each part done by its home (a save after every action: ``store.saves`` with
``play.saving``; the finished games: ``store.history``; their results:
``play.statistics``; the lock: ``store.lock``; the last setup: ``store.last_setup``;
incidents: ``store.incidents``).

Disk trouble never stops a game: the keeper says what went wrong (once) and play goes on.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection
from dataclasses import replace

from coloretto.play.config import GameConfig, setup_from_json, setup_to_json
from coloretto.play.saving import MOST_LISTED, InProgress, in_progress, session_record
from coloretto.play.session import Session
from coloretto.store.history import keep_finished
from coloretto.store.incidents import incident_log
from coloretto.store.last_setup import read_setup, write_setup
from coloretto.store.lock import Lock, Locked, hold
from coloretto.store.paths import DataDir
from coloretto.store.saves import discard, lock_path, save, save_path
from coloretto.store.text import printable


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

    def in_progress(
        self, *, besides: Session | str | None = None, most: int = MOST_LISTED
    ) -> InProgress:
        """The games saved in progress that can be resumed (``play.saving.in_progress``)."""
        return in_progress(self.data, besides=besides, most=most)

    def remember(self, config: GameConfig) -> None:
        """Keep ``config`` as the last setup (see ``last_setup``); trouble is only logged."""
        try:
            write_setup(self.data, setup_to_json(config))
        except OSError as error:
            self.log.warning("could not keep the setup: %s", error)

    def remember_pace(self, delay: float) -> None:
        """The bots' pace changed during play: the setup kept for next time (if one is)
        takes it."""
        kept = self.last_setup()
        if kept is not None and kept.delay != delay:
            self.remember(replace(kept, delay=delay))

    def last_setup(self) -> GameConfig | None:
        """The last setup kept (what is wrong in it left at the defaults); ``None`` if none."""
        kept = read_setup(self.data)
        return None if kept is None else setup_from_json(kept)

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

    def discard(self, session_id: str) -> str | None:
        """Remove the game in progress ``session_id`` for good (let go first if this
        process holds it); what went wrong in words, or ``None``."""
        shown = printable(session_id, 40)
        try:
            if self._lock is not None and self._lock.path == lock_path(self.data, session_id):
                self.release()
            discard(self.data, session_id)
        except ValueError:
            return f"{shown!r} is no game id (ids look like 20261121-070503-a1b2c3)"
        except FileNotFoundError:
            return f"there is no game in progress called {shown}"
        except Locked as locked:
            who = locked.holder or "another process"
            return f"{shown} is being played in another window ({who}): quit it there first"
        except OSError as error:
            return self._trouble("discard the game", save_path(self.data, session_id), error)
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

    def finish(self, session: Session, stood_in: Collection[int] = ()) -> str | None:
        """Once a game is over: keep it in the history and count it in the statistics
        (both idempotent: the same game is kept and counted once). ``stood_in``: the
        people a bot stood in for while they were away (marked in the record, and the
        game left out of their statistics)."""
        if not session.game.is_over:
            return None
        if (problem := self.claim(session)) is not None:
            return f"the game was not kept: {problem}"
        # SQLite and the statistics: imported at a game's end only.
        from coloretto.play.statistics import RECOUNT, STOOD_IN_KEY, count_game  # noqa: PLC0415
        from coloretto.store.stats import StatsError  # noqa: PLC0415

        record = session_record(session)
        if stood_in:
            record = replace(record, meta={**record.meta, STOOD_IN_KEY: sorted(stood_in)})
        match = session.match
        problems = []
        try:
            keep_finished(
                self.data, session.id, record, match.game_number, match_over=match.is_over
            )
        except OSError as error:
            problems.append(self._trouble("keep the finished game", self.data.history, error))
        try:
            count_game(self.data, session, stood_in)
        except StatsError as error:
            self.log.error("statistics: %s", error)
            if problems:
                problems.append(f"the statistics were not updated either ({error})")
            else:  # the record is what the statistics are counted from again
                problems.append(
                    f"the game is kept in the history, only the statistics were not updated "
                    f"({error}); {RECOUNT} counts it from there"
                )
        return "; ".join(problems) or None

    def _trouble(self, what: str, path: object, error: OSError) -> str:
        self.log.error("could not %s in %s: %s", what, path, error)
        return f"could not {what} ({error.strerror or error}) in {path}"
