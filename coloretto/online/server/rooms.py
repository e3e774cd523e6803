"""Rooms on the server: a table waiting for its people, then the game played at it.

A room is a ``Session`` (the engine's match, the players and their bots) with who sits
where, each person's secret token (kept only as a hash) and the room's settings. Its
``snapshot`` is a game record whose metadata also holds the room; the server keeps it,
with the actions played since, in ``room_space.RoomSpace``.

>>> from coloretto.engine import Rules
>>> from coloretto.online.wire.protocol import Host
>>> room, token = Room.open("ABCDEF", Host.of("Ana", Rules(players=3), "easy", 0, 30))
>>> seat, _ = room.join("Ben")
>>> room.start()
>>> room.session.seat_names, room.player_of(token), room.mover() is not None
(('Ana', 'Ben', 'Bot 1'), 0, True)

A room may hold a match (``Host.rules.games``): once a game is over, the host deals the
next one (``next_game``); the save keeps the match (its seed, the game being played and
the earlier games' scores), so a server started again goes on at the right game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from msgspec import UNSET

from coloretto.bots.registry import LEVELS
from coloretto.engine import (
    Action,
    GameRecord,
    GameState,
    Move,
    RecordError,
    SeedSecrecy,
    to_record,
)
from coloretto.engine.record import expect
from coloretto.online.wire.clock import Clock, ClockError, Standing
from coloretto.online.wire.names import fold
from coloretto.online.wire.protocol import (
    CODE_ALPHABET,
    MAX_AWAY_AFTER,
    MAX_SCORE,
    ROOM_CODE,
    TOKEN,
    ErrorCode,
    Host,
    ProtocolError,
    bot_covered,
)
from coloretto.play.config import MAX_NAME, GameConfig, Player, name_players
from coloretto.play.saving import SESSION_KEY, session_from_record, session_meta
from coloretto.play.session import Session
from coloretto.store.records import read_record

ROOM_KEY = "room"
"""The key of the room in its save's metadata (beside the session's)."""


class RoomError(ValueError):
    """A request the room refuses: ``code`` for the error frame, the text in words."""

    def __init__(self, message: str, code: ErrorCode) -> None:
        super().__init__(message)
        self.code = code


def new_code() -> str:
    """A random room code (about a billion possible: guessing one takes long)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Snapshot(NamedTuple):
    """A room as it stood, ready to be written: its code, game, seat names and metadata."""

    code: str
    state: GameState
    seats: tuple[str, ...]
    meta: dict[str, Any]


NEED_ACCOUNT = "a rated table seats players with an account: see coloretto account create"


@dataclass
class TableTerms:
    """The terms a room's table was opened on, and who plays under which account:
    ``accounts`` has one entry a seat (``None``: a guest, or nobody). A ``public`` table is
    listed in the lobby; bots fill its free seats and start its game at ``fill_at``
    (seconds since the epoch: every server process tells the same time); a ``rated`` table
    seats accounts only and its games change their ratings. ``clock``: the speed profile
    every person's moves are timed by (``None``: no clock, a private table's choice)."""

    accounts: list[str | None]
    public: bool = False
    rated: bool = False
    fill_at: float | None = None
    clock: Clock | None = None

    def to_json(self) -> dict[str, Any]:
        """The table's fields in the room's saved object."""
        clock = None if self.clock is None else self.clock.to_json()
        return {"accounts": list(self.accounts), "public": self.public, "rated": self.rated,
                "fill_at": self.fill_at, "clock": clock}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any], players: int) -> TableTerms:
        """The table kept in a room's saved object (a room saved before tables had these
        has none: guests, private); ``RecordError`` if it is not right."""
        accounts = data.get("accounts", [None] * players)
        if not isinstance(accounts, list) or len(accounts) != players:
            raise RecordError("room.accounts: one entry per player expected")
        if not all(a is None or (isinstance(a, str) and 0 < len(a) <= MAX_NAME) for a in accounts):
            raise RecordError("room.accounts: expected account names or null")
        public, rated = data.get("public", False), data.get("rated", False)
        if not isinstance(public, bool) or not isinstance(rated, bool):
            raise RecordError("room.public, room.rated: expected true or false")
        fill_at = data.get("fill_at")
        if fill_at is not None and (
            isinstance(fill_at, bool) or not isinstance(fill_at, int | float)
        ):
            raise RecordError("room.fill_at: expected seconds or null")
        try:
            clock = None if data.get("clock") is None else Clock.from_json(data["clock"])
        except ClockError as error:
            raise RecordError(f"room.clock: {error}") from None
        fill = None if fill_at is None else float(fill_at)
        return cls(accounts, public, rated, fill, clock)


class Room:
    """One table: its code, its session, its people (by player number) and settings."""

    def __init__(
        self,
        code: str,
        session: Session,
        people: list[str | None],
        tokens: list[str | None],
        *,
        started: bool,
        away_after: float,
        covered: list[int] | None = None,
        locked: bool = False,
        table: TableTerms | None = None,
        standing: Standing | None = None,
    ) -> None:
        self.code = code
        self.session = session
        self.people = people
        """Each player's person by name; ``None`` for a seat a bot plays (or still free)."""
        self._tokens = tokens
        self.started = started
        self.away_after = away_after
        """Seconds a person may be away on their turn before a bot plays for them."""
        self.covered: list[int] = covered or []
        """The actions (by number) of the game on the table that a bot played for a
        person away."""
        self.locked = locked
        """True while the host keeps the table closed to new players (``join``)."""
        self.table = table or TableTerms(accounts=[None] * len(people))
        """Who plays under which account, and how the table was opened."""
        self.standing = standing or Standing.new(self.table.clock, len(people))
        """Each player's time left, timeouts and leaving in the game on the table."""

    @classmethod
    def open(
        cls, code: str, host: Host, account: str | None = None, clock: Clock | None = None
    ) -> tuple[Room, str]:
        """A new room with the host in the first seat (``account``: theirs, checked, as
        registered; at a public or rated table the seat takes that name, not the one the
        opening gives; ``clock``: the profile its moves are timed by); returns it and the
        host's token. ``RoomError`` for a rated table without an account."""
        if host.rated and account is None:
            raise RoomError(NEED_ACCOUNT, ErrorCode.ACCOUNT_NEEDED)
        players = host.rules.players
        name = account if account is not None and (host.public or host.rated) else host.name
        people: list[str | None] = [name, *([None] * (players - 1))]
        config = GameConfig(
            host.rules, _players(people, host.bot), delay=host.delay, level=host.bot
        )
        fill_at = None if host.fill_after is UNSET else time.time() + host.fill_after
        table = TableTerms([account, *([None] * (players - 1))], host.public, host.rated,
                           fill_at, clock)  # fmt: skip
        room = cls(code, Session(config), people, [None] * players, started=False,
                   away_after=host.away_after, table=table)  # fmt: skip
        return room, room._new_token(0)

    # ------------------------------------------------------------------ people

    @property
    def level(self) -> str:
        """The level of the bots that fill empty seats (and play for people away)."""
        return self.session.config.level

    def join(self, name: str, account: str | None = None) -> tuple[int, str]:
        """Seat a person (``account``: theirs, checked, as registered); returns the player
        number and the seat's token. At a public or rated table an account's seat takes
        the account's name (not ``name``), and a guest whose name reads like it (the same
        ``names.fold``) gets a number instead. Otherwise a name that reads like another's
        at the table ("Ana", "ana", "Ana" with a Greek capital Alpha) gets a number:
        "Ana 2". ``RoomError`` once the game has started, while the host keeps the table
        closed, when the room is full, at a rated table without an account, or for an
        account seated already."""
        if self.table.rated and account is None:
            raise RoomError(NEED_ACCOUNT, ErrorCode.ACCOUNT_NEEDED)
        if account is not None and any(
            a is not None and fold(a) == fold(account) for a in self.table.accounts
        ):
            raise RoomError(f"account {account} sits at this table already", ErrorCode.SEATED)
        if self.started:
            raise RoomError("the game has started: no seat is free", ErrorCode.STARTED)
        if self.locked:
            raise RoomError("the host has closed this table to new players", ErrorCode.LOCKED)
        free = [p for p, person in enumerate(self.people) if person is None]
        if not free:
            raise RoomError("the room is full", ErrorCode.FULL)
        player = free[0]
        if account is not None and (self.table.public or self.table.rated):
            self.people[player] = account
            for guest, person in enumerate(self.people):
                a_guest = guest != player and self.table.accounts[guest] is None
                if a_guest and person is not None and fold(person) == fold(account):
                    self._name_seat(guest, person)
            name = account
        self._name_seat(player, name)
        self.table.accounts[player] = account
        return player, self._new_token(player)

    def _name_seat(self, player: int, name: str) -> None:
        """Give seat ``player`` the name ``name``, numbered ("Ana 2") while it reads like
        another seat's (``names.fold``)."""
        for number in range(1, 100):
            suffix = f" {number}" if number > 1 else ""
            self.people[player] = name[: MAX_NAME - len(suffix)] + suffix
            names = [fold(p.name) for p in _players(self.people, self.level)]
            if len(set(names)) < len(names):
                continue
            try:
                self._rebuild()
                return
            except ValueError:
                continue

    def remove(self, player: int) -> None:
        """The host removes the person of seat ``player`` before the start: the seat is
        free again and its token forgotten. ``RoomError`` saying why not."""
        if self.started:
            raise RoomError("the game has started: nobody can be removed", ErrorCode.STARTED)
        if player == 0:
            raise RoomError(
                "the host cannot remove themself: leave the room instead", ErrorCode.BAD_SEAT
            )
        if player >= len(self.people) or self.people[player] is None:
            raise RoomError(f"nobody sits in seat {player + 1}", ErrorCode.BAD_SEAT)
        self.people[player] = None
        self._tokens[player] = None
        self.table.accounts[player] = None
        self._rebuild()

    def lock(self, locked: bool) -> None:
        """The host closes the table to new players (``locked``) or opens it again, before
        the start; ``RoomError`` once the game has started."""
        if self.started:
            raise RoomError("the game has started already", ErrorCode.STARTED)
        self.locked = locked

    def _new_token(self, player: int) -> str:
        token = secrets.token_urlsafe(24)
        self._tokens[player] = _hash(token)
        return token

    def player_of(self, token: str) -> int | None:
        """The player whose secret ``token`` this is, if any."""
        if not TOKEN.fullmatch(token):
            return None
        given = _hash(token)
        found = None
        for player, kept in enumerate(self._tokens):
            if kept is not None and hmac.compare_digest(kept, given):
                found = player
        return found

    def _rebuild(self) -> None:
        session = self.session
        config = GameConfig(
            session.config.rules,
            _players(self.people, self.level),
            delay=session.config.delay,
            level=self.level,
        )
        self.session = Session(config, session.match, session.id)

    def start(self) -> None:
        """Start the game: bots play the seats still free."""
        self.started = True
        self.standing = Standing.new(self.table.clock, len(self.people))

    def next_game(self, number: int) -> None:
        """Deal game ``number`` of the match, the one after the game just over (the host's
        request); ``RoomError`` saying why not (a request sent twice is ``stale``)."""
        match = self.session.match
        if not self.started:
            raise RoomError("the game has not started yet", ErrorCode.NOT_STARTED)
        if number <= match.game_number:
            raise RoomError(f"game {number} has started already", ErrorCode.STALE)
        if match.is_over:
            raise RoomError(
                f"the match is over: it had {match.rules.games} games", ErrorCode.MATCH_OVER
            )
        if not match.game.is_over:
            raise RoomError(f"game {match.game_number} is still being played", ErrorCode.PLAYING)
        if number != match.game_number + 1:
            raise RoomError(f"the next game is game {match.game_number + 1}", ErrorCode.STALE)
        self.session.next_game()
        self.covered = []
        self.standing = Standing.new(self.table.clock, len(self.people))

    # ------------------------------------------------------------------ playing

    @property
    def ply(self) -> int:
        """Actions played so far."""
        return self.session.game.ply

    def mover(self) -> int | None:
        """The player to move (a ghost's partner moves it); ``None`` before the start and
        once the game is over."""
        game = self.session.game
        if not self.started or game.is_over:
            return None
        return game.rules.controller(game.current_player)

    def is_person(self, player: int) -> bool:
        """True when a person (not a bot) plays ``player``'s seats."""
        return self.people[player] is not None

    def act(self, player: int, ply: int, action: Action) -> Move:
        """Play ``action`` for ``player`` at position ``ply``; ``RoomError`` if it is not
        theirs to play now, ``IllegalAction`` if the rules forbid it."""
        if self.mover() != player:
            if not self.started:
                raise RoomError("the game has not started yet", ErrorCode.NOT_STARTED)
            raise RoomError("it is not your turn", ErrorCode.NOT_YOUR_TURN)
        if ply != self.ply:
            raise RoomError(
                f"that was for move {ply + 1}; this is move {self.ply + 1}", ErrorCode.STALE
            )
        return self.session.apply(action)

    def note_move(
        self, player: int, spent: float, *, timeout: bool = False, gone: bool = False
    ) -> dict[str, Any]:
        """Keep what ``player``'s move just played (``spent`` seconds after their clock
        started) changes of their standing: their time left, a ``timeout`` (their time ran
        out and it was played for them), their leaving (``gone``, or the timeout that made
        ``MAX_TIMEOUTS``). Returns the notes an action's entry keeps of it (``replay_notes``
        reads them back)."""
        standing, clock = self.standing, self.table.clock
        notes: dict[str, Any] = {}
        if clock is not None and self.is_person(player):
            bank = clock.after_move(standing.banks[player], spent)
            standing.banks[player] = bank
            notes["bank"] = round(bank, 3)
        if timeout:
            standing.timeouts[player] += 1
            notes["timeout"] = True
            gone = gone or standing.out_of_time(player)
        if gone and player not in standing.left:
            standing.left.add(player)
            notes["left"] = True
        return notes

    def replay_notes(self, player: int, notes: Mapping[str, Any]) -> str | None:
        """Take back the notes ``note_move`` made of ``player``'s move from an action's
        entry; what is wrong with them, if anything (then nothing is changed)."""
        standing, clock = self.standing, self.table.clock
        bank = notes.get("bank")
        if bank is not None and (
            clock is None
            or isinstance(bank, bool)
            or not isinstance(bank, int | float)
            or not 0 <= bank <= clock.bank
        ):
            return f"bank: not a time left of this table's clock: {str(bank)[:20]}"
        for key in ("timeout", "left"):
            if notes.get(key, True) is not True:
                return f"{key} is not true"
        if notes.get("timeout") and standing.out_of_time(player):
            return "a timeout past the last"
        if bank is not None:
            standing.banks[player] = float(bank)
        if notes.get("timeout"):
            standing.timeouts[player] += 1
        if notes.get("left"):
            standing.left.add(player)
        return None

    def bot_specs(self) -> dict[int, str]:
        """The room's bots by number (``coloretto.bots.players.BotPlayers``): each player's
        that a bot plays, and for each person a stand-in at the room's level
        (``stand_in``), who plays for them while they are away."""
        specs = dict(self.session.bots.specs)
        for player, person in enumerate(self.people):
            if person is not None:
                specs[stand_in(player)] = self.level
        return specs

    # ------------------------------------------------------------------ on disk

    def meta(self) -> dict[str, Any]:
        """The record's metadata everyone may see: the session (players, bots, pace)."""
        return session_meta(self.session)

    def snapshot(self) -> Snapshot:
        """The room as it stands, to be saved (even from another thread: it is a copy)."""
        meta = self.meta()
        meta[ROOM_KEY] = {
            "code": self.code,
            "people": list(self.people),
            "tokens": list(self._tokens),
            "started": self.started,
            "away_after": self.away_after,
            "covered": list(self.covered),
            "locked": self.locked,
            **self.table.to_json(),
            "standing": self.standing.to_json(),
        }
        return Snapshot(self.code, self.session.game, self.session.seat_names, meta)

    @classmethod
    def load(cls, path: Path) -> Room:
        """The room saved in ``path``; ``RecordError`` if it is not one."""
        try:
            return cls.from_record(read_record(path), path.stem)
        except RecordError as error:
            raise error.in_file(path) from None

    @classmethod
    def from_record(cls, record: GameRecord, code: str) -> Room:
        """Room ``code`` as its snapshot's record holds it; ``RecordError`` if it is not
        (or is another room)."""
        session = session_from_record(record)
        data = expect(record.meta.get(ROOM_KEY), Mapping, ROOM_KEY, "an object")
        saved = expect(data.get("code"), str, "room.code", "a room code")
        if not ROOM_CODE.fullmatch(saved) or saved != code:
            raise RecordError("room.code: not this room's code")
        players = session.config.rules.players
        people = expect(data.get("people"), list, "room.people", "a list")
        tokens = expect(data.get("tokens"), list, "room.tokens", "a list")
        if len(people) != players or len(tokens) != players:
            raise RecordError("room: one entry per player expected")
        if not all(p is None or (isinstance(p, str) and 0 < len(p) <= MAX_NAME) for p in people):
            raise RecordError("room.people: expected names or null")
        if not all(t is None or (isinstance(t, str) and len(t) == 64) for t in tokens):
            raise RecordError("room.tokens: expected token hashes or null")
        away = expect(data.get("away_after"), (int, float), "room.away_after", "seconds")
        if session.config.level not in LEVELS or not 0 <= away <= MAX_AWAY_AFTER:
            raise RecordError("room: bad level or away time")
        if any(abs(score) > MAX_SCORE for game in session.match.results for score in game):
            raise RecordError(f"room: a score of the match beyond ±{MAX_SCORE}")
        started = data.get("started") is True
        try:  # a room saved before they were kept has none
            covered = sorted(bot_covered(data.get("covered"), len(session.game.history())))
        except ProtocolError as error:
            raise RecordError(f"room.{error}") from None
        table = TableTerms.from_json(data, players)
        try:
            standing = Standing.from_json(data.get("standing"), table.clock, players)
        except ClockError as error:
            raise RecordError(f"room.{error}") from None
        return cls(code, session, people, tokens, started=started, away_after=float(away),
                   covered=covered, locked=data.get("locked") is True, table=table,
                   standing=standing)  # fmt: skip


STAND_INS = 10
"""The bots standing in for people are numbered from here on, after the players' and the
hint bot's."""


def stand_in(player: int) -> int:
    """The number of the bot that plays for ``player``'s person while they are away."""
    return STAND_INS + player


def _players(people: list[str | None], level: str) -> tuple[Player, ...]:
    """The players of a table: its people, and bots playing ``level`` in the free seats,
    named as everywhere (``name_players``; names compared as they read: ``fold``)."""
    return name_players(people, [level] * people.count(None), fold)


def over_record(room: Room) -> dict[str, Any]:
    """The whole record of a finished game, deck and seed included, as everyone may now
    see it (the room's tokens are not in it). Before the last game of a match, without the
    seed: the next games are dealt from it (``Match.game_seed``), so it would give their
    decks away."""
    session = room.session
    record = to_record(session.game, session.seat_names, room.meta())
    if session.match.seed_secrecy is not SeedSecrecy.SHOWN:
        record["setup"]["seed"] = None
        kept = record["meta"][SESSION_KEY]
        kept["match"]["seed"] = None
        kept["seeded"] = False
    return record
