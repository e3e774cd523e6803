"""What crosses between the server and its bot workers (``coloretto.online.server.bot_pool``):
messages in frames on a socket, moves and answers in them as plain values.

A frame is the length of its message (4 bytes, big-endian) and the message, a msgspec
Struct in MessagePack: the server sends ``Ask`` and ``Drop``; a worker sends ``Hello``
once, then ``Told`` or ``Resync`` for each ``Ask``, in order.

Pickle writes an ``Action``, a ``Card`` or an ``Answer`` through Python-level code, class
names and all: a question of three moves took some 380 bytes and 0.1 ms to pickle and
unpickle, an answer 180 bytes and 40 µs. As plain values they take a few bytes and about a
microsecond. A move is two bytes: the seat and the action's number (``ACTIONS``), then the
card it showed (0: none, else its value plus one) with the top bit set when it turned up
the Last Round card.

>>> from coloretto.engine import Card, Move, Rules, new_game
>>> game = new_game(Rules(players=3), seed=1).apply("draw").apply("place 2")
>>> moves = game.history()
>>> list(pack_moves(moves))  # seat 2 draws pink (5), places it on row 2 (action 2)
[32, 6, 34, 0]
>>> unpack_moves(pack_moves(moves)) == moves
True
>>> unpack_moves(pack_moves([Move(2, Action.take(4), Card.PLUS2, True)]))
(Move(player=2, action=Action.parse('take 5'), card=<Card.PLUS2: 9>, last_round=True),)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

import msgspec

from coloretto.bots.guard import Answer
from coloretto.engine import DRAW, Action, ActionKind, Card, Move
from coloretto.engine.actions import MAX_ROWS

ACTIONS: tuple[Action, ...] = (
    DRAW,
    *(Action.place(row) for row in range(MAX_ROWS)),
    *(Action.take(row) for row in range(MAX_ROWS)),
)
"""Every action, by its number on the wire."""

_FIRST = {ActionKind.DRAW: 0, ActionKind.PLACE: 1, ActionKind.TAKE: 1 + MAX_ROWS}
_CARDS: tuple[Card | None, ...] = (None, *Card)
_LAST_ROUND = 0x80

MAX_FRAME = 1 << 20
"""The longest message a frame may hold (a whole game's question takes some 300 bytes)."""


class Ask(msgspec.Struct, frozen=True, array_like=True, tag=0):
    """A question for a worker (``bot_pool.Question``): its ``start`` pickled (a ``Start``:
    the worker is the server's own child), its ``moves`` packed (``pack_moves``)."""

    room: str
    start: bytes | None
    since: int
    moves: bytes
    game_number: int
    player: int | None
    limit: float


class Drop(msgspec.Struct, frozen=True, array_like=True, tag=1):
    """``room`` is gone: the worker lets its bots and game go (no reply)."""

    room: str


class Told(msgspec.Struct, frozen=True, array_like=True, tag=2):
    """An ``Answer`` as plain values: its action's number (``ACTIONS``), seconds, problem and
    whether it timed out."""

    action: int
    seconds: float
    problem: str | None
    timed_out: bool


class Resync(msgspec.Struct, frozen=True, array_like=True, tag=3):
    """A worker's reply when the moves it is sent do not follow the game it keeps of the
    room (or it keeps none): ``why``. The server then sends the whole game."""

    why: str


class Hello(msgspec.Struct, frozen=True, array_like=True, tag=4):
    """A worker's first message: its process id, once it is ready to answer."""

    pid: int


ToWorker = Ask | Drop
FromWorker = Told | Resync | Hello
M = TypeVar("M")
_encoder = msgspec.msgpack.Encoder()


def frame(message: ToWorker | FromWorker) -> bytes:
    """``message`` in its frame.

    >>> frame(Drop("ROOM1"))
    b'\\x00\\x00\\x00\\x08\\x92\\x01\\xa5ROOM1'
    >>> replies().feed(frame(Resync("lost")) + frame(Hello(7))[:3])
    [Resync(why='lost')]
    """
    message_bytes = _encoder.encode(message)
    return len(message_bytes).to_bytes(4, "big") + message_bytes


class Frames(Generic[M]):
    """The messages ``decoder`` reads in a stream of frames, read as its bytes come."""

    def __init__(self, decoder: msgspec.msgpack.Decoder[M]) -> None:
        self._decoder = decoder
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[M]:
        """The messages whose frames ``data`` completes; ``ValueError`` for bytes that are
        no frame of such a message (the stream is then of no use)."""
        buffer = self._buffer
        buffer += data
        messages = []
        start = 0
        with memoryview(buffer) as view:
            while len(buffer) - start >= 4:
                size = int.from_bytes(view[start : start + 4], "big")
                if size > MAX_FRAME:
                    raise ValueError(f"a frame of {size} bytes")
                end = start + 4 + size
                if end > len(buffer):
                    break
                try:
                    messages.append(self._decoder.decode(view[start + 4 : end]))
                except msgspec.DecodeError as error:
                    raise ValueError(f"not a message: {error}") from None
                start = end
        del buffer[:start]
        return messages


def action_number(action: Action) -> int:
    """``action``'s number in ``ACTIONS``.

    >>> [action_number(Action.parse(text)) for text in ("draw", "place 1", "take 5")]
    [0, 1, 10]
    """
    return _FIRST[action.kind] + (action.row or 0)


def pack_moves(moves: Iterable[Move]) -> bytes:
    """``moves`` in two bytes each (see the module)."""
    packed = bytearray()
    for player, action, card, last_round in moves:
        packed.append(player << 4 | action_number(action))
        packed.append((0 if card is None else card + 1) | (_LAST_ROUND if last_round else 0))
    return bytes(packed)


def unpack_moves(packed: bytes) -> tuple[Move, ...]:
    """The moves ``pack_moves`` packed; ``ValueError`` for bytes it cannot have made."""
    if len(packed) % 2:
        raise ValueError("a move takes two bytes")
    try:
        return tuple(
            Move(first >> 4, ACTIONS[first & 0xF], _CARDS[second & ~_LAST_ROUND], second > 0x7F)
            for first, second in zip(packed[::2], packed[1::2], strict=True)
        )
    except IndexError:
        raise ValueError("no such action or card") from None


def pack_answer(answer: Answer) -> Told:
    """``answer`` as plain values.

    >>> unpack_answer(pack_answer(Answer(Action.take(1), 0.5, "late", True)))
    Answer(action=Action.parse('take 2'), seconds=0.5, problem='late', timed_out=True)
    """
    return Told(action_number(answer.action), answer.seconds, answer.problem, answer.timed_out)


def unpack_answer(told: Told) -> Answer:
    """The answer ``pack_answer`` packed; ``ValueError`` for an action it cannot have
    packed."""
    if not 0 <= told.action < len(ACTIONS):
        raise ValueError(f"no action {told.action}")
    return Answer(ACTIONS[told.action], told.seconds, told.problem, told.timed_out)


def questions() -> Frames[Ask | Drop]:
    """A worker's reader of the frames the server sends."""
    decoder: msgspec.msgpack.Decoder[Ask | Drop] = msgspec.msgpack.Decoder(ToWorker)
    return Frames(decoder)


def replies() -> Frames[Told | Resync | Hello]:
    """The server's reader of the frames a worker sends."""
    decoder: msgspec.msgpack.Decoder[Told | Resync | Hello] = msgspec.msgpack.Decoder(FromWorker)
    return Frames(decoder)
