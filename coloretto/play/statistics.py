"""The statistics update: a finished game's result counted once (``count_game``), the
coach's accuracy of the people in a reviewed game (``count_accuracy``), and the history
counted again (``count_history``); and the results over time as series to draw
(``results_by_month``, ``last_games``). The database itself is ``coloretto.store.stats``.

A finished game's record may say which people a bot stood in for while they were away
(``STOOD_IN_KEY``, an online game): the game is left out of their statistics.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.engine import GameRecord, RecordError
from coloretto.play.saving import SESSION_KEY, session_from_record
from coloretto.play.session import Session
from coloretto.store.history import finished_games
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.stats import GameResult, PlayedGame, Stats, StatsError

if TYPE_CHECKING:
    from coloretto.play.review import Summary

STOOD_IN_KEY = "stood_in"
"""The key, in a finished game's metadata, of the players (people, by number) a bot stood
in for while they were away (an online game): the game is left out of their statistics."""

RECOUNT = "`coloretto stats --recount`"
"""The command that counts the games of the history in the statistics again."""

MOST_RECOUNTED = 10_000
"""The most files of the history read when the statistics are counted again (the history
is untrusted; each file is at most ``MAX_RECORD_BYTES``)."""


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


def game_id(session: Session) -> str:
    """The statistics' id of the session's game: the session's id and the game's number."""
    return f"{session.id}/{session.match.game_number}"


def game_result(
    session: Session, finished_at: datetime | None = None, stood_in: Collection[int] = ()
) -> GameResult:
    """The statistics' result of the session's finished game (``finished_at`` now unless
    given, ``stood_in`` the people a bot stood in for)."""
    players = [(p.name, p.bot) for p in session.config.players]
    revisions = LEVEL_REVISIONS
    if finished_at is not None:  # a level's play that changed since is no longer its play
        when = f"{finished_at.astimezone(UTC):%Y-%m-%d %H:%M}"
        revisions = {level: date for level, date in revisions.items() if date <= when}
    return GameResult.of(
        game_id(session),
        session.game,
        players,
        levels=LEVELS,
        revisions=revisions,
        finished_at=finished_at,
        stood_in=stood_in,
    )


def count_game(data: DataDir, session: Session, stood_in: Collection[int] = ()) -> None:
    """Count the session's finished game in the statistics (once: counting it again does
    nothing); ``StatsError`` if the database cannot take it."""
    Stats(data.stats).add(game_result(session, stood_in=stood_in))


def count_accuracy(data: DataDir, record: GameRecord, found: Sequence[Summary]) -> str | None:
    """Keep the people's accuracy in the statistics, for a finished game played here (one
    the statistics counted); says what went wrong, if anything."""
    if not record.state.is_over or SESSION_KEY not in record.meta:
        return None
    try:
        session = session_from_record(record)
    except RecordError:
        return None
    players = session.config.players
    try:
        stats = Stats(data.stats)
        for summary in found:
            if summary.seat < len(players) and players[summary.seat].is_human:
                stats.add_accuracy(
                    game_id(session), summary.seat, summary.accuracy, summary.decisions
                )
    except StatsError as error:
        return str(error)
    return None


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


def count_history(data: DataDir, most: int = MOST_RECOUNTED) -> Recount:
    """Count the finished games of the history in the statistics (at most the ``most``
    newest files read; a game counted already is left as it is), with the accuracy of
    those the coach reviewed (as kept in their records; nothing is analysed here);
    ``StatsError`` if the database cannot take them.

    The records give what the statistics keep but the time a game finished (the time
    its session started is taken) and what a level stood for then (a level's play
    since changed is told from its date, ``LEVEL_REVISIONS``)."""
    from coloretto.play.review import pending, positions, review_of, summaries  # noqa: PLC0415 (the coach: to recount only)

    files = finished_games(data)
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
    stats = Stats(data.stats)
    added = stats.add_all(results) if results else 0
    for counted, seat, accuracy, decisions in reviewed:
        stats.add_accuracy(counted, seat, accuracy, decisions)
    stats.recounted()
    return Recount(
        added, len(results), tuple(unreadable), tuple(elsewhere), max(0, len(files) - most)
    )


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


@dataclass(frozen=True)
class MonthResults:
    """One person's results in the games that finished in a month (``"2026-11"``, UTC)."""

    player: str
    month: str
    games: int
    wins: float
    """Games won, a share of a tie for first counted."""
    average: float
    """The average score."""

    @property
    def win_rate(self) -> float:
        """Wins per game, 0 to 1."""
        return self.wins / self.games if self.games else 0.0


def results_by_month(games: Iterable[PlayedGame]) -> list[MonthResults]:
    """Each person's games, wins and average score month by month (by name, then month).

    >>> played = [PlayedGame("Ana", f"2026-{m}-02T10:00:00+00:00", s, w)
    ...           for m, s, w in (("10", 30, 1.0), ("11", 20, 0.0), ("11", 25, 0.5))]
    >>> [(r.month, r.games, r.wins, r.average) for r in results_by_month(played)]
    [('2026-10', 1, 1.0, 30.0), ('2026-11', 2, 0.5, 22.5)]
    """
    months: dict[tuple[str, str], list[PlayedGame]] = {}
    for game in games:
        months.setdefault((game.player, game.finished_at[:7]), []).append(game)
    return [
        MonthResults(
            player,
            month,
            len(mine),
            sum(g.win for g in mine),
            sum(g.score for g in mine) / len(mine),
        )
        for (player, month), mine in sorted(months.items())
    ]


def last_games(games: Iterable[PlayedGame], player: str, count: int) -> list[PlayedGame]:
    """``player``'s last ``count`` games, oldest first (``games`` oldest first)."""
    mine = [game for game in games if game.player == player]
    return mine[-count:] if count > 0 else []
