"""The game clock as a client shows it: each player's time left, counting down for the
player to move, from what the server's ``game`` and ``move`` messages tell.

>>> from coloretto.online.wire.clock import MAX_TIMEOUTS, Clock
>>> from coloretto.online.wire.messages import Timing
>>> face = ClockFace()
>>> face.told(Timing(Clock("quick", 60.0, 5.0), (60.0, 42.0), (0, 0), ()), now=100.0)
>>> face.time_left(1, mover=1, now=110.0), face.time_left(0, mover=1, now=110.0)
(32.0, 60.0)
>>> face.moved(1, bank=37.0, timeout=False, left=False, now=110.0)
>>> face.time_left(0, mover=0, now=115.0), clock_text(face.time_left(1, None, 115.0))
(55.0, '0:37')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from coloretto.online.wire.clock import MAX_TIMEOUTS, Clock
from coloretto.online.wire.messages import Timing


@dataclass
class ClockFace:
    """The clock of the game on a client's table (``clock`` ``None``: it has none)."""

    clock: Clock | None = None
    banks: list[float] = field(default_factory=list)
    """Each player's time left, as of ``since`` for the player to move."""
    timeouts: list[int] = field(default_factory=list)
    left: set[int] = field(default_factory=set)
    since: float = 0.0
    """When (``time.monotonic``) the player to move had ``banks`` of their time."""

    def told(self, timing: Timing | None, now: float) -> None:
        """A ``game`` message's timing (``None``: no clock, nobody gone)."""
        if timing is None:
            self.clock, self.banks, self.timeouts, self.left = None, [], [], set()
        else:
            self.clock, self.banks = timing.clock, list(timing.banks)
            self.timeouts, self.left = list(timing.timeouts), set(timing.left)
        self.since = now

    def moved(
        self, player: int, *, bank: float | None, timeout: bool, left: bool, now: float
    ) -> None:
        """``player`` made a move (``move`` message): their time left after it, whether
        their time had run out, whether they have left the game."""
        if bank is not None and player < len(self.banks):
            self.banks[player] = bank
        if timeout and player < len(self.timeouts):
            self.timeouts[player] += 1
        if left:
            self.left.add(player)
        self.since = now

    def out_of_time(self) -> frozenset[int]:
        """The players who ran out of time ``MAX_TIMEOUTS`` times: a bot plays for them."""
        return frozenset(p for p, count in enumerate(self.timeouts) if count >= MAX_TIMEOUTS)

    def time_left(self, player: int, mover: int | None, now: float) -> float | None:
        """``player``'s time left now (``mover``: the player to move, whose time runs);
        ``None`` without a clock."""
        if self.clock is None or player >= len(self.banks):
            return None
        bank = self.banks[player]
        return max(0.0, bank - (now - self.since)) if player == mover else bank


def clock_text(seconds: float | None) -> str:
    """Seconds left as a clock shows them: "2:41", "0:07" (``""`` without a clock).

    >>> clock_text(161.2), clock_text(0.0), clock_text(None)
    ('2:42', '0:00', '')
    """
    if seconds is None:
        return ""
    whole = int(-(-seconds // 1))  # rounded up: "0:00" only once the time is out
    return f"{whole // 60}:{whole % 60:02d}"
