"""The online protocol, version 1: JSON objects in WebSocket text frames (``docs/protocol.md``).

Pure: no network here. Every request a client sends is a frozen dataclass here, built by
the client (``to_json``) and checked by the server: ``parse_request`` checks a frame (its
size, its type, each field's type and bounds) and gives back the typed request, or raises
``ProtocolError`` with an ``ErrorCode`` and a one-line message for the error frame. The
server's messages are in ``coloretto.online.messages``.

>>> parse_request('{"type": "act", "ply": 3, "action": "take 2"}')
Act(ply=3, action=Action.parse('take 2'))
>>> parse_request('{"type": "act", "ply": -1, "action": "take 2"}')
Traceback (most recent call last):
...
coloretto.online.protocol.ProtocolError: ply: expected a whole number from 0 to 1000
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from coloretto.bots.registry import LEVELS
from coloretto.engine import Action, Rules
from coloretto.engine.rules import MAX_GAMES
from coloretto.online.names import NameRefused, check_name
from coloretto.play.config import MAX_DELAY, MAX_NAME
from coloretto.store.text import printable

VERSION = 1
"""The protocol's version: a client says which it speaks in its first message."""

MAX_REQUEST = 1024
"""The largest frame a client may send, in bytes (the server closes on a larger one)."""

MAX_PLY = 1000
"""More actions than any game has (a 5-player game has about 200)."""

MAX_AWAY_AFTER = 600.0
"""The longest a seat may wait for its person before a bot plays it, in seconds."""

DEFAULT_AWAY_AFTER = 30.0
"""Seconds a person may be away before a bot plays their seat (until they are back)."""

MIN_FILL_AFTER = 10.0
"""The shortest wait a public table's host may set before bots fill it, in seconds."""

MAX_FILL_AFTER = 3600.0
"""The longest wait a public table's host may set before bots fill it, in seconds."""

MAX_SCORE = 1000
"""More points, plus or minus, than any seat scores in a game (a match's earlier scores
from the network or a room's file are checked against it)."""

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The characters of room codes (no I, O, 0 or 1: nothing to mistake)."""

ROOM_CODE = re.compile(f"[{CODE_ALPHABET}]{{6}}")
"""A room's code: six letters and digits that cannot be mistaken for each other."""

CLOCK_NAME = re.compile(r"[a-z][a-z0-9-]{0,15}")
"""A clock profile's name (``coloretto.online.clock.Clock``)."""

TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
"""What a seat's secret token looks like."""

MAX_SEAT = 4
"""The highest player number (a table has at most 5 players)."""


def room_code(text: str) -> str:
    """``text`` as a room code (upper case, no spaces around); ``ValueError`` saying why when
    it is not one.

    >>> room_code(" k7pq2m ")
    'K7PQ2M'
    >>> room_code("K7PQ2")
    Traceback (most recent call last):
    ...
    ValueError: 'K7PQ2' is not a room code (six letters and digits)
    """
    code = text.strip().upper()
    if not ROOM_CODE.fullmatch(code):
        raise ValueError(f"{text[:20]!r} is not a room code (six letters and digits)")
    return code


ROOMS_PATH = "/rooms"
"""The address (URL path) of a new room; room ``CODE``'s is ``/rooms/CODE``."""


def room_path(room: str | None) -> str:
    """The path of room ``room``'s address (``None``: a new room's).

    >>> room_path("K7PQ2M"), room_path(None)
    ('/rooms/K7PQ2M', '/rooms')
    """
    return ROOMS_PATH if room is None else f"{ROOMS_PATH}/{room}"


def code_prefixes(text: str) -> str:
    """``text`` as the characters a server's room codes start with (upper case, each once,
    in the alphabet's order); ``ValueError`` saying why when it is not.

    >>> code_prefixes("sta2"), code_prefixes("ABCDEFGHJKLMNPQR")
    ('AST2', 'ABCDEFGHJKLMNPQR')
    >>> code_prefixes("AIO")
    Traceback (most recent call last):
    ...
    ValueError: 'AIO': room codes are made of ABCDEFGHJKLMNPQRSTUVWXYZ23456789 (not I, O)
    """
    wanted = set(text.strip().upper())
    if wrong := ", ".join(sorted(wanted - set(CODE_ALPHABET))):
        raise ValueError(f"{text[:40]!r}: room codes are made of {CODE_ALPHABET} (not {wrong})")
    if not wanted:
        raise ValueError(f"expected some of {CODE_ALPHABET}, the room codes' characters")
    return "".join(letter for letter in CODE_ALPHABET if letter in wanted)


def b64url(data: bytes) -> str:
    """``data`` in unpadded base64url, as keys, nonces and signatures go on the wire.

    >>> b64url(bytes(range(4)))
    'AAECAw'
    """
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def from_b64url(text: object, size: int, what: str) -> bytes:
    """The ``size`` bytes written in unpadded base64url as ``text`` (exactly as ``b64url``
    writes them); ``ValueError`` naming ``what`` unless it is that.

    >>> from_b64url("AAECAw", 4, "key")
    b'\\x00\\x01\\x02\\x03'
    >>> from_b64url("AAECAx", 4, "key")
    Traceback (most recent call last):
    ...
    ValueError: key: expected 4 bytes in base64url
    """
    wrong = ValueError(f"{what}: expected {size} bytes in base64url")
    if not isinstance(text, str) or not _B64URL.fullmatch(text) or len(text) != -(-size * 4 // 3):
        raise wrong
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise wrong from None
    if len(data) != size or b64url(data) != text:  # one spelling only
        raise wrong
    return data


_B64URL = re.compile(r"[A-Za-z0-9_-]*")

KEY_BYTES = 32
"""The size of an account's public key (Ed25519), and of a challenge's nonce."""

SIGNATURE_BYTES = 64
"""The size of an account's signature (Ed25519)."""


def account_name(text: str) -> str:
    """``text`` as an account's name: 1 to ``MAX_NAME`` characters with a letter or digit,
    no control characters, kept by the name rule (``names.check_name``: no invisible
    characters, one script, no lone marks, no "(you)"), spaces around dropped and runs of
    spaces made one; ``ValueError`` saying why otherwise (a name is refused, never
    silently changed into another).

    >>> account_name(" Ana  Lee ")
    'Ana Lee'
    >>> account_name("Ana" + chr(27) + "[2J")
    Traceback (most recent call last):
    ...
    ValueError: an account's name may not hold control or invisible characters
    """
    if printable(text) != unicodedata.normalize("NFC", text):
        raise ValueError("an account's name may not hold control or invisible characters")
    name = check_name(text)
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise ValueError("an account's name needs a letter or a digit")
    if len(name) > MAX_NAME:
        raise ValueError(f"an account's name has at most {MAX_NAME} characters")
    return name


def seat_name(text: str) -> str:
    """A person's name as the table shows it: no control characters, at most ``MAX_NAME``
    characters, no spaces around; ``""`` when nothing is left.

    >>> seat_name("  Ann Lee  "), seat_name(chr(27) + "[2J")
    ('Ann Lee', '')
    """
    return printable(text, MAX_NAME).strip()


class ErrorCode(StrEnum):
    """Every code of the server's ``error`` frames (``docs/protocol.md``, "Error codes")."""

    BAD_REQUEST = "bad-request"
    TOO_LARGE = "too-large"
    VERSION = "version"
    NO_ROOM = "no-room"
    BAD_TOKEN = "bad-token"
    STARTED = "started"
    FULL = "full"
    LOCKED = "locked"
    SEATED = "seated"
    NOT_HOST = "not-host"
    PLAYING = "playing"
    MATCH_OVER = "match-over"
    STALE = "stale"
    NOT_STARTED = "not-started"
    NOT_YOUR_TURN = "not-your-turn"
    WATCHING = "watching"
    ILLEGAL = "illegal"
    BAD_SEAT = "bad-seat"
    NOT_SAVED = "not-saved"
    REMOVED = "removed"
    REPLACED = "replaced"
    CROWDED = "crowded"
    FLOODING = "flooding"
    TOO_MANY_TRIES = "too-many-tries"
    TOO_MANY_ROOMS = "too-many-rooms"
    SERVER_FULL = "server-full"
    WRONG_ROOM = "wrong-room"
    BAD_NAME = "bad-name"
    NAME_TAKEN = "name-taken"
    BAD_ACCOUNT = "bad-account"
    ACCOUNT_NEEDED = "account-needed"
    OUT_OF_TIME = "out-of-time"


class ProtocolError(ValueError):
    """A message that breaks the protocol: ``code`` names the kind, the text says why."""

    def __init__(self, message: str, code: ErrorCode = ErrorCode.BAD_REQUEST) -> None:
        super().__init__(message)
        self.code = code


class Message(Protocol):
    """A request or a server's message: a JSON object with its ``type``."""

    def to_json(self) -> dict[str, Any]:
        """The message as the JSON object of its frame."""
        ...


def encode(message: Message) -> str:
    """A message as the text of one frame."""
    return json.dumps(message.to_json(), separators=(",", ":"))


# ---------------------------------------------------------------- requests


@dataclass(frozen=True)
class AccountClaim:
    """An opening's ``account``: the account's name and its signature of the connection's
    challenge (``coloretto.online.accounts.sign_challenge``)."""

    name: str
    signature: str

    def to_json(self) -> dict[str, Any]:
        """The claim's object in the opening."""
        return {"name": self.name, "signature": self.signature}


def _claimed(data: dict[str, Any], account: AccountClaim | None) -> dict[str, Any]:
    return data if account is None else {**data, "account": account.to_json()}


@dataclass(frozen=True)
class Host:
    """Open a room: the host's name, the rules (``rules.games``: the games of the match),
    the bots' level and pace; ``account``: who the host is on this server (a guest:
    ``None``). A ``public`` table is listed in the lobby (``Tables``); ``fill_after``
    seconds after it opens, bots take its free seats and its game starts (``None``: the
    host starts it). A ``rated`` table seats only players with an account, and its games
    change their ratings. ``clock``: the name of the server's speed profile every
    person's moves are timed by (``None``: none at a private table, the server's default
    at a public or rated one)."""

    name: str
    rules: Rules
    bot: str
    delay: float
    away_after: float
    account: AccountClaim | None = None
    public: bool = False
    rated: bool = False
    fill_after: float | None = None
    clock: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The request's frame (``rules.games`` goes as the field ``games``; ``public``,
        ``rated``, ``fill_after`` and ``clock`` only when set)."""
        rules = {key: value for key, value in self.rules.to_dict().items() if key != "games"}
        data = {"type": "host", "version": VERSION, "name": self.name, "rules": rules,
                "games": self.rules.games, "bot": self.bot, "delay": self.delay,
                "away_after": self.away_after}  # fmt: skip
        if self.public:
            data["public"] = True
        if self.rated:
            data["rated"] = True
        if self.fill_after is not None:
            data["fill_after"] = self.fill_after
        if self.clock is not None:
            data["clock"] = self.clock
        return _claimed(data, self.account)


@dataclass(frozen=True)
class Join:
    """Take a free seat in room ``room`` (``account``: as ``Host``'s)."""

    room: str
    name: str
    account: AccountClaim | None = None

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        data = {"type": "join", "version": VERSION, "room": self.room, "name": self.name}
        return _claimed(data, self.account)


@dataclass(frozen=True)
class Resume:
    """Come back to one's seat (after a dropped connection) with its secret token
    (``account``: as ``Host``'s)."""

    room: str
    token: str
    account: AccountClaim | None = None

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        data = {"type": "resume", "version": VERSION, "room": self.room, "token": self.token}
        return _claimed(data, self.account)


@dataclass(frozen=True)
class Watch:
    """Watch room ``room`` without a seat."""

    room: str

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "watch", "version": VERSION, "room": self.room}


@dataclass(frozen=True)
class Start:
    """The host starts the game; bots take the empty seats."""

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "start"}


@dataclass(frozen=True)
class Next:
    """The host starts game number ``game`` of the match (the one after the game just
    over: a second press of the key, sent twice, starts nothing more)."""

    game: int

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "next", "game": self.game}


@dataclass(frozen=True)
class Act:
    """Play ``action`` at position ``ply`` (the number of actions played before it)."""

    ply: int
    action: Action

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "act", "ply": self.ply, "action": str(self.action)}


@dataclass(frozen=True)
class Remove:
    """The host, before the start, removes the person in seat ``seat`` (a player number):
    their seat is free again and their token forgotten."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "remove", "seat": self.seat}


@dataclass(frozen=True)
class LockTable:
    """The host, before the start, closes the table to new players (``locked``) or opens
    it again (``lock`` and ``unlock``)."""

    locked: bool

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "lock" if self.locked else "unlock"}


@dataclass(frozen=True)
class Challenge:
    """Ask for a nonce to sign (``challenge``), before an opening that names an account."""

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "challenge"}


@dataclass(frozen=True)
class Register:
    """Make an account on this server: its name and its public key (Ed25519, 32 bytes)."""

    name: str
    key: bytes

    def to_json(self) -> dict[str, Any]:
        """The request's frame (the key in base64url)."""
        return {"type": "register", "name": self.name, "key": b64url(self.key)}


@dataclass(frozen=True)
class Tables:
    """Ask for the public tables waiting for players (the lobby), on any connection
    before its opening."""

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "tables"}


@dataclass(frozen=True)
class Ladder:
    """Ask for the server's ratings (its best players, and its bots' levels)."""

    def to_json(self) -> dict[str, Any]:
        """The request's frame."""
        return {"type": "ladder"}


Opening = Host | Join | Resume | Watch
"""The first request of a connection: it says which room and seat it is about."""

Request = Opening | Start | Next | Act | Remove | LockTable | Challenge | Register | Tables | Ladder

REQUESTS: dict[str, type[Request]] = {
    "host": Host,
    "join": Join,
    "resume": Resume,
    "watch": Watch,
    "start": Start,
    "next": Next,
    "act": Act,
    "remove": Remove,
    "lock": LockTable,
    "unlock": LockTable,
    "challenge": Challenge,
    "register": Register,
    "tables": Tables,
    "ladder": Ladder,
}
"""Each request's ``type`` on the wire, and its class."""


# ---------------------------------------------------------------- addresses


class BadPath(ValueError):
    """A connection's address is none of the server's: ``status`` is the HTTP answer."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Route:
    """Where a connection's address leads: room ``room`` (``/rooms/CODE``), a new room
    (``/rooms``, ``room`` ``None``), or, at ``/`` (``anywhere``), the room its opening names,
    as for clients written before rooms had addresses (a proxy cannot route those).
    """

    room: str | None
    anywhere: bool = False

    def refuses(self, opening: Opening) -> str | None:
        """Why ``opening`` does not belong at this address (``None``: it does).

        >>> Route("K7PQ2M").refuses(Watch("K7PQ2M")) is None
        True
        >>> Route("K7PQ2M").refuses(Watch("ABCDEF"))
        'this connection is for room K7PQ2M, not ABCDEF'
        """
        if self.anywhere:
            return None
        if isinstance(opening, Host):
            if self.room is not None:
                return f"a new room is opened at {ROOMS_PATH}, not at room {self.room}'s address"
            return None
        if self.room is None:
            return f"a room is joined at its own address, {room_path(opening.room)}"
        if opening.room != self.room:
            return f"this connection is for room {self.room}, not {opening.room}"
        return None


def parse_route(path: str) -> Route:
    """Where the address ``path`` (a URL's path and query) leads, read from its end, so that
    a proxy may pass a prefix of its own on (``/coloretto/rooms/K7PQ2M``) or take it off;
    ``BadPath`` (404, or 400 for a malformed room code) unless it is one of the server's.

    >>> parse_route("/rooms/K7PQ2M"), parse_route("/coloretto/rooms")
    (Route(room='K7PQ2M', anywhere=False), Route(room=None, anywhere=False))
    >>> parse_route("/"), parse_route("/coloretto/")
    (Route(room=None, anywhere=True), Route(room=None, anywhere=True))
    >>> parse_route("/rooms/k7pq2m")
    Traceback (most recent call last):
    ...
    coloretto.online.protocol.BadPath: not a room code: expected /rooms/ and six letters and digits
    """
    head, _, last = path.rpartition("/")
    if path.startswith("/"):
        if head.endswith(ROOMS_PATH):
            if not ROOM_CODE.fullmatch(last):
                raise BadPath("not a room code: expected /rooms/ and six letters and digits", 400)
            return Route(last)
        if f"/{last}" == ROOMS_PATH:
            return Route(None)
        if not last and f"{ROOMS_PATH}/" not in path:
            return Route(None, anywhere=True)
    raise BadPath(f"no such address: rooms are at {ROOMS_PATH}/CODE", 404)


def read_frame(text: str, known: Collection[str], noun: str) -> tuple[str, dict[str, Any]]:
    """A frame's type (one of ``known``) and its JSON object, its size checked already;
    ``ProtocolError`` (naming an unknown ``noun``) unless it is a JSON object of a known type.

    >>> read_frame('{"type": "next", "game": 2}', {"next"}, "type")
    ('next', {'type': 'next', 'game': 2})
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("expected a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in known:
        raise ProtocolError(f"unknown {noun} {printable(str(kind), 20)!r}")
    return kind, data


def parse_request(text: str | bytes) -> Request:
    """The request in one client frame; ``ProtocolError`` unless it is exactly right."""
    if isinstance(text, bytes):
        raise ProtocolError("frames must be text (JSON), not binary")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_REQUEST:
        raise ProtocolError(f"frames are limited to {MAX_REQUEST} bytes", ErrorCode.TOO_LARGE)
    kind, data = read_frame(text, _PARSERS, "type")
    if kind in _OPENINGS and data.get("version") != VERSION:
        raise ProtocolError(f"this server speaks version {VERSION}", ErrorCode.VERSION)
    allowed = _FIELDS[kind]
    extra = sorted(set(data) - allowed)
    if extra:
        raise ProtocolError(f"unexpected field {printable(str(extra[0]), 20)!r}")
    request: Request = _PARSERS[kind](data)
    return request


T = TypeVar("T")


def _field(data: Mapping[str, Any], key: str, kind: type[T], what: str) -> T:
    value = data.get(key)
    if not isinstance(value, kind):
        raise ProtocolError(f"{key}: expected {what}")
    return value


def _number(data: Mapping[str, Any], key: str, low: float, high: float, default: float) -> float:
    if key not in data:
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ProtocolError(f"{key}: expected a number from {low:g} to {high:g}")
    return float(value)


def _whole(data: Mapping[str, Any], key: str, low: int, high: int, default: int | None) -> int:
    if key not in data and default is not None:
        return default
    value = data.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError(f"{key}: expected a whole number from {low} to {high}")
    return value


def _name(data: Mapping[str, Any]) -> str:
    """An opening's seat name: control characters dropped (``seat_name``), then kept by the
    name rule (``names.check_name``), else ``bad-name`` saying why."""
    name = seat_name(_field(data, "name", str, "a name"))
    if not name:
        raise ProtocolError("name: expected a name")
    try:
        return check_name(name)
    except NameRefused as refused:
        raise ProtocolError(f"name: {refused}", ErrorCode.BAD_NAME) from None


def _room(data: Mapping[str, Any]) -> str:
    code = _field(data, "room", str, "a room code")
    if not ROOM_CODE.fullmatch(code):
        raise ProtocolError("room: not a room code", ErrorCode.NO_ROOM)
    return code


def _account(data: Mapping[str, Any]) -> AccountClaim | None:
    """An opening's optional ``account``: ``bad-request`` unless it is exactly a name and a
    signature."""
    if "account" not in data:
        return None
    claim = _field(data, "account", dict, "an object with a name and a signature")
    if set(claim) != {"name", "signature"}:
        raise ProtocolError("account: expected a name and a signature only")
    try:
        name = account_name(_field(claim, "name", str, "an account's name"))
        from_b64url(claim["signature"], SIGNATURE_BYTES, "account.signature")
    except ValueError as error:
        raise ProtocolError(f"account: {error}") from None
    return AccountClaim(name, claim["signature"])


def _register(data: Mapping[str, Any]) -> Register:
    name = _field(data, "name", str, "an account's name")
    try:
        key = from_b64url(data.get("key"), KEY_BYTES, "key")
    except ValueError as error:
        raise ProtocolError(str(error)) from None
    try:
        return Register(account_name(name), key)
    except ValueError as error:
        raise ProtocolError(f"name: {error}", ErrorCode.BAD_NAME) from None


def _host(data: Mapping[str, Any]) -> Host:
    rules_data = _field(data, "rules", dict, "the rules (an object)")
    if set(rules_data) - {"players", "scoring", "edition", "variant"}:
        raise ProtocolError(
            "rules: expected players, scoring, edition and variant only (games is a field "
            "of the request)"
        )
    games = _whole(data, "games", 1, MAX_GAMES, 1)
    try:
        rules = Rules(**rules_data, games=games)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"rules: {printable(str(error), 80)}") from None
    bot = _field(data, "bot", str, "a bot level")
    if bot not in LEVELS:
        raise ProtocolError(f"bot: expected one of {', '.join(LEVELS)}")
    public, rated = _flag(data, "public"), _flag(data, "rated")
    fill_after = None
    if "fill_after" in data:
        if not public:
            raise ProtocolError("fill_after: only a public table fills itself with bots")
        fill_after = _number(data, "fill_after", MIN_FILL_AFTER, MAX_FILL_AFTER, 0)
    clock = None
    if "clock" in data:
        clock = _field(data, "clock", str, "a clock's name")
        if not CLOCK_NAME.fullmatch(clock):
            raise ProtocolError("clock: expected a clock's name (small letters, digits, '-')")
    return Host(
        _name(data),
        rules,
        bot,
        _number(data, "delay", 0, MAX_DELAY, 0.6),
        _number(data, "away_after", 0, MAX_AWAY_AFTER, DEFAULT_AWAY_AFTER),
        _account(data),
        public=public,
        rated=rated,
        fill_after=fill_after,
        clock=clock,
    )


def _flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ProtocolError(f"{key}: expected true or false")
    return value


def _act(data: Mapping[str, Any]) -> Act:
    ply = data.get("ply")
    if type(ply) is not int or not 0 <= ply <= MAX_PLY:
        raise ProtocolError(f"ply: expected a whole number from 0 to {MAX_PLY}")
    text = _field(data, "action", str, "an action")
    try:
        action = Action.parse(text[:20])
    except ValueError:
        raise ProtocolError("action: expected draw, place N or take N") from None
    return Act(ply, action)


def _resume(data: Mapping[str, Any]) -> Resume:
    token = _field(data, "token", str, "a token")
    if not TOKEN.fullmatch(token):
        raise ProtocolError("token: not a seat's token", ErrorCode.BAD_TOKEN)
    return Resume(_room(data), token, _account(data))


_PARSERS: dict[str, Any] = {
    "host": _host,
    "join": lambda data: Join(_room(data), _name(data), _account(data)),
    "resume": _resume,
    "watch": lambda data: Watch(_room(data)),
    "start": lambda data: Start(),
    "next": lambda data: Next(_whole(data, "game", 2, MAX_GAMES, None)),
    "act": _act,
    "remove": lambda data: Remove(_whole(data, "seat", 0, MAX_SEAT, None)),
    "lock": lambda data: LockTable(locked=True),
    "unlock": lambda data: LockTable(locked=False),
    "challenge": lambda data: Challenge(),
    "tables": lambda data: Tables(),
    "ladder": lambda data: Ladder(),
    "register": _register,
}
_OPENINGS = {"host", "join", "resume", "watch"}
_FIELDS = {
    "host": {
        "type",
        "version",
        "name",
        "rules",
        "games",
        "bot",
        "delay",
        "away_after",
        "account",
        "public",
        "rated",
        "fill_after",
        "clock",
    },
    "join": {"type", "version", "room", "name", "account"},
    "resume": {"type", "version", "room", "token", "account"},
    "watch": {"type", "version", "room"},
    "start": {"type"},
    "next": {"type", "game"},
    "act": {"type", "ply", "action"},
    "remove": {"type", "seat"},
    "lock": {"type"},
    "unlock": {"type"},
    "challenge": {"type"},
    "register": {"type", "name", "key"},
    "tables": {"type"},
    "ladder": {"type"},
}


# ---------------------------------------------------------------- shared with the server's messages


def bot_covered(value: object, plies: int) -> frozenset[int]:
    """The actions a bot played for a person away, as a list of their numbers (each below
    ``plies``, the actions played; ``None``: none); ``ProtocolError`` unless it is exactly that.

    >>> sorted(bot_covered([4, 2], 10)), bot_covered(None, 0)
    ([2, 4], frozenset())
    >>> bot_covered([10], 10)
    Traceback (most recent call last):
    ...
    coloretto.online.protocol.ProtocolError: covered: expected numbers of the 10 actions played
    """
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(
        type(ply) is int and 0 <= ply < min(plies, MAX_PLY) for ply in value
    ):
        raise ProtocolError(f"covered: expected numbers of the {plies} actions played")
    return frozenset(value)
