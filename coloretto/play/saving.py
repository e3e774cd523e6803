"""The one save model: a session kept as a game record whose metadata holds the session,
and the games saved in progress as their players know them (``in_progress``).

A save is the record of the game being played (``coloretto-record/1``) with, under
``meta.session``, what the record alone does not say: the session's id, who plays (names
and bots), the match (seed, game number, earlier scores) and the table's settings. Loading
gives back the ``Session`` itself, with ``GameConfig``'s defaults for settings an older
save leaves out. A game whose seed is withheld (``setup.seed`` and ``match.seed`` both
null: an online match's game, finished before the match was) is taken with its deck as
recorded.

>>> from coloretto.engine import Rules
>>> from coloretto.play.config import GameConfig
>>> session = Session(GameConfig.build(Rules(players=3), bot="easy", seed=4))
>>> same = session_from_record(session_record(session))
>>> same.id == session.id and same.config == session.config and same.match == session.match
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from coloretto.bots.registry import DEFAULT_LEVEL
from coloretto.engine import GameRecord, GameState, Match, RecordError, Rules, deal
from coloretto.engine.record import expect
from coloretto.play.analysis import HINTS_KEY, hints_meta, hints_of
from coloretto.play.config import DEFAULT_DELAY, HINT_BOT, MAX_NAME, GameConfig, Player
from coloretto.play.session import Session
from coloretto.play.table_view import TableView
from coloretto.play.words import names_and
from coloretto.store.history import finished_games
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.saves import SESSION_ID, games_in_progress, save_path
from coloretto.store.text import printable

SESSION_KEY = "session"
"""The key of the session in a record's metadata."""

_WHERE = f"meta.{SESSION_KEY}"


def session_meta(session: TableView) -> dict[str, Any]:
    """The session (or a table's view of one) as the JSON-ready metadata of its game's
    record, with the hints given in the game (``meta.hints``), if any."""
    config = session.config
    match = session.match
    given = session.hints.for_game(match.game_number) if isinstance(session, Session) else {}
    hints = {HINTS_KEY: hints_meta(given)} if given else {}
    return {
        **hints,
        SESSION_KEY: {
            "id": session.id,
            "players": [{"name": p.name, "bot": p.bot} for p in config.players],
            "match": {
                "seed": None if _withheld(session.game) else match.seed,
                "game": match.game_number,
                "results": [list(scores) for scores in match.results],
            },
            "delay": config.delay,
            "hint_bot": config.hint_bot,
            "level": config.level,
            "seeded": config.seed is not None,
        },
    }


def session_record(session: TableView) -> GameRecord:
    """The record a save holds: the game so far, the seat names and the session."""
    return GameRecord(session.match.rules, session.seat_names, session.game, session_meta(session))


def session_from_record(record: GameRecord, default_bot: str | None = None) -> Session:
    """The session kept in ``record``, exactly as saved; ``RecordError`` if it does not fit.

    A record without a session (say, from the arena) is a new session: the first player is
    a person, the others are bots at ``default_bot`` (the default level when ``None``).
    """
    rules = record.rules
    data = record.meta.get(SESSION_KEY)
    if data is None:
        level = default_bot or DEFAULT_LEVEL
        players = tuple(
            Player(_clean(name, seat), None if seat == 0 else level)
            for seat, name in enumerate(record.seats[: rules.players])
        )
        seed = record.state.setup.seed
        match = Match(rules, seed if isinstance(seed, int) else 0, record.state)
        return Session(_config(rules, players, None, level=level), match)
    fields = expect(data, Mapping, SESSION_KEY, "an object")
    entries = expect(fields.get("players"), list, f"{_WHERE}.players", "a list")
    players = tuple(_player(entry, i) for i, entry in enumerate(entries))
    if len(players) != rules.players:
        raise RecordError(f"{_WHERE}.players: expected {rules.players} players")
    match = _match(record, expect(fields.get("match"), Mapping, f"{_WHERE}.match", "an object"))
    delay = expect(fields.get("delay", DEFAULT_DELAY), (int, float), f"{_WHERE}.delay", "seconds")
    config = _config(
        rules,
        players,
        int(match.seed) if match.seed is not None and fields.get("seeded") is True else None,
        delay=float(delay),
        hint_bot=_hint_bot(fields),
        level=expect(fields.get("level", DEFAULT_LEVEL), str, f"{_WHERE}.level", "a level"),
    )
    session_id = expect(fields.get("id"), str, f"{_WHERE}.id", "text")
    if not SESSION_ID.fullmatch(session_id):  # it names files: it may not choose where
        raise RecordError(f"{_WHERE}.id: not a session id: {session_id[:40]!r}")
    session = Session(config, match, session_id)
    if HINTS_KEY in record.meta:  # a hint that does not fit the game is dropped
        from coloretto.play.review import positions  # noqa: PLC0415 (its processes load lazily)

        states = positions(record)
        hints = hints_of(record.meta, states)
        session.hints.given = {(match.game_number, ply): h for ply, h in hints.items()}
    return session


OLD_HINT_BOTS = frozenset({"search:iterations=64:at_five=32:seconds=1.4:sample=true"})
"""The hint bots saved before the hints asked the coach's one analysis (the hard level's
spec, under a clock): a game saved then gets the coach's hints when resumed."""


def _hint_bot(fields: Mapping[str, Any]) -> str:
    saved = expect(fields.get("hint_bot", HINT_BOT), str, f"{_WHERE}.hint_bot", "a bot")
    return HINT_BOT if saved in OLD_HINT_BOTS else saved


def people(record: GameRecord) -> tuple[int, ...]:
    """The seats moved by people: from the session kept with the record; every seat when
    the record says nothing about who played (a record from elsewhere)."""
    seats = range(record.rules.seats)
    if SESSION_KEY not in record.meta:
        return tuple(seats)
    try:
        config = session_from_record(record).config
    except RecordError:
        return tuple(seats)
    return tuple(s for s in seats if config.controller(s).is_human)


def read_session(path: str | os.PathLike[str], default_bot: str | None = None) -> Session:
    """The session saved in ``path``, exactly as saved; ``RecordError`` names the file and
    the problem. The file is only read, never changed."""
    record = read_record(path)
    try:
        return session_from_record(record, default_bot)
    except RecordError as error:
        raise error.in_file(path) from None


def load_session(path: str | os.PathLike[str], default_bot: str | None = None) -> Session:
    """The session saved in ``path``, ready to play on: a save made between two games of a
    match deals the next one. Errors as ``read_session``."""
    session = read_session(path, default_bot)
    if session.has_next_game:
        session.next_game()
    return session


def _config(
    rules: Rules, players: tuple[Player, ...], seed: int | None, **settings: Any
) -> GameConfig:
    try:
        return GameConfig(rules, players, seed, **settings)
    except ValueError as error:
        raise RecordError(f"{_WHERE}: {error}") from None


def _player(entry: object, number: int) -> Player:
    """A player as saved; the name is cleaned as a typed one is (``printable``, at most
    ``MAX_NAME`` characters)."""
    where = f"{_WHERE}.players[{number}]"
    data = expect(entry, Mapping, where, "an object")
    bot = data.get("bot")
    if bot is not None and not isinstance(bot, str):
        raise RecordError(f"{where}.bot: expected a bot spec or null")
    name = expect(data.get("name"), str, f"{where}.name", "a name")
    return Player(_clean(name, number), bot)


def _clean(name: str, number: int) -> str:
    return printable(name, MAX_NAME) or f"Player {number + 1}"


def _withheld(game: GameState) -> bool:
    """True when the game's seed is not known: a game of an online match kept before the
    match was over (its seed would have given the next games' decks away)."""
    return game.setup.seed is None


def _match(record: GameRecord, data: Mapping[str, Any]) -> Match:
    rules = record.rules
    withheld = data.get("seed") is None and _withheld(record.state)
    seed = None if withheld else expect(data.get("seed"), int, f"{_WHERE}.match.seed", "a number")
    results = tuple(
        tuple(expect(scores, list, f"{_WHERE}.match.results[{i}]", "a list of scores"))
        for i, scores in enumerate(
            expect(data.get("results"), list, f"{_WHERE}.match.results", "a list")
        )
    )
    if len(results) >= rules.games or any(
        len(scores) != rules.seats or not all(type(s) is int for s in scores) for scores in results
    ):
        raise RecordError(f"{_WHERE}.match.results: not the scores of earlier games")
    match = Match(rules, seed, record.state, results)
    if withheld:  # its deck is the record's, with no seed to check it against
        return match
    setup = record.state.setup
    if deal(rules, match.game_seed(match.game_number), setup.first_player) != setup:
        raise RecordError(
            f"{_WHERE}.match: the deal is not game {match.game_number} of match {seed}"
        )
    return match


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


MOST_LISTED = 5
"""The most other games in progress described when quitting (the rest are counted)."""


def in_progress(
    data: DataDir, *, besides: Session | str | None = None, most: int = MOST_LISTED
) -> InProgress:
    """The games saved in progress that can be resumed (but ``besides``, a session or its
    id), the one played last first: at most ``most`` described, the others counted."""
    other = besides.id if isinstance(besides, Session) else besides
    ids = [i for i in games_in_progress(data) if i != other]
    games: list[SavedGame] = []
    more = unreadable = 0
    for i in ids[:MOST_READ]:
        game = SavedGame.read(save_path(data, i))
        if game is None:
            unreadable += 1
        elif len(games) < most:
            games.append(game)
        else:
            more += 1
    return InProgress(games, more + max(0, len(ids) - MOST_READ), unreadable, data)


def first_run(data: DataDir) -> bool:
    """True when nobody has played here yet: no finished game and no save (the tutorial
    is offered)."""
    return not finished_games(data) and not games_in_progress(data)
