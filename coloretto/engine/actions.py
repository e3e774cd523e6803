"""Actions: draw the top card, place the drawn card on a row, or take a row."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_ROWS = 5


class IllegalReason(StrEnum):
    """Why an action is not allowed: the kind of an ``IllegalAction``, to branch on."""

    GAME_OVER = "game-over"
    ALREADY_DRAWN = "already-drawn"
    NOT_DRAWN = "not-drawn"
    DECK_EMPTY = "deck-empty"
    NO_ROOM = "no-room"
    NO_SUCH_ROW = "no-such-row"
    ROW_TAKEN = "row-taken"
    ROW_FULL = "row-full"
    ROW_EMPTY = "row-empty"
    NOT_AN_ACTION = "not-an-action"


class IllegalAction(ValueError):
    """An action the rules do not allow now, with its ``reason`` (a code to branch on), the
    ``problem`` in a player's words and, when there is one, ``advice`` on what to do instead.

    The message is the problem, then the advice after a colon:

    >>> error = IllegalAction(IllegalReason.DECK_EMPTY, "the deck is empty", "take a row")
    >>> str(error), error.reason, error.problem
    ('the deck is empty: take a row', <IllegalReason.DECK_EMPTY: 'deck-empty'>, 'the deck is empty')
    """

    def __init__(self, reason: IllegalReason, problem: str, advice: str | None = None) -> None:
        super().__init__(f"{problem}: {advice}" if advice else problem)
        self.reason = reason
        self.problem = problem
        self.advice = advice


class ActionKind(StrEnum):
    """The three kinds of action."""

    DRAW = "draw"
    PLACE = "place"
    TAKE = "take"


@dataclass(frozen=True, slots=True, repr=False)
class Action:
    """A small immutable action value.

    ``row`` is the 0-based row index; the text form numbers rows from 1, as
    players see them:

    >>> Action.take(0)
    Action.parse('take 1')
    >>> Action.take(0).row
    0
    >>> str(Action.take(0)), str(DRAW)
    ('take 1', 'draw')
    >>> Action.parse("place 2") == Action.place(1)
    True
    """

    kind: ActionKind
    row: int | None = None

    def __post_init__(self) -> None:
        if self.kind is ActionKind.DRAW:
            if self.row is not None:
                raise ValueError("draw takes no row")
        elif not isinstance(self.row, int) or not 0 <= self.row < MAX_ROWS:
            raise ValueError(f"{self.kind.value} needs a row index 0-{MAX_ROWS - 1}")

    @staticmethod
    def place(row: int) -> Action:
        """Place the drawn card on row ``row`` (0-based)."""
        return _PLACE[row] if 0 <= row < MAX_ROWS else Action(ActionKind.PLACE, row)

    @staticmethod
    def take(row: int) -> Action:
        """Take row ``row`` (0-based)."""
        return _TAKE[row] if 0 <= row < MAX_ROWS else Action(ActionKind.TAKE, row)

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ``"draw"``, ``"place N"`` or ``"take N"`` (rows from 1).

        >>> Action.parse("take 9")
        Traceback (most recent call last):
        ...
        ValueError: 'take 9': rows are numbered 1 to 5
        """
        words = text.lower().split()
        if words == ["draw"]:
            return DRAW
        if len(words) == 2 and words[0] in ("place", "take"):
            if not words[1].isdigit():
                raise ValueError(f"{text!r}: the row must be a number")
            number = int(words[1])
            if not 1 <= number <= MAX_ROWS:
                raise ValueError(f"{text!r}: rows are numbered 1 to {MAX_ROWS}")
            maker = Action.place if words[0] == "place" else Action.take
            return maker(number - 1)
        raise ValueError(f'{text!r} is not an action: use "draw", "place N" or "take N"')

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def __str__(self) -> str:
        if self.row is None:
            return self.kind.value
        return f"{self.kind.value} {self.row + 1}"


DRAW = Action(ActionKind.DRAW)
"""Draw the top card of the deck."""
_PLACE = tuple(Action(ActionKind.PLACE, i) for i in range(MAX_ROWS))
_TAKE = tuple(Action(ActionKind.TAKE, i) for i in range(MAX_ROWS))
