"""The statistics database: every finished game's result, in SQLite.

One file (``DataDir.stats``) holds a row per finished game and a row per player in it.
Several games may finish at once (games in two terminals): every
write is one short ``BEGIN IMMEDIATE`` transaction, the database runs in WAL mode with a
busy timeout, and a game is keyed by its id, so recording a game twice is a no-op.

The schema version is ``PRAGMA user_version``; ``MIGRATIONS`` upgrade an older file in
order, inside one transaction, the first time a newer program opens it. A file written by
a newer program, or one that is not a statistics database at all, is refused with a
``StatsError`` and left untouched.

The statistics are about the *people* at the table (players without a bot):

>>> import tempfile
>>> from datetime import UTC, datetime
>>> game = GameResult(
...     game_id="example-1",
...     finished_at=datetime(2026, 1, 1, tzinfo=UTC),
...     players=3, scoring="brown", edition="classic", variant="standard",
...     results=(
...         PlayerResult("Ana", None, 41, 1.0),
...         PlayerResult("Bot 1", "normal", 30, 0.0),
...         PlayerResult("Bot 2", "hard", 35, 0.0),
...     ),
... )
>>> with tempfile.TemporaryDirectory() as folder:
...     stats = Stats(Path(folder) / "stats.sqlite3")
...     print(stats.add(game), stats.add(game))
...     summary = stats.summary()
True False
>>> summary.games, summary.people[0]
(1, PersonStats(player='Ana', games=1, wins=1.0, best=41, average=41.0))
>>> group = summary.groups[0]
>>> group.opponents, group.players, group.scoring, group.win_rate
('hard+normal', 3, 'brown', 1.0)
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from coloretto.engine import GameState, Scoring

if TYPE_CHECKING:
    from coloretto.rating import Rating

APPLICATION_ID: Final = 0x436F6C6F
"""``PRAGMA application_id`` of a statistics database ("Colo")."""

BUSY_TIMEOUT: Final = 10.0
"""Seconds to wait for another process's write to finish before giving up."""

PEOPLE_ONLY: Final = "people only"
"""The opponents' label of a game against people only (no bots)."""

Migration = Callable[[sqlite3.Connection], None]
"""One schema step: run inside the upgrade's transaction, on a database one version older."""


def _sql(*statements: str) -> Migration:
    """A migration made of SQL statements, run in order (never ``executescript``: it commits)."""

    def migrate(connection: sqlite3.Connection) -> None:
        for statement in statements:
            connection.execute(statement)

    return migrate


MIGRATIONS: list[Migration] = [
    # Version 1: games, and one row per player (seat order) with the score and win share.
    _sql(
        """
        CREATE TABLE games (
            game_id     TEXT PRIMARY KEY NOT NULL,
            finished_at TEXT NOT NULL,   -- ISO 8601, UTC
            players     INTEGER NOT NULL,
            scoring     TEXT NOT NULL,   -- brown | gray
            edition     TEXT NOT NULL,
            variant     TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE results (
            game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
            player  INTEGER NOT NULL,    -- 0 .. players - 1, in seat order
            name    TEXT NOT NULL,
            bot     TEXT,                -- the bot spec or level; NULL for a person
            score   INTEGER NOT NULL,
            win     REAL NOT NULL,       -- 1 won, 1/k shared a k-way tie, 0 lost
            PRIMARY KEY (game_id, player)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX results_people ON results (name) WHERE bot IS NULL",
    ),
    # Version 2: the coach's accuracy of a player in a reviewed game (coloretto review).
    _sql(
        """
        CREATE TABLE accuracy (
            game_id   TEXT NOT NULL,
            player    INTEGER NOT NULL,
            accuracy  REAL NOT NULL,     -- 0 .. 100
            decisions INTEGER NOT NULL,  -- decisions reviewed
            PRIMARY KEY (game_id, player),
            FOREIGN KEY (game_id, player) REFERENCES results (game_id, player) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
    ),
    # Version 3: the bot spec a level stood for in each game (NULL for a person or a bot
    # named by its spec), so that a level's games against another bot are told apart from
    # its games now. Until this version "normal" was the expert (the search has been the
    # normal level only since the day before).
    _sql(
        "ALTER TABLE results ADD COLUMN spec TEXT",
        "UPDATE results SET spec = 'expert' WHERE bot = 'normal'",
    ),
    # Version 4: the date of the level's play in each game (``LEVEL_REVISIONS``; NULL for
    # a person, a bot named by its spec, a level without a date, and every earlier game),
    # so that a level's games from before a change to how it plays are told apart.
    _sql("ALTER TABLE results ADD COLUMN revision TEXT"),
    # Version 5: whether a bot stood in for the person (played a move of theirs while they
    # were away, online): such a game is left out of that person's figures.
    _sql("ALTER TABLE results ADD COLUMN stood_in INTEGER NOT NULL DEFAULT 0"),
    # Version 6: the ghost variant is scored individually (each player by their own seat);
    # its games counted before kept team totals. They are taken out, and a recount of the
    # history is due (``recount_due``): it counts them again, as they are scored now.
    _sql(
        "CREATE TABLE recount_due (why TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID",
        "INSERT INTO recount_due SELECT 'ghost games are scored individually'"
        " WHERE EXISTS (SELECT 1 FROM games WHERE variant = 'ghost')",
        "DELETE FROM games WHERE variant = 'ghost'",
    ),
]
"""The schema, as steps: ``MIGRATIONS[v]`` upgrades version ``v`` to ``v + 1``.

Append only; never change a step once released. The schema version of this program is
``len(MIGRATIONS)``.
"""


def schema_version() -> int:
    """The schema version this program writes (``PRAGMA user_version``).

    >>> schema_version()
    6
    """
    return len(MIGRATIONS)


class StatsError(Exception):
    """The statistics database cannot be opened, read or written; the message names the file."""


class StatsDamaged(StatsError):
    """The statistics file is not an SQLite database, or a damaged one (SQLite says so):
    nothing in it can be read by this program (``Stats.set_aside`` keeps it for tools that
    may recover some of it)."""


DAMAGED: Final = frozenset({"SQLITE_NOTADB", "SQLITE_CORRUPT"})
"""SQLite's errors for a file that is no database or a damaged one."""


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in a finished game."""

    name: str
    bot: str | None
    """The bot spec or level name (e.g. ``"normal"``); ``None`` for a person."""
    score: int
    """The player's final total (``Outcome.totals``): their own seat's score."""
    win: float
    """1.0 won, 1/k shared a k-way tie for first place, 0.0 lost."""
    spec: str | None = None
    """When ``bot`` names a level: the bot spec it stood for in this game (``"expert"``
    for the normal level's games before schema version 3); ``None`` otherwise."""
    revision: str | None = None
    """When ``bot`` names a level with a date in ``revisions``: the date of the level's play
    in this game (see ``GameResult.of``); ``None`` otherwise and for earlier games."""
    stood_in: bool = False
    """For a person: a bot stood in for them (an online game, a move of theirs played while
    they were away); the game is left out of their figures."""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise ValueError("a player's name cannot be empty")
        if self.bot is not None and not self.bot.strip():
            raise ValueError(f"{self.name}: the bot must be a spec or None, not empty")
        if self.spec is not None and (self.bot is None or not self.spec.strip()):
            raise ValueError(f"{self.name}: a spec needs a bot and cannot be empty")
        if self.revision is not None and (self.spec is None or not self.revision.strip()):
            raise ValueError(f"{self.name}: a revision needs a spec and cannot be empty")
        if not 0.0 <= self.win <= 1.0:
            raise ValueError(f"{self.name}: the win share must be 0 to 1, not {self.win}")
        if self.stood_in and self.bot is not None:
            raise ValueError(f"{self.name}: a bot stands in for a person only")


@dataclass(frozen=True)
class GameResult:
    """A finished game as the statistics keep it.

    ``finished_at`` is normalised to UTC and must be timezone-aware.
    """

    game_id: str
    """Unique per game: recording the same id again is a no-op."""
    finished_at: datetime
    players: int
    scoring: str
    edition: str
    variant: str
    results: tuple[PlayerResult, ...]
    """One per player, in seat order."""

    def __post_init__(self) -> None:
        if not self.game_id:
            raise ValueError("the game id cannot be empty")
        if self.finished_at.tzinfo is None or self.finished_at.utcoffset() is None:
            raise ValueError("finished_at must be timezone-aware")
        object.__setattr__(self, "finished_at", self.finished_at.astimezone(UTC))
        object.__setattr__(self, "results", tuple(self.results))
        if not 2 <= self.players <= 5:
            raise ValueError(f"players must be 2 to 5, not {self.players}")
        if len(self.results) != self.players:
            raise ValueError(f"{self.players} player results needed, not {len(self.results)}")
        if self.scoring not in {s.value for s in Scoring}:
            raise ValueError(f"scoring must be brown or gray, not {self.scoring!r}")

    @classmethod
    def of(
        cls,
        game_id: str,
        state: GameState,
        players: Sequence[tuple[str, str | None]],
        *,
        finished_at: datetime | None = None,
        levels: Mapping[str, str] | None = None,
        revisions: Mapping[str, str] | None = None,
        stood_in: Collection[int] = (),
    ) -> GameResult:
        """The result of the finished game ``state``.

        ``players`` gives each player's name and bot (``None`` for a person), in order;
        a bot named by one of the ``levels`` (level name to bot spec) keeps its spec, and
        the date of its play when ``revisions`` (level name to date) has one.
        A player's score and share of the win are the game's outcome's
        (``state.outcome()``): their own seat's score (in the ghost variant a ghost's
        points are not its player's), the win shared by the highest totals.
        ``stood_in`` are the players (people) a bot stood in for while they were away.
        ``finished_at`` defaults to now. Raises ``ValueError`` if the game is not over
        or ``players`` does not match the rules.
        """
        rules = state.rules
        if not state.is_over:
            raise ValueError("the game is not over yet")
        if len(players) != rules.players:
            raise ValueError(f"{rules.players} players needed, not {len(players)}")
        outcome = state.outcome()
        assert outcome is not None
        specs = levels or {}
        dates = revisions or {}
        return cls(
            game_id=game_id,
            finished_at=datetime.now(UTC) if finished_at is None else finished_at,
            players=rules.players,
            scoring=rules.scoring.value,
            edition=rules.edition.value,
            variant=rules.variant.value,
            results=tuple(
                PlayerResult(
                    name,
                    bot,
                    total,
                    outcome.share(player),
                    None if bot is None else specs.get(bot),
                    None if bot is None or bot not in specs else dates.get(bot),
                    player in stood_in,
                )
                for player, ((name, bot), total) in enumerate(
                    zip(players, outcome.totals, strict=True)
                )
            ),
        )


class _Figures:
    """Games played, wins (shares of ties included), best and average score."""

    games: int
    wins: float
    best: int
    average: float

    @property
    def win_rate(self) -> float:
        """Wins per game, 0 to 1."""
        return self.wins / self.games if self.games else 0.0

    def _figures_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.win_rate, 4),
            "best": self.best,
            "average": round(self.average, 2),
        }


@dataclass(frozen=True)
class PersonStats(_Figures):
    """One person's figures over every game: games, wins (tie shares), best and average."""

    player: str
    games: int
    wins: float
    best: int
    average: float

    def to_json(self) -> dict[str, object]:
        """The figures as JSON values (rounded for reading)."""
        return {"player": self.player, **self._figures_json()}


@dataclass(frozen=True)
class GroupStats(_Figures):
    """One person's figures against one set of opponents, player count and scoring side."""

    player: str
    opponents: str
    """The other players' bots, distinct and sorted, joined by ``+`` (``"hard+normal"``);
    ``+people`` when other people played too; ``"people only"`` without bots. A level
    that stood for another bot in those games is named with it (``"normal (expert)"``),
    and one whose play has changed since, with the date (``"hard (before 2026-11-24)"``)."""
    players: int
    scoring: str
    games: int
    wins: float
    best: int
    average: float

    def to_json(self) -> dict[str, object]:
        """The figures as JSON values (rounded for reading)."""
        return {
            "player": self.player,
            "opponents": self.opponents,
            "players": self.players,
            "scoring": self.scoring,
            **self._figures_json(),
        }


@dataclass(frozen=True)
class AccuracyStats:
    """One person's average accuracy (the coach's, 0 to 100) in the games reviewed in a
    month (``"2026-11"``, UTC)."""

    player: str
    month: str
    games: int
    accuracy: float

    def to_json(self) -> dict[str, object]:
        """The figures as JSON values (rounded for reading)."""
        return {
            "player": self.player,
            "month": self.month,
            "games": self.games,
            "accuracy": round(self.accuracy, 1),
        }


@dataclass(frozen=True)
class LeftOut:
    """A person's games left out of their figures: a bot stood in for them while they
    were away (an online game), as Board Game Arena leaves such games out."""

    player: str
    games: int

    def to_json(self) -> dict[str, object]:
        """As a JSON object."""
        return {"player": self.player, "games": self.games}


@dataclass(frozen=True)
class PlayedGame:
    """One person's result in one game (a game a bot stood in for them left out), for
    their figures over time."""

    player: str
    finished_at: str
    """When the game finished: ISO 8601, UTC (``"2026-11-27T21:30:00+00:00"``)."""
    score: int
    win: float
    """1 won, 1/k shared a k-way tie for first, 0 lost."""


@dataclass(frozen=True)
class StatsSummary:
    """What ``coloretto stats`` shows."""

    games: int
    """Finished games recorded (with the filter: games the chosen person played)."""
    people: tuple[PersonStats, ...]
    """Each person's overall figures, by name."""
    groups: tuple[GroupStats, ...]
    """Each person's figures by player count, scoring side and opponents."""
    accuracy: tuple[AccuracyStats, ...] = ()
    """Each person's average accuracy in reviewed games, month by month."""
    left_out: tuple[LeftOut, ...] = ()
    """Each person's games left out of their figures (a bot stood in for them), by name."""

    def to_json(self) -> dict[str, object]:
        """The summary as one JSON object."""
        return {
            "games": self.games,
            "people": [p.to_json() for p in self.people],
            "groups": [g.to_json() for g in self.groups],
            "accuracy": [a.to_json() for a in self.accuracy],
            "left_out": [a.to_json() for a in self.left_out],
        }


@dataclass(frozen=True)
class RatingPoint:
    """A person's rating after one of their rated games."""

    finished_at: str
    """When the game finished: ISO 8601, UTC."""
    rating: Rating


@dataclass(frozen=True)
class PersonRating:
    """One person's rating (``coloretto.rating``) from their games here, oldest first: each
    game moves the ratings of the people at the table, the bots held at their levels'
    calibrated ratings."""

    player: str
    rating: Rating
    """Now: ``NEW`` if no game of theirs was rated."""
    history: tuple[RatingPoint, ...]
    """The rating after each rated game, oldest first."""
    unrated: int
    """Their games not rated: with a bot that has no rating (one named by its spec, or a
    level whose play has changed since), or one a bot stood in for a player in."""

    def to_json(self) -> dict[str, object]:
        """As JSON values: the shown rating, its mean and uncertainty, the games."""
        return {
            "player": self.player,
            "rating": self.rating.shown,
            "mu": round(self.rating.mu, 3),
            "sigma": round(self.rating.sigma, 3),
            "games": self.rating.games,
            "unrated": self.unrated,
        }


@dataclass(frozen=True)
class _Seat:
    """A player's row of a game, as the ratings read it."""

    name: str
    bot: str | None
    score: int
    stood_in: bool


def _rate_people(
    games: Sequence[tuple[str, Sequence[_Seat]]], bots: Mapping[str, Rating]
) -> tuple[PersonRating, ...]:
    """Every person's rating from ``games`` (when each finished, its seats), oldest first.

    A game is rated when every bot in it has a rating in ``bots`` (by its label, as
    ``bot_label`` names it) and no bot stood in for a person; the bots keep theirs.
    """
    # Imported here: openskill takes tens of milliseconds to import, and the game, the
    # replay and the review use this module without rating anyone.
    from coloretto.rating import NEW, rate_game  # noqa: PLC0415

    now: dict[str, Rating] = {}
    history: dict[str, list[RatingPoint]] = {}
    unrated: dict[str, int] = {}
    for finished_at, seats in games:
        people = [s.name for s in seats if s.bot is None and not s.stood_in]
        for name in people:
            now.setdefault(name, NEW)
            history.setdefault(name, [])
            unrated.setdefault(name, 0)
        rated = [bots.get(s.bot) if s.bot is not None else None for s in seats]
        if (
            len(set(people)) != len(people)
            or any(s.stood_in for s in seats)
            or any(s.bot is not None and r is None for s, r in zip(seats, rated, strict=True))
        ):
            for name in people:
                unrated[name] += 1
            continue
        before = [r if r is not None else now[s.name] for s, r in zip(seats, rated, strict=True)]
        fixed = [p for p, s in enumerate(seats) if s.bot is not None]
        after = rate_game(before, [s.score for s in seats], fixed=fixed)
        for seat, rating in zip(seats, after, strict=True):
            if seat.bot is None:
                now[seat.name] = rating
                history[seat.name].append(RatingPoint(finished_at, rating))
    return tuple(
        PersonRating(name, now[name], tuple(history[name]), unrated[name]) for name in sorted(now)
    )


def bot_label(
    bot: str,
    spec: str | None,
    levels: Mapping[str, str],
    revision: str | None = None,
    revisions: Mapping[str, str] | None = None,
) -> str:
    """How a bot is named in the statistics: its level or spec, and the bot the level
    stood for in that game when that is not what it stands for now (``levels``), or else
    when its play has changed since (``revision``, the game's date of the level's play,
    against ``revisions``, the dates now).

    >>> levels, dates = {"normal": "search:iterations=4"}, {"normal": "2026-11-24"}
    >>> bot_label("normal", "search:iterations=4", levels), bot_label("normal", "expert", levels)
    ('normal', 'normal (expert)')
    >>> bot_label("normal", "search:iterations=4", levels, "2026-11-24", dates)
    'normal'
    >>> bot_label("normal", "search:iterations=4", levels, None, dates)
    'normal (before 2026-11-24)'
    >>> bot_label("normal", "search:iterations=4", levels, "2026-11-20", dates)
    'normal (play of 2026-11-20)'
    >>> bot_label("greedy", None, levels)
    'greedy'
    """
    if spec is not None and levels.get(bot) != spec:
        return f"{bot} ({spec})"
    now = (revisions or {}).get(bot)
    if now is None or revision == now:
        return bot
    return f"{bot} (before {now})" if revision is None else f"{bot} (play of {revision})"


def opponents_label(bots: Sequence[str | None]) -> str:
    """How the other players at the table are named in the statistics.

    >>> opponents_label(["normal", "hard", "normal"])
    'hard+normal'
    >>> opponents_label(["easy", None]), opponents_label([None, None])
    ('easy+people', 'people only')
    """
    specs = sorted({bot for bot in bots if bot is not None})
    if not specs:
        return PEOPLE_ONLY
    return "+".join(specs + (["people"] if None in bots else []))


class _Accumulator:
    __slots__ = ("best", "games", "total", "wins")

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0
        self.total = 0
        self.best: int | None = None

    def add(self, score: int, win: float) -> None:
        self.games += 1
        self.wins += win
        self.total += score
        self.best = score if self.best is None else max(self.best, score)

    def person(self, player: str) -> PersonStats:
        return PersonStats(player, self.games, self.wins, self._best(), self._average())

    def group(self, player: str, opponents: str, players: int, scoring: str) -> GroupStats:
        return GroupStats(
            player,
            opponents,
            players,
            scoring,
            self.games,
            self.wins,
            self._best(),
            self._average(),
        )

    def _best(self) -> int:
        return 0 if self.best is None else self.best

    def _average(self) -> float:
        return self.total / self.games if self.games else 0.0


class Stats:
    """The statistics database at ``path``, opened for each operation.

    Nothing is created until a game is added; a missing file reads as no games.
    Every method raises ``StatsError`` on a file that cannot be used.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"Stats({str(self.path)!r})"

    def add(self, result: GameResult) -> bool:
        """Record a finished game; ``True`` if added, ``False`` if its id was already known."""
        return self.add_all([result]) == 1

    def add_all(self, results: Sequence[GameResult]) -> int:
        """Record finished games in one transaction; returns how many were new (the ids
        already known are left as they are)."""
        with self._connect(create=True) as connection, self._transaction(connection):
            return sum(self._add(connection, result) for result in results)

    @staticmethod
    def _add(connection: sqlite3.Connection, result: GameResult) -> bool:
        cursor = connection.execute(
            "INSERT OR IGNORE INTO games"
            " (game_id, finished_at, players, scoring, edition, variant)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                result.game_id,
                result.finished_at.isoformat(),
                result.players,
                result.scoring,
                result.edition,
                result.variant,
            ),
        )
        if cursor.rowcount == 0:
            return False
        connection.executemany(
            "INSERT INTO results"
            " (game_id, player, name, bot, spec, revision, score, win, stood_in)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    result.game_id,
                    index,
                    r.name,
                    r.bot,
                    r.spec,
                    r.revision,
                    r.score,
                    r.win,
                    int(r.stood_in),
                )
                for index, r in enumerate(result.results)
            ],
        )
        return True

    def add_accuracy(self, game_id: str, player: int, accuracy: float, decisions: int) -> bool:
        """Keep a person's accuracy in a game counted here (a newer review replaces an
        older); ``False`` if the game or player is not in the statistics."""
        if not 0.0 <= accuracy <= 100.0:
            raise ValueError(f"an accuracy is 0 to 100, not {accuracy}")
        with self._connect(create=True) as connection, self._transaction(connection):
            known = connection.execute(
                "SELECT 1 FROM results WHERE game_id = ? AND player = ? AND bot IS NULL",
                (game_id, player),
            ).fetchone()
            if known is None:
                return False
            connection.execute(
                "INSERT OR REPLACE INTO accuracy (game_id, player, accuracy, decisions)"
                " VALUES (?, ?, ?, ?)",
                (game_id, player, accuracy, decisions),
            )
            return True

    def _accuracy(
        self, connection: sqlite3.Connection, wanted: str | None
    ) -> tuple[AccuracyStats, ...]:
        rows = self._query(
            connection,
            "SELECT r.name, substr(g.finished_at, 1, 7), count(*), avg(a.accuracy)"
            " FROM accuracy AS a"
            " JOIN results AS r ON r.game_id = a.game_id AND r.player = a.player"
            " JOIN games AS g ON g.game_id = a.game_id"
            " GROUP BY r.name, substr(g.finished_at, 1, 7)"
            " ORDER BY r.name, substr(g.finished_at, 1, 7)",
        )
        return tuple(
            AccuracyStats(name, month, games, average)
            for name, month, games, average in rows
            if wanted is None or name.casefold() == wanted
        )

    def summary(
        self,
        player: str | None = None,
        levels: Mapping[str, str] | None = None,
        revisions: Mapping[str, str] | None = None,
    ) -> StatsSummary:
        """The figures for every person (or only ``player``, matched ignoring case); a
        game a bot stood in for a person in is left out of that person's (``left_out``).

        ``levels`` (level name to bot spec) are what the levels stand for now, and
        ``revisions`` (level name to date) when their play last changed: a level's games
        against another bot, or from before that date, are grouped apart (``bot_label``).
        """
        if not self.path.exists():
            return StatsSummary(0, (), ())
        with self._connect(create=False) as connection:
            rows = self._query(
                connection,
                "SELECT g.game_id, g.players, g.scoring,"
                " r.name, r.bot, r.spec, r.revision, r.score, r.win, r.stood_in"
                " FROM games AS g JOIN results AS r ON r.game_id = g.game_id"
                " ORDER BY g.game_id, r.player",
            )
            accuracy = self._accuracy(connection, None if player is None else player.casefold())
        tables: dict[str, list[tuple[str, str | None, int, float, bool]]] = {}
        rules: dict[str, tuple[int, str]] = {}
        now = levels or {}
        for game_id, players, scoring, name, bot, spec, revision, score, win, stood in rows:
            label = None if bot is None else bot_label(bot, spec, now, revision, revisions)
            tables.setdefault(game_id, []).append((name, label, score, win, bool(stood)))
            rules[game_id] = (players, scoring)
        wanted = None if player is None else player.casefold()
        people: dict[str, _Accumulator] = {}
        groups: dict[tuple[str, int, str, str], _Accumulator] = {}
        left_out: dict[str, int] = {}
        games = 0
        for game_id, table in tables.items():
            players, scoring = rules[game_id]
            counted = False
            for index, (name, bot, score, win, stood_in) in enumerate(table):
                if bot is not None or (wanted is not None and name.casefold() != wanted):
                    continue
                if stood_in:
                    left_out[name] = left_out.get(name, 0) + 1
                    continue
                counted = True
                others = opponents_label([row[1] for i, row in enumerate(table) if i != index])
                people.setdefault(name, _Accumulator()).add(score, win)
                key = (name, players, scoring, others)
                groups.setdefault(key, _Accumulator()).add(score, win)
            if counted or wanted is None:
                games += 1
        return StatsSummary(
            games=games,
            people=tuple(acc.person(name) for name, acc in sorted(people.items())),
            groups=tuple(
                acc.group(name, others, players, scoring)
                for (name, players, scoring, others), acc in sorted(groups.items())
            ),
            accuracy=accuracy,
            left_out=tuple(LeftOut(name, n) for name, n in sorted(left_out.items())),
        )

    def ratings(
        self,
        bots: Mapping[str, Rating],
        player: str | None = None,
        levels: Mapping[str, str] | None = None,
        revisions: Mapping[str, str] | None = None,
    ) -> tuple[PersonRating, ...]:
        """Every person's rating (or only ``player``'s, matched ignoring case) from all the
        games here, oldest first (``_rate_people``): ``bots`` are the ratings of the bot
        levels, which a game's bot has when ``bot_label`` (with ``levels`` and
        ``revisions``, as for ``summary``) names it by the level alone, or names a bot that a
        level stands for now (``greedy`` is the easy level)."""
        if not self.path.exists():
            return ()
        with self._connect(create=False) as connection:
            rows = self._query(
                connection,
                "SELECT g.game_id, g.finished_at, r.name, r.bot, r.spec, r.revision,"
                " r.score, r.stood_in"
                " FROM games AS g JOIN results AS r ON r.game_id = g.game_id"
                " ORDER BY g.finished_at, g.game_id, r.player",
            )
        now = levels or {}
        level_of = {spec: level for level, spec in now.items()}
        games: dict[str, tuple[str, list[_Seat]]] = {}
        for game_id, finished_at, name, bot, spec, revision, score, stood in rows:
            label = None if bot is None else bot_label(bot, spec, now, revision, revisions)
            if label is not None and label not in bots:
                label = level_of.get(label, label)
            seats = games.setdefault(game_id, (finished_at, []))[1]
            seats.append(_Seat(name, label, score, bool(stood)))
        rated = _rate_people(list(games.values()), bots)
        wanted = None if player is None else player.casefold()
        return tuple(r for r in rated if wanted is None or r.player.casefold() == wanted)

    def played(self, player: str | None = None) -> tuple[PlayedGame, ...]:
        """Every person's results (or only ``player``'s, matched ignoring case), oldest
        first; the games a bot stood in for them are left out."""
        if not self.path.exists():
            return ()
        with self._connect(create=False) as connection:
            rows = self._query(
                connection,
                "SELECT r.name, g.finished_at, r.score, r.win"
                " FROM games AS g JOIN results AS r ON r.game_id = g.game_id"
                " WHERE r.bot IS NULL AND r.stood_in = 0"
                " ORDER BY g.finished_at, g.game_id, r.player",
            )
        wanted = None if player is None else player.casefold()
        return tuple(
            PlayedGame(name, finished_at, score, win)
            for name, finished_at, score, win in rows
            if wanted is None or name.casefold() == wanted
        )

    def count(self) -> int:
        """How many games are recorded (0 if the file is missing)."""
        if not self.path.exists():
            return 0
        with self._connect(create=False) as connection:
            games: int = self._query(connection, "SELECT count(*) FROM games")[0][0]
            return games

    def recount_due(self) -> bool:
        """True when an upgrade took games out that a recount of the history counts again
        (``recounted`` once it has)."""
        if not self.path.exists():
            return False
        with self._connect(create=False) as connection:
            return bool(self._query(connection, "SELECT 1 FROM recount_due LIMIT 1"))

    def recounted(self) -> None:
        """The history has been counted again: no recount is due."""
        if not self.path.exists():
            return
        with self._connect(create=False) as connection, self._transaction(connection):
            connection.execute("DELETE FROM recount_due")

    def schema_version(self) -> int:
        """The file's schema version after opening it (upgrading it if older); 0 if missing."""
        if not self.path.exists():
            return 0
        with self._connect(create=False) as connection:
            version: int = self._query(connection, "PRAGMA user_version")[0][0]
            return version

    # ------------------------------------------------------------ internals

    def set_aside(self, now: datetime | None = None) -> Path:
        """Rename the file (a damaged one), with its write-ahead log if any, to
        ``stats.sqlite3.damaged-YYYYMMDD-HHMMSS`` beside it, never over another file; the
        next game counted starts a new database. Returns the new name; raises ``OSError``
        if the file cannot be renamed (gone already: ``FileNotFoundError``)."""
        stamp = f"{now or datetime.now(UTC):%Y%m%d-%H%M%S}"
        for n in range(100):
            kept = self.path.with_name(f"{self.path.name}.damaged-{stamp}{f'-{n}' if n else ''}")
            if not any(Path(f"{kept}{end}").exists() for end in ("", "-wal", "-shm")):
                break
        else:
            raise FileExistsError(f"{self.path}.damaged-{stamp}: too many of them")
        self.path.rename(kept)  # first: a database that is gone cannot be opened with a log
        for end in ("-wal", "-shm"):
            with suppress(FileNotFoundError):
                Path(f"{self.path}{end}").rename(f"{kept}{end}")
        return kept

    def _error(self, what: str, error: BaseException | None = None) -> StatsError:
        detail = f": {error}" if error is not None else ""
        if getattr(error, "sqlite_errorname", "") in DAMAGED:
            return StatsDamaged(f"statistics database {self.path}: is damaged{detail}")
        return StatsError(f"statistics database {self.path}: {what}{detail}")

    def _query(self, connection: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
        try:
            return connection.execute(sql).fetchall()
        except sqlite3.Error as error:
            raise self._error("cannot be read", error) from error

    @contextmanager
    def _connect(self, create: bool) -> Iterator[sqlite3.Connection]:
        """An open connection to a database at the current schema version."""
        if create:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise self._error("cannot create its directory", error) from error
        try:
            # isolation_level=None: no implicit transactions; they are begun explicitly.
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.Error as error:
            raise self._error("cannot be opened", error) from error
        with closing(connection):
            self._prepare(connection)
            yield connection

    def _check(self, connection: sqlite3.Connection) -> int:
        """The file's schema version; refuses a file that this program must not touch."""
        try:
            # One statement, so one consistent snapshot while others may be upgrading.
            version, application, objects = connection.execute(
                "SELECT (SELECT user_version FROM pragma_user_version),"
                " (SELECT application_id FROM pragma_application_id),"
                " (SELECT count(*) FROM sqlite_master)"
            ).fetchone()
        except sqlite3.DatabaseError as error:
            raise self._error("cannot be read", error) from error
        version, application, objects = int(version), int(application), int(objects)
        if application not in (0, APPLICATION_ID) or (version == 0 and objects):
            raise self._error("is not a coloretto statistics database (left untouched)")
        if version > schema_version():
            raise self._error(
                f"was written by a newer version of coloretto (schema version {version}; "
                f"this version knows up to {schema_version()}): upgrade coloretto"
            )
        return version

    def _prepare(self, connection: sqlite3.Connection) -> None:
        """Check the file, switch it to WAL mode and upgrade its schema if older."""
        version = self._check(connection)
        try:
            self._use_wal(connection)
            connection.execute("PRAGMA synchronous = NORMAL")
            connection.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as error:
            raise self._error("cannot be opened", error) from error
        if version == schema_version():
            return
        with self._transaction(connection):
            # Another process may have upgraded the file since it was checked.
            version = self._check(connection)
            try:
                for step in MIGRATIONS[version:]:
                    step(connection)
            except sqlite3.Error as error:
                raise self._error(
                    f"cannot be upgraded from schema version {version} to {schema_version()}",
                    error,
                ) from error
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {schema_version()}")

    @staticmethod
    def _use_wal(connection: sqlite3.Connection) -> None:
        """Switch the file to WAL mode (once per file), waiting out other processes.

        Changing the journal mode does not wait for a busy file the way other
        statements do, so it is retried until ``BUSY_TIMEOUT``.
        """
        if connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
            return
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            try:
                connection.execute("PRAGMA journal_mode = WAL").fetchone()
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorname not in {"SQLITE_BUSY", "SQLITE_LOCKED"}:
                    raise
                if time.monotonic() > deadline:
                    raise
                time.sleep(random.uniform(0.005, 0.03))

    @contextmanager
    def _transaction(self, connection: sqlite3.Connection) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` (waiting for other writers) ... ``COMMIT``, or roll back."""
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise self._error("is busy or cannot be written", error) from error
        try:
            yield
            connection.execute("COMMIT")
        except BaseException as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error):
                raise self._error("cannot be written", error) from error
            raise
