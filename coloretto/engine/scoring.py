"""Exact end-of-game scoring: the best joker assignment and choice of plus colours."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Generic, TypeVar

from coloretto.engine.rules import Scoring

K = TypeVar("K", bound=Hashable)

PLUS2_POINTS = 2
_CAP = 6  # 6 or more cards of a colour score alike, on both sides


@dataclass(frozen=True)
class SetScore(Generic[K]):
    """How one colour scored."""

    colour: K
    cards: int
    """Cards of this colour the player holds."""
    jokers: int
    """Jokers assigned to this colour."""
    points: int
    """Signed points: positive for a plus colour, negative otherwise."""
    plus: bool

    @property
    def count(self) -> int:
        """Cards counted for the colour, jokers included."""
        return self.cards + self.jokers


@dataclass(frozen=True)
class ScoreBreakdown(Generic[K]):
    """A scored collection: the total and how it was reached."""

    total: int
    sets: tuple[SetScore[K], ...]
    """Every colour with at least one card (jokers included): plus colours first."""
    jokers: tuple[K, ...]
    """The colour each joker went to."""
    plus2: int
    """Number of "+2" cards (worth 2 points each)."""
    scoring: Scoring

    @property
    def plus_colours(self) -> tuple[K, ...]:
        """The colours that score plus."""
        return tuple(s.colour for s in self.sets if s.plus)


def score(
    counts: Mapping[K, int],
    *,
    jokers: int = 0,
    plus2: int = 0,
    scoring: Scoring | str = Scoring.BROWN,
    plus_colours: int = 3,
) -> ScoreBreakdown[K]:
    """Score a collection exactly, choosing the best joker assignment and plus colours.

    ``counts`` maps every colour in play to the cards held of it; list colours
    with no cards too, since a joker may go to any colour in play. The
    rule book's example (6 green, 4 yellow, 3 orange, 2 blue, a joker, a "+2"):

    >>> b = score({"green": 6, "yellow": 4, "orange": 3, "blue": 2}, jokers=1, plus2=1)
    >>> b.total, b.jokers, b.plus_colours
    (41, ('yellow',), ('green', 'yellow', 'orange'))

    On the gray side a joker may do best on a minus colour (4 cards cost 7, 5 cost 6):

    >>> g = score({"a": 3, "b": 3, "c": 3, "d": 4}, jokers=1, scoring="gray")
    >>> g.total, g.jokers
    (18, ('d',))
    """
    try:
        side = Scoring(scoring)
    except ValueError:
        raise ValueError(f"scoring must be brown or gray, not {scoring!r}") from None
    table = side.table
    values = list(counts.values())
    if any(n < 0 for n in values) or jokers < 0 or plus2 < 0:
        raise ValueError("card counts cannot be negative")
    if jokers and not values:
        raise ValueError("jokers need at least one colour in play to join")
    if plus_colours < 0:
        raise ValueError("plus_colours cannot be negative")
    added = _best_assignment(values, jokers, table, plus_colours)
    colours = list(counts)
    final = [n + a for n, a in zip(values, added, strict=True)]
    ranked = sorted(
        (i for i in range(len(final)) if final[i]),
        key=lambda i: (-table[min(final[i], _CAP)], -final[i], i),
    )
    plus = set(ranked[:plus_colours])
    sets = tuple(
        SetScore(
            colour=colours[i],
            cards=values[i],
            jokers=added[i],
            points=table[min(final[i], _CAP)] * (1 if i in plus else -1),
            plus=i in plus,
        )
        for i in ranked
    )
    assigned = tuple(colours[i] for i in range(len(colours)) for _ in range(added[i]))
    total = sum(s.points for s in sets) + PLUS2_POINTS * plus2
    return ScoreBreakdown(total, sets, assigned, plus2, side)


def best_total(
    counts: Sequence[int], jokers: int, plus2: int, table: tuple[int, ...], plus_colours: int
) -> int:
    """The best total for per-colour ``counts``; a cached fast path for search and scoring.

    >>> best_total([6, 4, 3, 2, 0, 0, 0], 1, 1, Scoring.BROWN.table, 3)
    41
    """
    key = (table, tuple(sorted(counts)), jokers, plus_colours)
    colour_points = _CACHE.get(key)
    if colour_points is None:
        ordered = key[1]
        added = _best_assignment(ordered, jokers, table, plus_colours)
        final = [n + a for n, a in zip(ordered, added, strict=True)]
        colour_points = _colour_points(final, table, plus_colours)
        _CACHE[key] = colour_points
    return colour_points + PLUS2_POINTS * plus2


_CACHE: dict[tuple[tuple[int, ...], tuple[int, ...], int, int], int] = {}


def _colour_points(counts: Sequence[int], table: tuple[int, ...], plus_colours: int) -> int:
    points = sorted((table[min(n, _CAP)] for n in counts), reverse=True)
    return sum(points[:plus_colours]) - sum(points[plus_colours:])


def _best_assignment(
    counts: Sequence[int], jokers: int, table: tuple[int, ...], plus_colours: int
) -> list[int]:
    """Jokers added per colour in a best assignment (exhaustive: at most 3 jokers)."""
    best_added = [0] * len(counts)
    best = None
    for combo in combinations_with_replacement(range(len(counts)), jokers):
        added = [0] * len(counts)
        for i in combo:
            added[i] += 1
        final = [n + a for n, a in zip(counts, added, strict=True)]
        points = _colour_points(final, table, plus_colours)
        if best is None or points > best:
            best, best_added = points, added
    return best_added
