"""The server's messages, version 1 (``docs/protocol.md``, "Messages from the server").

Each message is declared once, as a frozen ``msgspec.Struct`` tagged by its ``type`` with
each field's kind and bounds: the server builds it (through ``of`` when it is made of the
engine's values) and sends ``encode(message)``; the client reads a frame with
``parse_message``, which decodes and checks everything a server could get wrong (or a
program that is not a server at all) in one step: the frame's size, each field's kind
and bounds, names and cards, then what the fields say together (as many seats as the
rules have players...). A frame that is not exactly right raises ``ProtocolError``
naming the field; fields a message does not know are left alone (a later server of the
same version may add some).

>>> parse_message('{"type": "presence", "away": [1], "next_in": 29.5}')
PresenceMessage(away=(1,), next_in=29.5)
>>> parse_message('{"type": "move", "ply": -1, "move": {"player": 0, "action": "draw"}}')
Traceback (most recent call last):
...
coloretto.online.wire.protocol.ProtocolError: move.ply: expected a whole number from 0 to 1000
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, get_args

import msgspec

from coloretto.bots.registry import LEVELS
from coloretto.engine import Move, Rules
from coloretto.engine.record import RulesForm
from coloretto.engine.rules import MAX_GAMES
from coloretto.online.wire.clock import MAX_BANK, MAX_TIMEOUTS, Clock
from coloretto.online.wire.protocol import (
    KEY_BYTES,
    MAX_AWAY_AFTER,
    MAX_PLY,
    MAX_SEAT,
    VERSION,
    ErrorCode,
    Frame,
    Key,
    Level,
    ProtocolError,
    RoomCode,
    Token,
    account_name,
    b64url,
    from_b64url,
    read_frame,
    version_said,
)
from coloretto.online.wire.public import MoveForm, PublicSetup, Results
from coloretto.play.config import MAX_DELAY, MAX_NAME, GameConfig, Player
from coloretto.store.text import printable

MAX_MESSAGE = 1 << 20
"""The largest frame a client takes from a server (a finished game's record is about
20 KB)."""

MAX_TEXT = 200
"""The longest text a client shows from a server's message (an error's words)."""

MAX_ID = 64
"""The longest game id (or bot spec) a client takes from a server."""

MAX_TABLES = 50
"""The most tables a lobby lists (``RoomSpace.public_tables`` says which)."""

MAX_LADDER = 100
"""The most players a ladder lists."""

MAX_RATING = 100_000
"""More than any shown rating, plus or minus (ratings from the network are checked)."""

MAX_FILL_IN = 3600.0
"""The most seconds a table may wait before bots fill it."""


def always(value: Any) -> Any:
    """A field's default that is still written (a factory's value is never left out)."""
    return msgspec.field(default_factory=lambda: value)


SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEAT, description="a player from 0 to 4")]
SeatList = Annotated[
    tuple[SeatNumber, ...],
    msgspec.Meta(max_length=MAX_SEAT + 1, description=f"players from 0 to {MAX_SEAT}"),
]
Name = Annotated[str, msgspec.Meta(description="a name")]
Flag = Annotated[bool, msgspec.Meta(description="true or false")]
Rating = Annotated[int, msgspec.Meta(ge=-MAX_RATING, le=MAX_RATING, description="a whole rating")]
TheRules = Annotated[RulesForm, msgspec.Meta(description="the rules (an object)")]
Delay = Annotated[
    float, msgspec.Meta(ge=0, le=MAX_DELAY, description=f"seconds from 0 to {MAX_DELAY:g}")
]
AwayAfter = Annotated[
    float,
    msgspec.Meta(ge=0, le=MAX_AWAY_AFTER, description=f"seconds from 0 to {MAX_AWAY_AFTER:g}"),
]
FillIn = Annotated[
    float, msgspec.Meta(ge=0, le=MAX_FILL_IN, description=f"seconds from 0 to {MAX_FILL_IN:g}")
]
Bank = Annotated[
    float, msgspec.Meta(ge=0, le=MAX_BANK, description=f"seconds from 0 to {MAX_BANK:g}")
]
GameId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID, description="a game's id")]
BotSpec = Annotated[
    str, msgspec.Meta(min_length=1, max_length=MAX_ID, description="a bot's spec or null")
]


class Message(Frame, frozen=True, forbid_unknown_fields=False):
    """A server's message: a field it does not know is left alone (forward compatible)."""


def _clean(message: msgspec.Struct, field: str, most: int = MAX_NAME) -> None:
    """Text from a server as a client shows it: no control characters, at most ``most``."""
    msgspec.structs.force_setattr(message, field, printable(getattr(message, field), most))


def _players_check(values: tuple[int, ...], players: int, what: str) -> None:
    if len(values) > players or any(value >= players for value in values):
        raise ValueError(f"{what}: expected players from 0 to {players - 1}")


def _round(message: msgspec.Struct, field: str) -> None:
    """A number of seconds as messages tell it: to a tenth."""
    value = getattr(message, field)
    if value is not None:
        msgspec.structs.force_setattr(message, field, round(value, 1))


class WelcomeMessage(Message, frozen=True, tag="welcome"):
    """The reply to an opening: the room, the player's seat (``None``: watching) and, when it
    was just given, the seat's secret token."""

    room: RoomCode
    seat: SeatNumber | None
    token: Token | None = None
    version: int = always(VERSION)


class LobbySeat(Message, frozen=True):
    """A seat taken before the start: its person and whether they are connected now."""

    name: Name
    present: Flag

    def __post_init__(self) -> None:
        _clean(self, "name")


class LobbyMessage(Message, frozen=True, kw_only=True, tag="lobby"):
    """Who sits where before the start (``None``: a free seat, a bot's once it starts);
    whether the table is public (listed in the lobby) and rated, and in how many seconds
    bots fill its free seats and its game starts (``None``: when its host starts it).
    Made with ``LobbyMessage.of``."""

    room: RoomCode
    rules_form: TheRules = msgspec.field(name="rules")
    bot: Level
    seats: Annotated[tuple[LobbySeat | None, ...], msgspec.Meta(max_length=MAX_SEAT + 1)]
    locked: Flag = always(False)
    public: Flag = False
    rated: Flag = False
    fill_in: FillIn | None = None
    clock: Clock | None = None
    """The speed profile the game will be played at (``None``: no clock)."""

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules_form.players:
            raise ValueError(f"seats: expected {self.rules_form.players} seats")

    @classmethod
    def of(  # noqa: PLR0917 (the message's fields, in their order)
        cls,
        room: str,
        rules: Rules,
        bot: str,
        seats: tuple[LobbySeat | None, ...],
        locked: bool = False,
        public: bool = False,
        rated: bool = False,
        fill_in: float | None = None,
        clock: Clock | None = None,
    ) -> LobbyMessage:
        """The message for a table of ``rules``."""
        return cls(room=room, rules_form=RulesForm.of(rules), bot=bot, seats=seats,
                   locked=locked, public=public, rated=rated, fill_in=fill_in,
                   clock=clock)  # fmt: skip

    @property
    def rules(self) -> Rules:
        """The table's rules."""
        return self.rules_form.rules


class PlayerForm(Message, frozen=True, omit_defaults=False):
    """A player of a ``game`` message: a name and a bot's spec (``None``: a person)."""

    name: Name
    bot: BotSpec | None = None

    def __post_init__(self) -> None:
        _clean(self, "name")


class MatchForm(Message, frozen=True, forbid_unknown_fields=True):
    """A ``game`` message's ``match``: the game's number and the earlier games' scores."""

    game: Annotated[
        int, msgspec.Meta(ge=1, le=MAX_GAMES, description=f"a whole number from 1 to {MAX_GAMES}")
    ]
    results: Annotated[
        tuple[tuple[Annotated[int, msgspec.Meta(ge=-1000, le=1000)], ...], ...],
        msgspec.Meta(description="the scores of the earlier games, each from -1000 to 1000"),
    ]


class Timing(Message, frozen=True, omit_defaults=False):
    """A game's clock as a message tells it: the profile (``None``: no clock), each
    player's time left (the player to move: as of the message, to a tenth), the moves
    each player's time ran out on, and who has left the game."""

    clock: Clock | None
    banks: Annotated[
        tuple[Bank, ...],
        msgspec.Meta(max_length=MAX_SEAT + 1, description="each player's seconds left"),
    ] = ()
    timeouts: Annotated[
        tuple[Annotated[int, msgspec.Meta(ge=0, le=MAX_TIMEOUTS)], ...],
        msgspec.Meta(max_length=MAX_SEAT + 1, description=f"0 to {MAX_TIMEOUTS} a player"),
    ] = ()
    left: SeatList = ()

    def __post_init__(self) -> None:
        msgspec.structs.force_setattr(self, "banks", tuple(round(b, 1) for b in self.banks))

    def check(self, players: int) -> None:
        """``ValueError`` unless it fits a game of ``players`` players."""
        if len(self.banks) != (0 if self.clock is None else players):
            raise ValueError("timing.banks: expected each player's seconds left")
        if len(self.timeouts) != players:
            raise ValueError(f"timing.timeouts: expected 0 to {MAX_TIMEOUTS} a player")
        _players_check(self.left, players, "timing.left")


class GameMessage(Message, frozen=True, kw_only=True, tag="game"):
    """The whole game as the table sees it (at the start, after a ``resume``, and when a
    match's next game is dealt): no deck order, no seed. Made with ``GameMessage.of``."""

    room: RoomCode
    id: GameId
    player: SeatNumber | None
    """The player this connection plays (``None``: watching)."""
    rules_form: TheRules = msgspec.field(name="rules")
    people: Annotated[
        tuple[PlayerForm, ...], msgspec.Meta(max_length=MAX_SEAT + 1, description="players")
    ] = msgspec.field(name="players")
    level: Level
    delay: Delay
    away_after: AwayAfter
    match: Annotated[
        MatchForm | None,
        msgspec.Meta(description="the game's number and the earlier results"),
    ] = None
    """The match's game on the table (from 1) and the scores of the games before it
    (``None``: the first game)."""
    setup: Annotated[
        PublicSetup, msgspec.Meta(description="an object: the deal as everyone sees it")
    ]
    told_moves: Annotated[
        tuple[MoveForm, ...], msgspec.Meta(max_length=MAX_PLY, description="the moves played")
    ] = msgspec.field(name="moves")
    away: SeatList = always(())
    told_covered: Annotated[
        tuple[Annotated[int, msgspec.Meta(ge=0, le=MAX_PLY)], ...],
        msgspec.Meta(description="numbers of the actions played"),
    ] = msgspec.field(name="covered", default_factory=lambda: ())  # always written
    """The moves (by number) a bot played for a person away, in their order (the same
    bytes for the same moves; ``covered``: as a set)."""
    next_in: AwayAfter | None = None
    """Seconds until the server deals the match's next game itself (its host away)."""
    timing: Timing | None = None
    """The game's clock and each player's time, timeouts and leaving (``None``: no
    clock, nobody gone)."""

    def __post_init__(self) -> None:
        _clean(self, "id", MAX_ID)
        _round(self, "next_in")
        msgspec.structs.force_setattr(self, "told_covered", tuple(sorted(set(self.told_covered))))
        rules = self.rules_form.rules
        if len(self.people) != rules.players:
            raise ValueError(f"players: expected {rules.players} players")
        if self.player is not None and self.player >= rules.players:
            raise ValueError(f"player: expected a player from 0 to {rules.players - 1}, or null")
        try:
            self.config  # the names, as a game takes them  # noqa: B018
        except ValueError as error:
            raise ValueError(f"players: {printable(str(error), 80)}") from None
        if self.match is not None:
            if not self.match.game <= rules.games:
                raise ValueError(f"match.game: expected a whole number from 1 to {rules.games}")
            if len(self.match.results) != self.match.game - 1:
                raise ValueError(
                    f"match.results: expected the scores of {self.match.game - 1} games"
                )
            if any(len(scores) != rules.seats for scores in self.match.results):
                raise ValueError(f"match.results: expected {rules.seats} scores a game")
        self.setup.check(rules)
        if any(ply >= len(self.told_moves) for ply in self.told_covered):
            raise ValueError(
                f"covered: expected numbers of the {len(self.told_moves)} actions played"
            )
        _players_check(self.away, rules.players, "away")
        if self.timing is not None:
            self.timing.check(rules.players)

    @classmethod
    def of(  # noqa: PLR0917 (the message's fields, in their order)
        cls,
        room: str,
        id: str,
        player: int | None,
        rules: Rules,
        players: tuple[Player, ...],
        level: str,
        delay: float,
        away_after: float,
        setup: PublicSetup,
        moves: tuple[Move, ...],
        number: int = 1,
        results: Results = (),
        away: tuple[int, ...] = (),
        covered: Iterable[int] = (),
        next_in: float | None = None,
        timing: Timing | None = None,
    ) -> GameMessage:
        """The message of a game of ``rules`` as the table sees it."""
        return cls(
            room=room, id=id, player=player, rules_form=RulesForm.of(rules),
            people=tuple(PlayerForm(p.name, p.bot) for p in players), level=level,
            delay=delay, away_after=away_after, match=MatchForm(number, results), setup=setup,
            told_moves=tuple(MoveForm.of(move) for move in moves), away=away,
            told_covered=tuple(covered),
            next_in=next_in, timing=timing,
        )  # fmt: skip

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.rules_form.rules

    @property
    def covered(self) -> frozenset[int]:
        """The moves (by number) a bot played for a person away."""
        return frozenset(self.told_covered)

    @property
    def players(self) -> tuple[Player, ...]:
        """The game's players."""
        return tuple(Player(p.name, p.bot) for p in self.people)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played, as the table saw them."""
        return tuple(move.move for move in self.told_moves)

    @property
    def number(self) -> int:
        """The match's game on the table (from 1)."""
        return 1 if self.match is None else self.match.game

    @property
    def results(self) -> Results:
        """The scores of the match's games before it."""
        return () if self.match is None else self.match.results

    @property
    def config(self) -> GameConfig:
        """The players and the bots' pace, as a game's configuration."""
        return GameConfig(self.rules, self.players, delay=self.delay)


class MoveMessage(Message, frozen=True, kw_only=True, tag="move"):
    """Move number ``ply`` (from 0) was played (and saved); ``covered``: a bot played it
    for a person away (or whose time ran out: ``timeout``). At a table with a clock,
    ``bank``: its player's time left after it (to a tenth); ``left``: its player counts as
    having left the game from this move on. Made with ``MoveMessage.of``."""

    ply: Annotated[int, msgspec.Meta(ge=0, le=MAX_PLY, description="a whole number from 0 to 1000")]
    told: MoveForm = msgspec.field(name="move")
    covered: Flag = False
    bank: Bank | None = None
    timeout: Flag = False
    left: Flag = False

    def __post_init__(self) -> None:
        _round(self, "bank")

    @classmethod
    def of(  # noqa: PLR0917 (the message's fields, in their order)
        cls,
        ply: int,
        move: Move,
        covered: bool = False,
        bank: float | None = None,
        timeout: bool = False,
        left: bool = False,
    ) -> MoveMessage:
        """The message of ``move``, number ``ply``."""
        return cls(ply=ply, told=MoveForm.of(move), covered=covered, bank=bank,
                   timeout=timeout, left=left)  # fmt: skip

    @property
    def move(self) -> Move:
        """The move, as the table saw it."""
        return self.told.move


class PresenceMessage(Message, frozen=True, tag="presence"):
    """The players whose person has no connection now; between two games of a match whose
    host is away, ``next_in``: the seconds until the server deals the next game itself
    (to a tenth)."""

    away: SeatList
    next_in: AwayAfter | None = None

    def __post_init__(self) -> None:
        _round(self, "next_in")


class OverMessage(Message, frozen=True, tag="over"):
    """The finished game's whole record (``coloretto-record/1``), deck included; the seed
    too once the match is over (``load_record`` checks it)."""

    record: Annotated[dict[str, Any], msgspec.Meta(description="a game record")]


class ErrorMessage(Message, frozen=True, tag="error"):
    """A request refused, or the reason a connection ends: ``code`` to branch on,
    ``message`` in words (cleaned of control characters)."""

    code: Annotated[ErrorCode, msgspec.Meta(description="one of the protocol's error codes")]
    message: Annotated[str, msgspec.Meta(description="words")]

    def __post_init__(self) -> None:
        _clean(self, "message", MAX_TEXT)


class ChallengeMessage(Message, frozen=True, tag="challenge"):
    """The answer to ``challenge``: a fresh random ``nonce`` (32 bytes, in base64url) for
    this connection's opening to sign. Made with ``ChallengeMessage.of``."""

    nonce_text: Key = msgspec.field(name="nonce")

    def __post_init__(self) -> None:
        from_b64url(self.nonce_text, KEY_BYTES, "nonce")

    @classmethod
    def of(cls, nonce: bytes) -> ChallengeMessage:
        """The message of ``nonce``."""
        return cls(b64url(nonce))

    @property
    def nonce(self) -> bytes:
        """The bytes to sign."""
        return from_b64url(self.nonce_text, KEY_BYTES, "nonce")


class AccountMessage(Message, frozen=True, tag="account"):
    """The answer to ``register``: the account ``name`` is this key's on the server now."""

    name: Annotated[str, msgspec.Meta(description="an account's name")]

    def __post_init__(self) -> None:
        try:
            account_name(self.name)
        except ValueError as error:
            raise ValueError(f"name: {error}") from None


class TableSummary(Message, frozen=True, kw_only=True):
    """A public table waiting for players, as the lobby lists it: its rules, who sits
    there (with their ratings: ``None`` for a guest, or an account not rated yet), its
    bots' level, whether it is rated, and in how many seconds bots fill its free seats
    (``None``: when its host starts it). Made with ``TableSummary.of``."""

    room: RoomCode
    rules_form: TheRules = msgspec.field(name="rules")
    bot: Level
    seated: Annotated[
        tuple[Name, ...], msgspec.Meta(max_length=MAX_SEAT, description="the names seated")
    ]
    rated: Flag = always(False)
    fill_in: FillIn | None = always(None)
    ratings: Annotated[
        tuple[Rating | None, ...],
        msgspec.Meta(max_length=MAX_SEAT, description="whole ratings or null"),
    ] = always(())
    clock: Clock | None = always(None)
    """The speed profile its game will be played at."""

    def __post_init__(self) -> None:
        msgspec.structs.force_setattr(
            self, "seated", tuple(printable(name, MAX_NAME) for name in self.seated)
        )
        if len(self.seated) >= self.rules_form.players:
            raise ValueError("seated: expected the names of fewer than all seats")
        if len(self.ratings) not in {0, len(self.seated)}:
            raise ValueError("ratings: expected one rating a seated player")

    @classmethod
    def of(  # noqa: PLR0917 (the table's fields, in their order)
        cls,
        room: str,
        rules: Rules,
        bot: str,
        seated: tuple[str, ...],
        rated: bool = False,
        fill_in: float | None = None,
        ratings: tuple[int | None, ...] = (),
        clock: Clock | None = None,
    ) -> TableSummary:
        """The table of ``rules``, as the lobby lists it."""
        return cls(room=room, rules_form=RulesForm.of(rules), bot=bot, seated=seated,
                   rated=rated, fill_in=fill_in, ratings=ratings, clock=clock)  # fmt: skip

    @property
    def rules(self) -> Rules:
        """The table's rules."""
        return self.rules_form.rules

    @property
    def free(self) -> int:
        """Seats still free."""
        return self.rules_form.players - len(self.seated)


class TablesMessage(Message, frozen=True, tag="tables"):
    """The answer to ``tables``: the public tables waiting for players."""

    tables: Annotated[
        tuple[TableSummary, ...],
        msgspec.Meta(max_length=MAX_TABLES, description=f"at most {MAX_TABLES} tables"),
    ]


class LadderEntry(Message, frozen=True):
    """One rated player (or a bot level, ``bot``): the rating shown, its uncertainty
    (``spread``: about two standard deviations) and the rated games played."""

    name: Name
    rating: Rating
    spread: Rating
    games: Annotated[int, msgspec.Meta(ge=0, le=MAX_RATING, description="a whole number of games")]
    bot: Flag = always(False)

    def __post_init__(self) -> None:
        _clean(self, "name")


class LadderMessage(Message, frozen=True, tag="ladder"):
    """The answer to ``ladder``: the server's rated players, best first, and its bot
    levels' ratings (the same scale)."""

    entries: Annotated[
        tuple[LadderEntry, ...],
        msgspec.Meta(max_length=MAX_LADDER + len(LEVELS), description="a list of players"),
    ]


class RatingChange(Message, frozen=True):
    """A seat's rating before and after a rated game."""

    seat: SeatNumber
    name: Name
    before: Rating
    after: Rating

    def __post_init__(self) -> None:
        _clean(self, "name")


class RatedMessage(Message, frozen=True, tag="rated"):
    """After a rated game: the game's number in the match and each account's rating
    before and after it."""

    game: Annotated[int, msgspec.Meta(ge=1, le=1000, description="a game's number")]
    changes: Annotated[
        tuple[RatingChange, ...],
        msgspec.Meta(max_length=MAX_SEAT + 1, description="one change a seat at most"),
    ]


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
    str(cls.__struct_config__.tag): cls for cls in get_args(ServerMessage)
}
"""Each server message's ``type`` on the wire, and its class."""

_MESSAGE = msgspec.json.Decoder(ServerMessage)


def parse_message(text: str | bytes) -> ServerMessage:
    """The message in one frame from a server; ``ProtocolError`` unless it is exactly right."""
    message = read_frame(_MESSAGE, text, MESSAGES, "message", MAX_MESSAGE)
    if isinstance(message, WelcomeMessage) and version_said(text) != VERSION:
        raise ProtocolError(f"welcome.version: this client speaks version {VERSION}")
    return message
