"""Moves and answers as plain values, for crossing between the server and its bot workers
(``coloretto.online.server.bot_pool``).

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

PackedAnswer = tuple[int, float, str | None, bool]
"""An ``Answer`` as plain values: its action's number, seconds, problem and whether it
timed out."""


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


def pack_answer(answer: Answer) -> PackedAnswer:
    """``answer`` as plain values.

    >>> unpack_answer(pack_answer(Answer(Action.take(1), 0.5, "late", True)))
    Answer(action=Action.parse('take 2'), seconds=0.5, problem='late', timed_out=True)
    """
    return (action_number(answer.action), answer.seconds, answer.problem, answer.timed_out)


def unpack_answer(packed: PackedAnswer) -> Answer:
    """The answer ``pack_answer`` packed."""
    number, seconds, problem, timed_out = packed
    return Answer(ACTIONS[number], seconds, problem, timed_out)
