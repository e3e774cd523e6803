"""The game clock of an online table: a speed profile, and each player's time.

A profile gives every person a time ``bank`` for the game and adds ``increment`` seconds
after each of their moves (a Fischer clock, never past the bank it started with); a
``per_move`` profile gives ``increment``
seconds for every move instead, nothing carried over. A move is one action (a draw, a
placing, a take). When a person's time runs out, their move is played for them; after
``MAX_TIMEOUTS`` of them they count as having left the game.

>>> clock = parse_clock("quick=60+5")
>>> clock.name, clock.bank, clock.increment, clock.words
('quick', 60.0, 5.0, '1 min + 5 s a move')
>>> clock.after_move(60.0, spent=12.5), clock.after_move(60.0, spent=75.0)
(52.5, 10.0)
>>> clock.short
'1m+5s'
>>> clock.after_move(58.0, spent=1.0)
60.0
>>> turn = parse_clock("turn=30/move")
>>> turn.start, turn.after_move(30.0, spent=29.0), turn.words, turn.short
(30.0, 30.0, '30 s a move', '30s/move')
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from coloretto.online.wire.protocol import CLOCK_NAME

MAX_TIMEOUTS = 3
"""Timeouts in one game after which a person counts as having left it (a bot plays the
rest of their moves at once, and a rated game ranks them last)."""

AFTER_TIMEOUT = 10.0
"""The least time a person has for the move after one their time ran out on."""

MAX_BANK = 3600.0
"""The longest time bank a profile may give, in seconds."""

MIN_MOVE = 1.0
"""The shortest time a profile may give for one move (its increment, or the bank)."""

MAX_INCREMENT = 300.0
"""The most seconds a profile may add after a move."""

_SPEC = re.compile(r"(?P<name>[^=]+)=(?P<bank>[0-9.]+)(?:\+(?P<inc>[0-9.]+)|(?P<move>/move))")


class ClockError(ValueError):
    """A clock or a profile that is not right, in words."""


@dataclass(frozen=True)
class Clock:
    """A speed profile: its ``name``, each person's ``bank`` at the start of a game and
    the ``increment`` added after each move; ``per_move``: every move gets ``bank``
    seconds instead (``increment`` then equals it)."""

    name: str
    bank: float
    increment: float
    per_move: bool = False

    def __post_init__(self) -> None:
        if not CLOCK_NAME.fullmatch(self.name):
            raise ClockError(
                f"a clock's name is 1 to 16 small letters, digits or '-', not {self.name[:20]!r}"
            )
        for value in (self.bank, self.increment):
            if not math.isfinite(value):
                raise ClockError("a clock's times must be numbers of seconds")
        if not MIN_MOVE <= self.bank <= MAX_BANK:
            raise ClockError(f"a clock's time bank is {MIN_MOVE:g} to {MAX_BANK:g} seconds")
        if not 0 <= self.increment <= MAX_INCREMENT:
            raise ClockError(f"a clock adds 0 to {MAX_INCREMENT:g} seconds a move")
        if self.per_move and self.increment != self.bank:
            raise ClockError("a clock of a fixed time a move adds that time after each move")

    @property
    def start(self) -> float:
        """Each person's time at the start of a game."""
        return self.bank

    def after_move(self, bank: float, spent: float) -> float:
        """A person's time after a move that took ``spent`` seconds of their ``bank`` (a
        move past the time, played for them, leaves ``after_timeout``); never more than
        the profile's bank."""
        if self.per_move:
            return self.bank
        if spent >= bank:  # a timeout: enough time to come back to the table
            return self.after_timeout
        return min(self.bank, bank - spent + self.increment)

    @property
    def after_timeout(self) -> float:
        """A person's time after a move their time ran out on: the increment, but at least
        ``AFTER_TIMEOUT`` seconds (never more than the bank)."""
        return min(self.bank, max(self.increment, AFTER_TIMEOUT))

    @property
    def words(self) -> str:
        """The profile in words: "3 min + 10 s a move", "30 s a move"."""
        if self.per_move:
            return f"{_duration(self.bank)} a move"
        return f"{_duration(self.bank)} + {self.increment:g} s a move"

    @property
    def short(self) -> str:
        """The profile in a few characters, for a column: "3m+10s", "30s/move"."""
        if self.per_move:
            return f"{_short(self.bank)}/move"
        return f"{_short(self.bank)}+{self.increment:g}s"

    def to_json(self) -> dict[str, Any]:
        """The clock's wire form (``from_json`` reads it back)."""
        return {
            "name": self.name,
            "bank": self.bank,
            "increment": self.increment,
            "per_move": self.per_move,
        }

    @classmethod
    def from_json(cls, data: object) -> Clock:
        """The clock in ``data`` (``to_json``'s form); ``ClockError`` unless it is right."""
        if not isinstance(data, Mapping) or set(data) != {"name", "bank", "increment", "per_move"}:
            raise ClockError("a clock is an object of name, bank, increment and per_move")
        name, per_move = data["name"], data["per_move"]
        bank, increment = data["bank"], data["increment"]
        if not isinstance(name, str) or not isinstance(per_move, bool):
            raise ClockError("a clock's name is text and its per_move true or false")
        if not all(_seconds(value) for value in (bank, increment)):
            raise ClockError("a clock's bank and increment are numbers of seconds")
        return cls(name, float(bank), float(increment), per_move)


def _seconds(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float)


def _short(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g}m"
    return f"{seconds:g}s"


def _duration(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


PROFILES: tuple[Clock, ...] = (
    Clock("quick", 60.0, 5.0),
    Clock("standard", 180.0, 10.0),
    Clock("relaxed", 600.0, 20.0),
    Clock("turn", 30.0, 30.0, per_move=True),
)
"""The speed profiles a server offers unless its operator names others."""

DEFAULT_PROFILE = "standard"
"""The profile of a public or rated table whose host named none."""


def parse_clock(text: str) -> Clock:
    """A profile as an operator writes it: ``NAME=BANK+INCREMENT`` (seconds: a bank and
    the time added after each move) or ``NAME=SECONDS/move`` (a fixed time a move);
    ``ClockError`` saying what is wrong.

    >>> parse_clock("blitz=120+2")
    Clock(name='blitz', bank=120.0, increment=2.0, per_move=False)
    >>> parse_clock("blitz")
    Traceback (most recent call last):
    ...
    coloretto.online.wire.clock.ClockError: a clock is NAME=BANK+INCREMENT or NAME=SECONDS/move \
(seconds), not 'blitz'
    """
    found = _SPEC.fullmatch(text.strip())
    if found is None:
        raise ClockError(
            f"a clock is NAME=BANK+INCREMENT or NAME=SECONDS/move (seconds), not {text[:40]!r}"
        )
    try:
        bank = float(found["bank"])
        increment = bank if found["move"] else float(found["inc"])
    except ValueError:
        raise ClockError(f"a clock's times are numbers of seconds, not {text[:40]!r}") from None
    return Clock(found["name"], bank, increment, per_move=bool(found["move"]))


def profile(profiles: tuple[Clock, ...], name: str) -> Clock:
    """The profile called ``name``; ``ClockError`` naming the ones there are."""
    for clock in profiles:
        if clock.name == name:
            return clock
    known = ", ".join(clock.name for clock in profiles)
    raise ClockError(f"this server has no clock {name[:20]!r}: it has {known}")


@dataclass
class Standing:
    """How each player stands in the game on the table, beside its moves: their time left
    (``banks``, empty without a clock), the moves their time ran out on (``timeouts``)
    and whether they have left the game (``left``: gone past the wait for someone away,
    or out of time ``MAX_TIMEOUTS`` times)."""

    banks: list[float]
    timeouts: list[int]
    left: set[int]

    @classmethod
    def new(cls, clock: Clock | None, players: int) -> Standing:
        """A game's start: everyone's whole bank, no timeout, nobody gone."""
        banks = [] if clock is None else [clock.start] * players
        return cls(banks, [0] * players, set())

    def copy(self) -> Standing:
        """A copy to go back to (a move the database refused)."""
        return Standing(list(self.banks), list(self.timeouts), set(self.left))

    def out_of_time(self, player: int) -> bool:
        """True once ``player`` has run out of time ``MAX_TIMEOUTS`` times this game."""
        return self.timeouts[player] >= MAX_TIMEOUTS

    def to_json(self) -> dict[str, Any]:
        """The standing as a room's save keeps it."""
        return {"banks": list(self.banks), "timeouts": list(self.timeouts),
                "left": sorted(self.left)}  # fmt: skip

    @classmethod
    def from_json(cls, data: object, clock: Clock | None, players: int) -> Standing:
        """The standing a room's save keeps; ``ClockError`` unless it is right."""
        if data is None:
            return cls.new(clock, players)
        if not isinstance(data, Mapping) or set(data) != {"banks", "timeouts", "left"}:
            raise ClockError("standing: expected banks, timeouts and left")
        banks, timeouts, left = data["banks"], data["timeouts"], data["left"]
        want = 0 if clock is None else players
        top = 0.0 if clock is None else clock.bank
        if (
            not isinstance(banks, list)
            or len(banks) != want
            or not all(_seconds(b) and 0 <= b <= top for b in banks)
        ):
            raise ClockError("standing.banks: expected each player's seconds left")
        if (
            not isinstance(timeouts, list)
            or len(timeouts) != players
            or not all(type(t) is int and 0 <= t <= MAX_TIMEOUTS for t in timeouts)
        ):
            raise ClockError(f"standing.timeouts: expected 0 to {MAX_TIMEOUTS} a player")
        if not isinstance(left, list) or not all(type(p) is int and 0 <= p < players for p in left):
            raise ClockError("standing.left: expected players' numbers")
        return cls([float(b) for b in banks], list(timeouts), set(left))
