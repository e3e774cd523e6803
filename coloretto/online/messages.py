"""The server's messages, version 1 (``docs/protocol.md``, "Messages from the server").

Each message is a frozen dataclass: the server builds it and sends ``encode(message)``;
the client reads a frame with ``parse_message``, which checks everything a server could
get wrong (or a program that is not a server at all): the frame's size, each field's type
and bounds, names and cards. A frame that is not exactly right raises ``ProtocolError``
saying what is wrong; fields a message does not know are left alone (a later server of
the same version may add some).

>>> parse_message('{"type": "presence", "away": [1], "next_in": 29.5}')
PresenceMessage(away=(1,), next_in=29.5)
>>> parse_message('{"type": "move", "ply": -1, "move": {"player": 0, "action": "draw"}}')
Traceback (most recent call last):
...
coloretto.online.protocol.ProtocolError: move.ply: expected a whole number from 0 to 1000
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from coloretto.bots.registry import LEVELS
from coloretto.engine import Move, Rules
from coloretto.online.clock import MAX_BANK, MAX_TIMEOUTS, Clock, ClockError
from coloretto.online.protocol import (
    KEY_BYTES,
    MAX_AWAY_AFTER,
    MAX_PLY,
    MAX_SEAT,
    ROOM_CODE,
    TOKEN,
    VERSION,
    ErrorCode,
    ProtocolError,
    account_name,
    b64url,
    bot_covered,
    from_b64url,
)
from coloretto.online.public import PublicSetup, Results, match_progress, move_json, parse_move
from coloretto.play.config import MAX_DELAY, MAX_NAME, GameConfig, Player
from coloretto.store.text import printable

MAX_MESSAGE = 1 << 20
"""The largest frame a client takes from a server (a finished game's record is about
20 KB)."""

MAX_TEXT = 200
"""The longest text a client shows from a server's message (an error's words)."""

MAX_ID = 64
"""The longest game id (or bot spec) a client takes from a server."""


@dataclass(frozen=True)
class WelcomeMessage:
    """The reply to an opening: the room, the player's seat (``None``: watching) and, when it
    was just given, the seat's secret token."""

    room: str
    seat: int | None
    token: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The message's frame (no ``token`` when none was given)."""
        data = {"type": "welcome", "version": VERSION, "room": self.room, "seat": self.seat}
        return data if self.token is None else {**data, "token": self.token}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> WelcomeMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        if data.get("version") != VERSION:
            raise ProtocolError(f"welcome.version: this client speaks version {VERSION}")
        token = data.get("token")
        if token is not None and not (isinstance(token, str) and TOKEN.fullmatch(token)):
            raise ProtocolError("welcome.token: not a seat's token")
        return cls(_room(data, "welcome"), _seat(data, "seat", MAX_SEAT + 1, "welcome"), token)


@dataclass(frozen=True)
class LobbySeat:
    """A seat taken before the start: its person and whether they are connected now."""

    name: str
    present: bool


@dataclass(frozen=True)
class LobbyMessage:
    """Who sits where before the start (``None``: a free seat, a bot's once it starts);
    whether the table is public (listed in the lobby) and rated, and in how many seconds
    bots fill its free seats and its game starts (``None``: when its host starts it)."""

    room: str
    rules: Rules
    bot: str
    seats: tuple[LobbySeat | None, ...]
    locked: bool = False
    public: bool = False
    rated: bool = False
    fill_in: float | None = None
    clock: Clock | None = None
    """The speed profile the game will be played at (``None``: no clock)."""

    def to_json(self) -> dict[str, Any]:
        """The message's frame (``public``, ``rated``, ``fill_in`` and ``clock`` only when
        set)."""
        seats = [
            None if seat is None else {"name": seat.name, "present": seat.present}
            for seat in self.seats
        ]
        data = {"type": "lobby", "room": self.room, "rules": self.rules.to_dict(),
                "bot": self.bot, "seats": seats, "locked": self.locked}  # fmt: skip
        if self.public:
            data["public"] = True
        if self.rated:
            data["rated"] = True
        if self.fill_in is not None:
            data["fill_in"] = self.fill_in
        if self.clock is not None:
            data["clock"] = self.clock.to_json()
        return data

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> LobbyMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        rules = _rules(data, "lobby")
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != rules.players:
            raise ProtocolError(f"lobby.seats: expected {rules.players} seats")
        taken: list[LobbySeat | None] = []
        for seat in seats:
            if seat is None:
                taken.append(None)
                continue
            if not isinstance(seat, Mapping) or not isinstance(seat.get("present"), bool):
                raise ProtocolError("lobby.seats: expected a name and whether they are here")
            taken.append(LobbySeat(_name(seat.get("name"), "lobby.seats"), seat["present"]))
        locked = data.get("locked", False)
        if not isinstance(locked, bool):
            raise ProtocolError("lobby.locked: expected true or false")
        room = _room(data, "lobby")
        public, rated = data.get("public", False), data.get("rated", False)
        if not isinstance(public, bool) or not isinstance(rated, bool):
            raise ProtocolError("lobby.public, lobby.rated: expected true or false")
        fill_in = (
            None if data.get("fill_in") is None else _seconds(data, "fill_in", 3600.0, "lobby")
        )
        return cls(room, rules, _level(data, "bot", "lobby"), tuple(taken), locked, public,
                   rated, fill_in, _clock(data.get("clock"), "lobby"))  # fmt: skip


@dataclass(frozen=True)
class GameMessage:
    """The whole game as the table sees it (at the start, after a ``resume``, and when a
    match's next game is dealt): no deck order, no seed."""

    room: str
    id: str
    player: int | None
    """The player this connection plays (``None``: watching)."""
    rules: Rules
    players: tuple[Player, ...]
    level: str
    delay: float
    away_after: float
    setup: PublicSetup
    moves: tuple[Move, ...]
    number: int = 1
    """The match's game on the table (from 1)."""
    results: Results = ()
    """The scores of the match's games before it."""
    away: tuple[int, ...] = ()
    covered: frozenset[int] = frozenset()
    """The moves (by number) a bot played for a person away."""
    next_in: float | None = None
    """Seconds until the server deals the match's next game itself (its host away)."""
    timing: Timing | None = None
    """The game's clock and each player's time, timeouts and leaving (``None``: no
    clock, nobody gone)."""

    @property
    def config(self) -> GameConfig:
        """The players and the bots' pace, as a game's configuration."""
        return GameConfig(self.rules, self.players, delay=self.delay)

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        data: dict[str, Any] = {
            "type": "game", "room": self.room, "id": self.id, "player": self.player,
            "rules": self.rules.to_dict(),
            "players": [{"name": p.name, "bot": p.bot} for p in self.players],
            "level": self.level, "delay": self.delay, "away_after": self.away_after,
            "match": {"game": self.number, "results": [list(s) for s in self.results]},
            "setup": self.setup.to_json(), "moves": [move_json(move) for move in self.moves],
            "away": list(self.away), "covered": sorted(self.covered),
        }  # fmt: skip
        if self.timing is not None:
            data["timing"] = self.timing.to_json()
        return _with_next_in(data, self.next_in)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> GameMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        rules = _rules(data, "game")
        game_id = data.get("id")
        if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_ID:
            raise ProtocolError("game.id: expected a game's id")
        listed = data.get("players")
        if not isinstance(listed, list) or len(listed) != rules.players:
            raise ProtocolError(f"game.players: expected {rules.players} players")
        players = tuple(_player(entry) for entry in listed)
        moves = data.get("moves")
        if not isinstance(moves, list) or len(moves) > MAX_PLY:
            raise ProtocolError("game.moves: expected the moves played")
        delay = _seconds(data, "delay", MAX_DELAY, "game")
        try:
            GameConfig(rules, players, delay=delay)  # the names, as a game takes them
        except ValueError as error:
            raise ProtocolError(f"game.players: {printable(str(error), 80)}") from None
        number, results = match_progress(rules, data.get("match"))
        return cls(
            _room(data, "game"),
            printable(game_id, MAX_ID),
            _seat(data, "player", rules.players, "game"),
            rules,
            players,
            _level(data, "level", "game"),
            delay,
            _seconds(data, "away_after", MAX_AWAY_AFTER, "game"),
            PublicSetup.parse(data.get("setup"), rules),
            tuple(parse_move(move) for move in moves),
            number,
            results,
            _players(data.get("away"), rules.players, "game.away"),
            bot_covered(data.get("covered"), len(moves)),
            _next_in(data, "game"),
            None if data.get("timing") is None else Timing.parse(data["timing"], rules.players),
        )


@dataclass(frozen=True)
class MoveMessage:
    """Move number ``ply`` (from 0) was played (and saved); ``covered``: a bot played it
    for a person away (or whose time ran out: ``timeout``). At a table with a clock,
    ``bank``: its player's time left after it; ``left``: its player counts as having left
    the game from this move on."""

    ply: int
    move: Move
    covered: bool = False
    bank: float | None = None
    timeout: bool = False
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        """The message's frame (``covered``, ``bank``, ``timeout`` and ``left`` only when
        set)."""
        data: dict[str, Any] = {"type": "move", "ply": self.ply, "move": move_json(self.move)}
        if self.covered:
            data["covered"] = True
        if self.bank is not None:
            data["bank"] = round(self.bank, 1)
        if self.timeout:
            data["timeout"] = True
        if self.left:
            data["left"] = True
        return data

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> MoveMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        ply = data.get("ply")
        if type(ply) is not int or not 0 <= ply <= MAX_PLY:
            raise ProtocolError(f"move.ply: expected a whole number from 0 to {MAX_PLY}")
        flags = []
        for key in ("covered", "timeout", "left"):
            flag = data.get(key, False)
            if not isinstance(flag, bool):
                raise ProtocolError(f"move.{key}: expected true or false")
            flags.append(flag)
        covered, timeout, left = flags
        bank = None if data.get("bank") is None else _seconds(data, "bank", MAX_BANK, "move")
        return cls(ply, parse_move(data.get("move")), covered, bank, timeout, left)


@dataclass(frozen=True)
class Timing:
    """A game's clock as a message tells it: the profile (``None``: no clock), each
    player's time left (the player to move: as of the message), the moves each player's
    time ran out on, and who has left the game."""

    clock: Clock | None
    banks: tuple[float, ...] = ()
    timeouts: tuple[int, ...] = ()
    left: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The ``timing`` object of a ``game`` message."""
        return {
            "clock": None if self.clock is None else self.clock.to_json(),
            "banks": [round(bank, 1) for bank in self.banks],
            "timeouts": list(self.timeouts),
            "left": list(self.left),
        }

    @classmethod
    def parse(cls, data: object, players: int) -> Timing:
        """The ``timing`` in ``data``; ``ProtocolError`` unless it is exactly right."""
        if not isinstance(data, Mapping):
            raise ProtocolError("game.timing: expected an object")
        clock = _clock(data.get("clock"), "game.timing")
        banks, timeouts = data.get("banks"), data.get("timeouts")
        if (
            not isinstance(banks, list)
            or len(banks) != (0 if clock is None else players)
            or not all(_is_seconds(bank, MAX_BANK) for bank in banks)
        ):
            raise ProtocolError("game.timing.banks: expected each player's seconds left")
        if (
            not isinstance(timeouts, list)
            or len(timeouts) != players
            or not all(type(t) is int and 0 <= t <= MAX_TIMEOUTS for t in timeouts)
        ):
            raise ProtocolError(f"game.timing.timeouts: expected 0 to {MAX_TIMEOUTS} a player")
        left = _players(data.get("left"), players, "game.timing.left")
        return cls(clock, tuple(float(b) for b in banks), tuple(timeouts), left)


@dataclass(frozen=True)
class PresenceMessage:
    """The players whose person has no connection now; between two games of a match whose
    host is away, ``next_in``: the seconds until the server deals the next game itself."""

    away: tuple[int, ...]
    next_in: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The message's frame (``next_in`` to a tenth of a second, only when set)."""
        return _with_next_in({"type": "presence", "away": list(self.away)}, self.next_in)

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> PresenceMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        away = _players(data.get("away"), MAX_SEAT + 1, "presence.away")
        return cls(away, _next_in(data, "presence"))


@dataclass(frozen=True)
class OverMessage:
    """The finished game's whole record (``coloretto-record/1``), deck included; the seed
    too once the match is over."""

    record: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        return {"type": "over", "record": dict(self.record)}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> OverMessage:
        """The message in ``data``: its record is an object (``load_record`` checks it)."""
        record = data.get("record")
        if not isinstance(record, dict):
            raise ProtocolError("over.record: expected a game record")
        return cls(record)


@dataclass(frozen=True)
class ErrorMessage:
    """A request refused, or the reason a connection ends: ``code`` to branch on,
    ``message`` in words."""

    code: ErrorCode
    message: str

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        return {"type": "error", "code": self.code.value, "message": self.message}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> ErrorMessage:
        """The message in ``data`` (its words cleaned of control characters)."""
        code, words = data.get("code"), data.get("message")
        if not isinstance(code, str) or code not in _CODES:
            raise ProtocolError(f"error.code: unknown code {printable(str(code), 20)!r}")
        if not isinstance(words, str):
            raise ProtocolError("error.message: expected words")
        return cls(ErrorCode(code), printable(words, MAX_TEXT))


@dataclass(frozen=True)
class ChallengeMessage:
    """The answer to ``challenge``: a fresh random ``nonce`` (32 bytes) for this
    connection's opening to sign."""

    nonce: bytes

    def to_json(self) -> dict[str, Any]:
        """The message's frame (the nonce in base64url)."""
        return {"type": "challenge", "nonce": b64url(self.nonce)}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> ChallengeMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        try:
            return cls(from_b64url(data.get("nonce"), KEY_BYTES, "challenge.nonce"))
        except ValueError as error:
            raise ProtocolError(str(error)) from None


@dataclass(frozen=True)
class AccountMessage:
    """The answer to ``register``: the account ``name`` is this key's on the server now."""

    name: str

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        return {"type": "account", "name": self.name}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> AccountMessage:
        """The message in ``data``; ``ProtocolError`` unless its name is an account's."""
        name = data.get("name")
        try:
            return cls(account_name(name if isinstance(name, str) else ""))
        except ValueError as error:
            raise ProtocolError(f"account.name: {error}") from None


MAX_TABLES = 50
"""The most tables a lobby lists (``RoomSpace.public_tables`` says which)."""

MAX_LADDER = 100
"""The most players a ladder lists."""

MAX_RATING = 100_000
"""More than any shown rating, plus or minus (ratings from the network are checked)."""


@dataclass(frozen=True)
class TableSummary:
    """A public table waiting for players, as the lobby lists it: its rules, who sits
    there (with their ratings: ``None`` for a guest, or an account not rated yet), its
    bots' level, whether it is rated, and in how many seconds bots fill its free seats
    (``None``: when its host starts it)."""

    room: str
    rules: Rules
    bot: str
    seated: tuple[str, ...]
    rated: bool = False
    fill_in: float | None = None
    ratings: tuple[int | None, ...] = ()
    clock: Clock | None = None
    """The speed profile its game will be played at."""

    @property
    def free(self) -> int:
        """Seats still free."""
        return self.rules.players - len(self.seated)

    def to_json(self) -> dict[str, Any]:
        """The table's object in a ``tables`` message."""
        return {"room": self.room, "rules": self.rules.to_dict(), "bot": self.bot,
                "seated": list(self.seated), "rated": self.rated,
                "fill_in": self.fill_in, "ratings": list(self.ratings),
                "clock": None if self.clock is None else self.clock.to_json()}  # fmt: skip

    @classmethod
    def parse(cls, data: object) -> TableSummary:
        """One table; ``ProtocolError`` unless it is exactly right."""
        if not isinstance(data, Mapping):
            raise ProtocolError("tables: expected objects")
        rules = _rules(data, "tables")
        seated = data.get("seated")
        if not isinstance(seated, list) or not len(seated) < rules.players:
            raise ProtocolError("tables.seated: expected the names of fewer than all seats")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise ProtocolError("tables.rated: expected true or false")
        fill_in = data.get("fill_in")
        if fill_in is not None:
            fill_in = _seconds(data, "fill_in", 3600.0, "tables")
        names = tuple(_name(name, "tables.seated") for name in seated)
        ratings = data.get("ratings", [])
        if not isinstance(ratings, list) or len(ratings) not in {0, len(names)}:
            raise ProtocolError("tables.ratings: expected one rating a seated player")
        if not all(r is None or (type(r) is int and abs(r) <= MAX_RATING) for r in ratings):
            raise ProtocolError("tables.ratings: expected whole ratings or null")
        return cls(_room(data, "tables"), rules, _level(data, "bot", "tables"), names,
                   rated, fill_in, tuple(ratings), _clock(data.get("clock"), "tables"))  # fmt: skip


@dataclass(frozen=True)
class TablesMessage:
    """The answer to ``tables``: the public tables waiting for players."""

    tables: tuple[TableSummary, ...]

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        return {"type": "tables", "tables": [table.to_json() for table in self.tables]}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> TablesMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        tables = data.get("tables")
        if not isinstance(tables, list) or len(tables) > MAX_TABLES:
            raise ProtocolError(f"tables.tables: expected at most {MAX_TABLES} tables")
        return cls(tuple(TableSummary.parse(table) for table in tables))


@dataclass(frozen=True)
class LadderEntry:
    """One rated player (or a bot level, ``bot``): the rating shown, its uncertainty
    (``spread``: about two standard deviations) and the rated games played."""

    name: str
    rating: int
    spread: int
    games: int
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        """The entry's object in a ``ladder`` message."""
        return {"name": self.name, "rating": self.rating, "spread": self.spread,
                "games": self.games, "bot": self.bot}  # fmt: skip

    @classmethod
    def parse(cls, data: object) -> LadderEntry:
        """One entry; ``ProtocolError`` unless it is exactly right."""
        if not isinstance(data, Mapping):
            raise ProtocolError("ladder: expected objects")
        numbers = [data.get(key) for key in ("rating", "spread", "games")]
        if not all(type(n) is int and abs(n) <= MAX_RATING for n in numbers):
            raise ProtocolError("ladder: expected whole ratings, spreads and games")
        bot = data.get("bot", False)
        if not isinstance(bot, bool):
            raise ProtocolError("ladder.bot: expected true or false")
        rating, spread, games = numbers
        assert isinstance(rating, int)
        assert isinstance(spread, int)
        assert isinstance(games, int)
        return cls(_name(data.get("name"), "ladder"), rating, spread, games, bot)


@dataclass(frozen=True)
class LadderMessage:
    """The answer to ``ladder``: the server's rated players, best first, and its bot
    levels' ratings (the same scale)."""

    entries: tuple[LadderEntry, ...]

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        return {"type": "ladder", "entries": [entry.to_json() for entry in self.entries]}

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> LadderMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        entries = data.get("entries")
        if not isinstance(entries, list) or len(entries) > MAX_LADDER + len(LEVELS):
            raise ProtocolError("ladder.entries: expected a list of players")
        return cls(tuple(LadderEntry.parse(entry) for entry in entries))


@dataclass(frozen=True)
class RatingChange:
    """A seat's rating before and after a rated game."""

    seat: int
    name: str
    before: int
    after: int

    def to_json(self) -> dict[str, Any]:
        """The change's object in a ``rated`` message."""
        return {"seat": self.seat, "name": self.name, "before": self.before,
                "after": self.after}  # fmt: skip


@dataclass(frozen=True)
class RatedMessage:
    """After a rated game: the game's number in the match and each account's rating
    before and after it."""

    game: int
    changes: tuple[RatingChange, ...]

    def to_json(self) -> dict[str, Any]:
        """The message's frame."""
        return {"type": "rated", "game": self.game,
                "changes": [change.to_json() for change in self.changes]}  # fmt: skip

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> RatedMessage:
        """The message in ``data``; ``ProtocolError`` unless it is exactly right."""
        game, changes = data.get("game"), data.get("changes")
        if type(game) is not int or not 1 <= game <= 1000:
            raise ProtocolError("rated.game: expected a game's number")
        if not isinstance(changes, list) or len(changes) > MAX_SEAT + 1:
            raise ProtocolError("rated.changes: expected one change a seat at most")
        told = []
        for change in changes:
            if not isinstance(change, Mapping):
                raise ProtocolError("rated.changes: expected objects")
            seat, before, after = (change.get(key) for key in ("seat", "before", "after"))
            if type(seat) is not int or not 0 <= seat <= MAX_SEAT:
                raise ProtocolError("rated.changes.seat: expected a seat")
            if not all(type(n) is int and abs(n) <= MAX_RATING for n in (before, after)):
                raise ProtocolError("rated.changes: expected whole ratings")
            assert isinstance(before, int)
            assert isinstance(after, int)
            told.append(RatingChange(seat, _name(change.get("name"), "rated"), before, after))
        return cls(game, tuple(told))


ServerMessage = (
    WelcomeMessage
    | LobbyMessage
    | GameMessage
    | MoveMessage
    | PresenceMessage
    | OverMessage
    | ErrorMessage
    | ChallengeMessage
    | AccountMessage
    | TablesMessage
    | LadderMessage
    | RatedMessage
)

MESSAGES: dict[str, type[ServerMessage]] = {
    "welcome": WelcomeMessage,
    "lobby": LobbyMessage,
    "game": GameMessage,
    "move": MoveMessage,
    "presence": PresenceMessage,
    "over": OverMessage,
    "error": ErrorMessage,
    "challenge": ChallengeMessage,
    "account": AccountMessage,
    "tables": TablesMessage,
    "ladder": LadderMessage,
    "rated": RatedMessage,
}
"""Each server message's ``type`` on the wire, and its class."""

_CODES = frozenset(code.value for code in ErrorCode)


def parse_message(text: str | bytes) -> ServerMessage:
    """The message in one frame from a server; ``ProtocolError`` unless it is exactly right."""
    if isinstance(text, bytes):
        raise ProtocolError("frames must be text (JSON), not binary")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"frames are limited to {MAX_MESSAGE} characters")
    kind, data = _read_object(text, MESSAGES)
    return MESSAGES[kind].parse(data)


def _read_object(text: str, known: Collection[str]) -> tuple[str, dict[str, Any]]:
    """A frame's type (one of ``known``) and its JSON object, its size checked already;
    ``ProtocolError`` unless it is a JSON object of a known type."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("expected a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in known:
        raise ProtocolError(f"unknown message {printable(str(kind), 20)!r}")
    return kind, data


def _room(data: Mapping[str, Any], where: str) -> str:
    room = data.get("room")
    if not isinstance(room, str) or not ROOM_CODE.fullmatch(room):
        raise ProtocolError(f"{where}.room: expected a room code")
    return room


def _seat(data: Mapping[str, Any], key: str, players: int, where: str) -> int | None:
    seat = data.get(key)
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise ProtocolError(f"{where}.{key}: expected a player from 0 to {players - 1}, or null")
    return seat


def _rules(data: Mapping[str, Any], where: str) -> Rules:
    fields = data.get("rules")
    if not isinstance(fields, dict):
        raise ProtocolError(f"{where}.rules: expected an object")
    try:
        return Rules(**fields)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"{where}.rules: {printable(str(error), 80)}") from None


def _level(data: Mapping[str, Any], key: str, where: str) -> str:
    level = data.get(key)
    if not isinstance(level, str) or level not in LEVELS:
        raise ProtocolError(f"{where}.{key}: expected one of {', '.join(LEVELS)}")
    return level


def _name(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{where}: expected a name")
    return printable(value, MAX_NAME)


def _player(entry: object) -> Player:
    if not isinstance(entry, Mapping):
        raise ProtocolError("game.players: expected a name and a bot (or null)")
    bot = entry.get("bot")
    if bot is not None and not (isinstance(bot, str) and 0 < len(bot) <= MAX_ID):
        raise ProtocolError("game.players: expected a bot's spec or null")
    return Player(_name(entry.get("name"), "game.players"), bot)


def _players(value: object, players: int, where: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) > players
        or not all(type(p) is int and 0 <= p < players for p in value)
    ):
        raise ProtocolError(f"{where}: expected players from 0 to {players - 1}")
    return tuple(value)


def _seconds(data: Mapping[str, Any], key: str, most: float, where: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= most:
        raise ProtocolError(f"{where}.{key}: expected seconds from 0 to {most:g}")
    return float(value)


def _is_seconds(value: object, most: float) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 <= value <= most


def _clock(value: object, where: str) -> Clock | None:
    """A message's clock (``None`` when it has none); ``ProtocolError`` unless right."""
    if value is None:
        return None
    try:
        return Clock.from_json(value)
    except ClockError as error:
        raise ProtocolError(f"{where}.clock: {error}") from None


def _next_in(data: Mapping[str, Any], where: str) -> float | None:
    """A ``presence`` or ``game`` message's ``next_in`` (``None`` when it has none)."""
    return _seconds(data, "next_in", MAX_AWAY_AFTER, where) if "next_in" in data else None


def _with_next_in(data: dict[str, Any], next_in: float | None) -> dict[str, Any]:
    return data if next_in is None else {**data, "next_in": round(next_in, 1)}
