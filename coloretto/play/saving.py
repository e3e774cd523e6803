"""The one save model: a session kept as a game record whose metadata holds the session.

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
from typing import Any

from coloretto.bots.registry import DEFAULT_LEVEL
from coloretto.engine import GameRecord, GameState, Match, RecordError, Rules, deal
from coloretto.engine.record import expect
from coloretto.play.config import DEFAULT_DELAY, HINT_BOT, MAX_NAME, GameConfig, Player
from coloretto.play.session import Session
from coloretto.store.records import read_record
from coloretto.store.saves import SESSION_ID
from coloretto.store.text import printable

SESSION_KEY = "session"
"""The key of the session in a record's metadata."""

_WHERE = f"meta.{SESSION_KEY}"


def session_meta(session: Session) -> dict[str, Any]:
    """The session as the JSON-ready metadata of its game's record."""
    config = session.config
    match = session.match
    return {
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
        }
    }


def session_record(session: Session) -> GameRecord:
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
        int(match.seed) if bool(fields.get("seeded", False)) else None,
        delay=float(delay),
        hint_bot=expect(fields.get("hint_bot", HINT_BOT), str, f"{_WHERE}.hint_bot", "a bot"),
        level=expect(fields.get("level", DEFAULT_LEVEL), str, f"{_WHERE}.level", "a level"),
    )
    session_id = expect(fields.get("id"), str, f"{_WHERE}.id", "text")
    if not SESSION_ID.fullmatch(session_id):  # it names files: it may not choose where
        raise RecordError(f"{_WHERE}.id: not a session id: {session_id[:40]!r}")
    return Session(config, match, session_id)


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
    seed = 0 if withheld else expect(data.get("seed"), int, f"{_WHERE}.match.seed", "a number")
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
