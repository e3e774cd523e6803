"""The online protocol, version 1: JSON objects in WebSocket text frames (``docs/protocol.md``).

Pure: no network here. Every request a client sends is declared once here, as a frozen
``msgspec.Struct`` tagged by its ``type`` with each field's kind and bounds
(``msgspec.Meta``): the client sends ``encode(request)``, and ``parse_request`` checks a
frame (its size, then its type, fields and bounds, in one decoding) and gives back the
typed request, or raises ``ProtocolError`` with an ``ErrorCode`` and a one-line message
naming the field for the error frame. The server's messages are declared alike in
``coloretto.online.wire.messages``.

>>> parse_request('{"type": "act", "ply": 3, "action": "take 2"}')
Act(ply=3, text='take 2')
>>> parse_request('{"type": "act", "ply": -1, "action": "take 2"}')
Traceback (most recent call last):
...
coloretto.online.wire.protocol.ProtocolError: ply: expected a whole number from 0 to 1000
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, TypeVar, get_args

import msgspec
from msgspec import UNSET, UnsetType

from coloretto.bots.registry import LEVELS
from coloretto.engine import Action, Rules
from coloretto.engine.record import Games, TableRules
from coloretto.engine.rules import MAX_GAMES
from coloretto.online.wire.names import NameRefused, check_name
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
"""A clock profile's name (``coloretto.online.wire.clock.Clock``)."""

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


# ---------------------------------------------------------------- frames

T = TypeVar("T")
F = TypeVar("F", bound=msgspec.Struct)


class Frame(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A JSON object of the protocol, declared once: its fields, their kinds and bounds
    (``msgspec.Meta``) are both what is sent and what is checked when one is read."""

    def to_json(self) -> dict[str, Any]:
        """The object as plain JSON values, as its frame holds it."""
        value: dict[str, Any] = msgspec.json.decode(_ENCODER.encode(self))
        return value


_ENCODER = msgspec.json.Encoder()


def encode(message: Frame) -> str:
    """A request or a server's message as the text of one frame."""
    return _ENCODER.encode(message).decode("utf-8")


_AT = re.compile(r"^(?P<words>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_MISSING = re.compile(r"Object missing required field `(?P<field>[^`]+)`")
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<field>[^`]+)`")
_INDEX = re.compile(r"\[\d+\]")
_MSGSPEC = ("Expected", "Object", "Invalid")
"""How msgspec's own words start (a declaration's check says its own)."""
_FIELD = re.compile(r"[a-z_.]+: ")
"""A declaration's own words that start with the field they are about."""
_CODES = {"room": ErrorCode.NO_ROOM, "token": ErrorCode.BAD_TOKEN}
"""The error code of a request whose field at this path is wrong (else ``bad-request``)."""


def read_frame(
    decoder: msgspec.json.Decoder[T],
    text: str | bytes,
    kinds: Mapping[str, type[Frame]],
    noun: str,
    limit: int,
) -> T:
    """The frame ``text`` decoded and checked by ``decoder`` in one step (its size first:
    at most ``limit`` bytes); ``ProtocolError`` naming the field at fault unless it is
    exactly right. ``kinds``: each ``type``'s class (an unknown one is an unknown
    ``noun``)."""
    if isinstance(text, bytes):
        raise ProtocolError("frames must be text (JSON), not binary")
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > limit:
        raise ProtocolError(f"frames are limited to {limit} bytes", ErrorCode.TOO_LARGE)
    try:
        return decoder.decode(data)
    except msgspec.ValidationError as error:
        raise refusal(error, _kind(data, kinds), noun) from None
    except (msgspec.DecodeError, RecursionError):
        raise ProtocolError("not JSON") from None


def _kind(data: bytes, kinds: Mapping[str, type[Frame]]) -> tuple[str, type[Frame] | None]:
    """The ``type`` a refused frame claims, and its class (``None``: none known)."""
    try:
        claimed = msgspec.json.decode(data, type=_Said).type
    except (msgspec.DecodeError, RecursionError):
        claimed = None
    return printable(str(claimed), 20), kinds.get(claimed) if isinstance(claimed, str) else None


class _Said(msgspec.Struct):
    """What a frame says of itself, whatever else it holds: its type and version."""

    type: Any = None
    version: Any = None


def refusal(
    error: msgspec.ValidationError, kind: tuple[str, type[msgspec.Struct] | None], noun: str
) -> ProtocolError:
    """``error`` (msgspec's, of a frame of type ``kind``: its name and class) as the
    protocol says it: the field's path (a message's under its type), then what it should
    have been, in its declaration's words."""
    if isinstance(error.__cause__, ProtocolError):  # a request's own check, with its code
        return error.__cause__
    name, cls = kind
    found = _AT.fullmatch(str(error))
    assert found is not None  # any text matches
    words, path = found["words"], _INDEX.sub("", found["path"] or "").lstrip(".")
    if path == "type" or cls is None:
        if words.startswith("Expected `object`"):
            return ProtocolError("expected a JSON object")
        return ProtocolError(f"unknown {noun} {name!r}")
    if missing := _MISSING.fullmatch(words):
        path = f"{path}.{missing['field']}".lstrip(".")
    code = _CODES.get(path, ErrorCode.BAD_REQUEST) if noun == "type" else ErrorCode.BAD_REQUEST
    if unknown := _UNKNOWN.fullmatch(words):
        said = f"unexpected field {printable(unknown['field'], 20)!r}"
    elif not words.startswith(_MSGSPEC):  # a declaration's own check: "players: ..."
        said = words
        if _FIELD.match(words):
            path, _, said = f"{path}.{words}".lstrip(".").partition(": ")
    else:
        what = _expected(msgspec.inspect.type_info(cls), path.split(".") if path else [])
        said = f"expected {what}" if what else _lower(words)
    where = ".".join(part for part in (name if noun == "message" else "", path) if part)
    return ProtocolError(f"{where}: {said}" if where else said, code)


def convert(data: object, cls: type[F], where: str) -> F:
    """``cls`` (a ``Frame``, or the rules' ``RulesForm``) from plain JSON values ``data``
    (a store's copy, or part of a frame), checked as a frame's are; ``ProtocolError``
    naming the field at fault (under ``where``) unless it is exactly right."""
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as error:
        raise refusal(error, (where, cls), "message") from None


def _lower(words: str) -> str:
    return words[:1].lower() + words[1:]


def _expected(info: msgspec.inspect.Type, path: list[str]) -> str | None:
    """The words declared for the field at ``path`` inside ``info`` (``None``: none)."""
    while True:
        if isinstance(info, msgspec.inspect.Metadata):
            if not path:
                schema = info.extra_json_schema or {}
                return str(schema["description"]) if "description" in schema else None
            info = info.type
        elif isinstance(info, msgspec.inspect.UnionType):
            found = [_expected(t, path) for t in info.types]
            return next((words for words in found if words), None)
        elif isinstance(info, msgspec.inspect.StructType) and path:
            field = next((f for f in info.fields if f.encode_name == path[0]), None)
            if field is None:
                return None
            info, path = field.type, path[1:]
        elif isinstance(info, msgspec.inspect.ListType | msgspec.inspect.VarTupleType):
            info = info.item_type
        else:
            return None


# ---------------------------------------------------------------- requests

RoomCode = Annotated[str, msgspec.Meta(description="a room code", pattern=f"^{ROOM_CODE.pattern}$")]
Token = Annotated[str, msgspec.Meta(description="a seat's token", pattern=f"^{TOKEN.pattern}$")]
Level = Annotated[
    str, msgspec.Meta(description=f"one of {', '.join(LEVELS)}", pattern=f"^({'|'.join(LEVELS)})$")
]
Seat = Annotated[
    int, msgspec.Meta(description=f"a whole number from 0 to {MAX_SEAT}", ge=0, le=MAX_SEAT)
]
Ply = Annotated[
    int, msgspec.Meta(description=f"a whole number from 0 to {MAX_PLY}", ge=0, le=MAX_PLY)
]
NextGame = Annotated[
    int, msgspec.Meta(description=f"a whole number from 2 to {MAX_GAMES}", ge=2, le=MAX_GAMES)
]
Delay = Annotated[
    float, msgspec.Meta(description=f"a number from 0 to {MAX_DELAY:g}", ge=0, le=MAX_DELAY)
]
AwayAfter = Annotated[
    float,
    msgspec.Meta(description=f"a number from 0 to {MAX_AWAY_AFTER:g}", ge=0, le=MAX_AWAY_AFTER),
]
FillAfter = Annotated[
    float,
    msgspec.Meta(
        description=f"a number from {MIN_FILL_AFTER:g} to {MAX_FILL_AFTER:g}",
        ge=MIN_FILL_AFTER,
        le=MAX_FILL_AFTER,
    ),
]
ClockName = Annotated[
    str,
    msgspec.Meta(
        description="a clock's name (small letters, digits, '-')", pattern=f"^{CLOCK_NAME.pattern}$"
    ),
]
Flag = Annotated[bool, msgspec.Meta(description="true or false")]
Name = Annotated[str, msgspec.Meta(description="a name")]
ActionText = Annotated[str, msgspec.Meta(description="draw, place N or take N")]
Key = Annotated[
    str, msgspec.Meta(description=f"{KEY_BYTES} bytes in base64url", pattern="^[A-Za-z0-9_-]*$")
]
Signature = Annotated[
    str,
    msgspec.Meta(description=f"{SIGNATURE_BYTES} bytes in base64url", pattern="^[A-Za-z0-9_-]*$"),
]
AccountName = Annotated[str, msgspec.Meta(description="an account's name")]


def _version() -> int:
    return VERSION


Version = Annotated[int, msgspec.Meta(description=f"version {VERSION}")]
"""An opening's ``version`` (always written: a default of ``msgspec.field``'s factory
is never left out; whether the frame said it is ``parse_request``'s to check)."""


class AccountClaim(Frame, frozen=True):
    """An opening's ``account``: the account's name and its signature of the connection's
    challenge (``coloretto.online.wire.accounts.sign_challenge``)."""

    name: AccountName
    signature: Signature

    def __post_init__(self) -> None:
        try:
            msgspec.structs.force_setattr(self, "name", account_name(self.name))
            from_b64url(self.signature, SIGNATURE_BYTES, "account.signature")
        except ValueError as error:
            raise ProtocolError(f"account: {error}") from None


Claim = Annotated[AccountClaim, msgspec.Meta(description="an object with a name and a signature")]


class _Opening(Frame, frozen=True, kw_only=True):
    """The first request of a connection: it carries the protocol's version. Its optional
    fields (``account``, ``clock``, ``fill_after``) are ``UNSET`` when left out, and left
    out when unset; a JSON ``null`` is refused (``expected ...``, naming the field). In
    Python, ``None`` given for one is the same as leaving it out."""

    version: Version = msgspec.field(default_factory=_version)

    def _unset(self, *fields: str) -> None:
        """``None`` given in Python for ``fields`` is ``UNSET``."""
        for name in fields:
            if getattr(self, name) is None:
                msgspec.structs.force_setattr(self, name, UNSET)


def _seat_name(name: str) -> str:
    """An opening's seat name: control characters dropped (``seat_name``), then kept by the
    name rule (``names.check_name``), else ``bad-name`` saying why."""
    cleaned = seat_name(name)
    if not cleaned:
        raise ProtocolError("name: expected a name")
    try:
        return check_name(cleaned)
    except NameRefused as refused:
        raise ProtocolError(f"name: {refused}", ErrorCode.BAD_NAME) from None


class Host(_Opening, frozen=True, kw_only=True, tag="host"):
    """Open a room: the host's name, the rules (``rules.games``: the games of the match),
    the bots' level and pace; ``account``: who the host is on this server (a guest:
    ``UNSET``). A ``public`` table is listed in the lobby (``Tables``); ``fill_after``
    seconds after it opens, bots take its free seats and its game starts (``UNSET``: the
    host starts it). A ``rated`` table seats only players with an account, and its games
    change their ratings. ``clock``: the name of the server's speed profile every
    person's moves are timed by (``UNSET``: none at a private table, the server's default
    at a public or rated one). Made with ``Host.of``."""

    name: Name
    table_rules: TableRules = msgspec.field(name="rules")
    games: Games = msgspec.field(default_factory=lambda: 1)
    bot: Level
    delay: Delay = msgspec.field(default_factory=lambda: 0.6)
    away_after: AwayAfter = msgspec.field(default_factory=lambda: DEFAULT_AWAY_AFTER)
    public: Flag = False
    rated: Flag = False
    fill_after: FillAfter | UnsetType = UNSET
    clock: ClockName | UnsetType = UNSET
    account: Claim | UnsetType = UNSET

    def __post_init__(self) -> None:
        self._unset("fill_after", "clock", "account")
        msgspec.structs.force_setattr(self, "name", _seat_name(self.name))
        if self.fill_after is not UNSET and not self.public:
            raise ProtocolError("fill_after: only a public table fills itself with bots")

    @classmethod
    def of(
        cls,
        name: str,
        rules: Rules,
        bot: str,
        delay: float,
        away_after: float,
        *,
        account: AccountClaim | None = None,
        public: bool = False,
        rated: bool = False,
        fill_after: float | None = None,
        clock: str | None = None,
    ) -> Host:
        """The request for a table of ``rules`` (``rules.games`` goes as ``games``)."""
        return cls(name=name, table_rules=TableRules.of(rules), games=rules.games, bot=bot,
                   delay=float(delay), away_after=float(away_after),
                   account=UNSET if account is None else account, public=public, rated=rated,
                   fill_after=UNSET if fill_after is None else fill_after,
                   clock=UNSET if clock is None else clock)  # fmt: skip

    @property
    def rules(self) -> Rules:
        """The rules of the table's games, and their number."""
        return self.table_rules.with_games(self.games)


class Join(_Opening, frozen=True, tag="join"):
    """Take a free seat in room ``room`` (``account``: as ``Host``'s)."""

    room: RoomCode
    name: Name
    account: Claim | UnsetType = UNSET

    def __post_init__(self) -> None:
        self._unset("account")
        msgspec.structs.force_setattr(self, "name", _seat_name(self.name))


class Resume(_Opening, frozen=True, tag="resume"):
    """Come back to one's seat (after a dropped connection) with its secret token
    (``account``: as ``Host``'s)."""

    room: RoomCode
    token: Token
    account: Claim | UnsetType = UNSET

    def __post_init__(self) -> None:
        self._unset("account")


class Watch(_Opening, frozen=True, tag="watch"):
    """Watch room ``room`` without a seat."""

    room: RoomCode


class Start(Frame, frozen=True, tag="start"):
    """The host starts the game; bots take the empty seats."""


class Next(Frame, frozen=True, tag="next"):
    """The host starts game number ``game`` of the match (the one after the game just
    over: a second press of the key, sent twice, starts nothing more)."""

    game: NextGame


class Act(Frame, frozen=True, tag="act"):
    """Play ``action`` at position ``ply`` (the number of actions played before it). Made
    with ``Act.of``."""

    ply: Ply
    text: ActionText = msgspec.field(name="action")

    def __post_init__(self) -> None:
        try:
            Action.parse(self.text[:20])
        except ValueError:
            raise ProtocolError("action: expected draw, place N or take N") from None

    @classmethod
    def of(cls, ply: int, action: Action) -> Act:
        """The request to play ``action`` as action number ``ply``."""
        return cls(ply, str(action))

    @property
    def action(self) -> Action:
        """The action to play."""
        return Action.parse(self.text[:20])


class Remove(Frame, frozen=True, tag="remove"):
    """The host, before the start, removes the person in seat ``seat`` (a player number):
    their seat is free again and their token forgotten."""

    seat: Seat


class LockTable(Frame, frozen=True, tag="lock"):
    """The host, before the start, closes the table to new players (``lock``; its
    subclass ``UnlockTable``, ``unlock``, opens it again). Made with ``LockTable.of``."""

    @property
    def locked(self) -> bool:
        """Whether the table is to be closed (else opened)."""
        return True

    @staticmethod
    def of(locked: bool) -> LockTable:
        """The request to close the table (``locked``) or to open it."""
        return LockTable() if locked else UnlockTable()


class UnlockTable(LockTable, frozen=True, tag="unlock"):
    """The host, before the start, opens the table to new players again."""

    @property
    def locked(self) -> bool:
        """Whether the table is to be closed (else opened)."""
        return False


class Challenge(Frame, frozen=True, tag="challenge"):
    """Ask for a nonce to sign (``challenge``), before an opening that names an account."""


class Register(Frame, frozen=True, tag="register"):
    """Make an account on this server: its name and its public key (Ed25519, 32 bytes,
    in base64url). Made with ``Register.of``."""

    name: AccountName
    key_text: Key = msgspec.field(name="key")

    def __post_init__(self) -> None:
        try:
            from_b64url(self.key_text, KEY_BYTES, "key")
        except ValueError as error:
            raise ProtocolError(str(error)) from None
        try:
            msgspec.structs.force_setattr(self, "name", account_name(self.name))
        except ValueError as error:
            raise ProtocolError(f"name: {error}", ErrorCode.BAD_NAME) from None

    @classmethod
    def of(cls, name: str, key: bytes) -> Register:
        """The request to register ``key`` under ``name``."""
        return cls(name, b64url(key))

    @property
    def key(self) -> bytes:
        """The account's public key."""
        return from_b64url(self.key_text, KEY_BYTES, "key")


class Tables(Frame, frozen=True, tag="tables"):
    """Ask for the public tables waiting for players (the lobby), on any connection
    before its opening."""


class Ladder(Frame, frozen=True, tag="ladder"):
    """Ask for the server's ratings (its best players, and its bots' levels)."""


Opening = Host | Join | Resume | Watch
"""The first request of a connection: it says which room and seat it is about."""

Request = (
    Opening | Start | Next | Act | Remove | LockTable | UnlockTable | Challenge | Register
    | Tables | Ladder
)  # fmt: skip

REQUESTS: dict[str, type[Request]] = {
    str(cls.__struct_config__.tag): cls for cls in get_args(Request)
}
"""Each request's ``type`` on the wire, and its class."""

_REQUEST = msgspec.json.Decoder(Request)
_OPENINGS = frozenset(str(cls.__struct_config__.tag) for cls in get_args(Opening))


def parse_request(text: str | bytes) -> Request:
    """The request in one client frame; ``ProtocolError`` unless it is exactly right: of
    an opening, its version first."""
    try:
        request = read_frame(_REQUEST, text, REQUESTS, "type", MAX_REQUEST)
    except ProtocolError as error:
        if error.code is not ErrorCode.TOO_LARGE and isinstance(text, str):
            _check_version(text)  # an opening's version comes before its fields
        raise
    if isinstance(request, _Opening):
        _check_version(text)
    return request


def _check_version(text: str | bytes) -> None:
    """``version`` if ``text`` is an opening (a JSON object) of another version."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    try:
        said = msgspec.json.decode(data, type=_Said)
    except (msgspec.DecodeError, RecursionError):
        return
    if isinstance(said.type, str) and said.type in _OPENINGS and said.version != VERSION:
        raise ProtocolError(f"this server speaks version {VERSION}", ErrorCode.VERSION)


def version_said(text: str | bytes) -> Any:
    """The ``version`` a frame (a JSON object, decoded already once) says (``None``: none)."""
    return msgspec.json.decode(text, type=_Said).version


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
    >>> parse_route("/rooms/k7pq2m")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coloretto.online.wire.protocol.BadPath: not a room code: expected /rooms/ and six letters...
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


# ---------------------------------------------------------------- shared with the server's messages


def bot_covered(value: object, plies: int) -> frozenset[int]:
    """The actions a bot played for a person away, as a list of their numbers (each below
    ``plies``, the actions played; ``None``: none); ``ProtocolError`` unless it is exactly that.

    >>> sorted(bot_covered([4, 2], 10)), bot_covered(None, 0)
    ([2, 4], frozenset())
    >>> bot_covered([10], 10)
    Traceback (most recent call last):
    ...
    coloretto.online.wire.protocol.ProtocolError: covered: expected numbers of the 10 actions played
    """
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(
        type(ply) is int and 0 <= ply < min(plies, MAX_PLY) for ply in value
    ):
        raise ProtocolError(f"covered: expected numbers of the {plies} actions played")
    return frozenset(value)
