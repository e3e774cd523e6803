"""Finding bots by name: the ``coloretto.bots`` entry-point group, and difficulty levels.

The built-in bots are registered through the same group in the project's own
``pyproject.toml``, so a third-party package is a first-class citizen:

.. code-block:: toml

    [project.entry-points."coloretto.bots"]
    mybot = "mypackage.bot:MyBot"   # a factory: MyBot(seed=None, **options) -> Bot

A bot is named by a *spec*: its name, then options, e.g. ``search:seconds=0.2``
or ``search:iterations=400:sample=true``. A difficulty level
(``beginner``, ``easy``, ``normal``, ``hard``) may stand for a spec.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from coloretto.bots.base import Bot, BotFactory

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "coloretto.bots"

LEVELS: Mapping[str, str] = {
    "beginner": "random",
    "easy": "greedy",
    "normal": "search:iterations=4:seconds=0.05",
    "hard": "search:iterations=64:at_five=32:seconds=1.4:sample=true",
}
"""Difficulty levels offered to players, weakest first, and the bot spec each stands for.

Ordered by measured strength (docs/bots.md, "Strength"; docs/bot-strength.md, "The normal
level"), each beating the one below it heads-up: random < greedy < the search on 4 deals <
on 64 (32 at five seats, where a deal costs the most).
The default (``normal``, the search bot on 4 deals, capped at 50 ms a move) answers in tens
of milliseconds; ``hard`` in a few hundred milliseconds on average, capped at 1.4 s (its
longest moves, a round's first placements, need more than half a second for their deals).
"""

LEVEL_REVISIONS: Mapping[str, str] = {
    "normal": "2026-11-27 18:50",
    "hard": "2026-11-27 18:50",
}
"""Per level whose play has changed, the date of its latest change (UTC, with the time when
it changed more than once that day). The statistics count a level's games from before that
date apart from those since (docs/bot-strength.md, "When the levels' play changed", says
when to set it and lists the changes)."""

DEFAULT_LEVEL = "normal"

ORACLE = "oracle"
"""The bot for measurement only that sees the order of the deck (``coloretto.bots.oracle``):
no entry point, never a player's opponent; only the arena makes it."""


class BotError(ValueError):
    """An unknown bot, a bot that fails to load, or options it does not take."""


def _entry_points() -> Mapping[str, EntryPoint]:
    """The registered bots by name, found once for each ``sys.path`` (scanning the installed
    distributions takes milliseconds, and a bot is made for every player of every match)."""
    return _scan(tuple(sys.path))


@cache
def _scan(path: tuple[str, ...]) -> Mapping[str, EntryPoint]:
    # Imported here: tens of milliseconds a game's start spares (its bots are made later).
    from importlib.metadata import entry_points  # noqa: PLC0415

    return MappingProxyType({ep.name: ep for ep in entry_points(group=GROUP)})


def available() -> list[str]:
    """The names of the installed bots, without importing any of them."""
    return sorted(_entry_points())


@dataclass(frozen=True)
class BotSpec:
    """A bot's name and options, parsed from text such as ``search:seconds=0.2``.

    >>> BotSpec.parse("search:seconds=0.2:iterations=400")
    BotSpec(name='search', options={'seconds': 0.2, 'iterations': 400})
    >>> str(BotSpec.parse("hard"))
    'search:iterations=64:at_five=32:seconds=1.4:sample=true'
    """

    name: str
    options: dict[str, object] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Parse a spec; a difficulty level stands for its spec."""
        text = LEVELS.get(text.strip(), text.strip())
        name, *parts = text.split(":")
        if not name:
            raise BotError(f"{text!r}: a bot spec starts with the bot's name")
        options: dict[str, object] = {}
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key:
                raise BotError(f"{text!r}: options are written key=value, not {part!r}")
            options[key] = _value(value)
        return cls(name, options)

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={_text(v)}" for k, v in self.options.items())])


def _text(value: object) -> str:
    """An option's value as a spec gives it (``true``, ``false``, or the value)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _value(text: str) -> object:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def load_factory(name: str) -> BotFactory:
    """The factory registered as ``name``; ``BotError`` lists what is available."""
    points = _entry_points()
    if name in LEVELS and name not in points:
        raise BotError(
            f"the level {name!r} takes no options (it stands for {LEVELS[name]}; give that "
            "spec with other options instead)"
        )
    if name == ORACLE and name not in points:
        raise BotError(
            "the oracle sees the order of the deck: it is for measurement with "
            f"coloretto arena only, never a player's opponent; {choices(points)}"
        )
    if name not in points:
        raise BotError(f"unknown bot {name!r}; {choices(points)}")
    try:
        factory: BotFactory = points[name].load()
    except Exception as error:  # a plug-in may fail in any way while importing
        raise BotError(
            f"bot {name!r} failed to load ({type(error).__name__}: {error}); {choices(points)}"
        ) from error
    return factory


def choices(bots: Iterable[str]) -> str:
    """What may be named instead: the levels first (what players are told to use), then
    the bots.

    >>> choices(["random", "greedy"])
    'choose a level (beginner, easy, normal, hard) or a bot (greedy, random)'
    """
    names = ", ".join(sorted(bots)) or "none installed"
    return f"choose a level ({', '.join(LEVELS)}) or a bot ({names})"


def make_bot(spec: str | BotSpec, seed: int | None = None) -> Bot:
    """Build the bot a spec names, seeded for reproducible play."""
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    factory = load_factory(parsed.name)
    try:
        bot = factory(seed=seed, **parsed.options)
    except (TypeError, ValueError) as error:
        raise BotError(f"bot {str(parsed)!r}: {error}") from error
    if not isinstance(bot, Bot):
        raise BotError(f"bot {parsed.name!r} made no bot (it has no choose method)")
    return bot


def describe(name: str) -> str:
    """The first line of the bot's documentation (imports the bot)."""
    factory = load_factory(name)
    doc = (factory.__doc__ or "").strip()
    return " ".join(doc.split("\n\n")[0].split()) if doc else "(no description)"
