"""What a game is started with: the rules, who sits at the table, the seed and the bots' pace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from coloretto.bots.registry import DEFAULT_LEVEL, STRONGEST
from coloretto.engine import Rules

HINT_BOT = STRONGEST
"""The bot asked for hints: the strongest bot as measured."""

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
        """``humans`` people first (named from ``names``, else "You" or "Player N"), then bots.

        >>> [p.name for p in GameConfig.build(Rules(players=3), humans=2).players]
        ['Player 1', 'Player 2', 'Bot 1']
        """
        if not 0 <= humans <= rules.players:
            raise ValueError(f"{humans} people cannot play a {rules.players}-player game")
        if len(names) > humans:
            people = "person" if humans == 1 else "people"
            raise ValueError(f"{len(names)} names given for {humans} {people}")
        players = []
        for i in range(humans):
            if i < len(names) and names[i].strip():
                name = names[i].strip()
            else:
                name = YOU if humans == 1 else f"Player {i + 1}"
            players.append(Player(name))
        players += [Player(f"Bot {i + 1}", bot) for i in range(rules.players - humans)]
        return cls(rules, tuple(players), seed, delay, hint_bot, bot)

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
