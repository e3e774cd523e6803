"""What a collection should still bring: the card expectations and colour prospects that
the expert and the search bot's estimates share.

A seat expects a share of the cards still to come: those before the Last Round card and
most of the last round's (``LAST_ROUND_FILL``), spread over the seats and scaled by
``foresight``. Within that share each colour weighs by its unseen cards, divided among the
seats that collect it too. The colours a seat builds (its biggest ``plus`` colours) are
worth their *prospects*: the points those expected cards should add (``prospect_table``).

>>> round(future_cards(before=30, capacity=12, seats=4, foresight=0.5), 2)
4.95
>>> [round(x, 2) for x in expected_cards(6.0, unseen=[9, 3, 0], rivals=[0, 2, 1])]
[5.4, 0.6, 0.0]
>>> building([3, 0, 5, 1], plus=3)
[2, 0, 3]

The cards a seat expects in the colours it does not build are its *junk*: minus points to
come (``expected_junk``, ``junk_cost``, ``less_junk``, ``default_junk``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

from coloretto.engine import Scoring

DEFAULT_FORESIGHT = {Scoring.BROWN: 0.5, Scoring.GRAY: 6.0}
"""How far the prospects are trusted. On the gray side three cards of a colour are easy
to reach: what counts is which colours, and keeping clear of everything else."""
GRAY_JUNK = 0.5
"""The search's ``junk`` where junk is to fear (``default_junk``): the share of a seat's
cards to come expected in colours it does not build, each colour by its unseen cards
(``junk_cost``). On the gray side a second or third card of a minus colour costs 3 or 4
points, so a collection already spread over extra colours has more to fear from the
rounds to come than its score says."""
JUNK_SEATS = 4
"""Junk is feared at up to this many seats. With five, the expert's fitted timing already
plays for it, and the term lowered both bots' results (docs/bot-strength.md, "The
expert's junk" and "The search's junk at five seats")."""
LAST_ROUND_FILL = 0.8
"""Share of the rows' room expected to be filled in the last round."""
MAX_COUNT = 6
"""6 or more cards of a colour score alike."""
POISSON_TERMS = 8
"""Terms of the Poisson distribution of the cards to come that are summed."""
PROSPECT_DECIMALS = 2
"""Expectations are rounded to this many decimals, so prospect tables are shared."""


def future_cards(before: int, capacity: int, seats: int, foresight: float) -> float:
    """How many more cards one seat may collect: its share of the ``before`` cards left
    before the Last Round card and of the last round's rows (``capacity`` cards in all)."""
    return foresight * (before + LAST_ROUND_FILL * capacity) / seats


def expected_cards(future: float, unseen: Sequence[int], rivals: Sequence[int]) -> list[float]:
    """``future`` cards spread over the colours: per colour, its ``unseen`` cards divided
    among the seat and the ``rivals`` (other seats) that collect it too."""
    supply = [n / (1 + r) for n, r in zip(unseen, rivals, strict=True)]
    total = sum(supply) or 1.0
    return [future * share / total for share in supply]


def default_junk(scoring: Scoring, seats: int) -> float:
    """The search's ``junk`` by scoring side and number of seats: ``GRAY_JUNK`` on the
    gray side up to ``JUNK_SEATS`` seats, 0 otherwise.

    >>> default_junk(Scoring.GRAY, 4), default_junk(Scoring.GRAY, 5), default_junk(Scoring.BROWN, 4)
    (0.5, 0.0, 0.0)
    """
    return GRAY_JUNK if scoring is Scoring.GRAY and seats <= JUNK_SEATS else 0.0


def building(counts: Sequence[int], plus: int) -> list[int]:
    """The indices of the ``plus`` colours a seat builds: its biggest (ties to the first:
    the sort is stable, reversed too)."""
    return sorted(range(len(counts)), key=counts.__getitem__, reverse=True)[:plus]


@lru_cache(maxsize=4096)
def junk_cost(table: tuple[int, ...], held: int, expected: float) -> float:
    """The points that ``expected`` more cards (Poisson) of a minus colour would cost a seat
    that holds ``held`` of it (negative where more cards help: past three on the gray
    side).

    >>> gray = (0, 1, 4, 8, 7, 6, 5)
    >>> round(junk_cost(gray, 1, 0.5), 2), round(junk_cost(gray, 3, 0.5), 2)
    (1.52, -0.5)
    """
    term = math.exp(-expected)
    points = total = 0.0
    for k in range(POISSON_TERMS):
        points += term * table[min(held + k, MAX_COUNT)]
        total += term
        term *= expected / (k + 1)
    return points / total - table[min(held, MAX_COUNT)]


def expected_junk(future: float, unseen: Sequence[int], total: int) -> list[float]:
    """``future`` cards spread over the colours by their ``unseen`` cards' share of
    ``total``: per colour, the cards a seat should get whether it wants them or not.

    >>> expected_junk(2.0, unseen=[6, 2, 0], total=10)
    [1.2, 0.4, 0.0]
    """
    return [future * n / (total or 1) for n in unseen]


def less_junk(
    points: float,
    table: tuple[int, ...],
    counts: Sequence[int],
    built: Sequence[int],
    expected: Sequence[float],
) -> float:
    """``points`` less the cost of the ``expected`` junk (``junk_cost``) in each colour a
    seat holds (``counts``) but does not build (``built``).

    >>> round(less_junk(10.0, (0, 1, 4, 8, 7, 6, 5), [3, 1, 0], [0], [0.5, 0.5, 0.5]), 2)
    8.48
    """
    for i, held in enumerate(counts):
        if held and expected[i] and i not in built:
            points -= junk_cost(table, held, expected[i])
    return points


@cache
def prospect_table(table: tuple[int, ...], expected: float) -> tuple[float, ...]:
    """For 0..6 cards held, the points ``expected`` more cards (Poisson) should add.

    Where more cards can cost points (the gray side), a seat stops collecting
    a colour at its best count.
    """
    peak = max(range(len(table)), key=lambda n: table[n])
    gray = peak < len(table) - 1
    pmf = [math.exp(-expected)]
    for k in range(1, POISSON_TERMS):
        pmf.append(pmf[-1] * expected / k)
    total = sum(pmf)
    prospects = []
    for n in range(MAX_COUNT + 1):
        stop = max(n, peak) if gray else MAX_COUNT
        mean = sum(p * table[min(n + k, stop)] for k, p in enumerate(pmf))
        prospects.append(mean / total - table[n])
    return tuple(prospects)
