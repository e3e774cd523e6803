"""What a game is started with: the rules, who sits at the table, the seed and the bots' pace."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from coloretto.bots.registry import DEFAULT_LEVEL, LEVELS
from coloretto.engine import Rules
from coloretto.play.coach import COACH_BOT
from coloretto.store.text import printable

HINT_BOT = COACH_BOT
"""The bot asked for hints: the coach's, whose one analysis the reviews ask too."""

DEFAULT_DELAY = 0.6
"""Seconds between two bot actions, so that a person can follow them."""

MAX_DELAY = 10.0
"""The longest pause between two bot actions that may be chosen."""

PACES = (0.0, 0.2, 0.4, 0.6, 1.0, 1.5, 2.5)
"""The bot paces a player steps through (seconds per bot action)."""

BOT_TIME_LIMIT = 5.0
"""Seconds a bot may think about one move; a slower bot's move is replaced by a fallback.
(The strongest level answers within 3 seconds.)"""
MAX_NAME = 16
"""Longest player name accepted."""

YOU = "You"
"""The name of the only person at the keyboard, unless they give one."""


@dataclass(frozen=True)
class Player:
    """One player at the table: a person at the keyboard (``bot is None``) or a bot.

    >>> Player("Ana").is_human, Player("Bot 1", "greedy").is_human
    (True, False)
    """

    name: str
    bot: str | None = None
    """The bot's spec or level (see ``coloretto.bots.registry``); ``None`` for a person."""

    @property
    def is_human(self) -> bool:
        """True for a person at the keyboard."""
        return self.bot is None


@dataclass(frozen=True)
class GameConfig:
    """Everything needed to start a game (or a match of ``rules.games`` games).

    ``players`` has one entry per player (``rules.players``); in the ghost variant each
    player also moves the ghost seat opposite them.

    >>> config = GameConfig.build(Rules(players=3), humans=1, bot="easy", seed=5)
    >>> [p.name for p in config.players], config.players[1].bot
    (['You', 'Bot 1', 'Bot 2'], 'easy')
    """

    rules: Rules
    players: tuple[Player, ...]
    seed: int | None = None
    """The seed of the deal (and the bots); ``None`` picks one at random."""
    delay: float = DEFAULT_DELAY
    """Seconds between two bot actions (0 plays them at once)."""
    hint_bot: str = HINT_BOT
    """The bot that gives hints."""
    level: str = field(default=DEFAULT_LEVEL, compare=False)
    """The opponents' level, as chosen (kept for the setup screen)."""
    time_limit: float = field(default=BOT_TIME_LIMIT, compare=False)
    """Seconds a bot may think about one move before a fallback move is played for it."""

    def __post_init__(self) -> None:
        if len(self.players) != self.rules.players:
            raise ValueError(
                f"{len(self.players)} players named for a {self.rules.players}-player game"
            )
        seen: set[str] = set()
        for player in self.players:
            name = player.name
            if not name.strip():
                raise ValueError("a player's name cannot be empty")
            if len(name) > MAX_NAME:
                raise ValueError(f"the name {name!r} is too long (at most {MAX_NAME} characters)")
            if name.casefold() in seen:
                raise ValueError(f"two players are named {name!r}")
            seen.add(name.casefold())
        if self.time_limit <= 0:
            raise ValueError(f"a bot's time limit must be positive, not {self.time_limit}")
        if not 0 <= self.delay <= MAX_DELAY:
            raise ValueError(
                f"the bots' delay must be 0 to {MAX_DELAY:g} seconds, not {self.delay}"
            )

    @property
    def bots_level(self) -> str:
        """The level the bots play, as the setup screen offers it: the first bot's that is a
        level, else the level chosen, else the default level.

        >>> GameConfig.build(Rules(players=3), bot="hard").bots_level
        'hard'
        """
        bots = [p.bot for p in self.players if p.bot is not None]
        level = next((bot for bot in bots if bot in LEVELS), self.level)
        return level if level in LEVELS else DEFAULT_LEVEL

    @classmethod
    def build(
        cls,
        rules: Rules,
        *,
        humans: int = 1,
        names: Sequence[str] = (),
        bot: str = DEFAULT_LEVEL,
        seed: int | None = None,
        delay: float = DEFAULT_DELAY,
        hint_bot: str = HINT_BOT,
    ) -> GameConfig:
        """``humans`` people first (named from ``names``), then bots, all playing ``bot``;
        named by ``name_players``.

        >>> [p.name for p in GameConfig.build(Rules(players=3), humans=2).players]
        ['Player 1', 'Player 2', 'Bot 1']
        """
        if not 0 <= humans <= rules.players:
            raise ValueError(f"{humans} people cannot play a {rules.players}-player game")
        if len(names) > humans:
            people = "person" if humans == 1 else "people"
            raise ValueError(f"{len(names)} names given for {humans} {people}")
        bots = rules.players - humans
        seats = [*names, *[""] * (humans - len(names)), *[None] * bots]
        return cls(rules, name_players(seats, [bot] * bots), seed, delay, hint_bot, bot)

    @property
    def humans(self) -> int:
        """How many people play."""
        return sum(p.is_human for p in self.players)

    def controller(self, seat: int) -> Player:
        """The player who moves ``seat`` (in the ghost variant, a ghost's partner)."""
        return self.players[self.rules.controller(seat)]

    def seat_name(self, seat: int) -> str:
        """The name shown for ``seat``: the player's, or e.g. "Ana's ghost"."""
        player = self.controller(seat)
        if seat < self.rules.players:
            return player.name
        return f"{possessive(player.name)} ghost"

    def seat_names(self) -> tuple[str, ...]:
        """Every seat's name, in seat order."""
        return tuple(self.seat_name(s) for s in range(self.rules.seats))


def possessive(name: str) -> str:
    """``"Ana's"``; ``"Your"`` for "You".

    >>> possessive("Ana"), possessive("You")
    ("Ana's", 'Your')
    """
    return "Your" if name == YOU else f"{name}'s"


SETUP_FORMAT = "coloretto-setup/1"
"""The format of the last setup kept for the setup screen (see ``setup_to_json``)."""


def setup_to_json(config: GameConfig) -> dict[str, Any]:
    """What the setup screen offers of ``config``, JSON-ready: the rules, how many people
    and their names, the bots' level and pace (not the seed: the next game is a new deal).

    >>> setup_to_json(GameConfig.build(Rules(players=3), humans=2, names=["Ana"], bot="easy"))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'format': 'coloretto-setup/1', 'players': 3, 'scoring': 'brown', 'edition': 'classic',
     'variant': 'standard', 'games': 1, 'humans': 2, 'names': ['Ana', ''],
     'level': 'easy', 'delay': 0.6}
    """
    rules = config.rules
    return {
        "format": SETUP_FORMAT,
        "players": rules.players,
        "scoring": rules.scoring.value,
        "edition": rules.edition.value,
        "variant": rules.variant.value,
        "games": rules.games,
        "humans": config.humans,
        "names": typed_names(config),
        "level": config.bots_level,
        "delay": config.delay,
    }


def setup_from_json(data: object) -> GameConfig:
    """The setup kept by ``setup_to_json``, from an untrusted JSON value: whatever is
    missing or wrong is left at its default, never an error.

    >>> setup_from_json(setup_to_json(GameConfig.build(Rules(players=2), humans=2))).humans
    2
    >>> kept = {"format": SETUP_FORMAT, "players": "many", "humans": 9, "level": "easy"}
    >>> [(p.name, p.bot) for p in setup_from_json(kept).players][:2]
    [('You', None), ('Bot 1', 'easy')]
    >>> setup_from_json([1, 2]) == GameConfig.build(Rules())
    True
    """
    fields: Mapping[str, Any] = data if isinstance(data, Mapping) else {}
    if fields.get("format") != SETUP_FORMAT:
        fields = {}
    rules = _kept_rules(fields)
    level = fields.get("level")
    level = level if isinstance(level, str) and level in LEVELS else DEFAULT_LEVEL
    delay = fields.get("delay")
    if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= MAX_DELAY:
        delay = DEFAULT_DELAY  # NaN too
    humans = fields.get("humans")
    if isinstance(humans, bool) or not isinstance(humans, int) or not 0 <= humans <= rules.players:
        humans = 1
    listed = fields.get("names")
    names = []
    for entry in listed[:humans] if isinstance(listed, list) else []:
        name = printable(entry) if isinstance(entry, str) else ""
        names.append(name if len(name) <= MAX_NAME else "")  # too long: the default name
    for chosen in (names, []):  # names that do not fit together (twice one name): none
        try:
            return GameConfig.build(
                rules, humans=humans, names=chosen, bot=level, delay=float(delay)
            )
        except ValueError:
            continue
    return GameConfig.build(Rules())


def _kept_rules(fields: Mapping[str, Any]) -> Rules:
    """The rules of a kept setup; the defaults where they do not make a game."""
    try:
        return Rules(
            players=fields.get("players", 4),
            scoring=fields.get("scoring", "brown"),
            edition=fields.get("edition", "classic"),
            variant=fields.get("variant", "standard"),
            games=fields.get("games", 1),
        )
    except (TypeError, ValueError):
        pass
    try:  # the number of players alone, with the usual rules
        return Rules(players=fields.get("players", 4))
    except (TypeError, ValueError):
        return Rules()


def name_players(
    seats: Sequence[str | None], bots: Sequence[str], key: Callable[[str], str] = str.casefold
) -> tuple[Player, ...]:
    """The players of a table, named by the one rule of the command line, the setup screen
    and the online rooms. ``seats`` has, seat by seat, the name a person gave ("" for none)
    or ``None`` for a bot, which plays the next spec of ``bots``. A person keeps the name
    given (stripped), else has the default one (``default_name``: "You" or "Player N");
    the bots are "Bot 1", "Bot 2"... in seat order, a number whose name a person has
    (compared by ``key``: the rooms compare names as they read) skipped.

    >>> [p.name for p in name_players(["Ana", None, None], ["easy", "hard"])]
    ['Ana', 'Bot 1', 'Bot 2']
    >>> [(p.name, p.bot) for p in name_players(["", None, " bot 1 ", None], ["easy", "hard"])]
    [('Player 1', None), ('Bot 2', 'easy'), ('bot 1', None), ('Bot 3', 'hard')]
    """
    if len(bots) != seats.count(None):
        raise ValueError(f"{seats.count(None)} bot seats need as many bots, not {len(bots)}")
    people = [name.strip() for name in seats if name is not None]
    taken = {key(name) for name in people}
    numbers = (n for n in count(1) if key(bot_name(n)) not in taken)
    named = iter(name or default_name(i, len(people)) for i, name in enumerate(people))
    specs = iter(bots)
    return tuple(
        Player(next(named)) if name is not None else Player(bot_name(next(numbers)), next(specs))
        for name in seats
    )


def bot_name(number: int) -> str:
    """The name of the ``number``-th bot at a table (from 1): "Bot 1"."""
    return f"Bot {number}"


def default_name(person: int, people: int) -> str:
    """The name of the ``person``-th of ``people`` (from 0) when none is given.

    >>> default_name(0, 1), default_name(1, 2)
    ('You', 'Player 2')
    """
    return YOU if people == 1 else f"Player {person + 1}"


def typed_names(config: GameConfig) -> list[str]:
    """The people's names in seat order, "" for a default one ("You", "Player 2"); none
    at all when every name is a default one.

    >>> typed_names(GameConfig.build(Rules(), humans=3, names=["", "Ben"]))
    ['', 'Ben', '']
    >>> typed_names(GameConfig.build(Rules(), humans=2))
    []
    """
    people = [p.name for p in config.players if p.is_human]
    names = ["" if name == default_name(i, len(people)) else name for i, name in enumerate(people)]
    return names if any(names) else []
