"""The rules a game is played under: player count, scoring side, edition, variant, match length."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TypeVar

_E = TypeVar("_E", bound=Enum)
_N = TypeVar("_N", int, float)


class Scoring(StrEnum):
    """Which side of the summary card scores the game."""

    BROWN = "brown"
    """Increasing returns: 1/3/6/10/15/21 for 1/2/3/4/5/6+ cards."""
    GRAY = "gray"
    """Diminishing returns: 1/4/8/7/6/5 for 1/2/3/4/5/6+ cards."""

    @property
    def table(self) -> tuple[int, ...]:
        """Points for 0, 1, ... 6 cards of one colour (6 or more score alike).

        >>> Scoring.GRAY.table
        (0, 1, 4, 8, 7, 6, 5)
        """
        return _TABLES[self]


_TABLES = {
    Scoring.BROWN: (0, 1, 3, 6, 10, 15, 21),
    Scoring.GRAY: (0, 1, 4, 8, 7, 6, 5),
}


class Edition(StrEnum):
    """Which box the cards come from."""

    CLASSIC = "classic"
    """Three ordinary jokers."""
    ANNIVERSARY = "anniversary"
    """Two ordinary jokers and one golden joker."""


class Variant(StrEnum):
    """How the table is laid out."""

    STANDARD = "standard"
    """The rule book: 3-5 players, or the official 2-player game."""
    FOUR_ROWS = "four-rows"
    """2 players (Jim C / ekted): four rows of 3, two takes per round, 4 plus colours."""
    GHOST = "ghost"
    """2 players (Manolo Vila): a 4-player game, each player also moves the ghost seat opposite."""


MAX_GAMES = 99


@dataclass(frozen=True)
class Rules:
    """The rules of one game (or match), validated on creation.

    Strings are accepted for the enum fields, so command-line values can be
    passed straight through:

    >>> rules = Rules(players=2, scoring="gray")
    >>> rules.seats, rules.row_capacities, rules.colour_count
    (2, (1, 2, 3), 5)
    >>> Rules(players=6)
    Traceback (most recent call last):
    ...
    ValueError: players must be 2 to 5, not 6
    """

    players: int = 4
    scoring: Scoring = Scoring.BROWN
    edition: Edition = Edition.CLASSIC
    variant: Variant = Variant.STANDARD
    games: int = 1
    """Games in the match; totals carry over and the starting seat rotates."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "scoring", _coerce(Scoring, self.scoring, "scoring"))
        object.__setattr__(self, "edition", _coerce(Edition, self.edition, "edition"))
        object.__setattr__(self, "variant", _coerce(Variant, self.variant, "variant"))
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ValueError(f"players must be a whole number, not {self.players!r}")
        if not 2 <= self.players <= 5:
            raise ValueError(f"players must be 2 to 5, not {self.players}")
        if self.variant is not Variant.STANDARD and self.players != 2:
            raise ValueError(
                f"the {self.variant.value} variant is for 2 players, not {self.players}"
            )
        if isinstance(self.games, bool) or not isinstance(self.games, int):
            raise ValueError(f"games must be a whole number, not {self.games!r}")
        if not 1 <= self.games <= MAX_GAMES:
            raise ValueError(f"games must be 1 to {MAX_GAMES}, not {self.games}")

    @property
    def seats(self) -> int:
        """Seats at the table: the players, plus two ghost seats in the ghost variant."""
        return 4 if self.variant is Variant.GHOST else self.players

    @property
    def colour_count(self) -> int:
        """Colours in play: 5 in the official 2-player game, 6 with 3 players, else 7."""
        if self.variant is Variant.STANDARD and self.players <= 3:
            return self.players + 3
        return 7

    @property
    def row_capacities(self) -> tuple[int, ...]:
        """How many cards each row holds."""
        if self.variant is Variant.FOUR_ROWS:
            return (3, 3, 3, 3)
        if self.seats == 2:
            return (1, 2, 3)
        return (3,) * self.seats

    @property
    def takes_per_round(self) -> int:
        """Rows each seat takes per round (2 in the four-rows variant)."""
        return 2 if self.variant is Variant.FOUR_ROWS else 1

    @property
    def plus_colours(self) -> int:
        """Colours that score plus at the end (4 in the four-rows variant)."""
        return 4 if self.variant is Variant.FOUR_ROWS else 3

    @property
    def starting_cards(self) -> int:
        """Starting cards per seat, each of a different colour."""
        return 2 if self.seats == 2 else 1

    def controller(self, seat: int) -> int:
        """The player who moves for ``seat`` (differs from the seat only for ghosts).

        >>> Rules(players=2, variant="ghost").controller(3)
        1
        """
        return seat % 2 if self.variant is Variant.GHOST else seat

    def player_totals(self, seat_scores: Sequence[_N]) -> tuple[_N, ...]:
        """Each player's total (what ranks them) from each seat's score: their own seat's.
        Player ``p`` sits in seat ``p``; the ghost variant is scored individually (the
        rules text's default), so a ghost's cards score for the ghost, which ranks nowhere.

        >>> Rules(players=2, variant="ghost").player_totals((4, 8, 26, 21))
        (4, 8)
        """
        return tuple(seat_scores[: self.players])


def _coerce(enum: type[_E], value: object, field: str) -> _E:
    if isinstance(value, enum):
        return value
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(str(member.value) for member in enum)
        raise ValueError(f"{field} must be one of {choices}, not {value!r}") from None
