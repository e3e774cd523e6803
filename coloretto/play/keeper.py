"""Keeping the game on disk while it is played: a save after every action, the finished
games in the history, their results in the statistics, incidents in the log, and the last
setup chosen.

Disk trouble never stops a game: the keeper says what went wrong (once) and play goes on.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.engine import RecordError
from coloretto.play.config import MAX_NAME, GameConfig, setup_from_json, setup_to_json
from coloretto.play.saving import SESSION_KEY, load_session, session_from_record, session_record
from coloretto.play.session import Session
from coloretto.play.words import names_and
from coloretto.store.incidents import incident_log
from coloretto.store.lock import Lock, Locked, hold
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.saves import (
    discard,
    finished_games,
    games_in_progress,
    keep_finished,
    lock_path,
    read_setup,
    save,
    save_path,
    write_setup,
)
from coloretto.store.text import printable

if TYPE_CHECKING:
    from coloretto.store.stats import GameResult

MOST_LISTED = 5
"""The most other games in progress described when quitting (the rest are counted)."""

STOOD_IN_KEY = "stood_in"
"""The key, in a finished game's metadata, of the players (people, by number) a bot stood
in for while they were away (an online game): the game is left out of their statistics."""


def stood_in(meta: Mapping[str, Any], players: int) -> frozenset[int]:
    """The players a bot stood in for, as a record's metadata says (``STOOD_IN_KEY``; what
    is not a player number of the game is passed over).

    >>> sorted(stood_in({"stood_in": [2, 0, 7, "1", True]}, 3)), stood_in({}, 3)
    ([0, 2], frozenset())
    """
    value = meta.get(STOOD_IN_KEY)
    if not isinstance(value, list):
        return frozenset()
    return frozenset(p for p in value if type(p) is int and 0 <= p < players)


@dataclass(frozen=True)
class SavedGame:
    """A game in progress on disk, as its players know it: who plays, where it stands, when
    it was saved. Everything shown is ``printable``."""

    id: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    """The players' scores now (in a match: this game's)."""
    round: int
    game: int
    games: int
    saved: datetime | None

    @classmethod
    def read(cls, path: Path) -> SavedGame | None:
        """The game saved in ``path`` (only read; its id is the file's name, as ``--resume
        ID`` takes it); ``None`` if it cannot be loaded."""
        try:
            session = load_session(path)
        except ValueError:  # RecordError: not a save, or a broken one
            return None
        try:
            saved: datetime | None = datetime.fromtimestamp(path.stat().st_mtime)
        except OSError:
            saved = None
        config = session.config
        return cls(
            id=path.stem,
            players=tuple(printable(p.name, MAX_NAME) for p in config.players),
            scores=session.game.scores()[: config.rules.players],
            round=session.game.round,
            game=session.match.game_number,
            games=config.rules.games,
            saved=saved,
        )

    @property
    def stage(self) -> str:
        """ "round 3", or "game 2 of 3, round 1"."""
        game = f"game {self.game} of {self.games}, " if self.games > 1 else ""
        return f"{game}round {self.round}"

    def when(self) -> str:
        """ "25 Nov at 01:50" (or "" if unknown)."""
        return "" if self.saved is None else f"{self.saved:%d %b at %H:%M}"

    def line(self) -> str:
        """The game in one short line, for a list of ids.

        >>> SavedGame("ID", ("Ana", "Ben"), (3, 5), 2, 1, 1, datetime(2026, 11, 25, 1, 50)).line()
        'ID: Ana and Ben, round 2, saved 25 Nov at 01:50'
        """
        saved = f", saved {self.when()}" if self.saved is not None else ""
        return f"{self.id}: {names_and(self.players)}, {self.stage}{saved}"

    def standing(self, longest: int = MAX_NAME) -> str:
        """Who plays, their scores and the round; names cut to ``longest`` characters.

        >>> SavedGame("ID", ("Ana", "Bot 1"), (3, -1), 2, 2, 3, None).standing(4)
        'Ana: 3, Bot…: -1 (game 2 of 3, round 2)'
        """
        scores = ", ".join(
            f"{printable(name, longest)}: {score}"
            for name, score in zip(self.players, self.scores, strict=False)
        )
        return f"{scores} ({self.stage})"


MOST_READ = 50
"""The most saves read to tell which games can be resumed (the others are counted)."""


@dataclass(frozen=True)
class InProgress:
    """The games saved in progress: those that can be resumed (some described), and how
    many saves cannot be read."""

    games: list[SavedGame]
    """The games described, the one played last first."""
    more: int
    """Games not described (over the most described, or not read)."""
    unreadable: int
    """Saves that cannot be read (never offered to resume)."""
    data: DataDir

    def lines(self) -> list[str]:
        """One short line a game, then the games left out counted (``[]`` if none).

        >>> saved = SavedGame("ID", ("Ana", "Ben"), (3, 5), 2, 1, 1, None)
        >>> InProgress([saved], 0, 2, DataDir(Path("/c"))).lines()
        ['ID: Ana and Ben, round 2', '(2 other saves in /c/saves cannot be read)']
        >>> InProgress([], 0, 1, DataDir(Path("/c"))).lines()
        ['none that can be resumed: the save in /c/saves cannot be read']
        """
        lines = [game.line() for game in self.games]
        if self.more:
            lines.append(f"and {self.more} more")
        if self.unreadable:
            lines.append(self.unreadable_note())
        return lines

    def unreadable_note(self) -> str:
        """How many saves cannot be read, and where (``""`` if none)."""
        n, folder = self.unreadable, printable(str(self.data.saves))
        if not n:
            return ""
        if self.games or self.more:
            return f"({n} other save{'s' if n > 1 else ''} in {folder} cannot be read)"
        saves = "the save" if n == 1 else f"the {n} saves"
        return f"none that can be resumed: {saves} in {folder} cannot be read"


RECOUNT = "`coloretto stats --recount`"
"""The command that counts the games of the history in the statistics again."""

MOST_RECOUNTED = 10_000
"""The most files of the history read when the statistics are counted again (the history
is untrusted; each file is at most ``MAX_RECORD_BYTES``)."""


@dataclass(frozen=True)
class Recount:
    """What counting the history again found."""

    added: int
    """Games new to the statistics."""
    games: int
    """Finished games read (counted now or before)."""
    unreadable: tuple[Path, ...]
    """Files that cannot be read (not a game record, or a broken one)."""
    elsewhere: tuple[Path, ...]
    """Records that are no finished game played here: unfinished, from elsewhere (no
    session: the arena's, say), or whose session does not fit the game."""
    unread: int
    """Files over ``MOST_RECOUNTED``, not read."""

    @property
    def skipped(self) -> int:
        """Files read but not counted (``unreadable`` and ``elsewhere``)."""
        return len(self.unreadable) + len(self.elsewhere)


def game_result(
    session: Session, finished_at: datetime | None = None, stood_in: Collection[int] = ()
) -> GameResult:
    """The statistics' result of the session's finished game (``finished_at`` now unless
    given, ``stood_in`` the people a bot stood in for); its id is the session's and the
    game's number."""
    from coloretto.store.stats import GameResult  # noqa: PLC0415 (SQLite: at a game's end)

    players = [(p.name, p.bot) for p in session.config.players]
    game_id = f"{session.id}/{session.match.game_number}"
    revisions = LEVEL_REVISIONS
    if finished_at is not None:  # a level's play that changed since is no longer its play
        when = f"{finished_at.astimezone(UTC):%Y-%m-%d %H:%M}"
        revisions = {level: date for level, date in revisions.items() if date <= when}
    result = GameResult.of(
        game_id,
        session.game,
        players,
        levels=LEVELS,
        revisions=revisions,
        finished_at=finished_at,
        stood_in=stood_in,
    )
    return result


def _started(session_id: str, path: Path) -> datetime:
    """When the session started (its id says, ``new_id``), else when ``path`` was written."""
    try:
        return datetime.strptime(session_id[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        pass
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError:
        return datetime.now(UTC)


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
        """The games saved in progress that can be resumed (but ``besides``, a session or
        its id), the one played last first: at most ``most`` described, the others counted."""
        other = besides.id if isinstance(besides, Session) else besides
        ids = [i for i in games_in_progress(self.data) if i != other]
        games: list[SavedGame] = []
        more = unreadable = 0
        for i in ids[:MOST_READ]:
            game = SavedGame.read(save_path(self.data, i))
            if game is None:
                unreadable += 1
            elif len(games) < most:
                games.append(game)
            else:
                more += 1
        return InProgress(games, more + max(0, len(ids) - MOST_READ), unreadable, self.data)

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
        from coloretto.store.stats import Stats, StatsError  # noqa: PLC0415 (SQLite: at the end)

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
            Stats(self.data.stats).add(game_result(session, stood_in=stood_in))
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

    def recount(self, most: int = MOST_RECOUNTED) -> Recount:
        """Count the finished games of the history in the statistics (at most the ``most``
        newest files read; a game counted already is left as it is), with the accuracy of
        those the coach reviewed; ``StatsError`` if the database cannot take them.

        The records give what the statistics keep but the time a game finished (the time
        its session started is taken) and what a level stood for then (a level's play
        since changed is told from its date, ``LEVEL_REVISIONS``)."""
        from coloretto.play.review import pending, positions, review_of, summaries  # noqa: PLC0415
        from coloretto.store.stats import Stats  # noqa: PLC0415

        files = finished_games(self.data)
        results: list[GameResult] = []
        reviewed: list[tuple[str, int, float, int]] = []
        unreadable: list[Path] = []
        elsewhere: list[Path] = []
        for path in files[:most]:
            try:
                record = read_record(path)
            except RecordError:
                unreadable.append(path)
                continue
            try:
                session = session_from_record(record)
            except RecordError:
                elsewhere.append(path)
                continue
            if not record.state.is_over or SESSION_KEY not in record.meta:
                elsewhere.append(path)
                continue
            away = stood_in(record.meta, record.rules.players)
            result = game_result(session, finished_at=_started(session.id, path), stood_in=away)
            results.append(result)
            review = review_of(record, states := positions(record))
            if review is None:
                continue
            people = [
                seat
                for seat, player in enumerate(session.config.players)
                if player.is_human and not pending(states, review, [seat])
            ]
            for summary in summaries(review, states, record.seats, people):
                reviewed.append((result.game_id, summary.seat, summary.accuracy, summary.decisions))
        stats = Stats(self.data.stats)
        added = stats.add_all(results) if results else 0
        for game_id, seat, accuracy, decisions in reviewed:
            stats.add_accuracy(game_id, seat, accuracy, decisions)
        return Recount(
            added, len(results), tuple(unreadable), tuple(elsewhere), max(0, len(files) - most)
        )

    def _trouble(self, what: str, path: object, error: OSError) -> str:
        self.log.error("could not %s in %s: %s", what, path, error)
        return f"could not {what} ({error.strerror or error}) in {path}"
