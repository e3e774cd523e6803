"""Ratings: a multiplayer skill rating (Weng-Lin, the Plackett-Luce model of ``openskill``).

A player's skill is a belief: a mean ``mu`` and an uncertainty ``sigma`` (both on
openskill's scale, where a new player is 25 ± 25/3). Each finished game moves the ratings
of the players at the table by their places (``rate_game``); the uncertainty shrinks as
games are played, and never grows. What a player is shown (``Rating.shown``) is the
conservative estimate ``mu - 3 sigma`` times ``SCALE``: 0 for a new player, rising as the
system grows sure of them. The bot levels have fixed ratings, measured in the arena
(``bot_rating``; docs/ratings.md), so that games against bots count too.

>>> me = NEW
>>> me, bot = rate_game([me, bot_rating("easy")], [41, 30], fixed=[1])
>>> me.mu > NEW.mu, me.sigma < NEW.sigma, me.games, bot == bot_rating("easy")
(True, True, 1, True)

How to rate a game of the engine: one score per *player*, the game's outcome's
``GameState.outcome().totals`` (in the ghost variant a ghost's seat ranks nowhere, so each
of the two players is rated by their own seat's score; the engine has no team games). A
match is rated game by game. A team game, if one comes, is rated by giving each member of a
team the team's score: equal scores tie, so the team's members share its place.

No I/O here but the packaged bot ratings (``coloretto/bots/ratings.json``, validated).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Final

from openskill.models import PlackettLuce

SCALE: Final = 40.0
"""``Rating.shown`` is ``SCALE * (mu - 3 sigma)``, rounded: a whole number in the hundreds
to low thousands for an experienced player (openskill's own ordinal is ``mu - 3 sigma``)."""

MOST_MU: Final = 1000.0
"""The largest ``abs(mu)`` a rating may have (far beyond any reached in play)."""

MOST_SIGMA: Final = 100.0
"""The largest ``sigma`` a rating may have (a new player's is 25/3)."""

MOST_GAMES: Final = 10**9
"""The most games a rating may count."""

RATINGS_FILE: Final = "ratings.json"
"""The bot levels' calibrated ratings, in the ``coloretto.bots`` package."""

MOST_RATINGS_BYTES: Final = 64 * 1024
"""The largest bot ratings file read."""

_MODEL: Final = PlackettLuce(limit_sigma=True)
"""openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300); a rating's sigma never
grows (``limit_sigma``)."""


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _number(name: str, value: object, low: float, high: float) -> float:
    """``value`` as a finite float from ``low`` to ``high``, or ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"a rating's {name} must be a number, not {_brief(value)}")
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        number = math.inf
    if not math.isfinite(number) or not low <= number <= high:
        raise ValueError(f"a rating's {name} must be {low:g} to {high:g}, not {_brief(value)}")
    return number


def _brief(value: object) -> str:
    """``repr(value)``, cut to 40 characters (a value read from a file may be huge).

    >>> _brief(10**50)
    '1000000000000000000000000000000000000...'
    """
    text = (
        repr(value) if not isinstance(value, int) or value.bit_length() < 1000 else "a huge number"
    )
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Rating:
    """A player's rating: the skill's mean and uncertainty, and the games it counts.

    >>> Rating(25.0, 25 / 3).shown
    0
    >>> Rating(30.0, 2.0, games=40).shown
    960
    >>> Rating.from_json({"mu": 30, "sigma": 2, "games": 40})
    Rating(mu=30.0, sigma=2.0, games=40)
    >>> Rating.from_json({"mu": 30})
    Traceback (most recent call last):
    ...
    ValueError: a rating needs a number "sigma"
    """

    mu: float
    sigma: float
    games: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "mu", _number("mu", self.mu, -MOST_MU, MOST_MU))
        object.__setattr__(self, "sigma", _number("sigma", self.sigma, 0.0, MOST_SIGMA))
        if self.sigma <= 0:
            raise ValueError(f"a rating's sigma must be above 0, not {self.sigma}")
        if type(self.games) is not int or not 0 <= self.games <= MOST_GAMES:
            raise ValueError(
                f"a rating's games must be a whole number 0 to {MOST_GAMES}, not "
                f"{_brief(self.games)}"
            )

    @property
    def shown(self) -> int:
        """The rating shown to players: ``SCALE * (mu - 3 sigma)``, rounded (0 when new)."""
        return round(SCALE * (self.mu - 3 * self.sigma))

    @property
    def spread(self) -> int:
        """How far the skill may be from ``mu`` on the shown scale: ``SCALE * 3 sigma``,
        rounded (the shown rating is ``SCALE * mu`` less this)."""
        return round(SCALE * 3 * self.sigma)

    def to_json(self) -> dict[str, object]:
        """As a JSON object (``from_json`` reads it back).

        >>> Rating(27.5, 3.25, 12).to_json()
        {'mu': 27.5, 'sigma': 3.25, 'games': 12}
        """
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_json(cls, obj: object) -> Rating:
        """A rating from ``to_json``'s object; ``ValueError`` saying what is wrong."""
        if not isinstance(obj, Mapping):
            raise ValueError(f"a rating is a JSON object, not {type(obj).__name__}")
        unknown = set(obj) - {"mu", "sigma", "games"}
        if unknown:
            raise ValueError(f"a rating has no {_brief(sorted(map(str, unknown)))}")
        for key in ("mu", "sigma"):
            if key not in obj or not _is_number(obj[key]):
                raise ValueError(f'a rating needs a number "{key}"')
        games = obj.get("games", 0)
        if type(games) is not int:
            raise ValueError(f'a rating\'s "games" must be a whole number, not {_brief(games)}')
        return cls(obj["mu"], obj["sigma"], games)


NEW: Final = Rating(_MODEL.mu, _MODEL.sigma)
"""A new player's rating: mu 25, sigma 25/3 (shown as 0)."""


def rate_game(
    ratings: Sequence[Rating], scores: Sequence[int], *, fixed: Collection[int] = ()
) -> list[Rating]:
    """The players' ratings after one finished game, in order: a higher score ranks
    higher, equal scores tie. The players numbered in ``fixed`` (bots at their calibrated
    ratings) keep theirs; every other player's ``games`` goes up by one.

    >>> a, b, c = rate_game([NEW, NEW, NEW], [30, 25, 25])
    >>> a.mu > b.mu == c.mu, a.games
    (True, 1)
    >>> rate_game([NEW], [30])
    Traceback (most recent call last):
    ...
    ValueError: a game is rated with 2 or more players, not 1
    """
    if len(ratings) < 2:
        raise ValueError(f"a game is rated with 2 or more players, not {len(ratings)}")
    if len(scores) != len(ratings):
        raise ValueError(f"{len(ratings)} scores needed, one per rating, not {len(scores)}")
    for rating in ratings:
        if not isinstance(rating, Rating):
            raise ValueError(f"ratings must be Rating objects, not {type(rating).__name__}")
    for score in scores:
        if type(score) is not int:
            raise ValueError(f"scores must be whole numbers, not {_brief(score)}")
    for player in fixed:
        if type(player) is not int or not 0 <= player < len(ratings):
            raise ValueError(
                f"fixed players are numbered 0 to {len(ratings) - 1}, not {_brief(player)}"
            )
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    ranks = [float(-score) for score in scores]
    rated = _MODEL.rate(teams, ranks=ranks)
    return [
        old if player in fixed else Rating(new[0].mu, new[0].sigma, min(old.games + 1, MOST_GAMES))
        for player, (old, new) in enumerate(zip(ratings, rated, strict=True))
    ]


def bot_rating(level: str) -> Rating:
    """The calibrated rating of a bot level (``coloretto.bots.registry.LEVELS``), from
    ``coloretto/bots/ratings.json``; ``ValueError`` for a level it does not rate.

    >>> bot_rating("beginner").mu < bot_rating("hard").mu
    True
    """
    levels = bot_ratings()
    if level not in levels:
        raise ValueError(f"no rating for the bot level {_brief(level)}; rated: {', '.join(levels)}")
    return levels[level]


@cache
def bot_ratings() -> Mapping[str, Rating]:
    """Every calibrated bot level's rating, weakest first (read and validated once)."""
    try:
        with files("coloretto.bots").joinpath(RATINGS_FILE).open("rb") as file:
            data = file.read(MOST_RATINGS_BYTES + 1)
    except OSError as error:
        raise ValueError(f"the bot ratings cannot be read: {error}") from None
    return parse_bot_ratings(data)


def parse_bot_ratings(data: bytes) -> dict[str, Rating]:
    """The levels' ratings in a bot ratings file's text (its ``"levels"`` object, each
    level's rating as ``Rating.to_json`` writes it), weakest first; ``ValueError`` saying
    what is wrong.

    >>> parse_bot_ratings(b'{"levels": {"easy": {"mu": 20, "sigma": 1, "games": 9}}}')
    {'easy': Rating(mu=20.0, sigma=1.0, games=9)}
    >>> parse_bot_ratings(b'{"levels": []}')
    Traceback (most recent call last):
    ...
    ValueError: bot ratings: "levels" must be an object of level names to ratings
    """
    if len(data) > MOST_RATINGS_BYTES:
        raise ValueError(f"bot ratings: the file is over {MOST_RATINGS_BYTES} bytes")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"bot ratings: not JSON ({error})") from None
    levels = document.get("levels") if isinstance(document, dict) else None
    if not isinstance(levels, dict) or not levels:
        raise ValueError('bot ratings: "levels" must be an object of level names to ratings')
    ratings = {}
    for level, rating in levels.items():
        try:
            ratings[level] = Rating.from_json(rating)
        except ValueError as error:
            raise ValueError(f"bot ratings: {level}: {error}") from None
    return dict(sorted(ratings.items(), key=lambda item: item[1].mu))
